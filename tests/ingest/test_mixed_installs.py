"""A framework built for one ROCm release asking for a library another release no longer ships (mis37).

Issue 23, class torch_rocm_mismatch. HIP ran on HCC (libhip_hcc, HCC's C++AMP runtime libmcwamp) up to
ROCm 3.3; ROCm 3.5 moved HIP onto ROCclr (libamdhip64), so wheels built for the older releases ask for
sonames the newer install lacks. The lines are written for the test in the shapes several independent
reports print them (tensorflow's dlerror wording, Python's ImportError), not copied from one report.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors


@pytest.mark.parametrize(
    "text",
    [
        # Python's ImportError for the C++AMP runtime (ROCm/legacy-rocm-build#1126)
        "ImportError: libmcwamp.so.3: cannot open shared object file: No such file or directory\n",
        # tensorflow's own dlerror wording (ROCm/tensorflow-upstream#1019, #1022)
        "Could not load dynamic library 'libhip_hcc.so'; dlerror: libhip_hcc.so: cannot open shared object file: No such file or directory\n",
        # a torch built for ROCm 3.x (aieater/rocm_pytorch_informations#7)
        "ImportError: libhip_hcc.so.3: cannot open shared object file: No such file or directory\n",
    ],
)
def test_hcc_era_hip_library_missing_is_a_rocm_release_mismatch(text: str) -> None:
    assert "rocm_library_not_found" in signature_errors(text)
    assert "RD521" in problems_shown(text)


def test_hccs_own_back_end_plugin_missing_is_not_read_as_a_release_mismatch() -> None:
    # HCC's CPU back-end plug-in not on the loader's path is a packaging fault of HCC itself (justxi/rocm#22)
    text = "C++AMP runtime load error: libmcwamp_cpu.so: cannot open shared object file: No such file or directory\n"
    assert "rocm_library_not_found" not in signature_errors(text)
