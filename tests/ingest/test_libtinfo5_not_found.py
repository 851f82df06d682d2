"""The loader's, ldd's and OpenCL's words for a missing libtinfo.so.5 are read as libtinfo5_not_found, and on an AMD
machine RD114 says that ROCm 3.x/4.x components (and torch wheels that bundle them) need ncurses 5's library; a line
that shows libtinfo found, libtinfo.so.6, advice or a past state, or a CUDA machine is not this. The texts are
written for the test in the shapes of pytorch/pytorch#53452, ROCm/legacy-rocm-build#1324 and #1477 and ROCm/hcc#964."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

SIGNATURE = "libtinfo5_not_found"
IMPORT = "ImportError: libtinfo.so.5: cannot open shared object file: No such file or directory\n"


@pytest.mark.parametrize(
    "text",
    [
        IMPORT,
        "dlerror: libtinfo.so.5: cannot open shared object file: No such file or directory\n",
        "/opt/rocm/hcc/bin/hcc: error while loading shared libraries: libtinfo.so.5: cannot open shared object file: No such file or directory\n",
        "\tlibtinfo.so.5 => not found\n",
    ],
)
def test_a_missing_libtinfo5_is_read_in_the_loaders_shapes(text: str) -> None:
    assert SIGNATURE in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "\tlibtinfo.so.5 => /lib/x86_64-linux-gnu/libtinfo.so.5 (0x00007f2b3f900000)\n",
        "\tlibtinfo.so.6 => not found\n",
        "If you get libtinfo.so.5: cannot open shared object file, install libtinfo5.\n",
        "I used to get libtinfo.so.5: cannot open shared object file, but it is fixed.\n",
    ],
)
def test_libtinfo_found_another_release_advice_or_the_past_is_not_this(text: str) -> None:
    assert SIGNATURE not in signature_errors(text)


def test_on_an_amd_machine_the_missing_libtinfo5_is_told_first() -> None:
    text = "PyTorch 1.8 (ROCm 4.0.1 wheel), RX 5700 XT, Arch Linux\n>>> import torch\n" + IMPORT
    shown = problems_shown(text)
    assert shown and shown[0] == "RD114"


def test_a_cuda_machine_is_not_rd114s() -> None:
    text = "torch 2.4.0+cu124\nGPU 0: NVIDIA GeForce RTX 4080\n" + IMPORT
    assert "RD114" not in problems_shown(text)
