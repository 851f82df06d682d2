"""The loader's, ctypes' and ldd's words for a missing libatomic.so.1 are read as libatomic_not_found, and on an AMD
machine (or a report naming TheRock's ROCm) RD113 says that ROCm's libraries need the system's libatomic; a line that
shows libatomic found, another missing library, or a CUDA machine is not this. The texts are written for the test in
the shapes of ROCm/TheRock#2518, #5819 and #7348, pytorch/pytorch#192254 and noamsto/nix-amd-ai#59."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

SIGNATURE = "libatomic_not_found"
LOADER = "rocminfo: error while loading shared libraries: libatomic.so.1: cannot open shared object file: No such file or directory\n"


@pytest.mark.parametrize(
    "text",
    [
        LOADER,
        "ImportError: libatomic.so.1: cannot open shared object file: No such file or directory\n",
        "OSError: libatomic.so.1: cannot open shared object file: No such file or directory\n",
        "\tlibatomic.so.1 => not found\n",
    ],
)
def test_a_missing_libatomic_is_read_in_the_loaders_shapes(text: str) -> None:
    assert SIGNATURE in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "\tlibatomic.so.1 => /lib64/libatomic.so.1 (0x00007f3c1a200000)\n",
        "ImportError: libamdhip64.so.7: cannot open shared object file: No such file or directory\n",
        "AMD's install page lists libatomic1 and libquadmath0 as requirements.\n",
    ],
)
def test_libatomic_found_or_another_library_missing_is_not_this(text: str) -> None:
    assert SIGNATURE not in signature_errors(text)


def test_on_an_amd_machine_the_missing_system_libatomic_is_told() -> None:
    text = "RX 7900 XT, ROCm 7.10 tarball on RHEL 10.0\n$ rocminfo\n" + LOADER
    assert "RD113" in problems_shown(text)


def test_a_rocm_sdk_test_log_naming_only_therocks_wheels_is_told() -> None:
    text = (
        "(so_path=PosixPath('/src/.venv/lib64/python3.11/site-packages/_rocm_sdk_devel/lib/librocprofiler-sdk-attach.so.1')) ... ERROR\n"
        "OSError: libatomic.so.1: cannot open shared object file: No such file or directory\n"
    )
    assert "RD113" in problems_shown(text)


def test_a_cuda_machine_is_not_rd113s() -> None:
    text = (
        "torch 2.4.0+cu124\nGPU 0: NVIDIA GeForce RTX 4080\n"
        "ImportError: libatomic.so.1: cannot open shared object file: No such file or directory\n"
    )
    assert "RD113" not in problems_shown(text)
