"""A package beside torch asks for NVIDIA's CUDA runtime: the traceback's last frame above the loader's message lies in
that package (rocm_doctor/ingest/formats/extension_cuda_import.py, rule RD992; learn67c). Reports:
theroyallab/tabbyAPI#5, visualbruno/ComfyUI-Trellis2#156, sgl-project/sglang#2584."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

CONTEXT = "cuda_runtime_asked_by_companion"

FLASH_ATTN = """\
Traceback (most recent call last):
  File "/home/me/ai/tabbyAPI/model.py", line 4, in <module>
    from exllamav2 import ExLlamaV2
  File "/home/me/miniconda3/lib/python3.11/site-packages/flash_attn/flash_attn_interface.py", line 8, in <module>
    import flash_attn_2_cuda as flash_attn_cuda
ImportError: libcudart.so.12: cannot open shared object file: No such file or directory
"""

TORCH_FRAME = """\
Traceback (most recent call last):
  File "/home/me/venv/lib/python3.10/site-packages/torch/__init__.py", line 237, in <module>
    from torch._C import *
ImportError: libcudart.so.12: cannot open shared object file: No such file or directory
"""

TENSORFLOW_FRAME = """\
Traceback (most recent call last):
  File "/home/me/.local/lib/python3.5/site-packages/tensorflow/python/pywrap_tensorflow.py", line 58, in <module>
    from tensorflow.python.pywrap_tensorflow_internal import *
ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory
"""

IMP_FRAME = """\
Traceback (most recent call last):
  File "/home/me/.local/lib/python3.5/site-packages/tensorflow/python/pywrap_tensorflow_internal.py", line 24, in swig_import_helper
    _mod = imp.load_module('_pywrap_tensorflow_internal', fp, pathname, description)
  File "/usr/lib/python3.5/imp.py", line 342, in load_dynamic
    return _load(spec)
ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory
"""

DRIVER_LIBRARY = """\
Traceback (most recent call last):
  File "/root/miniconda3/envs/x/lib/python3.10/site-packages/sgl_kernel/__init__.py", line 12, in <module>
    from sgl_kernel import common_ops
ImportError: libcuda.so.1: cannot open shared object file: No such file or directory
"""


def _context(text: str) -> list:
    return ingest(text).facts.symptoms.context.value or []


def test_a_frame_in_a_companion_package_above_the_cuda_library_message_is_read() -> None:
    assert CONTEXT in _context(FLASH_ATTN)


def test_a_companion_frame_in_a_debian_dist_packages_folder_is_read() -> None:
    assert CONTEXT in _context(FLASH_ATTN.replace("miniconda3/lib/python3.11/site-packages", "usr/lib/python3/dist-packages"))


@pytest.mark.parametrize(
    "text",
    [
        TORCH_FRAME,  # torch itself is the CUDA build
        TENSORFLOW_FRAME,  # another framework's wrong build, not a companion of torch
        IMP_FRAME,  # the last frame is Python's own loader, not a package
        DRIVER_LIBRARY,  # the driver's library: every CUDA build asks for it on a machine without NVIDIA's driver
        # the message with no frame above it
        "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n",
        # a frame further above than the traceback's own last lines
        FLASH_ATTN.replace("    import flash_attn_2_cuda as flash_attn_cuda\n", "    import flash_attn_2_cuda as flash_attn_cuda\n" + "    x\n" * 4),
    ],
)
def test_no_companion_is_read_where_the_frame_is_torchs_a_frameworks_or_absent(text: str) -> None:
    assert CONTEXT not in _context(text)


RULES = load_rules([], use_env=False)


def _findings(text: str) -> list:
    return [f.id for f in evaluate(RULES, ingest(text).facts).findings if f.severity in ("error", "warning")]


def test_a_cuda_built_companion_on_an_amd_machine_is_a_package_finding_not_a_torch_one() -> None:
    shown = _findings("AMD Radeon RX 7900 XTX with ROCm 6.2\n\n" + FLASH_ATTN)
    assert "RD992" in shown and "RD997" not in shown


def test_a_rocm_torch_stated_beside_a_cuda_library_message_puts_the_cuda_build_beside_torch() -> None:
    text = "- GPU: AMD Radeon RX 9070 XT\n- PyTorch: 2.9.1+rocmsdk20260116 (ROCm 7.2)\n- OS: Windows 11\n\n| `cumesh` | `cudart64_12.dll` (procedure missing) | DLL load failed |\n"
    shown = _findings(text)
    assert "RD992" in shown and "RD997" not in shown


def test_torch_itself_asking_for_the_cuda_runtime_stays_a_torch_build_finding() -> None:
    shown = _findings("AMD Radeon RX 7900 XTX with ROCm 6.2\n\n" + TORCH_FRAME)
    assert "RD992" not in shown and "RD997" in shown


def test_a_companion_frame_on_a_cuda_machine_is_no_finding() -> None:
    # Dao-AILab/flash-attention#631's shape: an NVIDIA machine, torch 2.1.0 with CUDA 11.8
    text = "2.1.0\n11.8\nTrue\n" + FLASH_ATTN + "\nnvcc: NVIDIA (R) Cuda compiler driver\nGPU: NVIDIA GeForce RTX 4090\n"
    assert "RD992" not in _findings(text)


def test_advice_that_quotes_the_message_without_a_traceback_is_no_companion_finding() -> None:
    text = "On my RX 7900 XTX with ROCm 6.2: if you get libcudart.so.12: cannot open shared object file from flash_attn, install the ROCm build of flash-attn.\n"
    assert "RD992" not in _findings(text)


def test_a_folder_named_site_packages_above_the_environment_does_not_hide_torchs_frame() -> None:
    # review67b: the last site-packages folder of the path names the package, not the first
    text = TORCH_FRAME.replace("/home/me/venv/lib", "/home/me/site-packages/lib")
    assert CONTEXT not in _context(text)
    assert "RD992" not in _findings("AMD Radeon RX 6800 XT with ROCm 6.0\n\n" + text)


def test_a_rocm_torch_listed_beside_a_traceback_ending_in_torch_is_no_companion_finding() -> None:
    # review67b: pip lists a ROCm torch, yet the torch that ran (another environment's) asks for libcudart itself
    text = (
        "GPU: AMD Radeon RX 7900 XTX, ROCm 6.1, Ubuntu 22.04\n\n$ pip list | grep torch\ntorch                    2.3.1+rocm6.0\n\n"
        "$ python run.py\n" + TORCH_FRAME
    )
    shown = _findings(text)
    assert "RD992" not in shown and "RD997" in shown
