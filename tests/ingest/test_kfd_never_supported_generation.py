"""KFD refusing a GPU it names by chip: a generation ROCm never runs on, not a driver too old.

Issue 23, h31e. kgd2kfd_probe (kfd_device.c at v6.1) logs "<ASIC> %s not supported in kfd" for the
pre-GFX9 chips it has no compute case for, with two spaces when the VF field is empty. Reports:
legacy-rocm-build#1804 (OLAND), #2303 (TOPAZ), a Fedora journal (TOPAZ) and an R7 370 thread
(PITCAIRN, beside rocminfo's OUT_OF_RESOURCES), linux-kernel mails (VERDE). The texts are written for
the test in those shapes.
"""

from __future__ import annotations

import pytest
from ingest_helpers import serious_findings, signature_errors

NEVER = "kfd_asic_never_supported"


@pytest.mark.parametrize(
    "text",
    [
        "Sep 06 14:59:32 localhost kernel: kfd kfd: amdgpu: OLAND  not supported in kfd\n",
        "[    6.404399] kfd kfd: amdgpu: TOPAZ  not supported in kfd\n",
        "[    7.327820] kfd kfd: VERDE  not supported in kfd\n",
        "[    3.548555] kfd kfd: amdgpu: PITCAIRN  not supported in kfd\n",
        "kfd kfd: amdgpu: TAHITI VF not supported in kfd\n",
    ],
)
def test_kfd_refusing_a_chip_it_never_supports_is_read_as_that_generation(text: str) -> None:
    assert NEVER in signature_errors(text)
    assert "kfd_gc_ip_unsupported" not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # chips KFD has a case for: their lines say something else, and this one must not be read
        "kfd kfd: amdgpu: added device 1002:67df\n",
        # a newer chip refused by graphics-core version: a newer kernel may drive it (RD943)
        "kfd kfd: amdgpu: GC IP 0c0001  not supported in kfd\n",
        # a chip name in other words
        "My old Pitcairn card is not supported in ROCm.\n",
    ],
)
def test_other_kfd_lines_and_prose_are_not_a_never_supported_chip(text: str) -> None:
    assert NEVER not in signature_errors(text)


def test_a_never_supported_chip_beside_rocminfos_failure_is_the_gpu_not_the_driver_or_groups() -> None:
    text = (
        "$ rocminfo\nhsa api call failure at: /src/rocminfo/rocminfo.cc:1142\n"
        "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.\n"
        "$ sudo dmesg | grep kfd\n[    3.548555] kfd kfd: amdgpu: PITCAIRN  not supported in kfd\n"
    )
    shown = serious_findings(text)
    assert shown[:1] == [("RD691", "error", "gfx-unsupported")]
    assert all(category not in ("permissions", "driver") for _, _, category in shown)
