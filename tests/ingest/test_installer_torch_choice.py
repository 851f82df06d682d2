"""An installer's own line naming the torch build it chose (cw48, class cuda_wheel_on_amd): SD.Next prints that
it detected NVIDIA's toolkit (whenever nvidia-smi is on PATH) or fell back to a torch without a GPU backend, and
installs that build, never a ROCm one (vladmandic/sdnext installer.py at a136a8ea, b9e230c1, 058a7f0c).
Assertions are about context ids and finding categories."""

from __future__ import annotations

import pytest
from ingest_helpers import report_contexts, serious_findings


@pytest.mark.parametrize(
    "line",
    [
        "00:41:13-231622 INFO     nVidia CUDA toolkit detected",  # vladmandic/sdnext#1275, #1424 (2023)
        "10:06:25-641884 INFO     CUDA: nVidia toolkit detected",  # vladmandic/sdnext#3896 (2024 on)
    ],
)
def test_sdnext_detecting_nvidias_toolkit_is_a_cuda_torch_install(line: str) -> None:
    assert "non_rocm_torch_install_told" in report_contexts(line)


@pytest.mark.parametrize(
    "line",
    [
        "05:17:15-689269 INFO     Using CPU-only Torch",  # vladmandic/sdnext#1047
        "12:11:51-561950 INFO     Using CPU-only torch",  # vladmandic/sdnext#3108
        "21:45:59-869097 WARNING  Torch: CPU-only version installed",  # installer.py at 058a7f0c
        "2023-08-12 14:06:56,781 | sd | INFO | installer | Using CPU-only Torch",  # sdnext.log's own format
        "Failed to install ZLUDA\nUsing CPU-only torch",  # CS1o/Stable-Diffusion-Info#45 (a Forge fork's launcher)
    ],
)
def test_sdnext_falling_back_to_a_torch_without_gpu_backend_is_a_cpu_torch_install(line: str) -> None:
    assert "cpu_torch_install_told" in report_contexts(line)


def test_the_cuda_choice_on_an_amd_machine_is_a_torch_build_warning_never_an_error() -> None:
    text = "Everything rocm is installed for my RX 6400.\n00:41:13-231622 INFO     nVidia CUDA toolkit detected\n"
    found = serious_findings(text)
    assert any(rule == "RD540" and category == "torch-build" for rule, _, category in found)
    assert all(severity != "error" for _, severity, _ in found)


def test_the_cuda_choice_on_a_machine_with_an_nvidia_gpu_is_no_torch_build_finding() -> None:
    text = (
        "10:06:25-641884 INFO     CUDA: nVidia toolkit detected\n"
        "Device: device=NVIDIA GeForce RTX 5090 n=1 arch=sm_90 capability=(12, 0) cuda=12.6\n"
    )
    assert not any(category == "torch-build" for _, _, category in serious_findings(text))


@pytest.mark.parametrize(
    "text",
    [
        "Make sure you're using CPU-only torch: `pip install torch --index-url https://download.pytorch.org/whl/cpu`",
        "# Using CPU-only torch to save ~2GB\nRUN pip install torch",
        "I'm using CPU-only torch on purpose for this test.",
    ],
)
def test_only_the_launchers_printed_line_is_the_cpu_torch_choice_not_prose_advice_or_a_comment(text: str) -> None:
    # rev48a: the pattern read the words anywhere; advice and a Dockerfile comment are no install step
    assert "installer_chose_cpu_torch" not in report_contexts(text)


def test_advice_about_the_cuda_toolkit_line_is_not_the_installer_choosing_cuda() -> None:
    # rev48a: advice quoting the line fired RD540 (a CUDA build installed) on a report that shows no such log
    text = 'RX 6800 on Linux, ROCm 6.2. If it says "nVidia CUDA toolkit detected", remove the leftover nvidia-smi.'
    assert "installer_chose_cuda_torch" not in report_contexts(text)
