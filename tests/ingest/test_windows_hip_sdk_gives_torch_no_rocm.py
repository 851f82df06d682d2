"""learn54o: the HIP SDK named on native Windows, where it gives PyTorch no ROCm build (RD577).

Reports: ROCm/legacy-rocm-build#4872 (RX 7900 XTX, HIP_SDK 6.2, no PyTorch for it), pytorch/pytorch#106529
(RX 6600 XT after the HIP SDK for Windows, the ROCm index has no Windows torch), CS1o/Stable-Diffusion-Info#56
(Windows 11, RX 9070, HIP 6.4, torch still the CUDA build). The texts below are our own, in their shapes.
"""

from __future__ import annotations

import pytest

from tests.ingest.ingest_helpers import problems_shown, signature_contexts


@pytest.mark.parametrize(
    "line",
    [
        "I installed the HIP SDK 6.2 on Windows 11 with my 7900 XTX.",
        "ROCm for windows is called HIP_SDK, I have it installed.",
        "Installed AMD HIP-SDK and the latest Adrenalin driver.",
    ],
)
def test_hip_sdk_named_in_a_statement(line: str) -> None:
    assert "windows_hip_sdk_named" in signature_contexts(line)


@pytest.mark.parametrize(
    "line",
    [
        "sudo pacman -S rocm-hip-sdk",
        "see https://www.amd.com/en/developer/resources/rocm-hub/hip-sdk.html",
    ],
)
def test_hip_sdk_package_or_address_is_not_the_windows_sdk_named(line: str) -> None:
    assert "windows_hip_sdk_named" not in signature_contexts(line)


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("pip install rocm-sdk-core rocm-sdk-libraries-custom", True),
        ("torch 2.9.1+rocmsdk20260116", True),
        ("pip install --index-url https://rocm.nightlies.amd.com/v2/gfx120X-all/ torch", True),
        ("cd rocm_sdk_builder && ./babs.sh -i", False),
    ],
)
def test_amd_windows_torch_wheels_named(line: str, named: bool) -> None:
    assert ("amd_windows_torch_wheels_named" in signature_contexts(line)) is named


HIP_SDK_CPU_TORCH = """\
Windows 11, Radeon RX 7900 XTX. I installed the HIP SDK 6.2 and then pip install torch.

PS C:\\Users\\me> python -c "import torch; print(torch.__version__, torch.cuda.is_available())"
2.5.1+cpu False
"""


def test_windows_hip_sdk_with_pypi_torch_gets_the_platform_finding() -> None:
    assert "RD577" in problems_shown(HIP_SDK_CPU_TORCH)


@pytest.mark.parametrize(
    "text",
    [
        # AMD's Windows wheels: a ROCm torch
        HIP_SDK_CPU_TORCH.replace("2.5.1+cpu False", "2.9.1+rocmsdk20260116 True"),
        # ZLUDA runs a CUDA torch on the HIP SDK on purpose
        HIP_SDK_CPU_TORCH.replace("and then pip install torch.", "and ZLUDA, started with --use-zluda."),
        # the same words on Linux
        "Ubuntu 24.04, RX 7900 XTX. I read about the HIP SDK for Windows; here pip install torch gives:\n"
        "$ python -c \"import torch; print(torch.__version__, torch.cuda.is_available())\"\n2.5.1+cu124 False\n",
    ],
)
def test_rocm_torch_zluda_or_linux_do_not_get_it(text: str) -> None:
    assert "RD577" not in problems_shown(text)


@pytest.mark.parametrize(
    "line",
    [
        "I don't have the HIP SDK installed.",
        "I haven't installed the HIP SDK yet.",
        "Running it without the HIP SDK.",
        "HIP SDK not installed.",
        "I uninstalled the HIP SDK last week.",
    ],
)
def test_hip_sdk_said_absent_is_not_named_as_installed(line: str) -> None:
    assert "windows_hip_sdk_named" not in signature_contexts(line)


def test_an_nvidia_windows_machine_with_the_hip_sdk_does_not_get_it() -> None:
    text = HIP_SDK_CPU_TORCH.replace("Radeon RX 7900 XTX", "NVIDIA GeForce RTX 4090")
    assert "RD577" not in problems_shown(text)


@pytest.mark.parametrize(
    "line",
    [
        "My 7900 XTX has PyTorch 2.5.1 on it.",
        "My 7900 XTX has torch 2.5.1 on it.",
        "My 7900 XTX has torch==2.5.1 on it.",
        "My 7900 XTX has torch version 2.5.1 on it.",
    ],
)
def test_pytorch_is_named_by_any_spelling_of_its_release(line: str) -> None:
    # the metamorphic 'torch version spellings' rewrite respells one into another: the context must not depend on it
    assert "pytorch_named" in signature_contexts(line)


@pytest.mark.parametrize(
    "line",
    ["My 7900 XTX has torchvision 0.20.1 on it.", "My 7900 XTX has torch-directml 0.2.5 on it.", "ollama 0.5.4 uses my 7900 XTX."],
)
def test_a_companion_package_release_does_not_name_pytorch(line: str) -> None:
    assert "pytorch_named" not in signature_contexts(line)
