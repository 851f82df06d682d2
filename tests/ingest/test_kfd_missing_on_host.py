"""/dev/kfd missing, said in words, and what that means on a native Linux host (drv40, issue 23, class driver_too_old).

The wordings are the shape several real reports use (ROCm/ROCm-docker#31 "/dev/kfd no longer exists",
CachyOS/linux-cachyos#643 "/dev/kfd device node does not exist", ROCm/legacy-rocm-build#5679 "/dev/kfd does not
exist"); the texts are written for the test. complete66 adds the wordings of three reports the reader missed:
"not present" (ROCm/k8s-device-plugin#23), "KFD device doesn't appear" (siderolabs/pkgs#892) and /dev/kfd in
Markdown code after "no" (ROCm/legacy-rocm-build#738).
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

UNAME = "$ uname -r\n5.4.0-54-generic\n"


@pytest.mark.parametrize(
    "line",
    [
        "/dev/kfd no longer exists since the upgrade.",
        "The /dev/kfd device node does not exist.",
        "/dev/kfd doesn't exist on the host.",
        "/dev/kfd is missing after the reboot.",
        "On this node `/dev/kfd` isn't present, so the plugin finds nothing.",
        "/dev/kfd is not present in the pod.",
        "The KFD device doesn't appear after boot.",
        "There is no ```/dev/kfd``` folder on the host.",
    ],
)
def test_dev_kfd_missing_in_words_is_read(line: str) -> None:
    assert "kfd_missing" in signature_errors("ROCm 6.0, RX 6800.\n" + line + "\n")


@pytest.mark.parametrize(
    "line",
    [
        "If /dev/kfd does not exist, install the driver first.",
        "Check whether /dev/kfd is missing.",
        "/dev/kfd exists and is crw-rw-rw-.",
        "/dev/kfd is present but the render node is not.",
        "If the KFD device does not appear, load amdgpu.",
        "The kfd module is not present in lsmod on this kernel.",
        # review66: a case or advice, and a state that is over (the past tense), are not the node missing now
        "In case the kfd device does not appear, load amdgpu.",
        "Make sure the kfd device does not appear in the denylist of the cgroup.",
        "/dev/kfd was not present at first, but after installing amdgpu-dkms and rebooting it is there.",
        "The kfd device did not show up until I added my user to the render group.",
        "Once /dev/kfd wasn't present the plugin reported 0 GPUs; with the new kernel it is there.",
        "There is no /dev/kfd access problem: I am in the render and video groups.",
        "I see no /dev/kfd permission errors in the log.",
    ],
)
def test_a_condition_or_an_existing_dev_kfd_is_not_read_as_missing(line: str) -> None:
    assert "kfd_missing" not in signature_errors("ROCm 6.0, RX 6800.\n" + line + "\n")


def test_dev_kfd_missing_on_a_distribution_kernel_points_at_the_kernel_driver() -> None:
    text = "Ubuntu 20.04, RX 6800, ROCm 3.10.\n/dev/kfd no longer exists.\n" + UNAME
    assert "RD684" in problems_shown(text)


def test_dev_kfd_missing_without_a_kernel_release_names_no_driver_cause() -> None:
    # nothing rules out WSL2 or Docker Desktop: RD518 speaks, not RD684
    assert "RD684" not in problems_shown("ROCm 6.0, RX 6800.\n/dev/kfd no longer exists.\n")
