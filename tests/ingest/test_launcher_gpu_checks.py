"""Launchers' own start-up checks that torch finds no GPU, in each launcher's words (issue 23, class
cuda_wheel_on_amd): stable-diffusion-webui's "Torch is not able to use GPU" and Forge's "PyTorch is not
able to access CUDA" (the same assert torch.cuda.is_available(); Haoming02/sd-webui-forge-classic#84,
#272, #646; CS1o/Stable-Diffusion-Info#56). Assertions are about contexts and finding categories.
"""

from __future__ import annotations

import pytest
from ingest_helpers import report_contexts, serious_findings

CHECK = "webui_torch_gpu_check_failed"


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: PyTorch is not able to access CUDA",
        '    raise RuntimeError("PyTorch is not able to access CUDA")',
        "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check",
    ],
)
def test_a_launcher_s_failed_gpu_check_is_read_in_each_launcher_s_words(line: str) -> None:
    assert CHECK in report_contexts(f"Forge Neo on Linux.\n{line}\n")


def test_forge_s_failed_gpu_check_on_an_amd_machine_gets_a_torch_build_finding_first() -> None:
    text = "Radeon RX 7900 XTX, Ubuntu 22.04. Fresh install of Forge.\nRuntimeError: PyTorch is not able to access CUDA\n"
    assert [category for _, _, category in serious_findings(text)][:1] == ["torch-build"]


def test_forge_s_failed_gpu_check_on_an_nvidia_machine_gets_no_amd_finding() -> None:
    text = "RTX 3080 Ti on Windows 11.\nRuntimeError: PyTorch is not able to access CUDA\n"
    assert serious_findings(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Laptop: AMD Ryzen 7 7840HS, NVIDIA GeForce RTX 4070. Forge says RuntimeError: PyTorch is not able to access CUDA\n",
        "Ryzen 9 7940HS with Radeon 780M and an RTX 4060 laptop GPU, Forge: RuntimeError: PyTorch is not able to access CUDA\n",
    ],
)
def test_forge_failing_its_gpu_check_beside_an_nvidia_gpu_is_not_blamed_on_a_missing_rocm_build(text: str) -> None:
    assert "RD535" not in [rule for rule, _, _ in serious_findings(text)]
