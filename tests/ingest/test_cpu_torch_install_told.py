"""An install step told to have put torch's CPU-only build in place, on an AMD machine, is a torch-build finding
(RD575, context cpu_torch_install_told): an installer's fallback ("falling back to CPU-only PyTorch",
unslothai/unsloth#8402; "Installing CPU-only PyTorch (ROCm wheels require the HIP SDK)", unslothai/unsloth#5301) or
the reporter's own install ("downloaded the CPU binary package for pyTorch", AliaksandrSiarohin/first-order-model#400).
Assertions are about contexts and finding categories, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings


@pytest.mark.parametrize(
    "sentence",
    [
        "The installer printed: [WARN] AMD GPU detected, but no ROCm/HIP install was found -- falling back to CPU-only PyTorch.",
        "The install script said it could not find a GPU so it installs the CPU-only PyTorch.",
        "Installing CPU-only PyTorch (ROCm wheels require the HIP SDK).",
        "I have no CUDA, so I downloaded the CPU binary package for pyTorch.",
        # the verb with its "re" (learn52h: meizhong986/WhisperJAV#120)
        "The installer uninstalls the existing ROCm-enabled PyTorch, then reinstalls a CPU-only version of PyTorch.",
        # a step taken, said with "decided to" / "had to" (learn55g: first-order-model#400's own words)
        "So I decided to download the CPU binary package for pyTorch first, which has poor speed and performance.",
        "I had to install the CPU version of torch because ROCm did not support my card.",
    ],
)
def test_a_cpu_torch_install_told_on_an_amd_gpu_is_a_torch_build_finding(sentence: str) -> None:
    report = f"RX 7800 XT on Ubuntu 24.04.\n{sentence}\n"
    assert "cpu_torch_install_told" in (ingest(report).facts.symptoms.context.value or [])
    assert "torch-build" in [category for _, _, category in serious_findings(report)][:1]


@pytest.mark.parametrize(
    "sentence",
    [
        "I did not install the CPU version of torch.",
        "If you have no GPU, install the CPU-only torch.",
        "Should I install the CPU version of torch?",
        "Use the rocm index instead of installing the CPU torch.",
        # a wish or advice with "to" stays out (learn55g)
        "I want to install the CPU version of torch.",
        "You need to install the CPU version of torch.",
        # the taken-step verb negated, or a wish (rev55g)
        "I never decided to install the CPU version of torch.",
        "I never had to install the CPU version of torch.",
        "I wish I had decided to install the CPU version of torch.",
    ],
)
def test_a_cpu_torch_install_denied_advised_or_asked_is_not_read(sentence: str) -> None:
    report = f"RX 7800 XT on Ubuntu 24.04.\n{sentence}\n"
    assert "cpu_torch_install_told" not in (ingest(report).facts.symptoms.context.value or [])


def test_a_rocm_torch_shown_now_outranks_the_told_cpu_install() -> None:
    report = "RX 7800 XT on Ubuntu 24.04.\nThe installer fell back to CPU-only PyTorch, so I reinstalled: torch 2.5.1+rocm6.2 now.\n"
    assert "RD575" not in [rule for rule, _, _ in serious_findings(report)]
