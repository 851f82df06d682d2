"""An extension or triton built for another torch build than the one installed (block h31c).

Issue 23, classes package_mismatch and torch_rocm_mismatch. Each form is the shape several
independent real reports use (named per case); the texts are written for the test, not copied
from one report, and the assertions are about the signature read and the findings shown.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors


@pytest.mark.parametrize(
    "text",
    [
        # xformers' own two lines (easydiffusion/easydiffusion#1603: cu118 wheel beside rocm5.4.2)
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        "    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.0.1+rocm5.4.2)\n"
        "    Python  3.8.17 (you have 3.8.5)\n",
        # a Ray worker's prefix on every line (vllm-project/vllm#2217)
        "(RayWorkerVllm pid=4411)     PyTorch 2.1.1+cu121 with CUDA 1201 (you have 2.1.1+rocm5.6)\n",
        # another torch release on each side, a TheRock torch (unslothai/unsloth#11639)
        "    PyTorch 2.10.0+cu128 with CUDA 1208 (you have 2.11.0+rocm7.13.0)\n",
    ],
)
def test_xformers_built_for_a_cuda_torch_beside_a_rocm_torch_is_read(text: str) -> None:
    assert "xformers_cuda_build_beside_rocm_torch" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # built from source for the same ROCm torch: the extension failed for another reason (ROCm/xformers#60)
        "    PyTorch 2.5.1+rocm6.2 with CUDA None (you have 2.5.1+rocm6.2)\n",
        # a CUDA xformers beside a CUDA or CPU torch is no AMD machine's mismatch
        "    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)\n",
        "    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.1.0+cu121)\n",
    ],
)
def test_xformers_lines_without_a_cuda_build_beside_a_rocm_torch_are_not_read(text: str) -> None:
    assert "xformers_cuda_build_beside_rocm_torch" not in signature_errors(text)


def test_a_cuda_xformers_beside_a_rocm_torch_is_a_packages_finding() -> None:
    report = (
        "RX 7900 XTX, Ubuntu 24.04, torch 2.5.1+rocm6.2 from the rocm6.2 index, then pip install xformers.\n"
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        "    PyTorch 2.5.1+cu124 with CUDA 1204 (you have 2.5.1+rocm6.2)\n"
    )
    assert "RD671" in problems_shown(report)
