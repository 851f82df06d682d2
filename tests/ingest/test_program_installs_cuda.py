"""Reporters' words for an installer, launcher or app that installs CUDA on an AMD machine (issue 23,
class cuda_wheel_on_amd; signature program_installs_cuda_told): "it always installs the nvidia CUDA
version ... it installs CUDA" (LykosAI/StabilityMatrix#307), "it keeps installing cuda drivers ... cuda
version still installs" (LykosAI/StabilityMatrix#1354). Assertions are about contexts and finding
categories, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import report_contexts, serious_findings

TOLD = "program_installs_cuda_told"


@pytest.mark.parametrize(
    "sentence",
    [
        "No matter what is selected for ComfyUI, it always installs the nvidia CUDA version.",
        "When explicitly selecting rocm, it installs CUDA.",
        "it keeps installing cuda drivers and i cant launch it",
        "make sure that the pytorch index is rocm, install ComfyUI, cuda version still installs",
        "The launcher keeps downloading CUDA packages every time I start it.",
        "The CUDA packages got installed again by the update.",
    ],
)
def test_a_program_installing_cuda_is_read_in_reporters_words(sentence: str) -> None:
    assert TOLD in report_contexts(f"RX 6800 XT on Ubuntu 22.04.\n{sentence}\n")


@pytest.mark.parametrize(
    "sentence",
    [
        "I installed CUDA 12.1 by mistake earlier and removed it.",
        "It no longer installs CUDA since the update.",
        "Does it install the CUDA version by default?",
        "If you have an NVIDIA card the installer installs the CUDA version.",
        "CUDA version installed: none.",
        "The installer installs the CUDA toolkit for the NVIDIA box in the office.",
    ],
)
def test_the_reporter_s_toolkit_a_negation_a_question_or_nvidia_advice_is_not_a_program_installing_cuda(sentence: str) -> None:
    assert TOLD not in report_contexts(f"RX 6800 XT on Ubuntu 22.04.\n{sentence}\n")


def test_an_amd_report_whose_launcher_installs_cuda_gets_a_torch_build_finding_first() -> None:
    text = "Radeon RX 6800 XT, Fedora.\nregardless of the launcher detecting my radeon correctly it keeps installing cuda drivers and i cant launch it\n"
    assert [category for _, _, category in serious_findings(text)][:1] == ["torch-build"]


def test_a_launcher_installing_cuda_on_a_machine_with_a_rocm_torch_shown_is_not_told_its_torch_is_cuda() -> None:
    text = "RX 6800 XT on Ubuntu.\nit always installs the nvidia CUDA version, so I installed torch 2.5.1+rocm6.2 by hand and it works.\n"
    assert not any(rule == "RD540" for rule, _, _ in serious_findings(text))


@pytest.mark.parametrize(
    "text",
    [
        "I have an RX 6800 for gaming and an RTX 4090 for AI. The webui installs the nvidia CUDA version and uses the 4090.\n",
        "Radeon RX 7900 XTX with ZLUDA on Windows. The launcher installs the CUDA version of torch on purpose and ZLUDA runs it.\n",
    ],
)
def test_a_cuda_install_told_beside_an_nvidia_gpu_or_with_zluda_is_not_called_the_wrong_build(text: str) -> None:
    assert not any(rule == "RD540" for rule, _, _ in serious_findings(text))


@pytest.mark.parametrize(
    "sentence",
    [
        "The launcher installs CUDA on NVIDIA machines and ROCm on AMD ones.",
        "Stability Matrix installs the CUDA version for NVIDIA and the ROCm version for AMD, and I picked ROCm.",
        "uv installs cuda wheels unless you pass the rocm index, so I passed it.",
    ],
)
def test_what_a_program_installs_for_nvidia_machines_or_unless_told_otherwise_is_not_a_program_installing_cuda_here(sentence: str) -> None:
    assert TOLD not in report_contexts(f"RX 7900 XTX on Ubuntu 22.04.\n{sentence}\n")
