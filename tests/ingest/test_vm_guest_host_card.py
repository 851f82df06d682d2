"""A VM guest whose host card is named only in prose ("VirtualBox on my PC (RX 6700 XT)") has no AMD GPU of its own when
its tools show only the hypervisor's display adapter: RD751's virtual-display guard counts GPUs a tool listed
(derived.amd_discrete_listed_count), not ones named in words (Comfy-Org/ComfyUI#1870)."""

from __future__ import annotations

from ingest_helpers import ingest, problems_shown

from rocm_doctor.judge.derived_facts.gpus import amd_discrete_count, amd_discrete_listed_count

ROCMINFO = "$ rocminfo\nROCk module is NOT loaded, possibly no GPU devices\n\n"
VIRTUAL = "$ lspci | grep VGA\n00:02.0 VGA compatible controller: VMware SVGA II Adapter\n"
PASSED = "01:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT] (rev c1)\n"

HOST_CARD_IN_PROSE = "I run Ubuntu 22.04 in VirtualBox on my PC (RX 6700 XT) and installed ROCm 6.1 in the guest.\n\n" + ROCMINFO + VIRTUAL
PASSED_THROUGH_LISTED = "Ubuntu 22.04 guest with my RX 6700 XT passed through (vfio). ROCm 6.1.\n\n" + ROCMINFO + VIRTUAL + PASSED


def test_a_gpu_named_only_in_prose_is_not_a_listed_discrete_gpu() -> None:
    facts = ingest(HOST_CARD_IN_PROSE).facts
    assert amd_discrete_count(facts, None).value == 1
    assert amd_discrete_listed_count(facts, None).value == 0


def test_a_vm_guest_with_only_the_host_card_in_prose_gets_no_driver_error() -> None:
    assert "RD751" not in problems_shown(HOST_CARD_IN_PROSE)


def test_a_vm_guest_whose_lspci_lists_a_passed_through_amd_gpu_still_gets_the_driver_error() -> None:
    facts = ingest(PASSED_THROUGH_LISTED).facts
    assert amd_discrete_listed_count(facts, None).value == 1
    assert "RD751" in problems_shown(PASSED_THROUGH_LISTED)
