"""DirectML outside Windows and hipBLAS calls compiled out of PyTorch's Windows ROCm build (learn54e).

d3d12_library_missing: LykosAI/StabilityMatrix#1134, lshqqytiger/stable-diffusion-webui-amdgpu#176,
microsoft/DirectML#29, microsoft/WSL#6096. directml_onnxruntime_not_found: microsoft/onnxruntime#16442,
setiastro/setiastrosuitepro#24, RVC-Project/Retrieval-based-Voice-Conversion-WebUI#1109.
hip_windows_blas_call_unsupported: ROCm/TheRock#1367, Comfy-Org/ComfyUI#10272, vladmandic/sdnext#4225.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors


@pytest.mark.parametrize(
    ("line", "signature"),
    [
        ("OSError: libd3d12.so: cannot open shared object file: No such file or directory", "d3d12_library_missing"),
        ("ImportError: libdxcore.so: cannot open shared object file: No such file or directory", "d3d12_library_missing"),
        ("ERROR: No matching distribution found for onnxruntime-directml", "directml_onnxruntime_not_found"),
        (
            "ERROR: Could not find a version that satisfies the requirement onnxruntime-directml (from versions: none)",
            "directml_onnxruntime_not_found",
        ),
        (
            "ERROR: No matching distribution found for ort-nightly-directml==1.18.0.dev20240419003",
            "directml_onnxruntime_not_found",
        ),
        (  # uv's words for pip's "(from versions: none)"
            "  ╰─▶ Because onnxruntime-directml was not found in the package registry and you require "
            "onnxruntime-directml, we can conclude that your requirements are unsatisfiable.",
            "directml_onnxruntime_not_found",
        ),
        ("  ╰─▶ Because there is no version of onnxruntime-directml==1.17.1 and you require", "directml_onnxruntime_not_found"),
        (
            "RuntimeError: at::cuda::blas::getrsBatched: not supported for HIP on Windows",
            "hip_windows_blas_call_unsupported",
        ),
        ("RuntimeError: at::cuda::blas::geqrfBatched: not supported for HIP on Windows", "hip_windows_blas_call_unsupported"),
        ("RuntimeError: at::cuda::blas::gelsBatched: not supported for HIP on Windows", "hip_windows_blas_call_unsupported"),
    ],
)
def test_platform_limit_messages_are_read(line: str, signature: str) -> None:
    assert signature in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "OSError: libamdhip64.so: cannot open shared object file: No such file or directory",
        "ERROR: No matching distribution found for onnxruntime-gpu",
        "  ╰─▶ Because onnxruntime-gpu was not found in the package registry and you require onnxruntime-gpu",
        "Because numpy was not found in the package registry and onnxruntime-directml depends on numpy",
        "ERROR: No matching distribution found for torch-directml",
        "Successfully installed onnxruntime-directml-1.17.1",
        "hipBLASLt is not supported on this architecture",
        "Flash attention is not supported on Windows",
        "UserWarning: Flash attention is not supported for HIP on Windows yet; using math SDPA",
        "is the UniPC sampler not supported for HIP on Windows on AMD cards?",
    ],
)
def test_neighbouring_lines_are_not_read_as_platform_limits(line: str) -> None:
    errors = signature_errors(line)
    for signature in ("d3d12_library_missing", "directml_onnxruntime_not_found", "hip_windows_blas_call_unsupported"):
        assert signature not in errors


def test_onnxruntime_directml_missing_on_linux_is_a_platform_limit() -> None:
    report = (
        "### Platform\n\nLinux\n\n### OS Version\n\nUbuntu 22.04\n\n"
        "$ pip3 install onnxruntime-directml\n"
        "ERROR: Could not find a version that satisfies the requirement onnxruntime-directml (from versions: none)\n"
        "ERROR: No matching distribution found for onnxruntime-directml\n"
    )
    assert "RD353" in problems_shown(report)


def test_onnxruntime_directml_missing_on_windows_is_not_called_a_linux_limit() -> None:
    report = (
        "OS: Windows 11\n"
        "PS C:\\Users\\me\\My Projects\\app> pip install onnxruntime-directml\n"
        "ERROR: No matching distribution found for onnxruntime-directml\n"
    )
    assert "RD353" not in problems_shown(report)


def test_direct3d12_missing_is_explained_as_directml_without_d3d12() -> None:
    report = (
        "Launching Web UI with arguments: --always-gpu --directml --skip-torch-cuda-test\n"
        '  File "/opt/app/venv/lib/python3.10/site-packages/torch_directml/__init__.py", line 16, in <module>\n'
        "OSError: libd3d12.so: cannot open shared object file: No such file or directory\n"
    )
    assert "RD349" in problems_shown(report)


def test_hipblas_call_compiled_out_on_windows_is_explained() -> None:
    report = (
        "** Platform: Windows\n"
        "pytorch version: 2.8.0a0+gitfc14c65\n"
        "AMD arch: gfx1201\n"
        "!!! Exception during processing !!! at::cuda::blas::getrsBatched: not supported for HIP on Windows\n"
    )
    assert "RD354" in problems_shown(report)


def test_direct3d12_missing_inside_wsl2_is_explained_too() -> None:
    report = (
        "Windows 11, WSL2 Ubuntu 22.04, Radeon RX 7900 XTX\n"
        "$ uname -r\n5.15.153.1-microsoft-standard-WSL2\n"
        ">>> import torch_directml\n"
        "OSError: libdxcore.so: cannot open shared object file: No such file or directory\n"
    )
    assert "RD349" in problems_shown(report)


def test_only_the_four_batched_calls_pytorch_compiles_out_are_called_a_windows_build_limit() -> None:
    report = (
        "Windows 11, RX 7900 XTX, torch 2.8.0\n"
        "UserWarning: Flash attention is not supported for HIP on Windows yet; using math SDPA.\n"
    )
    assert "RD354" not in problems_shown(report)


# fix54a: torch-directml runs inside WSL2 (torch-directml 0.1.13.dev221206 on PyPI: "supported on both the latest
# versions of Windows 10 and the Windows Subsystem for Linux"; its manylinux wheels load Direct3D 12 from
# /usr/lib/wsl/lib), so "DirectML on Linux" (RD534) is no finding where the report is WSL2 or names WSL.
@pytest.mark.parametrize(
    "platform",
    [
        "$ uname -r\n5.15.153.1-microsoft-standard-WSL2\n",
        "I am using wsl2 debian with an RX 6600.\n",
        "Ubuntu 22.04\n$ ls /usr/lib/wsl/lib\nlibd3d12.so  libdxcore.so\n",
        "Ubuntu 20.04\nLinux version 4.19.104-microsoft-standard (oe-user@oe-host)\n",
    ],
)
def test_directml_inside_wsl_is_not_called_directml_on_linux(platform: str) -> None:
    report = platform + ">>> import torch_directml\n>>> dml = torch_directml.device()\nRuntimeError: Unknown error -2147024809\n"
    assert "RD534" not in problems_shown(report)


def test_directml_on_native_linux_is_still_called_a_platform_limit() -> None:
    report = "OS: Linux Mint 21.2\nGPU: RX 6600\npython launch.py --use-directml\nRuntimeError: Torch is not able to use GPU\n"
    assert "RD534" in problems_shown(report)


def test_direct3d12_missing_on_native_linux_is_one_finding_not_two() -> None:
    report = (
        "OS: Arch Linux\n"
        "Launching Web UI with arguments: --directml\n"
        ">>> import torch_directml\n"
        "OSError: libd3d12.so: cannot open shared object file: No such file or directory\n"
    )
    shown = problems_shown(report)
    assert "RD349" in shown and "RD534" not in shown
