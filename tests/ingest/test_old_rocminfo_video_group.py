"""A user in video but not render under a ROCm 1.x-2.x rocminfo (learn51e).

rocminfo of those releases prints its failure as a number ("Call returned 4104"), and their install
guide asked for the video group only (ROCm README at roc-1.9.0 and roc-2.1.0). Shapes of
legacy-rocm-build#595 (ROCm 1.9, Debian 9: no PCIe atomics), #739 (ROCm 2.1: the PCI id missing from
KFD) and #524 (ROCm 1.8); the texts are written for the test. A user in neither group still gets the
permissions error.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown

FAIL = "hsa api call failure at line 900, file: /data/jenkins_workspace/compute-rocm-rel-{rel}/rocminfo/rocminfo.cc. Call returned 4104\n"


@pytest.mark.parametrize(
    ("rel", "groups"),
    [
        ("1.9", "arthur cdrom floppy audio dip video plugdev netdev bluetooth lpadmin scanner"),
        ("2.1", "tu6ge adm cdrom sudo dip video plugdev lpadmin sambashare"),
        ("1.8", "alex adm cdrom sudo dip video plugdev lpadmin sambashare"),
    ],
)
def test_video_membership_under_an_old_rocminfo_is_no_group_error(rel: str, groups: str) -> None:
    text = f"$ /opt/rocm/bin/rocminfo\n{FAIL.format(rel=rel)}$ groups\n{groups}\n$ uname -r\n4.15.0-46-generic\n"
    shown = problems_shown(text)
    assert "RD300" not in shown and "RD507" not in shown
    # rev51f: nor the warning on a group list without render (RD961), which the exception bypassed
    assert "RD961" not in shown


def test_a_user_in_neither_group_still_gets_it() -> None:
    text = f"$ /opt/rocm/bin/rocminfo\n{FAIL.format(rel='2.1')}$ groups\nbob adm cdrom sudo dip plugdev\n$ uname -r\n4.15.0-46-generic\n"
    shown = problems_shown(text)
    assert "RD300" in shown or "RD507" in shown
    assert "RD961" in shown


def test_a_modern_rocminfo_with_video_but_not_render_still_gets_the_group_error() -> None:
    # rev51e: the exception is for the numeric status of a ROCm <= 2.5 rocminfo only; a rocminfo that names the
    # status (roc-2.6.0 on) under a user in video but not render keeps RD300.
    text = (
        "$ lspci | grep VGA\n03:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 31 "
        "[Radeon RX 7900 XT/7900 XTX] (rev c8)\n$ /opt/rocm/bin/rocminfo\n"
        "hsa api call failure at: /long_pathname_so_that_rpms_can_package_the_debug_info/src/rocminfo/rocminfo.cc:1143\n"
        "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.\n"
        "$ groups\nbob adm cdrom sudo dip video plugdev lpadmin\n$ uname -r\n6.8.0-45-generic\n"
    )
    assert "RD300" in problems_shown(text)
