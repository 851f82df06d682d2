"""A command that installs torch from PyTorch's CUDA wheel index (download.pytorch.org/whl/cuNNN) is read as such in
pip's, uv pip's, `python -m pip`'s and `py -m pip`'s spellings, with --index-url, --extra-index-url, -i or -f, before or
after the packages, at a prompt with a Windows path holding spaces (context torch_cuda_index_install, read by the index
reader of rocm_doctor.ingest.formats.mentions; RD767 judges it). A +cuNNN pin alone is the torch version reader's. A commented-out
line, advice for NVIDIA hardware, a command a change took out ("I replaced ... with ...") and a negated one are not
this machine's install, and none of them makes the torch in use a CUDA build. Real reports: mcmonkeyprojects/SwarmUI#141,
Stability-AI/StableSwarmUI#269, easydiffusion/easydiffusion#1603 (and Comfy-Org/ComfyUI#6444's commented Dockerfile
line, a healthy report). Assertions are about context ids and facts, never about wording."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, report_contexts

AMD = "RX 6800 XT on Ubuntu 22.04 with ROCm 6.1.\n"


@pytest.mark.parametrize(
    "command",
    [
        "python3 -s -m pip install torch torchvision torchaudio --extra-index-url https://download.pytorch.org/whl/cu121",
        "pip install torch torchvision --index-url https://download.pytorch.org/whl/cu118",
        "pip3 install --pre torch -i https://download.pytorch.org/whl/nightly/cu124",
        "uv pip install torch torchvision --index-url=https://download.pytorch.org/whl/cu126",
        "pip install -f https://download.pytorch.org/whl/cu113 torch==1.12.1",
        "py -3.10 -m pip install torch torchvision --index-url https://download.pytorch.org/whl/cu121",
        "(venv) PS C:\\Users\\John Smith\\AI Stuff\\ComfyUI> python.exe -m pip install torch --index-url https://download.pytorch.org/whl/cu121",
    ],
)
def test_an_install_command_naming_a_cuda_wheel_index_is_read(command: str) -> None:
    assert "torch_cuda_index_install" in report_contexts(AMD + command + "\n")


@pytest.mark.parametrize(
    "line",
    [
        "# RUN pip install torch torchvision torchaudio --extra-index-url https://download.pytorch.org/whl/cu121",
        "For NVIDIA cards use pip install torch --index-url https://download.pytorch.org/whl/cu121",
        "I replaced `pip install torch==2.0.1+cu118 --extra-index-url https://download.pytorch.org/whl/cu118` with the rocm one.",
        "Don't run pip install torch --index-url https://download.pytorch.org/whl/cu121 on an AMD card.",
        "If you have an NVIDIA card, run:\npip install torch==2.3.0+cu121 --index-url https://download.pytorch.org/whl/cu121",
        "pip install torch --index-url https://download.pytorch.org/whl/rocm6.1",
        "pip install torchvision --index-url https://download.pytorch.org/whl/cu121",
        # torch pinned to a ROCm build: the CUDA index is no source of that pin
        "pip install torch==2.3.0+rocm6.0 --extra-index-url https://download.pytorch.org/whl/cu121",
        # another machine's command, and one an inline label puts in the past
        "My friend ran pip install torch --index-url https://download.pytorch.org/whl/cu121 on his machine.",
        "Before the update: pip install torch --index-url https://download.pytorch.org/whl/cu121",
    ],
)
def test_a_commented_advised_replaced_or_rocm_command_is_not_read(line: str) -> None:
    assert "torch_cuda_index_install" not in report_contexts(AMD + line + "\n")


@pytest.mark.parametrize(
    "line",
    [
        "For NVIDIA cards use pip install torch --index-url https://download.pytorch.org/whl/cu121",
        "I replaced `pip install torch --extra-index-url https://download.pytorch.org/whl/cu118` with the rocm one and it works.",
        "Don't run pip install torch --index-url https://download.pytorch.org/whl/cu121 on an AMD card.",
        # a README's or an app's instruction to the reader (StoryToolkitAI's "make sure you install Torch with CUDA:")
        "If you are running on an NVIDIA GPU, make sure you install Torch with CUDA: pip install torch --extra-index-url https://download.pytorch.org/whl/cu116",
        "Make sure you install torch with CUDA wheels: pip install torch --index-url https://download.pytorch.org/whl/cu121",
    ],
)
def test_an_index_in_advice_for_nvidia_or_in_a_replaced_command_is_no_torch_build(line: str) -> None:
    flavour = ingest(AMD + line + "\n").facts.torch.flavour
    assert not (flavour.is_known and flavour.value == "cuda")


def test_a_cpu_index_in_an_instruction_gives_no_cpu_build_error_and_one_the_reporter_made_sure_of_is_read() -> None:
    advised = "Make sure you're using CPU-only torch: pip install torch --index-url https://download.pytorch.org/whl/cpu\n"
    assert "RD101" not in problems_shown(AMD + advised)
    made = "I made sure to install it: pip install torch --index-url https://download.pytorch.org/whl/cu121\n"
    assert ingest(AMD + made).facts.torch.flavour.value == "cuda"


def test_a_launcher_scripts_cuda_command_on_an_amd_machine_gets_the_install_finding() -> None:
    text = (
        "### Expected Behavior\n\nRun pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/rocm6.0\n\n"
        "### Actual Behavior\n\npip install torch torchvision torchaudio --extra-index-url https://download.pytorch.org/whl/cu121\n\n"
        "### Steps to Reproduce\n\nTry AMD install on linux\n"
    )
    # the ROCm command under "Expected Behavior" is what should have run (blocks.expected_lines, pkg48): the CUDA
    # command is the torch in use, a known CUDA flavour on an AMD machine, which RD767's `when` leaves to RD528 by
    # design (RD767 is for a command whose torch is not otherwise known); pinned by rev48g
    shown = problems_shown(text)
    assert "RD528" in shown and "RD767" not in shown


def test_the_same_command_on_an_nvidia_machine_gets_no_install_finding() -> None:
    text = "RTX 4090 on Ubuntu 22.04.\npip install torch --index-url https://download.pytorch.org/whl/cu121\n"
    assert "RD767" not in problems_shown(text)


def test_the_command_a_replacement_put_in_place_is_the_torch_in_use() -> None:
    text = AMD + (
        "I replaced `python -m pip install --upgrade torch==2.0.1+cu118 --extra-index-url https://download.pytorch.org/whl/cu118`"
        " with `python -m pip install --upgrade torch==2.0.1+rocm5.4.2 --extra-index-url https://download.pytorch.org/whl/rocm5.4.2`"
        " and I was able to use my GPU again.\n"
    )
    flavour = ingest(text).facts.torch.flavour
    assert (flavour.status, flavour.value) == ("known", "rocm")


@pytest.mark.parametrize(
    "line",
    [
        "NVIDIA: pip install torch --index-url https://download.pytorch.org/whl/cu121",
        "| NVIDIA | pip install torch --index-url https://download.pytorch.org/whl/cu121 |",
        "CUDA 12.1: pip install torch --index-url https://download.pytorch.org/whl/cu121",
    ],
)
def test_a_command_labelled_for_nvidia_or_cuda_is_not_read(line: str) -> None:
    # one row of per-vendor instructions (a README's or a reply's table), not this machine's install
    assert "torch_cuda_index_install" not in report_contexts(AMD + line + "\n")


CUDA_COMMAND = "pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu121"
ROCM_COMMAND = "pip install --force-reinstall torch torchvision torchaudio --index-url https://download.pytorch.org/whl/rocm6.2"


@pytest.mark.parametrize(
    "text",
    [
        f"First I ran {CUDA_COMMAND}\nThat did not work, so then I reinstalled with {ROCM_COMMAND}\nNow ComfyUI segfaults.\n",
        f"```\n{CUDA_COMMAND}\n```\nThen I reinstalled:\n```\n{ROCM_COMMAND}\n```\nNow it segfaults.\n",
        f"$ {CUDA_COMMAND}\nERROR: Could not find a version that satisfies the requirement torch (from versions: none)\n"
        "ERROR: No matching distribution found for torch\n",
    ],
)
def test_a_cuda_index_install_that_a_later_rocm_install_replaced_or_pip_refused_is_not_read(text: str) -> None:
    assert "torch_cuda_index_install" not in report_contexts(AMD + text)
    assert "RD767" not in problems_shown(AMD + text)


def test_a_cuda_index_install_after_the_rocm_one_is_read() -> None:
    # the last command run took torch from the CUDA index (an xformers recipe after the ROCm install)
    text = AMD + f"I ran {ROCM_COMMAND}\nthen for xformers: pip install xformers torch==2.3.0 --index-url https://download.pytorch.org/whl/cu121\n"
    assert "torch_cuda_index_install" in report_contexts(text)


def test_a_rocm_command_under_an_expected_heading_after_the_actual_one_replaces_nothing() -> None:
    # the issue template's sections in the other order: the ROCm command is what should have run
    text = (
        "### Actual Behavior\n\npip install torch torchvision torchaudio --extra-index-url https://download.pytorch.org/whl/cu121\n\n"
        "### Expected Behavior\n\nRun pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/rocm6.0\n\n"
        "### Steps to Reproduce\n\nTry AMD install on linux\n"
    )
    # the ROCm command is what should have run (blocks.expected_lines, pkg48): the CUDA command is the torch in use,
    # a known CUDA flavour that RD767's `when` leaves to RD528 (pinned by rev48g)
    shown = problems_shown(text)
    assert "RD528" in shown and "RD767" not in shown


@pytest.mark.parametrize(
    "sentence",
    [
        "Instead of the rocm index, I ran pip install torch --index-url https://download.pytorch.org/whl/cu121 and now it says no NVIDIA driver.",
        "I don't know why, but after pip install torch --index-url https://download.pytorch.org/whl/cu121 it does not see the GPU.",
        "To avoid the dependency error I ran pip install torch --index-url https://download.pytorch.org/whl/cu121 and now the GPU is not found.",
        "I followed the guide for NVIDIA by mistake and ran pip install torch --index-url https://download.pytorch.org/whl/cu121",
        "I never had problems until I ran pip install torch --index-url https://download.pytorch.org/whl/cu121",
        "Rather than building from source I ran pip install torch --index-url https://download.pytorch.org/whl/cu121 and the GPU is gone.",
        "I replaced the old venv and ran pip install torch --index-url https://download.pytorch.org/whl/cu121",
    ],
)
def test_words_of_advice_or_replacement_that_do_not_frame_the_command_leave_it_run(sentence: str) -> None:
    # "don't", "avoid", "for NVIDIA", "instead of", "replaced" elsewhere in the sentence: the reporter ran the command
    facts = ingest(AMD + sentence + "\n").facts
    assert "torch_cuda_index_install" in (facts.symptoms.context.value or [])
    assert (facts.torch.flavour.status, facts.torch.flavour.value) == ("known", "cuda")


def test_a_plain_rocm_install_after_the_cuda_one_replaces_nothing() -> None:
    # pip keeps the torch installed ("Requirement already satisfied") unless it is removed, forced or pinned to +rocm
    text = AMD + f"{CUDA_COMMAND}\nThen I ran pip install torch --index-url https://download.pytorch.org/whl/rocm6.2\nStill no GPU.\n"
    assert "torch_cuda_index_install" in report_contexts(text)


@pytest.mark.parametrize(
    "sentence",
    [
        "My friend ran pip install torch --index-url https://download.pytorch.org/whl/cu121 and it works for him.\n",
        "Before the update: pip install torch --index-url https://download.pytorch.org/whl/cu121\n",
    ],
)
def test_another_machines_or_a_past_cuda_index_install_is_not_the_torch_in_use(sentence: str) -> None:
    facts = ingest(AMD + sentence).facts
    assert facts.torch.flavour.value != "cuda"
    assert not {"RD100", "RD528"} & set(problems_shown(AMD + sentence))


def test_the_reporters_own_cuda_index_install_is_still_the_torch_in_use() -> None:
    text = AMD + "$ pip install torch --index-url https://download.pytorch.org/whl/cu121\n"
    assert ingest(text).facts.torch.flavour.value == "cuda"


def test_a_pin_pip_found_no_wheel_for_is_not_the_torch_in_use() -> None:
    text = AMD + (
        "$ pip install torch==2.1.0+cu121\n"
        "ERROR: Could not find a version that satisfies the requirement torch==2.1.0+cu121 (from versions: 2.2.0, 2.3.0)\n"
        "ERROR: No matching distribution found for torch==2.1.0+cu121\n"
    )
    assert ingest(text).facts.torch.flavour.value != "cuda"
    assert not {"RD100", "RD528"} & set(problems_shown(text))


def test_a_pin_pip_installed_is_still_the_torch_in_use() -> None:
    text = AMD + "$ pip install torch==2.1.0+cu121\nSuccessfully installed torch-2.1.0+cu121\n"
    assert ingest(text).facts.torch.flavour.value == "cuda"


@pytest.mark.parametrize(
    "sentence",
    [
        "I used to run pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu121 but now I use the rocm6.2 index.\n",
        "Previously I installed with pip install torch --index-url https://download.pytorch.org/whl/cu121\n",
    ],
)
def test_a_cuda_index_install_told_as_the_past_is_no_install_finding(sentence: str) -> None:
    """RD767 said of 'I used to run pip install ... cu121 but now I use the rocm6.2 index' that the command 'puts a CUDA
    build of PyTorch in place': the past words the torch version reader honours (_torch_past) hold for the index too."""
    assert "torch_cuda_index_install" not in report_contexts(AMD + sentence)
    assert "RD767" not in problems_shown(AMD + sentence)


def test_an_old_environment_the_reporter_replaced_before_the_install_leaves_the_install_current() -> None:
    """'I replaced the old venv and ran pip install torch==2.5.1+rocm6.2' put 2.5.1 in symptoms.earlier: the
    previous-setup words ('the old venv ... ran') reached over 'and' to the reporter's next act."""
    facts = ingest("RX 7900 XTX\nI replaced the old venv and ran pip install torch==2.5.1+rocm6.2 and now it segfaults.\n").facts
    assert facts.torch.version.value == "2.5.1+rocm6.2"
    assert ingest("RX 7900 XTX\nThe old venv had torch 2.4.1+rocm6.1, the new one segfaults.\n").facts.torch.version.value != "2.4.1+rocm6.1"
