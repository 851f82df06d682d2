"""rocminfo's HSA_STATUS_ERROR_OUT_OF_RESOURCES beside evidence that the driver side failed first.

Issue 23, class driver_too_old (h31e). The runtime reports this status whenever it cannot open a
GPU; as a normal user that is often /dev/kfd's group (RD507). When the same report shows the kernel
never made the device (no /dev/kfd, no ROCk module, KFD skipping or refusing the GPU, amdgpu failing
its init, a kernel older than the GPU), the status is that failure's consequence and the group is not
the cause: legacy-rocm-build#521 and #804 (PCI rejects atomics, "Call returned 4104"), #538 and #539
(kfd not supported on this ASIC, 4104), #1404 (ROCk module NOT loaded, OUT_OF_RESOURCES). The texts
are written for the test in the shapes those reports use.
"""

from __future__ import annotations

import pytest
from ingest_helpers import serious_findings

ROCMINFO_FAILS = (
    "hsa api call failure at: /src/rocminfo/rocminfo.cc:1142\n"
    "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.\n"
)


@pytest.mark.parametrize(
    ("driver_side", "first"),
    [
        ("ROCk module is NOT loaded, possibly no GPU devices\nUnable to open /dev/kfd read-write: No such file or directory\n", "RD751"),
        ("[    1.3] kfd kfd: amdgpu: GC IP 0c0001  not supported in kfd\n", "RD943"),
        ("[    4.1] amdgpu 0000:03:00.0: amdgpu: amdgpu_device_ip_init failed\n[    4.1] amdgpu 0000:03:00.0: amdgpu: Fatal error during GPU init\n", "RD636"),
        ("[    2.5] kfd kfd: skipped device 1002:67df, PCI rejects atomics\n", "RD381"),
        ("GPU: AMD Radeon RX 9070 XT\nOS: Fedora Linux 40\n$ uname -r\n6.8.5-301.fc40.x86_64\n", "RD560"),
    ],
)
def test_out_of_resources_after_the_driver_failed_is_not_read_as_a_group_problem(driver_side: str, first: str) -> None:
    shown = serious_findings(driver_side + "$ rocminfo\n" + ROCMINFO_FAILS)
    assert [rule for rule, _, _ in shown][:1] == [first]
    assert "RD507" not in [rule for rule, _, _ in shown]
    assert all(category != "permissions" for _, _, category in shown)


def test_out_of_resources_with_the_device_refused_is_still_a_group_problem() -> None:
    text = "$ rocminfo\nUnable to open /dev/kfd read-write: Permission denied\n" + ROCMINFO_FAILS
    assert [category for _, _, category in serious_findings(text)][:1] == ["permissions"]


def test_out_of_resources_alone_names_the_step_not_the_users_access() -> None:
    # h35h: the status alone implies no cause (every failed KFD open and a KFD without GPUs print it),
    # so RD678 lists the causes as a fallback and no finding says "permissions".
    shown = serious_findings("$ rocminfo\n" + ROCMINFO_FAILS)
    assert [rule for rule, _, _ in shown] == ["RD678"]
    assert all(category != "permissions" for _, _, category in shown)


@pytest.mark.parametrize(
    "corroboration",
    [
        "But if I run it as **root**, it works as intended.\n",
        "sudo rocminfo works fine.\n",
    ],
)
def test_out_of_resources_with_access_shown_refused_is_read_as_the_users_access(corroboration: str) -> None:
    shown = serious_findings("$ rocminfo\n" + ROCMINFO_FAILS + corroboration)
    assert "RD507" in [rule for rule, _, _ in shown]
    assert "RD678" not in [rule for rule, _, _ in shown]


@pytest.mark.parametrize(
    "told",
    [
        "But if I run it as **root**, it works as intended.",
        "If I run it with `sudo`, it works.",
        "When I run rocminfo as **root** it works.",
    ],
)
def test_emphasis_around_root_or_sudo_keeps_the_works_as_root_statement(told: str) -> None:
    from ingest_helpers import signature_errors

    assert "gpu_works_as_root_told" in signature_errors(told)


def test_out_of_resources_beside_the_usual_render_owned_kfd_does_not_say_the_user_is_refused() -> None:
    # r35a: /dev/kfd owned by root:render, mode 0660, is every ROCm install's node; without the user's
    # groups it shows nothing of this user's access (RD612 reads it together with groups lacking render).
    text = "$ rocminfo\n" + ROCMINFO_FAILS + "$ ls -l /dev/kfd\ncrw-rw---- 1 root render 238, 0 Mar  3 10:00 /dev/kfd\n"
    shown = serious_findings(text)
    assert "RD507" not in [rule for rule, _, _ in shown]
    assert all(category != "permissions" for _, _, category in shown)
