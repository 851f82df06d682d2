"""The GPU found only under a root or sudo condition, in the field's wordings (issue 23, h30b).

The forms come from public reports (the comment of gpu_works_as_root_told in
rules/data/signatures.yaml names them): the condition after "only if/when" names the command,
"unless I run sudo ...", True said of root or sudo, the GPU used "with sudo". None is one
report's whole text.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

ROOT_ONLY = {"works_only_as_root", "gpu_only_for_root", "gpu_needs_root_or_sudo", "gpu_works_as_root_told"}


@pytest.mark.parametrize(
    "line",
    [
        "torch.cuda.is_available() returns True only if I run python with sudo",
        "The GPU only shows up when I run python3 main.py with sudo.",
        "rocminfo only shows the CPU agent unless I run sudo rocminfo",
        "rocminfo only lists the CPU unless I run it as root",
        "rocm-smi works but rocminfo gives an error unless run as root.",
        "I cannot use the GPU unless I use sudo.",
        "is_available() is False for my user but True for root.",
        "torch.cuda.is_available() gives False, but with sudo it gives True",
        "Running `sudo python -c 'import torch; print(torch.cuda.is_available())'` prints True.",
        "When I use sudo, torch detects my GPU.",
        "If I launch ComfyUI with sudo it uses my 6800 XT",
        "ollama uses the GPU when I start it with sudo ollama serve",
        "It won't find the GPU unless I run it as root",
        "Unless I use sudo, ollama falls back to the CPU.",
        "Without sudo, rocminfo lists only the CPU agent.",
        "Without root the GPU isn't detected.",
        "rocminfo fails without sudo",
        "torch.cuda.is_available() returns False without sudo",
        "When run as root, torch.cuda.is_available() returns True.",
    ],
)
def test_a_gpu_found_only_under_sudo_or_root_reads_in_these_wordings(line: str) -> None:
    assert "gpu_works_as_root_told" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "do I need sudo to run rocminfo?",
        "even with sudo it fails, torch.cuda.is_available() returns False",
        "unless I run it as root it fails, and as root it fails too",
        "I added myself to render and it works now",
        "Should it only work with sudo?",
        "It used to only work with sudo before I added the udev rule.",
        "On my friend's PC it only works with sudo.",
        "My colleague says rocminfo only works with sudo on his machine",
        "unless you run sudo apt install rocm it won't be there",
        "Does it work with sudo? No, same error with sudo.",
        "It fails with and without sudo.",
        "unless you run as root, you need to be in the render group",
        "You can't access /dev/kfd unless you are root or in the render group.",
        "It works without sudo now.",
        "Does it fail without sudo?",
        "pip install fails without sudo",
        "It fails without sudo and with sudo.",
        "Even as root it returns False.",
        "apt install without sudo gives an error",
    ],
)
def test_a_question_a_past_state_another_machine_or_failing_as_root_is_no_root_only_statement(line: str) -> None:
    assert ROOT_ONLY.isdisjoint(signature_errors(line))


def test_a_gpu_found_only_with_sudo_is_first_a_permissions_finding() -> None:
    shown = problems_shown("RX 6800 XT on Ubuntu 22.04.\ntorch.cuda.is_available() returns True only if I run python with sudo\n")
    assert shown[:1] == ["RD517"]


@pytest.mark.parametrize(
    "line",
    [
        # root said to fail as well, after the failure without it (r30a)
        "Without sudo it fails, with sudo it also fails.",
        "Without sudo rocminfo fails; same error with sudo.",
        "Without sudo it fails, as root it returns False too.",
    ],
)
def test_a_failure_without_sudo_beside_root_failing_too_is_no_root_only_statement(line: str) -> None:
    assert ROOT_ONLY.isdisjoint(signature_errors(line))


def test_running_the_same_command_as_root_is_not_a_failure_as_root() -> None:
    # "the same thing" after run/ran/try is the command run again, not the same result
    from rocm_doctor.ingest import ingest_text

    text = "torch.cuda.is_available() returns False on my RX 6800. When I run the same thing as root it returns True."
    context = ingest_text(text).facts.symptoms.context
    assert "gpu_fails_as_root_too_told" not in (context.value or [])
    still = ingest_text("torch.cuda.is_available() returns False. Same error with sudo.").facts.symptoms.context
    assert "gpu_fails_as_root_too_told" in (still.value or [])


def test_works_as_root_and_as_the_user_is_no_root_only_statement() -> None:
    from rocm_doctor.ingest import ingest_text

    for text in (
        "rocminfo works on my RX 6800 as root and as my user; torch too.",
        "Everything works for my user as well as with sudo on the RX 7900 XTX.",
    ):
        signatures = ingest_text(text).facts.symptoms.signatures.value or []
        assert "works_only_as_root" not in signatures, text
    assert "works_only_as_root" in (ingest_text("rocminfo fails on my RX 6800, it only works as root.").facts.symptoms.signatures.value or [])


@pytest.mark.parametrize(
    "text",
    [
        "torch.cuda.is_available() returns False on my RX 6800. Running the same thing as root returns True.",
        "torch.cuda.is_available() returns False on my RX 6800. Doing the same thing as root works.",
    ],
)
def test_running_or_doing_the_same_thing_as_root_is_not_a_failure_as_root(text: str) -> None:
    # rev48f: the other forms of the verb before "the same thing"
    from rocm_doctor.ingest import ingest_text

    assert "gpu_fails_as_root_too_told" not in (ingest_text(text).facts.symptoms.context.value or [])


@pytest.mark.parametrize(
    "text",
    [
        "rocminfo works as root or with sudo, but my user gets HSA_STATUS_ERROR_OUT_OF_RESOURCES on the RX 6800.",
        "rocminfo fails on my RX 6800 as my user; it works with sudo and with the HSA override set.",
    ],
)
def test_root_and_sudo_named_together_or_another_condition_after_and_is_still_root_only(text: str) -> None:
    # rev48f: only a user named after "and"/"or" ("as my user", "without sudo") says it works for the user too
    from rocm_doctor.ingest import ingest_text

    assert "works_only_as_root" in (ingest_text(text).facts.symptoms.signatures.value or [])


# drv49: three more forms of the same statement, from ROCm/legacy-rocm-build#1864 ("clinfo currently only finds my
# AMD GPU (RX 6400) if I use sudo": a GPU name with parentheses inside the condition), #1303 ("for a regular user
# but will work as expected for root": "for root" after the success) and hashcat/hashcat#2050 ("Without root, only
# POCL is detected": what is found without root, said in the passive).
@pytest.mark.parametrize(
    "line",
    [
        "clinfo currently only finds my AMD GPU (RX 6400) if I use sudo.",
        "clinfo returns an error for a regular user but will work as expected for root.",
        "Without root, only POCL is detected by hashcat.",
    ],
)
def test_a_gpu_name_in_parentheses_works_for_root_and_only_x_detected_without_root_read(line: str) -> None:
    assert not ROOT_ONLY.isdisjoint(signature_errors(line))
    assert "RD517" in problems_shown(line)


@pytest.mark.parametrize(
    "line",
    [
        "rocminfo works for root and for my user on the RX 6800.",
        "Without root, is only the CPU detected?",
        "Does clinfo only find the GPU (RX 6400) if I use sudo?",
    ],
)
def test_works_for_root_and_the_user_or_a_question_is_still_no_root_only_statement(line: str) -> None:
    assert "RD517" not in problems_shown(line)


# rev49a: "for root" (drv49) read "rocminfo works for root and my user" as root-only; without a second preposition
# before "my user" it is still both users.
def test_works_for_root_and_my_user_without_a_second_preposition_is_no_root_only_statement() -> None:
    line = "rocminfo works for root and my user. torch.cuda.is_available() returns False on my RX 6800."
    assert ROOT_ONLY.isdisjoint(signature_errors(line))
    assert "RD517" not in problems_shown(line)
