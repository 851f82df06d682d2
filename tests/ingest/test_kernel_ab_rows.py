"""A kernel A/B said in rows, one release a line with its verdict (ab62, issue 23 item 2: state and context).

Row shapes from three independent reports: package names with a verdict after them ("linux-image-5.4.0-54-generic ...
it's work" / "... 5.4.0-57-generic ... it does't work", ROCm/legacy-rocm-build#1307), a bare release, a dash and the
verdict ("6.18.1 - Works fine" / "6.18.6 - segmentation fault", vladmandic/sdnext#4578), and a sentence per release
ending in OK or KO ("building for 6.8.0-40-generic is OK" / "... 6.8.0-44-generic is KO", ROCm/legacy-rocm-build#3701).
The working row is an earlier state (what changed), never the running kernel; the failing row is the kernel the
failure is reported on. The texts are written for the test in those shapes.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown


def _earlier_kernels(text: str) -> list:
    earlier = ingest(text).facts.symptoms.earlier
    return [v for v in (earlier.value or []) if str(v).startswith("host.kernel_release=")] if earlier.is_known else []


def _kernel(text: str):
    found = ingest(text).facts.host.kernel_release
    return found.value if found.is_known else None


ROWS = [
    ("Ubuntu 22.04\nlinux-image-6.5.0-41-generic   amdgpu-dkms, it works\nlinux-image-6.5.0-44-generic   amdgpu-dkms, it doesn't work\n",
     "6.5.0-41-generic", "6.5.0-44-generic"),
    ("Tried some mainline kernels for the iGPU:\n6.17.2 - runs fine\n6.17.5 - segfault on model load\n6.18-rc3 - segfault\n",
     "6.17.2", "6.17.5"),
    ("Tested the dkms build on both:\nbuilding for *6.11.0-19-generic* is OK\nbuilding for *6.11.0-21-generic* is KO\n",
     "6.11.0-19-generic", "6.11.0-21-generic"),
    # the failing row first: the order of the rows does not decide which is which
    ("Which kernel:\n6.9.4 - crashes in rocminfo\n6.9.1 - works\n", "6.9.1", "6.9.4"),
]


@pytest.mark.parametrize("text,works,fails", ROWS)
def test_the_working_row_is_the_earlier_state_and_the_failing_row_the_kernel(text: str, works: str, fails: str) -> None:
    assert _earlier_kernels(text) == [f"host.kernel_release={works}"]
    assert _kernel(text) == fails


@pytest.mark.parametrize("text", [row[0] for row in ROWS])
def test_a_kernel_ab_in_rows_says_what_changed(text: str) -> None:
    assert "RD801" in problems_shown(text)


NOT_AB = [
    # one row alone is no comparison
    "Ubuntu 24.04, kernel rows below\n6.8.0-45-generic - works fine\n",
    # another program's releases in rows
    "ROCm releases I tried:\nROCm 6.2.4 - works\nROCm 6.3.0 - segfault\n",
    "torch 2.5.1 - works fine\ntorch 2.6.0 - crashes\n",
    # a question or a plan
    "kernel 6.8.0-45-generic - works\nkernel 6.8.0-49-generic - should it fail too?\n",
    # the same release both ways
    "kernel 6.8.0-45-generic works\nkernel 6.8.0-45-generic fails after a while\n",
    # rev62b: bare releases under a line that is no kernel header: a library's releases below a "Kernel:" field, another
    # program's under its own heading, a benchmark table's rows
    "Kernel: 6.8.0-45-generic, Ubuntu 24.04, RX 7900 XTX. I tried several transformers releases with the same model:\n\n"
    "4.44.2 - works fine\n4.45.0 - fails with RuntimeError: HIP error: invalid device function\n",
    "Ubuntu 24.04, kernel 6.11.0-19-generic, RX 7900 XTX, rocminfo shows gfx1100.\nROCm versions I tried:\n6.2.4 works\n"
    "6.3.1 fails with a segfault in hipMalloc\n",
    "Benchmark results on my RX 7900 XTX (kernel 6.8.0-45-generic), llama-bench tokens/s:\n\n| version | result |\n"
    "| 3.9.1 | works, 112 t/s |\n| 3.10.0 | fails, segfault |\n",
]


@pytest.mark.parametrize("text", NOT_AB)
def test_rows_that_are_no_kernel_ab_keep_no_earlier_kernel(text: str) -> None:
    assert not _earlier_kernels(text)
