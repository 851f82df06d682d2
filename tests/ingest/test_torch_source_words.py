"""Where the torch on an AMD machine came from, as reports tell it (issue 23, class
cuda_wheel_on_amd, block h30i): uv's project commands, which install the project's locked torch
(PyPI's build unless the project routes torch to a ROCm index). Assertions are about context
signatures and finding ids and categories, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, report_contexts, serious_findings

UV_SYNC = "uv_project_sync_told"
UV_ROCM_INDEX = "uv_project_rocm_index_configured"


@pytest.mark.parametrize(
    "sentence",
    [
        # debpalash/VoiceStudio#1665
        "- `uv sync` (via `setup:api`) installs the lockfile CUDA torch build (`2.8.0+cu128`), which has no GPU backend on AMD.",
        "the next start reverts it: `uv sync` restores the lock, and `dev:api` uses `uv run`, which auto-syncs too.",
        # ace-step/ACE-Step-1.5#179
        "ROCm PyTorch gets replaced by CUDA when using uv run acestep",
        # SkafteNicki/dtu_mlops#499
        "RUN uv sync --locked --no-cache --no-install-project",
        "I used `uv add torch` in my project and it runs on the cpu",
        "$ uv run python main.py",
    ],
)
def test_uv_project_commands_are_read_as_installing_the_locked_torch(sentence: str) -> None:
    assert UV_SYNC in report_contexts(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        # JackismyShephard/ultimate-rvc#168: the workaround that keeps the ROCm torch
        "UV_NO_INDEX=1 UV_NO_SYNC=1  ./uv/uv  run ./src/ultimate_rvc/web/main.py",
        "uv run --no-sync python -m app",
        "uv pip install torch torchvision --index-url https://download.pytorch.org/whl/rocm6.2",
        "uv add torch --index https://download.pytorch.org/whl/rocm6.3",
        "Should I run uv sync again?",
        "I used to run uv sync, now I install with pip.",
        "UV_TORCH_BACKEND=rocm6.3 uv sync",
        "I did not run uv sync, I installed everything with pip.",
        "The README says to run uv sync first.",
        # locking resolves the lockfile and installs nothing (r30a)
        "I ran uv lock to update the lockfile.",
        "uv lock --upgrade",
    ],
)
def test_a_run_that_does_not_sync_pip_s_interface_a_rocm_index_a_question_or_the_past_is_not_a_uv_sync(sentence: str) -> None:
    assert UV_SYNC not in report_contexts(sentence)


def test_a_project_that_routes_torch_to_a_rocm_index_is_read() -> None:
    toml = '[[tool.uv.index]]\nname = "pytorch-rocm"\nurl = "https://download.pytorch.org/whl/rocm6.3"\nexplicit = true\n'
    assert UV_ROCM_INDEX in report_contexts(toml)


def test_a_uv_sync_on_an_amd_machine_whose_torch_cannot_use_the_gpu_is_said_to_install_pypi_s_torch() -> None:
    text = "RX 7900 XT on Arch, ROCm 6.3. I cloned the repo, ran uv sync and then uv run app.py, but torch.cuda.is_available() is False.\n"
    assert ("RD550", "torch-build") in {(rule, category) for rule, _, category in serious_findings(text)}


@pytest.mark.parametrize(
    "text",
    [
        # an NVIDIA machine: the lockfile's CUDA torch is the right one
        "RTX 4090 on Ubuntu 22.04. After uv sync and uv run app.py the GPU is not used.\n",
        # the project pins the ROCm index
        'RX 7900 XT on Arch. torch.cuda.is_available() is False after uv sync.\n[[tool.uv.index]]\nname = "pytorch-rocm"\nurl = "https://download.pytorch.org/whl/rocm6.3"\nexplicit = true\n',
        # the torch shown is a ROCm build
        "RX 7900 XT on Arch. After uv sync, torch 2.7.1+rocm6.3 and torch.cuda.is_available() is False.\n",
        # a uv command and no symptom of an unusable GPU
        "RX 7900 XT on Arch. I ran uv sync and uv run app.py; the model loads but the output is garbled.\n",
        # the torch shown is a CPU build, not the CUDA build the finding names (r30a)
        "RX 7900 XT on Arch, torch 2.5.1+cpu. I ran uv sync and torch.cuda.is_available() returns False.\n",
        # the project's own ROCm extra chosen on the command line (r30a)
        "RX 7900 XT on Arch. I ran `uv sync --extra rocm` and torch.cuda.is_available() returns False.\n",
        "RX 7900 XT on Arch. uv run --group=rocm63 app.py says no GPU available.\n",
    ],
)
def test_the_uv_finding_stays_quiet_on_nvidia_a_rocm_index_a_rocm_torch_or_without_a_gpu_symptom(text: str) -> None:
    assert "RD550" not in {rule for rule, _, _ in serious_findings(text)}



ROCM_INDEX = "pip install torch torchvision --index-url https://download.pytorch.org/whl/rocm6.1"


@pytest.mark.parametrize(
    "later",
    [
        # AUTOMATIC1111/stable-diffusion-webui#14994, amd/playbooks#69, Comfy-Org/ComfyUI#10680
        "then pip install -r requirements.txt",
        # ROCm/bitsandbytes#37 (requirements-dev.txt)
        "then python -m pip install -r requirements-dev.txt",
        "then pip install torch==2.3.1",
        "then pip install -U torch",
        # debpalash/VoiceStudio#1665
        "then uv sync",
    ],
)
def test_a_later_step_that_resolves_torch_again_leaves_the_rocm_index_undecided(later: str) -> None:
    flavour = ingest(f"RX 6900 XT on Ubuntu 22.04. {ROCM_INDEX}, {later}.\n").facts.torch.flavour
    assert not (flavour.is_known and flavour.value == "rocm")


@pytest.mark.parametrize(
    "before",
    [
        "pip install -r requirements.txt, then",
        "I ran uv sync, then",
        "",
    ],
)
def test_the_rocm_index_still_names_the_build_when_nothing_resolves_torch_after_it(before: str) -> None:
    flavour = ingest(f"RX 6900 XT on Ubuntu 22.04. {before} {ROCM_INDEX}.\n").facts.torch.flavour
    assert flavour.is_known and flavour.value == "rocm"


@pytest.mark.parametrize(
    "later",
    [
        "then pip install -r requirements.txt --index-url https://download.pytorch.org/whl/rocm6.1",
        "then pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/rocm6.1",
        "then pip install torch",
        "then uv run --no-sync app.py",
        "I did not run uv sync",
    ],
)
def test_a_later_install_from_the_rocm_index_or_one_that_keeps_torch_does_not_undo_it(later: str) -> None:
    flavour = ingest(f"RX 6900 XT on Ubuntu 22.04. {ROCM_INDEX}, {later}.\n").facts.torch.flavour
    assert flavour.is_known and flavour.value == "rocm"


def test_a_requirements_install_after_the_rocm_torch_then_no_gpu_is_said_to_have_replaced_it() -> None:
    text = (
        "RX 6800 XT, Ubuntu 22.04, ROCm 6.2. I installed torch with pip install torch torchvision --index-url "
        "https://download.pytorch.org/whl/rocm6.2, then ran pip install -r requirements.txt and now "
        "torch.cuda.is_available() returns False.\n"
    )
    assert "RD900" in {rule for rule, _, _ in serious_findings(text)}


NOT_FOUND = "gpu_not_found_said"


@pytest.mark.parametrize(
    "sentence",
    [
        # ROCm/legacy-rocm-build#3910
        "GPU not found in Python for pytorch rocm",
        # pytorch/pytorch#70036
        "ROCM device not found",
        # ROCm/legacy-rocm-build#1910
        "There is no CUDA-Compatible device detected, even though I installed ROCm",
        "After `uv sync` the app says no GPU available.",
        "no GPU devices are available",
    ],
)
def test_no_gpu_found_in_the_reporter_s_words_is_read_as_the_gpu_not_seen(sentence: str) -> None:
    contexts = report_contexts(f"RX 6800 on Ubuntu 22.04.\n{sentence}\n")
    assert {NOT_FOUND, "gpu_not_seen_said", "gpu_unused_told"} <= set(contexts)


@pytest.mark.parametrize(
    "sentence",
    [
        "RuntimeError: No HIP GPUs are available",
        "no CUDA-capable device is detected",
        "no NVIDIA GPU found",
        "Is there no GPU found?",
        "It used to say no GPU found, now it works.",
    ],
)
def test_torch_s_own_messages_another_vendor_a_question_or_the_past_are_not_the_reporter_saying_no_gpu(sentence: str) -> None:
    assert NOT_FOUND not in report_contexts(f"RX 6800 on Ubuntu 22.04.\n{sentence}\n")


@pytest.mark.parametrize(
    "text",
    [
        # what a program does when no GPU is there, not what this machine shows (r30a)
        "RX 6800 on Ubuntu 22.04.\nIf no GPU is found, the script falls back to the CPU.\n",
        "RX 6800 on Ubuntu 22.04.\nThe README says to install ROCm in case no GPU is available.\n",
        # nvidia-smi on an AMD machine finds no NVIDIA GPU: that says nothing of the AMD one (r30a)
        "RX 6800 on Ubuntu 22.04.\n$ nvidia-smi\nNo devices were found\n",
        # how the GPU is seen, not that it is unseen (r30a)
        "RX 6800 on Ubuntu 22.04.\nthe GPU is not detected as a CUDA device but as a HIP device and that works\n",
    ],
)
def test_a_condition_nvidia_smi_s_no_devices_or_a_gpu_detected_as_another_kind_is_not_the_reporter_saying_no_gpu(text: str) -> None:
    assert NOT_FOUND not in report_contexts(text)


@pytest.mark.parametrize(
    "later",
    [
        # a requirements install or a pinned torch the report says it did not run, asked about or quoted (r30a)
        "then I didn't run pip install -r requirements.txt",
        "the README also says to run pip install -r requirements.txt but I skipped that",
        "should I run pip install -r requirements.txt?",
        "I never ran pip install torch==2.3.1",
        "pip install -r requirements.txt is in the guide, but I haven't run it",
    ],
)
def test_a_later_step_not_run_asked_about_or_quoted_does_not_undo_the_rocm_index(later: str) -> None:
    flavour = ingest(f"RX 6900 XT on Ubuntu 22.04. {ROCM_INDEX}, {later}. torch.cuda.is_available() returns False.\n").facts.torch.flavour
    assert flavour.is_known and flavour.value == "rocm"
