"""The reporter says installing or updating AMD's kernel driver broke the machine itself (dev65drv, issue 23, driver_too_old).

Reports: ROCm/amdgpu#170 (an amdgpu-dkms update that "demolished" the desktop), ROCm/legacy-rocm-build#818 (after the
upgrade to ROCm 2.5 the machine no longer boots; amdkcl in dmesg), ROCm/legacy-rocm-build#23 (ROCm 1.2's kernel hangs
the boot). The texts are written for the test in those shapes.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_contexts, signature_errors

TOLD = "kernel_driver_install_broke_system_told"
SHOWN = "amd_out_of_tree_driver_shown"


@pytest.mark.parametrize(
    "text",
    [
        "So I update the amdgpu-dkms for my Ubuntu 22.04, but unfortunately, this update demolish my operate system.\n",
        "After upgrading to 2.5 I can no longer boot into ubuntu 19.04.\n",
        "I updated ROCm from 1.1.1 to version 1.2 and upon reboot I get a stack trace which hangs the boot sequence.\n",
        "Since installing amdgpu-dkms I get a black screen after the GRUB menu.\n",
        "Ubuntu 24.04 crashes after installing ROCm.\n",
        "After installing the amdgpu kernel driver the desktop freezes every few minutes.\n",
    ],
)
def test_a_driver_install_said_to_break_boot_desktop_or_system_is_read(text: str) -> None:
    assert TOLD in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # a program's failure, not the machine's
        "After installing ROCm, torch crashes when it loads the model.\n",
        "After updating ROCm to 6.2 ollama segfaults.\n",
        # review65: a service's log-in, not the machine's
        "After installing ROCm 6.2 I can't log in to my Steam account anymore.\n",
        "Since updating amdgpu-dkms I cannot log in with my Hugging Face token.\n",
        # the machine crashing under a workload is the driver failing at run time, not the install breaking the machine
        "I installed ROCm 6.2 and amdgpu-dkms, but the system crashes when I run the model.\n",
        "Since installing amdgpu-dkms the desktop freezes under heavy load.\n",
        # a condition, advice, a question
        "If installing amdgpu-dkms breaks the boot, boot the previous kernel.\n",
        "Installing amdgpu-dkms may give you a black screen on unsupported kernels.\n",
        "Does updating amdgpu-dkms break the desktop?\n",
        # another vendor's driver, the kernel itself
        "After installing the NVIDIA driver I get a black screen.\n",
        "After updating the kernel I can no longer boot.\n",
    ],
)
def test_a_programs_crash_a_condition_or_another_driver_is_not_read(text: str) -> None:
    assert TOLD not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "[    3.022945] amdkcl: loading out-of-tree module taints kernel.\n",
        "sudo amdgpu-install --usecase=dkms,graphics,rocm\n",
        "amdgpu-dkms is already the newest version (1:6.8.5.60200-2009582.24.04).\n",
        "Linux 4.4.0-kfd-compute-rocm-rel-1.2-31 x86_64\n",
    ],
)
def test_amds_own_kernel_driver_shown_is_read(text: str) -> None:
    assert SHOWN in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "sudo amdgpu-install --usecase=rocm --no-dkms\n",
        "amdgpu-dkms-firmware is already the newest version (30.10.1).\n",
        "I reinstalled ROCm without amdgpu-dkms.\n",
    ],
)
def test_an_install_without_the_driver_or_its_firmware_alone_is_not_read(text: str) -> None:
    assert SHOWN not in signature_contexts(text)


def test_a_driver_update_that_broke_the_desktop_with_amdgpu_dkms_named_is_a_driver_finding() -> None:
    text = (
        "I ran sudo apt-get install amdgpu-dkms and rebooted.\n"
        "After updating amdgpu-dkms I cannot enter my Gnome desktop anymore.\n\nGPU: AMD Radeon Pro W7900\n"
    )
    assert "RD957" in problems_shown(text)


def test_rocm_update_said_to_break_the_boot_without_amds_driver_shown_is_not_a_finding() -> None:
    text = "After upgrading ROCm to 6.2 I can no longer boot.\n\nGPU: AMD Radeon RX 7900 XTX\n"
    assert "RD957" not in problems_shown(text)
