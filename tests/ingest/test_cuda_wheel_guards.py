"""A CUDA build's message ("Found no NVIDIA driver on your system") shows the torch that ran is a CUDA
build, but it is a mistake only on a machine whose GPUs are AMD: a machine with an NVIDIA GPU (nvidia-smi's
table, a card named in words) or a ZLUDA setup, which runs a CUDA build on the AMD GPU on purpose, gets no
cuda_wheel_on_amd finding. nvidia-smi's table is read as the NVIDIA GPUs it lists."""

from __future__ import annotations

from typing import List

import pytest
from ingest_helpers import ingest, problems_shown

CUDA_WHEEL_ON_AMD = ("RD100", "RD500", "RD528", "RD537", "RD550", "RD570", "RD571", "RD760", "RD827", "RD870", "RD968")

OLD_TABLE = """+-----------------------------------------------------------------------------+
| NVIDIA-SMI 510.60.02    Driver Version: 510.60.02    CUDA Version: N/A      |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
|===============================+======================+======================|
|   0  NVIDIA GeForce ...  Off  | 00000000:01:00.0  On |                  N/A |
| 53%   32C    P5    11W / 120W |    662MiB /  3072MiB |      0%      Default |
+-------------------------------+----------------------+----------------------+
"""
NEW_TABLE = """+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 580.82.07              Driver Version: 580.82.07      CUDA Version: 13.0     |
+-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
|=========================================+========================+======================|
|   0  NVIDIA GeForce GTX 1650        Off |   00000000:01:00.0 Off |                  N/A |
| N/A   39C    P8              2W /   50W |       6MiB /   4096MiB |      0%      Default |
+-----------------------------------------+------------------------+----------------------+
"""
KMD_TABLE = """| NVIDIA-SMI 610.43.02              KMD Version: 610.43.02     CUDA UMD Version: 13.3     |
|=========================================+========================+======================|
|   0  NVIDIA B200                    On  |   00000000:63:00.0 Off |                    0 |
|   1  NVIDIA B200                    On  |   00000000:68:00.0 Off |                    0 |
"""
WINDOWS_TABLE = """| NVIDIA-SMI 546.33                 Driver Version: 546.33       CUDA Version: 12.3     |
|   0  NVIDIA GeForce RTX 3060      WDDM  |   00000000:01:00.0  On |                  N/A |
"""
FOUND_NO_NVIDIA = (
    "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver "
    "from http://www.nvidia.com/Download/index.aspx\n"
)


def _nvidia_names(text: str) -> List[str]:
    return [str(a.name.value) for a in ingest(text).facts.gpus.agents if a.vendor.is_known and a.vendor.value == "NVIDIA"]


@pytest.mark.parametrize(
    "table,names",
    [(OLD_TABLE, ["NVIDIA GeForce"]), (NEW_TABLE, ["NVIDIA GeForce GTX 1650"]), (KMD_TABLE, ["NVIDIA B200"]), (WINDOWS_TABLE, ["NVIDIA GeForce RTX 3060"])],
)
def test_the_gpu_rows_of_an_nvidia_smi_table_are_read_as_nvidia_gpus(table: str, names: List[str]) -> None:
    # read as a mention beside the AMD listings, one per model: they say an NVIDIA GPU is there, not how many
    assert _nvidia_names("$ nvidia-smi\n" + table) == names


@pytest.mark.parametrize(
    "text",
    [
        "$ nvidia-smi\nNo devices were found\n",
        "$ nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n",
        "I ran nvidia-smi out of habit on my RX 7900 XTX box, it's not installed.\n",
    ],
)
def test_nvidia_smi_without_its_table_shows_no_nvidia_gpu(text: str) -> None:
    assert _nvidia_names(text) == []


def test_an_nvidia_smi_table_beside_an_amd_card_keeps_both_gpus() -> None:
    text = OLD_TABLE + "I also have an AMD Radeon RX 580 as a second card.\ntorch 2.1.0+cu121\n"
    vendors = sorted(str(a.vendor.value) for a in ingest(text).facts.gpus.agents if a.vendor.is_known)
    assert vendors == ["AMD", "NVIDIA"]


@pytest.mark.parametrize(
    "text",
    [
        # verm/freebsd-stable-diffusion#2: an NVIDIA machine's table beside PyTorch's message
        "$ nvidia-smi\n" + OLD_TABLE + "The AMD Radeon RX 580 is the second card.\n" + FOUND_NO_NVIDIA,
        NEW_TABLE + "ROCm 6.0 is installed too, for the RX 6600.\ntorch 2.1.0+cu121\n" + FOUND_NO_NVIDIA,
        "GPU: NVIDIA GeForce RTX 4090 (the RX 6800 drives the display)\n" + FOUND_NO_NVIDIA,
    ],
)
def test_a_machine_with_an_nvidia_gpu_gets_no_cuda_wheel_on_amd_finding(text: str) -> None:
    assert not set(CUDA_WHEEL_ON_AMD) & set(problems_shown(text))


@pytest.mark.parametrize(
    "text",
    [
        "SD.Next with --use-zluda on my RX 7900 XTX\ntorch 2.3.1+cu118\nUserWarning: CUDA initialization: " + FOUND_NO_NVIDIA,
        "Running ComfyUI-Zluda on an RX 6800 (Windows 11).\n" + FOUND_NO_NVIDIA,
        "ZLUDA on RX 6700 XT, Windows 11\nnvidia-cuda-runtime-cu12==12.1.105\nnvidia-cudnn-cu12==8.9.2.26\ntorch==2.3.1+cu121\n",
    ],
)
def test_zluda_which_runs_a_cuda_build_on_purpose_gets_no_cuda_wheel_on_amd_finding(text: str) -> None:
    assert not set(CUDA_WHEEL_ON_AMD) & set(problems_shown(text))


@pytest.mark.parametrize(
    "text",
    [
        "RX 7900 XTX on Ubuntu 22.04\n" + FOUND_NO_NVIDIA,
        "My AMD Radeon RX 580 on Linux Mint; nvidia-smi is not installed.\n" + FOUND_NO_NVIDIA,
    ],
)
def test_an_amd_only_machine_with_the_cuda_message_still_gets_the_cuda_build_finding(text: str) -> None:
    assert "RD500" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # ZLUDA denied, left behind, asked about or another person's: the report does not run it (r34b)
        "RX 6800 XT on Ubuntu 22.04, ROCm 6.1. I am not using ZLUDA, this is native Linux.\n" + FOUND_NO_NVIDIA,
        "RX 6800 XT on Ubuntu 22.04. I used ZLUDA on Windows before, now I run Linux with ROCm 6.1.\n" + FOUND_NO_NVIDIA,
        "RX 6800 XT on Ubuntu 22.04, ROCm 6.1. Should I try ZLUDA instead?\n" + FOUND_NO_NVIDIA,
        "RX 6800 XT on Ubuntu 22.04, ROCm 6.1, without ZLUDA.\n" + FOUND_NO_NVIDIA,
        "RX 6800 XT on Ubuntu 22.04, ROCm 6.1. My friend's PC runs it through ZLUDA.\n" + FOUND_NO_NVIDIA,
    ],
)
def test_zluda_named_only_as_denied_past_asked_or_anothers_keeps_the_cuda_build_finding(text: str) -> None:
    assert "RD500" in problems_shown(text)


HEALTHY_NOW = (
    "$ python -c \"import torch; print(torch.__version__, torch.version.hip, torch.cuda.is_available())\"\n"
    "2.4.1+rocm6.1 6.1.40091 True\n"
    "Generation works on the GPU now.\n"
)


@pytest.mark.parametrize(
    "past",
    [
        'RX 7900 XTX on Ubuntu 24.04. Before I reinstalled torch, ComfyUI said "Found no NVIDIA driver on your system".\n',
        "RX 6800 on Arch. Before the update I got `AssertionError: Torch not compiled with CUDA enabled` in the web UI.\n",
        "RX 7600 on Fedora. Initially it failed with RuntimeError: Found no NVIDIA driver on your system, pip had pulled cu121.\n",
    ],
)
def test_a_cuda_or_cpu_builds_message_said_of_the_past_gives_a_healthy_rocm_report_no_torch_build_problem(past: str) -> None:
    # the reporter tells what the machine printed before the fix; the torch shown now is a ROCm build that finds the GPU
    assert not set(CUDA_WHEEL_ON_AMD + ("RD101", "RD501")) & set(problems_shown(past + HEALTHY_NOW))
