"""Containers that lack the host's render group, and settings that never reach the process (issue 23,
rules RD850-RD859, branch h27p).

Each wording is a form seen in several public reports (the signature rows and rules name them); none
is one report's text.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown

# ----------------------------------------------------------------- "No CUDA GPUs are available"

_AMD_NO_GPU = (
    "GPU: AMD Radeon RX 7900 XTX\n"
    ">>> torch.cuda.get_device_name(0)\n"
    "RuntimeError: No CUDA GPUs are available\n"
)


def test_no_cuda_gpus_available_does_not_make_the_torch_build_a_cuda_one() -> None:
    # A CUDA build without NVIDIA's driver says "Found no NVIDIA driver"; this message is printed
    # by ROCm builds too (c10/cuda/CUDAFunctions.cpp, ROCm/vllm#893).
    flavour = ingest(_AMD_NO_GPU).facts.torch.flavour
    assert not (flavour.is_known and flavour.value == "cuda")


def test_no_cuda_gpus_available_on_an_amd_report_gives_no_cuda_build_error() -> None:
    shown = problems_shown(_AMD_NO_GPU)
    assert "RD100" not in shown and "RD528" not in shown


def test_found_no_nvidia_driver_still_shows_a_cuda_build() -> None:
    text = "GPU: AMD Radeon RX 7900 XTX\nRuntimeError: Found no NVIDIA driver on your system. Please check\n"
    assert ingest(text).facts.torch.flavour.value == "cuda"
