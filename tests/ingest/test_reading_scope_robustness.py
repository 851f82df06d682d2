"""Whose words and which time a reader takes a fact from (issue 23, items 2 and 6): a quoted reply the reporter does not
adopt, an advice's conditional case ("If you get X, set Y"), a resolver's explanation of a refused install, and a torch
release named on another machine or under an inline past label are not this machine's state now. Each construct's
real reports are named where its words live (rocm_doctor/ingest/blocks.py, formats/mentions.py)."""

from __future__ import annotations

from typing import List

import pytest
from ingest_helpers import ingest, problems_shown, report_contexts


def _errors(text: str) -> List[str]:
    found = ingest(text).facts.symptoms.signatures
    return list(found.value or []) if found.is_known else []


def _torch(text: str):
    version = ingest(text).facts.torch.version
    return version.value if version.is_known else None


def _earlier(text: str) -> List[str]:
    found = ingest(text).facts.symptoms.earlier
    return list(found.value or []) if found.is_known else []


# ---------------------------------------------------------------- a conditional advice's case


@pytest.mark.parametrize(
    "text",
    [
        'My RX 6700 XT works with torch 2.5.1+rocm6.2.\n\nIf you get "HIP error: invalid device function", set HSA_OVERRIDE_GFX_VERSION=10.3.0.\n',
        "Everything runs fine. In case you see hipErrorNoBinaryForGpu you need to rebuild for your target.\n",
        "Should you get `RuntimeError: HIP error: invalid device function`, export HSA_OVERRIDE_GFX_VERSION=10.3.0.\n",
        "If you're getting `No HIP GPUs are available`, add your user to the render group.\n",
        # the case written on the line before the message (documentation's "If you get an error like:")
        "RX 6700 XT, ROCm 6.2, all good. If you get an error like:\n```\nRuntimeError: HIP error: invalid device function\n```\nset HSA_OVERRIDE_GFX_VERSION=10.3.0.\n",
        "If you get an error like:\n\nRuntimeError: HIP error: invalid device function\n\nthen set HSA_OVERRIDE_GFX_VERSION.\n",
    ],
)
def test_a_message_named_as_the_case_an_advice_is_for_is_no_error_here(text: str) -> None:
    assert not _errors(text)
    assert "cuda_unavailable_reported" not in report_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "If I run it with --lowvram I get RuntimeError: HIP error: invalid device function\n",
        'When I start it, I get "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"\n',
        "If anyone has a fix for `RuntimeError: HIP error: invalid device function`, please help.\n",
        "If it helps, the error is:\n```\nRuntimeError: HIP error: invalid device function\n```\n",
        # a main clause after the condition owns the block: a bug template's heading, the reporter's own log
        "### Describe the bug\nCrash at start.\n\n**If you get an error, paste it here:**\n```\nRuntimeError: HIP error: invalid device function\n```\n",
        "If you run into the same problem, here is my log:\n```\nRuntimeError: HIP error: invalid device function\n```\n",
        # a condition in the first person points at the reporter's own output
        "If you get the same error as me:\n```\nRuntimeError: HIP error: invalid device function\n```\nplease tell me what you did.\n",
        # "in case of" names the reporter's own setup as often as an advice's case
        "In case of ROCm 6.2 I get the following:\n```\nRuntimeError: HIP error: invalid device function\n```\n",
    ],
)
def test_the_reporters_own_condition_or_request_keeps_the_message(text: str) -> None:
    assert _errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "If you see the rocminfo output above, torch.cuda.is_available() returns False on my RX 7900 XTX.\n",
        "If you see my log, torch.cuda.is_available() returns False on my RX 7900 XTX.\n",
    ],
)
def test_if_you_see_the_output_points_at_the_report_and_keeps_its_statement(text: str) -> None:
    assert "cuda_unavailable_reported" in report_contexts(text)


def test_in_case_of_my_gpu_keeps_the_reporters_statement() -> None:
    assert "cuda_unavailable_reported" in report_contexts("In case of my RX 7900 XTX, torch.cuda.is_available() returns False.\n")


def test_if_you_have_any_idea_keeps_the_reporters_statement() -> None:
    text = "If you have any idea why torch.cuda.is_available() returns False on my RX 7900 XTX, please tell me.\n"
    assert "cuda_unavailable_reported" in report_contexts(text)


# ---------------------------------------------------------------- a quoted reply


def test_a_quoted_advice_in_a_reply_states_nothing_of_this_machine() -> None:
    text = (
        "I have an RX 7900 XTX on Ubuntu 22.04, ROCm 6.2.\n\n"
        "> Try setting HIP_VISIBLE_DEVICES=0, torch doesn't see the GPU when the iGPU is first.\n\n"
        "I did, and now training works fine.\n"
    )
    contexts = report_contexts(text)
    assert "gpu_not_seen_said" not in contexts and "gpu_unused_told" not in contexts


@pytest.mark.parametrize(
    "intro",
    ["I get the same:", "Same here.", "Here is my output:", "Error:", "Same problem for me"],
)
def test_a_quote_the_reporter_adopts_keeps_its_statements_and_errors(intro: str) -> None:
    assert "cuda_unavailable_reported" in report_contexts(f"{intro}\n\n> torch.cuda.is_available() returns False\n")
    assert _errors(f"{intro}\n\n> RuntimeError: HIP error: invalid device function\n")


@pytest.mark.parametrize("intro", ["As I wrote above:", "As I said in my first post:", "From my original post:", "\nFrom my original post:"])
def test_the_reporters_own_earlier_words_quoted_back_keep_their_statements(intro: str) -> None:
    text = f"Any update on this? {intro}\n\n> torch.cuda.is_available() returns False on my RX 7900 XTX\n\nStill the case.\n"
    assert "cuda_unavailable_reported" in report_contexts(text)


@pytest.mark.parametrize("intro", ["Result:", "I ran it again:", "Update:", "Here you go:"])
def test_a_quote_under_the_reporters_own_colon_is_their_output(intro: str) -> None:
    # '> ' is also how a report sets off its own output: a colon of the reporter's own introduces it
    text = f"I have an RX 7900 XTX, ROCm 6.2.\n\n{intro}\n\n> torch.cuda.is_available() returns False\n"
    assert "cuda_unavailable_reported" in report_contexts(text)


@pytest.mark.parametrize("intro", ["You said:", "The README says:", "From the wiki:", "According to @bob:", "@bob suggested this:"])
def test_a_quote_handed_to_someone_else_states_nothing_of_this_machine(intro: str) -> None:
    text = f"I have an RX 7900 XTX, ROCm 6.2.\n\n{intro}\n\n> torch.cuda.is_available() returns False\n"
    assert "cuda_unavailable_reported" not in report_contexts(text)


@pytest.mark.parametrize("intro", ["Someone in the other thread wrote:", "The README says:", "@bob suggested this:"])
def test_a_command_or_setting_in_a_quote_handed_to_someone_else_is_not_this_machines(intro: str) -> None:
    """A '> ' command line under such a line was taken for the reporter's prompt (_PROMPTED_COMMAND is asked first):
    'Someone in the other thread wrote: > pip install torch ... cu121' gave RD100/RD528 errors, 'The README says: >
    export HSA_OVERRIDE_GFX_VERSION=11.0.0' RD214's error. Another's words, a command among them, give no facts."""
    amd = "RX 6700 XT, Ubuntu 22.04, ROCm 6.1\ntorch.cuda.is_available() returns False\n\n"
    install = f"{amd}{intro}\n> pip install torch torchvision --index-url https://download.pytorch.org/whl/cu121\n\nIs that right for AMD?\n"
    assert ingest(install).facts.torch.flavour.value != "cuda"
    assert not {"RD100", "RD528", "RD767"} & set(problems_shown(install))
    setting = f"{amd}{intro}\n> export HSA_OVERRIDE_GFX_VERSION=11.0.0\n\nWhere do I put this?\n"
    assert "HSA_OVERRIDE_GFX_VERSION" not in (ingest(setting).facts.env.vars.value or {})


def test_a_message_quoted_after_a_document_is_named_on_the_same_line_is_still_read() -> None:
    # the line names a document and then introduces the reporter's own output (rocm-1431's shape): its message counts
    text = (
        "Radeon VII, ROCm 4.1. As the release notes mention, Vega 20 is disabled on the upstream driver, and rocminfo reports:\n\n"
        "> HSA Error:  Incompatible kernel and userspace, Vega 20 [Radeon VII] disabled. Upgrade amdgpu.\n"
    )
    assert "kernel_userspace_incompatible" in _errors(text)


@pytest.mark.parametrize("intro", ["", "@bob asked me to run this:\n", "You told me to try it, so I ran:\n"])
def test_a_command_at_a_prompt_in_a_quote_of_the_reporters_own_is_still_read(intro: str) -> None:
    text = f"RX 6700 XT, Ubuntu 22.04, ROCm 6.1\n\n{intro}> pip install torch torchvision --index-url https://download.pytorch.org/whl/cu121\n"
    assert ingest(text).facts.torch.flavour.value == "cuda"


def test_a_replys_quote_under_an_empty_template_heading_stays_anothers() -> None:
    text = "I have an RX 7900 XTX, ROCm 6.2.\n\nAdditional context:\n\n> torch doesn't see the GPU when another GPU comes first in the list.\n"
    assert "gpu_not_seen_said" not in report_contexts(text)


def test_a_quote_that_gives_advice_stays_anothers_under_the_reporters_colon() -> None:
    text = (
        "I have an RX 7900 XTX, ROCm 6.2. I tried again:\n\n> If you get `hipErrorNoBinaryForGpu`, check the support list.\n"
        "> torch doesn't see the GPU when another GPU comes first in the list.\n"
    )
    assert "gpu_not_seen_said" not in report_contexts(text)


def test_a_quoted_message_stays_an_error_without_an_adopting_line() -> None:
    # a quote marker is a common way to set off pasted output: the message is read, only statements are not
    assert _errors("Running the model:\n\n> RuntimeError: HIP error: invalid device function\n")


def test_a_report_quoted_whole_is_not_a_quote() -> None:
    assert "cuda_unavailable_reported" in report_contexts("> My RX 7900 XTX: torch.cuda.is_available() returns False\n")


# ---------------------------------------------------------------- a resolver's explanation


@pytest.mark.parametrize(
    "text",
    [
        # uv
        "  × No solution found when resolving dependencies for split (sys_platform == 'linux'):\n"
        "  ╰─▶ Because only torch{sys_platform == 'linux'}<=2.5.1+rocm6.2 is available and your project depends on"
        " torch{sys_platform == 'linux'}>=2.6.0, we can conclude that your project's requirements are unsatisfiable.\n",
        "  × No solution found when resolving dependencies:\n"
        "  ╰─▶ Because only the following versions of torch are available:\n"
        "          torch==2.13.0.dev20260515+rocm7.2\n          torch==2.13.0.dev20260516+rocm7.2\n"
        "      and you require torch>=2.14, we can conclude that your requirements are unsatisfiable.\n",
        # poetry
        "  SolverProblemError\n\n  Because torchvision (0.8.2+rocm3.8) depends on torch (1.7.1)\n"
        "   and myenv depends on torch (1.7.1+rocm3.8), torchvision is forbidden.\n"
        "  So, because myenv depends on torchvision (0.8.2+rocm3.8), version solving failed.\n",
        # pip
        "The conflict is caused by:\n    The user requested torch==2.2.1+rocm5.7\n    torchvision 0.16.1+rocm5.6 depends on torch==2.1.1+rocm5.6\n",
    ],
)
def test_a_resolvers_candidates_and_pins_are_no_installed_torch(text: str) -> None:
    facts = ingest(text).facts
    assert not facts.torch.version.is_known
    assert not facts.torch.torchvision_version.is_known


def test_a_torch_listed_after_a_resolver_message_is_read() -> None:
    text = (
        "ERROR: Cannot install torch==2.6.0 and torchvision==0.20.1 because these package versions have conflicting dependencies.\n\n"
        "$ pip list | grep torch\ntorch                     2.5.1+rocm6.2\n"
    )
    assert _torch(text) == "2.5.1+rocm6.2"


def test_pips_conflict_explanation_hides_a_requested_companion_but_not_a_listing_under_it() -> None:
    text = (
        "The conflict is caused by:\n    The user requested torchvision==0.20.1+rocm6.2\n"
        "    xformers 0.0.29 depends on torch==2.6.0\n$ pip list | grep torch\ntorch                     2.5.1+rocm6.2\n"
    )
    facts = ingest(text).facts
    assert not facts.torch.torchvision_version.is_known
    assert facts.torch.version.value == "2.5.1+rocm6.2"


@pytest.mark.parametrize(
    "text",
    [
        # "depends on torch" in the reporter's prose, a bare "cannot be used" later: no resolver speaks
        "Because ComfyUI depends on torch, I installed torch 2.5.1+rocm6.2 from the ROCm index.\n"
        "Then I start it and the GPU cannot be used: torch.cuda.is_available() returns False\n",
        "  × No solution found when resolving dependencies:\n  ╰─▶ Because there is no version of foo==1.0 and you require"
        " foo==1.0, we can conclude that your requirements are unsatisfiable.\n\nSo I installed torch 2.5.1+rocm6.2 by hand.\n",
    ],
)
def test_a_torch_outside_the_resolvers_paragraph_is_read(text: str) -> None:
    assert _torch(text) == "2.5.1+rocm6.2"


# ---------------------------------------------------------------- the past and another machine


def test_a_version_dot_does_not_end_a_past_sentence() -> None:
    text = "Before the update I had torch 2.4.1+rocm6.1 and ROCm 6.1.3.\n"
    facts = ingest(text).facts
    assert not facts.rocm.version.is_known
    assert "rocm.version=6.1.3" in _earlier(text)


def test_an_inline_last_working_label_puts_its_line_in_the_past() -> None:
    text = "Last working: torch 2.4.1+rocm6.1, ROCm 6.1.3\nNow: torch 2.5.1+rocm6.2, ROCm 6.2.4\n"
    facts = ingest(text).facts
    assert facts.torch.version.value == "2.5.1+rocm6.2" and facts.rocm.version.value == "6.2.4"
    assert {"torch.version=2.4.1+rocm6.1", "rocm.version=6.1.3"} <= set(_earlier(text))


@pytest.mark.parametrize("text", ["Before: torch 2.4.1+rocm6.1, after: torch 2.5.1+rocm6.2\n", "Previously: torch 2.4.1+rocm6.1 / now torch 2.5.1+rocm6.2\n"])
def test_an_inline_past_label_ends_where_its_line_turns_to_the_present(text: str) -> None:
    assert _torch(text) == "2.5.1+rocm6.2"
    assert "torch.version=2.4.1+rocm6.1" in _earlier(text)


def test_a_torch_on_another_machine_is_not_this_machines() -> None:
    assert _torch("On my other machine (RX 6800, Ubuntu 22.04) torch 2.4.1+rocm6.1 works fine.\n") is None


def test_a_clause_back_on_this_machine_after_another_machines_keeps_the_torch() -> None:
    text = "On my other machine (RX 6800, Ubuntu 22.04, ROCm 6.1.3) it works, on this one torch 2.5.1+rocm6.2 segfaults.\n"
    assert _torch(text) == "2.5.1+rocm6.2"


def test_another_persons_gpu_before_the_reporters_own_clause_keeps_the_torch() -> None:
    text = "My friend's RTX 3090 works fine, my RX 7900 XTX with torch 2.3.0+cu121 says torch.cuda.is_available() returns False\n"
    assert _torch(text) == "2.3.0+cu121"
    assert problems_shown(text)[:1] == ["RD100"]


# ---------------------------------------------------------------- a pip list without its header


@pytest.mark.parametrize(
    "text",
    [
        "$ pip list | grep torch\ntorch                     2.5.1+rocm6.2\ntorchvision               0.20.1+rocm6.2\n",
        "(venv) $ pip list | grep -i torch\npytorch-triton-rocm 3.1.0\ntorch 2.5.1+rocm6.2\ntorchvision 0.20.1+rocm6.2\n",
        "root@box:/# pip list | grep torch\ntorch                    2.5.1+rocm6.2 /opt/conda/lib/python3.10/site-packages\n"
        "torchvision              0.20.1+rocm6.2  /opt/conda/lib/python3.10/site-packages\n",
        # pip list -v (location, installer) and --outdated (latest, type) without their headers
        "torch        2.5.1+rocm6.2   /home/me/venv/lib/python3.12/site-packages  pip\n"
        "torchvision  0.20.1+rocm6.2  /home/me/venv/lib/python3.12/site-packages  pip\n",
        "$ pip list --outdated | grep torch\ntorch        2.5.1+rocm6.2   2.6.0   wheel\ntorchvision  0.20.1+rocm6.2  0.21.0  wheel\n",
    ],
)
def test_pip_list_rows_without_their_header_are_the_installed_stack(text: str) -> None:
    facts = ingest(text).facts
    assert facts.torch.version.value == "2.5.1+rocm6.2"
    assert facts.torch.torchvision_version.value == "0.20.1+rocm6.2"
    assert facts.packages.installed.value.get("torchvision") == "0.20.1+rocm6.2"


@pytest.mark.parametrize(
    "text",
    [
        "torch  2.5.1\nROCm  6.2\nPython  3.11\n",
        "numpy  1.26.4\npillow  10.2.0\n",
        "I tried torch 2.5.1 and torchvision 0.20.1\n",
        # a table with a column pip does not print, a benchmark's timings
        "Versions I tried:\ntorch        2.4.1+rocm6.1   works\ntorchvision  0.19.1+rocm6.1   crashes\n",
        "Benchmark results (seconds):\ntorch          2.31\ntriton         1.87\nnumpy          9.12\n",
    ],
)
def test_a_field_list_or_prose_is_no_headerless_package_listing(text: str) -> None:
    assert not ingest(text).facts.packages.installed.is_known


def test_a_command_at_a_greater_than_prompt_is_output_not_a_quote() -> None:
    # cmd / PowerShell paste their prompt as "> " (hipfire-669 in tests/corpus): the statement under it is this machine's
    text = "I ran:\n\n> .\\check.exe\ntorch.cuda.is_available() returns False on my RX 7900 XTX\n"
    assert "cuda_unavailable_reported" in report_contexts(text)
