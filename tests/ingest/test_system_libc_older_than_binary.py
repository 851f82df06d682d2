"""The distribution's own libc/libstdc++ older than a ROCm build needs (learn51e; RD999).

The loader's refusal names the library it searched; only the system's own copy (/lib, /lib64,
/usr/lib, the multiarch folder) says the build is for a newer distribution release. The shapes
are those of legacy-rocm-build#578 (Ubuntu 14.04), #2043 (ROCm 5.4.3 packages on an older Ubuntu)
and rocprofiler-compute#549 (RHEL 8); the texts are written for the test.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

SIG = "system_libc_older_than_binary"


@pytest.mark.parametrize(
    "text",
    [
        "/opt/rocm/bin/rocminfo: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.21' not found (required by /opt/rocm/bin/rocminfo)\n",
        "rocminfo: /lib/x86_64-linux-gnu/libc.so.6: version GLIBC_2.33'not found (required by rocminfo)\n",
        "`rocminfo: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version CXXABI_1.3.13 not found (required by /opt/rocm-5.4.3/bin/../lib/libhsa-runtime64.so.1)`\n",
        "/work/bin/roofline-rhel8: /lib64/libc.so.6: version `GLIBC_2.34' not found (required by /work/bin/roofline-rhel8)\n",
        "> /usr/lib64/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by /opt/rocm/lib/libamdhip64.so.6)\n",
    ],
)
def test_the_system_runtime_too_old_is_read(text: str) -> None:
    assert SIG in signature_errors(text)
    assert "RD999" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # a conda env's or an application's own libstdc++ shadows the system one: another cause
        "/opt/rocm_sdk/bin/flang2: /home/k/miniconda3/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /opt/rocm_sdk/bin/flang2)\n",
        "/home/u/julia-1.7.1/bin/../lib/julia/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /opt/rocm/lib/librocfft.so)\n",
        "/home/u/envs/py310/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /opt/rocm/lib/libhsa-runtime64.so.1)\n",
        # rev51e: the binary that needs the newer version is a Python package's (a conda env's, a venv's, a
        # pip install under dist-packages): the environment's own libstdc++ or the wheel is the matter
        "ImportError: /lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /home/u/miniconda3/envs/rocm/lib/python3.11/site-packages/scipy/_lib/_uarray/_uarray.cpython-311-x86_64-linux-gnu.so)\n",
        "ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by /home/u/.venv/lib/python3.12/site-packages/foo/_ext.so)\n",
        "ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by /usr/local/lib/python3.10/dist-packages/bar/lib/libbar.so)\n",
        # advice and the past
        "If you get /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by rocminfo), install the packages for your release\n",
        "Install the focal packages, otherwise you will see /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by rocminfo)\n",
        "With the jammy repo on focal you'll get /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by rocminfo)\n",
        # rev51f: (the advice and the past keep glibc's "(required by", which the pattern now reads to)
        "Previously I had /lib64/libc.so.6: version `GLIBC_2.34' not found (required by rocminfo) but now everything works\n",
    ],
)
def test_other_copies_advice_and_the_past_are_not_read(text: str) -> None:
    assert SIG not in signature_errors(text)


# rev51f: a paste wrapped at 80 columns just before glibc's "(required by ...)": the guard for a Python package's
# binary must still see whose binary it is, and a ROCm binary's refusal is still read.
def test_a_package_binary_wrapped_before_required_by_is_not_read() -> None:
    text = (
        "/usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found\n"
        "(required by /opt/conda/envs/py_3.10/lib/python3.10/site-\n"
        "packages/torch/lib/libtorch_cpu.so)\n"
    )
    assert SIG not in signature_errors(text)
    assert "RD999" not in problems_shown(text)


@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_a_rocm_binary_wrapped_before_required_by_is_read(end: str) -> None:
    text = (
        "rocminfo: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found" + end
        + "(required by /opt/rocm-5.4.3/bin/../lib/libhsa-runtime64.so.1)" + end
    )
    assert SIG in signature_errors(text)
