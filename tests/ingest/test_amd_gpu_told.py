"""A report that never names its GPU may still say the machine is AMD: in the reporter's words ("using amd on
linux", "Im on AMD", "amd user") or by setting a variable only ROCm software reads (TORCH_BLAS_PREFER_HIPBLASLT,
HSA_OVERRIDE_GFX_VERSION, ROCR_VISIBLE_DEVICES, MIOPEN_*). That is the weak fact derived.amd_gpu_told, which
RD968 uses for a CUDA build of torch; it never becomes a GPU. Sources: Comfy-Org/ComfyUI#5122,
Haoming02/sd-webui-forge-classic#308, 152334H/tortoise-tts-fast#39, vladmandic/sdnext#1275,
CS1o/Stable-Diffusion-Info#56 (learn56i)."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, report_contexts

from rocm_doctor.judge.derived import compute_machine

FOUND_NO_NVIDIA = (
    "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver "
    "from http://www.nvidia.com/Download/index.aspx\n"
)


def _told(text: str):
    return compute_machine(ingest(text).facts)["derived.amd_gpu_told"]


@pytest.mark.parametrize(
    "text",
    [
        "using amd on linux, was working just fine minutes ago",
        "Using AMD on Ubuntu 22.04 and it stopped working.",
        "Im on AMD and have to change the Torch Version to ROCm to get it to work.",
        "I'm on AMD, the app fails at start.",
        "I’m using an AMD on Arch.",
        "I am running AMD here.",
        "amd user, my last pip install -r requirements broke my system",
        "As an AMD user I had to reinstall torch.",
        "I have AMD, not NVIDIA.",
        "> using amd on linux, was working just fine minutes ago",
        "using amd on linux, was\r\nworking just fine minutes ago\r\n",
    ],
)
def test_the_reporter_saying_the_machine_is_amd_is_read(text: str) -> None:
    assert "amd_user_told" in report_contexts(text)
    assert _told(text).is_known


@pytest.mark.parametrize(
    "text",
    [
        # an AMD CPU, not the GPU
        "I'm using AMD Ryzen 7 5800X and an RTX 3080.",
        "I have an AMD 5900X.",
        "I'm on AMD64 Linux.",
        "I'm using AMD and NVIDIA cards in the same box.",
        # another person, a plan, a document's readers
        "People using AMD on Linux get this too.",
        "I'm thinking of using AMD on Linux next year.",
        "Another AMD user reported the same thing.",
        "The guide has a section for AMD users.",
        # a question
        "I'm on AMD, does this work?",
        "Should I buy AMD or NVIDIA for this?",
        "Does this work with AMD?",
        # the past, another machine
        "I used to be on AMD but switched.",
        "Before, I was using AMD on linux.",
        "I'm on AMD on my other PC, this one has an RTX 4090.",
    ],
)
def test_other_machines_cpus_questions_and_the_past_are_not_read(text: str) -> None:
    assert "amd_user_told" not in report_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "TORCH_BLAS_PREFER_HIPBLASLT=0 python /ComfyUI/main.py\n",
        "$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ python main.py\n",
        "export ROCR_VISIBLE_DEVICES=0\n",
        "MIOPEN_FIND_MODE=FAST python train.py\n",
        '$env:HSA_OVERRIDE_GFX_VERSION = "10.3.0"\n',
        "set TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL=1\n",
        "docker run -e HSA_OVERRIDE_GFX_VERSION=11.0.0 myimage\n",
    ],
)
def test_a_rocm_only_variable_set_is_weak_evidence(text: str) -> None:
    told = _told(text)
    assert told.is_known and "ROCm-only variable" in str(told.value)


@pytest.mark.parametrize(
    "text",
    [
        "export CUDA_VISIBLE_DEVICES=0\n",
        "export PYTORCH_ROCM_ARCH=gfx1100\n",  # build-time: a CI box sets it without a GPU
        "unset HSA_OVERRIDE_GFX_VERSION\n",
        "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n",
    ],
)
def test_variables_cuda_reads_or_a_build_sets_are_not(text: str) -> None:
    assert not _told(text).is_known


def test_the_weak_fact_never_becomes_a_gpu() -> None:
    facts = ingest("using amd on linux\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n").facts
    derived = compute_machine(facts)
    assert facts.gpus.agents == []
    assert derived["derived.amd_gpu_told"].is_known
    assert not (derived["derived.has_amd_gpu"].is_known and derived["derived.has_amd_gpu"].value)


def test_comfyui_5122_a_cuda_torch_on_a_machine_told_amd_in_words_and_a_setting() -> None:
    text = (
        "### Expected Behavior\n\nusing amd on linux, was working just fine minutes ago\n\n### Debug Logs\n\n"
        "```powershell\nTORCH_BLAS_PREFER_HIPBLASLT=0 python /ComfyUI/main.py\nTraceback (most recent call last):\n"
        '  File "/ComfyUI/comfy/model_management.py", line 112, in get_torch_device\n'
        "    return torch.device(torch.cuda.current_device())\n" + FOUND_NO_NVIDIA + "```\n"
    )
    shown = problems_shown(text)
    assert shown[:1] == ["RD968"]
    assert "RD599" not in shown  # the NVIDIA-driver message is explained


@pytest.mark.parametrize(
    "text",
    [
        # NVIDIA named: the CUDA build may be meant for it
        "using amd on linux for the CPU, my GPU is an NVIDIA GeForce RTX 3060\n" + FOUND_NO_NVIDIA,
        # neither words nor a ROCm-only setting
        "I'm on linux\n" + FOUND_NO_NVIDIA,
        # a question about AMD
        "Does this work with AMD? I get:\n" + FOUND_NO_NVIDIA,
        # ZLUDA runs a CUDA build on the AMD GPU on purpose
        "using amd on windows with ZLUDA\n" + FOUND_NO_NVIDIA,
    ],
)
def test_no_weak_finding_where_the_words_do_not_hold(text: str) -> None:
    assert "RD968" not in problems_shown(text)


def test_a_listed_amd_gpu_leaves_the_case_to_the_stronger_rules() -> None:
    text = "I'm on AMD, an RX 7900 XTX\n" + FOUND_NO_NVIDIA
    shown = problems_shown(text)
    assert "RD968" not in shown and "RD500" in shown
