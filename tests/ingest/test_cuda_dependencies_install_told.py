"""The CUDA build's NVIDIA dependencies named as what an install put on an AMD machine (issue 23, class
cuda_wheel_on_amd; context non_rocm_torch_install_told, read by RD540). Assertions are about report
contexts, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import report_contexts

TOLD = "non_rocm_torch_install_told"


@pytest.mark.parametrize(
    "sentence",
    [
        # easydiffusion/easydiffusion#1607
        "3. watch the install scroll, it proceeds to install torch 2.0 over top and unneeded various nvidia cuda pacakges",
        # arcee-ai/mergekit#182 ("no matter if you" is no advice)
        "Mergekit seems to install NVIDIA CUDA dependencies no matter if you are on NVIDIA or a AMD card on Linux",
        # invoke-ai/InvokeAI#7520, LykosAI/StabilityMatrix#885
        "The AMD option in the installer installs NVIDIA dependencies.",
        "Updating ComfyUI with ROCm selected installs Nvidia packages.",
    ],
)
def test_nvidia_dependencies_installed_are_read_as_a_non_rocm_torch_install(sentence: str) -> None:
    assert TOLD in report_contexts(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "I uninstalled the nvidia packages and reinstalled ROCm.",
        "I installed the CUDA toolkit packages.",
        "Do I need to install the nvidia cuda libraries?",
        "If you have an NVIDIA card, install the CUDA packages.",
        "It did not install nvidia packages.",
        "Before the update it used to install nvidia packages too.",
    ],
)
def test_removals_toolkits_advice_questions_and_the_past_are_not_read(sentence: str) -> None:
    assert TOLD not in report_contexts(sentence)
