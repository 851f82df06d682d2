"""Rows marked ``scope: statement`` in rules/data/signatures.yaml are the reporter's statements of the
machine's state: a yes/no question, a past state or another machine in the same sentence is not the
machine now (signatures.statement_pattern)."""

from __future__ import annotations

from typing import Set

import pytest
from ingest_helpers import ingest, problems_shown


def _read(text: str) -> Set[str]:
    facts = ingest(text).facts
    return set(facts.symptoms.signatures.value or []) | set(facts.symptoms.context.value or [])


@pytest.mark.parametrize(
    "text, signature",
    [
        ("Does ComfyUI ask for an NVIDIA GPU?", "nvidia_or_cuda_wanted_retold"),
        ("It used to keep asking for CUDA before I reinstalled torch.", "nvidia_or_cuda_wanted_retold"),
        ("Is the container not able to see the GPU?", "container_finds_no_gpu_told"),
        ("Before I fixed the compose file, the container couldn't find the GPU.", "container_finds_no_gpu_told"),
        ("Previously the GPU was refused due to lack of permission.", "gpu_permission_lack_told"),
        ("Should I start ollama serve from the terminal?", "ollama_serve_by_hand_in_prose"),
        ("I used to start ollama serve from the terminal, now I use the service.", "ollama_serve_by_hand_in_prose"),
        ("Should I install it from Flathub?", "flatpak_app_named"),
    ],
)
def test_a_question_or_a_past_state_is_not_a_statement_of_the_machine_now(text: str, signature: str) -> None:
    assert signature not in _read(text)


@pytest.mark.parametrize(
    "text, signature",
    [
        ("ComfyUI keeps asking for CUDA and an Nvidia GPU", "nvidia_or_cuda_wanted_retold"),
        ("the container cannot find GPUs", "container_finds_no_gpu_told"),
        ("the server sits in a crash-loop due to lack of permissions to access the driver", "gpu_permission_lack_told"),
        # NixOS/nixpkgs#332446: "before" with a gerund orders the steps, it is no past state
        ("I had to manually set `HSA_OVERRIDE_GFX_VERSION` before calling `ollama serve`, despite the option.", "ollama_serve_by_hand_in_prose"),
        ("I just installed Blender 4.3.0 from Flathub but it still does not recognize my AMD GPU.", "flatpak_app_named"),
    ],
)
def test_the_same_statements_of_the_machine_now_are_read(text: str, signature: str) -> None:
    assert signature in _read(text)


def test_a_question_in_the_next_sentence_leaves_it_works_as_root() -> None:
    # gpu_works_as_root_told dropped the whole line for its trailing '?'
    assert "gpu_works_as_root_told" in _read("If I run it as root, it works. Any ideas?")


def test_working_as_root_in_the_past_is_not_said_of_the_machine_now() -> None:
    assert "gpu_works_as_root_told" not in _read("Before I added the udev rule, if I ran it as root, it worked.")


@pytest.mark.parametrize(
    "text",
    ["Does it work if I run it as root?", "It used to work only when I ran it with sudo.", "it doesn't work even as root"],
)
def test_asking_about_root_a_past_root_or_failing_even_as_root_is_not_works_only_as_root(text: str) -> None:
    assert "works_only_as_root" not in _read(text)


@pytest.mark.parametrize("text", ["it doesn't work as user, only with sudo", "works fine with sudo", "It only works as root."])
def test_works_only_as_root_is_still_read_in_the_present(text: str) -> None:
    assert "works_only_as_root" in _read(text)


@pytest.mark.parametrize(
    "text, signature",
    [
        ("The README says it looks for an NVIDIA GPU, but it runs fine on my RX 6800.", "nvidia_or_cuda_wanted_retold"),
        ("According to the docs, the installer tries to detect an NVIDIA GPU first and then falls back to ROCm.", "nvidia_or_cuda_wanted_retold"),
        ("The wiki states that the launcher asks for CUDA when no GPU is found.", "nvidia_or_cuda_wanted_retold"),
        ("The guide says the container cannot find the GPU unless /dev/kfd is passed.", "container_finds_no_gpu_told"),
    ],
)
def test_what_a_document_says_about_the_program_is_not_a_statement_of_the_machine(text: str, signature: str) -> None:
    assert signature not in _read(text)


def test_the_program_asking_for_nvidia_is_read_beside_a_document_named_in_another_sentence() -> None:
    assert "nvidia_or_cuda_wanted_retold" in _read("I followed the README. ComfyUI keeps asking for CUDA and an Nvidia GPU.")


@pytest.mark.parametrize(
    "text",
    [
        "AMD ROCm GPU not recognized in flatpak",  # janhq/jan#8266
        "I just installed Blender 4.3.0 from Flathub but it still does not recognize my AMD GPU.",  # flathub/org.blender.Blender#121
        "With mods in Flatpak launchers, no OpenCL devices would be found.",  # RelativityMC/C2ME-fabric#599
        "I run LM Studio in a flatpak and the GPU isn't detected.",
    ],
)
def test_a_flatpak_app_said_not_to_find_the_gpu_in_one_sentence_is_read(text: str) -> None:
    assert "flatpak_app_gpu_missing_told" in _read(text)


@pytest.mark.parametrize(
    "text",
    [
        "I installed Steam via flatpak for gaming. PyTorch can't see my RX 7900 XTX.",
        "I use the Flatpak version of Discord. ollama doesn't use my GPU, it runs on the CPU.",
        "Blender from Flathub works with HIP on my RX 7900 XTX, but torch.cuda.is_available() returns False in my venv.",
        "Should I install it from Flathub? The GPU is not detected in the native build.",
    ],
)
def test_a_flatpak_named_beside_another_programs_failure_is_not_the_app_failing(text: str) -> None:
    assert "flatpak_app_gpu_missing_told" not in _read(text)


def test_a_flatpak_of_another_program_gets_no_sandbox_finding() -> None:
    text = "I installed Steam via flatpak for gaming. PyTorch can't see my RX 7900 XTX: torch.cuda.is_available() returns False. ROCm 6.2 on Ubuntu 22.04.\n"
    assert "RD616" not in problems_shown(text)


@pytest.mark.parametrize(
    "text, signature",
    [
        # GitHub's bug-report template, its placeholder left in place with an example added
        ("**Describe the bug**\nA clear and concise description of what the bug is, e.g. the GPU is not detected.\n", "gpu_not_seen_said"),
        ("### Problem Description\n<!-- Describe the problem, e.g. the GPU is not detected -->\nIt crashes in the VAE decode.\n", "gpu_not_seen_said"),
        ("- Describe the problem (e.g. the GPU is not detected): ComfyUI crashes with a segfault in the KSampler.\n", "gpu_not_seen_said"),
        ("Please describe what happens, for example: ollama runs on the CPU instead of the GPU.\n", "torch_on_cpu_told"),
        ("Example: the container cannot find the GPU\n", "container_finds_no_gpu_told"),
    ],
)
def test_a_templates_example_left_in_place_is_not_the_reporters_statement(text: str, signature: str) -> None:
    assert signature not in _read(text)


@pytest.mark.parametrize(
    "text, signature",
    [
        # the reporter's own words after the template's heading and around an abbreviation
        ("**Describe the bug**\nThe GPU is not detected by rocminfo.\n", "gpu_not_seen_said"),
        ("It runs on the CPU, i.e. the GPU is not detected.\n", "gpu_not_seen_said"),
        ("Problem: the container cannot find the GPU\n", "container_finds_no_gpu_told"),
    ],
)
def test_the_reporters_statement_under_a_templates_heading_is_read(text: str, signature: str) -> None:
    assert signature in _read(text)


@pytest.mark.parametrize(
    "text, signature",
    [
        ('In that issue someone wrote "torch.cuda.is_available() returns False on my RX 6700 XT".', "cuda_unavailable_reported"),
        ("@dev42 said ComfyUI keeps asking for CUDA on his machine.", "nvidia_or_cuda_wanted_retold"),
        ("A user reported that after updating the kernel, ROCm stopped working.", "kernel_update_broke_rocm_driver_told"),
        ("One user said that after the kernel update rocm stopped working for him.", "kernel_update_broke_rocm_driver_told"),
        ("A few users report that the launcher installs the CUDA build of torch.", "cuda_torch_install_retold"),
        ("A user wrote that ComfyUI keeps asking for CUDA on his machine.", "nvidia_or_cuda_wanted_retold"),
        ("Does torch.cuda.is_available() return False for you too?", "cuda_unavailable_reported"),
    ],
)
def test_another_persons_reported_words_or_a_question_are_not_the_machines_state(text: str, signature: str) -> None:
    assert signature not in _read(text)


@pytest.mark.parametrize(
    "text, signature",
    [
        ("Here is a user report from our lab: after updating the kernel, ROCm stopped working.", "kernel_update_broke_rocm_driver_told"),
        ("One user report: ComfyUI keeps asking for CUDA and an Nvidia GPU", "nvidia_or_cuda_wanted_retold"),
    ],
)
def test_a_user_report_as_a_noun_leaves_the_reporters_statement(text: str, signature: str) -> None:
    assert signature in _read(text)


@pytest.mark.parametrize(
    "text",
    [
        ">>> torch.cuda.is_available()\nFalse\n>>> torch.cuda.is_available() -> False",
        "torch.cuda.is_available() returns False on my RX 6700 XT.",
        "Why does torch.cuda.is_available() return False?",
        "rocminfo says the agent is there, but Using device: cpu is printed.",
    ],
)
def test_pytorch_finding_no_gpu_is_still_read_in_output_and_the_reporters_words(text: str) -> None:
    assert "cuda_unavailable_reported" in _read(text)


def test_a_setting_in_another_persons_reported_words_is_not_a_setting_made() -> None:
    settings = ingest('Someone wrote "HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it for me".').facts.env.settings
    assert not settings.is_known or not settings.value


@pytest.mark.parametrize(
    "text, signature",
    [
        # a label naming another person's machine: the colon starts a new sentence, but not a new owner
        ("My friend's laptop: torch.cuda.is_available() returns False", "cuda_unavailable_reported"),
        ("On my other PC: no GPU found", "gpu_not_found_said"),
        # two of the reporter's machines set against each other: the sentence does not say which is this one
        ("my laptop has no GPU available, but on the desktop with an RX 7900 XTX torch works fine", "gpu_not_found_said"),
        # what torch does in general, under a condition, not what this machine shows
        ("is_available() returns False when no GPU is present", "cuda_unavailable_reported"),
        ("Note that torch.cuda.is_available() returns False if there is no CUDA device.", "cuda_unavailable_reported"),
    ],
)
def test_another_machines_label_a_contrast_of_machines_or_a_condition_is_no_statement_of_this_one(text: str, signature: str) -> None:
    assert signature not in _read(text)


@pytest.mark.parametrize(
    "text, signature",
    [
        ("My laptop: torch.cuda.is_available() returns False", "cuda_unavailable_reported"),
        ("torch.cuda.is_available() returns False when I run it in the container", "cuda_unavailable_reported"),
        ("On my RX 6800, torch.cuda.is_available() returns False", "cuda_unavailable_reported"),
        ("my laptop has no GPU available in torch", "gpu_not_found_said"),
    ],
)
def test_the_reporters_own_machine_named_in_a_label_or_a_condition_of_its_own_is_still_read(text: str, signature: str) -> None:
    assert signature in _read(text)


_NO_RENDER_GROUP = "RX 6800, Ubuntu 22.04, ROCm 6.2. RuntimeError: No HIP GPUs are available\n$ groups\nme adm cdrom sudo dip plugdev\n"


@pytest.mark.parametrize(
    "said",
    [
        "Even with sudo it still returns False.",
        "Running it as root gives the same error.",
        "I also tried sudo python test.py, same result.",
        "same error with sudo",
    ],
)
def test_a_group_list_without_render_is_no_cause_when_it_fails_as_root_too(said: str) -> None:
    shown = problems_shown(_NO_RENDER_GROUP + said + "\n")
    assert "RD961" not in shown and "RD300" not in shown


@pytest.mark.parametrize(
    "said",
    ["", "It works even without sudo.", "Does it fail even with sudo?", "Before I fixed the udev rule, even with sudo it failed."],
)
def test_a_group_list_without_render_stays_a_cause_without_a_failure_as_root_now(said: str) -> None:
    assert "RD961" in problems_shown(_NO_RENDER_GROUP + said + "\n")


@pytest.mark.parametrize(
    "said",
    ["Even as root it works.", "Even with sudo it works fine.", "Even as root the GPU is found, but not as my user."],
)
def test_a_group_list_without_render_stays_a_cause_when_it_works_even_as_root(said: str) -> None:
    assert "RD961" in problems_shown(_NO_RENDER_GROUP + said + "\n")


@pytest.mark.parametrize(
    "text",
    [
        # the reporter's own instance of what the sentence just said, the full stop typed without a space
        # (ollama/ollama#7566), and with one
        "It always uses so much shared VRAM while there is still a lot of free dedicated VRAM.For example, a 13b model needs 12GB.",
        "It always uses so much shared VRAM while there is still a lot of free dedicated VRAM, for example with a 13b model.",
    ],
)
def test_an_example_marker_after_a_statement_leaves_the_statement(text: str) -> None:
    assert "hip_memory_in_shared_told" in _read(text)


@pytest.mark.parametrize(
    "text",
    [
        "A clear and concise description of the bug, e.g. the model uses shared memory instead of VRAM.",
        "For example: the model sits in shared memory instead of dedicated VRAM.",
    ],
)
def test_an_example_marker_before_a_statement_still_makes_it_an_example(text: str) -> None:
    assert "hip_memory_in_shared_told" not in _read(text)
