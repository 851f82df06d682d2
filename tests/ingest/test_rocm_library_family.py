"""ROCm's libraries as one family in the loader readers, and torch's MIOpen check (trm48, issue 23).

rocm_library_not_found, rocm_undefined_symbol and rocm_library_unresolved_by_ldd read the same ROCm library
stems (the ``rocm_library_stem`` fragment of rules/data/signatures.yaml); torch_miopen_build_differs_from_loaded
reads torch's "cuDNN version incompatibility" check when the versions are MIOpen's. The forms are those of
arch4edu/arch4edu#203, pytorch/pytorch#103973, ROCm/legacy-rocm-build#3654, ROCm/pytorch#2901 and
xuhuisheng/rocm-gfx803#13; the texts are written for the test.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors


@pytest.mark.parametrize(
    "line",
    [
        "clinfo: error while loading shared libraries: librocprofiler-register.so.0: cannot open shared object file: No such file or directory",
        "OSError: librocfft.so.0: cannot open shared object file: No such file or directory",
        "ImportError: libhsakmt.so.1: cannot open shared object file: No such file or directory",
        "ImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory",
        "OSError: libhipblas.so.1: cannot open shared object file: No such file or directory",
        # ROCm/TheRock#4150, #2114: the profiler SDK torch links from ROCm 7 on
        "ImportError: librocprofiler-sdk.so.1: cannot open shared object file: No such file or directory",
    ],
)
def test_any_rocm_library_the_loader_cannot_open_is_read(line: str) -> None:
    assert "rocm_library_not_found" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "OSError: libcudnn.so.8: cannot open shared object file: No such file or directory",
        "ImportError: libmcwamp_cpu.so: cannot open shared object file: No such file or directory",
        "OSError: libtorch_cuda.so: cannot open shared object file: No such file or directory",
    ],
)
def test_libraries_outside_rocm_are_not_read_as_rocm_libraries(line: str) -> None:
    assert "rocm_library_not_found" not in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "ImportError: /opt/rocm/lib/librocsolver.so.0: undefined symbol: _Z31rocblas_internal_syr2k_templateILb0E",
        "OSError: /opt/rocm-5.7.1/lib/libhipsolver.so.0: undefined symbol: rocsolver_zhegvdx_inplace",
        "ImportError: /usr/lib/librocm_smi64.so.7: undefined symbol: amdsmi_init",
        "ImportError: /opt/rocm/lib/libhipblas.so.2: undefined symbol: rocblas_sgbmv_64",
    ],
)
def test_an_undefined_symbol_in_any_rocm_library_is_read(line: str) -> None:
    assert "rocm_undefined_symbol" in signature_errors(line)


def test_an_undefined_symbol_in_a_library_outside_rocm_is_not_a_rocm_one() -> None:
    line = "ImportError: /usr/lib/libopencv_core.so.4.6: undefined symbol: _ZN2cv3Mat5ownerE"
    assert "rocm_undefined_symbol" not in signature_errors(line)


def test_a_system_rocm_library_missing_a_symbol_is_one_finding() -> None:
    report = (
        "python-pytorch-rocm 1.12.1-5 seems to be broken\n"
        ">>> import torch\n"
        "ImportError: /opt/rocm/lib/librocsolver.so.0: undefined symbol: _Z31rocblas_internal_syr2k_templateILb0ELb1EPKfS1_\n"
    )
    assert problems_shown(report) == ["RD942"]


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (2, 15, 0) but linked against (2, 16, 0)",
        "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (3, 1, 0) but found runtime version (3, 2, 0). PyTorch already comes bundled with cuDNN.",
        "cuDNN version incompatibility: PyTorch was compiled against (2, 21, 0) but linked against (3, 0, 0)",
    ],
)
def test_torchs_check_naming_two_miopen_releases_is_read(line: str) -> None:
    assert "torch_miopen_build_differs_from_loaded" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        # cuDNN's own versions (a CUDA build): not MIOpen
        "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, 2) but linked against (8, 0, 3)",
        "RuntimeError: cuDNN version mismatch: PyTorch was compiled against 7102 but linked against 7600",
        "cuDNN version incompatibility: PyTorch was compiled  against (9, 1, 0) but found runtime version (8, 9, 2).",
    ],
)
def test_cudnns_own_versions_are_not_read_as_miopen(line: str) -> None:
    assert "torch_miopen_build_differs_from_loaded" not in signature_errors(line)


def test_torch_refusing_another_rocms_miopen_is_reported_first() -> None:
    report = (
        "RX 580, I upgraded to ROCm 5.1.1 with a fresh installation.\n"
        "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (2, 15, 0) but linked against (2, 16, 0)\n"
    )
    assert problems_shown(report)[:1] == ["RD886"]


def test_a_nightly_rocm_wheel_that_cannot_load_a_library_it_links_is_the_nightlys_packaging() -> None:
    # ROCm/TheRock#4150's form: the version line and the import traceback, written for the test
    report = (
        "PyTorch version: 2.12.0.dev20260324+rocm7.2\n"
        '  File "/home/u/venv/lib/python3.12/site-packages/torch/__init__.py", line 443, in <module>\n'
        "    from torch._C import *\n"
        "ImportError: librocprofiler-sdk.so.1: cannot open shared object file: No such file or directory\n"
    )
    assert [f for f in problems_shown(report) if f == "RD117"] == ["RD117"]


def test_a_release_wheel_that_cannot_load_a_rocm_library_is_not_read_as_a_nightlys_packaging() -> None:
    report = (
        "PyTorch version: 2.7.1+rocm6.3\n"
        "ImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory\n"
    )
    assert "RD117" not in problems_shown(report)


@pytest.mark.parametrize(
    "line",
    [
        # xuhuisheng/rocm-gfx803#2, #7, #21; torchsmoke/Python3-Wheels#5
        "OSError: libmpi_cxx.so.40: cannot open shared object file: No such file or directory",
        "ImportError: libmpi.so.40: cannot open shared object file: No such file or directory",
    ],
)
def test_open_mpi_missing_at_import_is_read_as_open_mpi_not_a_rocm_library(line: str) -> None:
    errors = signature_errors(line)
    assert "openmpi_library_not_found" in errors
    assert "rocm_library_not_found" not in errors


def test_open_mpi_missing_said_to_be_fixed_is_not_read() -> None:
    line = "I used to get libmpi_cxx.so.40: cannot open shared object file, now it works after apt install libopenmpi-dev"
    assert "openmpi_library_not_found" not in signature_errors(line)
