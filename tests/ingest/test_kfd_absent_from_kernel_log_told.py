"""The kernel log said in words to hold no KFD line (signature kfd_absent_from_kernel_log_told, rule RD147), and the
same words where they are a condition, a question, the past, another machine's, lsmod's (amdkfd has no module of its
own from Linux 4.17) or followed by a KFD line after all.

The read forms follow ROCm/legacy-rocm-build#753 ("`dmesg | grep kfd` produces no output at all"), #1415 ("there isn't
any message about amdkfd in dmesg") and CachyOS/linux-cachyos#643 ("ZERO KFD initialization messages in entire dmesg
output")."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown

TOLD = "kfd_absent_from_kernel_log_told"


def signatures(text: str) -> list:
    found = ingest(text).facts.symptoms.signatures
    return list(found.value or []) if found.is_known else []


@pytest.mark.parametrize(
    "text",
    [
        "Radeon VII, Ubuntu 18.04 (kernel 4.18), ROCm 2.2. `dmesg | grep kfd` produces no output at all.\n",
        "My amdgpu module boots fine, while there isn't any message about amdkfd in dmesg.\n",
        "The RX 7900 XTX is driven by amdgpu, but there are ZERO KFD initialization messages in the entire dmesg output.\n",
        "RX 6800 on Arch: sudo dmesg | grep -i kfd returns nothing and rocminfo fails.\n",
        "journalctl -k | grep kfd gives no output on my RX 7600 box.\n",
        "There are no messages about kfd in the kernel log, only amdgpu ones. GPU: RX 6700 XT.\n",
        "dmesg shows nothing about amdkfd on my MI50 machine.\n",
    ],
)
def test_no_kfd_line_in_the_kernel_log_is_read_and_names_the_driver(text: str) -> None:
    assert TOLD in signatures(text)
    assert "RD147" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "If `dmesg | grep kfd` shows nothing, the driver is not loaded.\n",
        "Does `dmesg | grep kfd` return nothing for you too? RX 6800 here.\n",
        "Before I reinstalled amdgpu-dkms, dmesg | grep kfd showed nothing. Now rocminfo lists gfx1030.\n",
        "lsmod | grep kfd returns nothing, but rocminfo lists my RX 7900 XTX.\n",
        "dmesg | grep kfd shows nothing except kfd kfd: skipped device 1002:67df, PCI rejects atomics\n",
        "On my laptop with an NVIDIA RTX 3060, dmesg | grep kfd returns nothing, which is expected.\n",
        "Please check that dmesg | grep kfd returns nothing before installing.\n",
        "My friend says dmesg | grep kfd shows nothing on his box.\n",
    ],
)
def test_a_condition_question_past_or_another_machines_log_is_not_read(text: str) -> None:
    assert TOLD not in signatures(text)


_SETUP = "ROCm 2.2 on Ubuntu 18.04 with kernel 4.18; rocminfo fails with HSA_STATUS_ERROR_OUT_OF_RESOURCES.\n"


# rev62: a general condition on the output, a fix told on the line, another state of the machine
@pytest.mark.parametrize(
    "line",
    [
        "When dmesg | grep kfd returns nothing, the driver is not loaded.\n",
        "dmesg | grep kfd returned nothing. Fixed by booting the 4.15 kernel.\n",
        "With the old kernel dmesg | grep kfd returned nothing.\n",
    ],
    ids=["a condition on the output", "a fix told", "another state of the machine"],
)
def test_a_condition_a_fix_or_another_state_of_the_kernel_log_is_not_read(line: str) -> None:
    assert TOLD not in signatures(_SETUP + line)
    assert "RD147" not in problems_shown(_SETUP + line)


# rev62: the report shows a KFD line after all (a later grep with sudo, a boot log): the absence told is not the state
@pytest.mark.parametrize(
    "text",
    [
        _SETUP + "dmesg | grep kfd returns nothing.\nEdit: with sudo it does:\n```\n$ sudo dmesg | grep kfd\n"
        "[    3.1] kfd kfd: amdgpu: added device 1002:73bf\n```\n",
        _SETUP + "There are no kfd messages in dmesg.\n```\n[    1.48] kfd kfd: amdgpu: Allocated 3969056 bytes on gart\n```\n",
    ],
    ids=["a later grep with sudo", "a boot log"],
)
def test_no_kfd_line_told_beside_a_kfd_line_shown_is_not_reported(text: str) -> None:
    assert "RD147" not in problems_shown(text)
