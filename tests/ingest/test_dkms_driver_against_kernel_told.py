"""AMD's DKMS driver against the running kernel, in the words reports use (drv59, issue 23, driver_too_old).

dkms's apport line quoted without its "ERROR (dkms apport):" prefix, which the hook prints only after a module
build failed (dell/dkms dkms_apport.py): pop-os/pop#1135, RadeonOpenCompute/ROCm_Documentation#100,
t2linux/T2-Debian-and-Ubuntu-Kernel#36 quote it so. AMD's DKMS driver said to be bounded to kernels up to a release:
ROCm/legacy-rocm-build#1001, rocm-arch/rocm-arch#625, ROCm/legacy-rocm-build#671, ROCm/amdgpu#63. The texts are
written for the test in those shapes.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

QUOTED = "dkms_apport_kernel_not_supported_quoted"
RANGE = "dkms_driver_kernel_range_told"


@pytest.mark.parametrize(
    "text",
    [
        "DKMS fails to install kernel module, error: kernel package linux-headers-5.4.0-7634-generic is not supported\n",
        "kernel package linux-headers-5.7.19-mbp is not supported\n",
        "linux-headers-6.2.5-t2-kinetic is not supported...\n",
        "Installing amdgpu-dkms prints `kernel package linux-headers-6.11.0-9-generic is not supported` and stops.\n",
    ],
)
def test_dkms_apport_line_quoted_without_its_prefix_is_read(text: str) -> None:
    assert QUOTED in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # another vendor's module on the line, or another module's DKMS tree in the block
        "virtualbox: kernel package linux-headers-4.11.1+ is not supported\n",
        "Consult /var/lib/dkms/virtualbox/5.1.6/build/make.log for more information.\nkernel package linux-headers-4.11.1+ is not supported\n",
        # a question or a condition
        "Does kernel package linux-headers-6.8.0-45-generic is not supported mean the build failed?\n",
        "If you see kernel package linux-headers-6.8.0-45-generic is not supported, reboot.\n",
        # the headers installed and nothing said against them
        "linux-headers-6.8.0-45-generic is already the newest version (6.8.0-45.45).\n",
    ],
)
def test_apport_line_of_another_module_a_question_or_installed_headers_are_not_read(text: str) -> None:
    assert QUOTED not in signature_errors(text)


def test_quoted_apport_line_in_a_rocm_report_says_the_dkms_build_failed() -> None:
    text = (
        "DKMS fails to install kernel module, error: kernel package linux-headers-5.4.0-7634-generic is not supported\n\n"
        "GPU: AMD ATI Radeon RX 5700 XT\n"
    )
    assert "RD944" in problems_shown(text)


def test_quoted_apport_line_without_an_amd_gpu_or_rocm_is_not_amds_driver() -> None:
    text = "kernel package linux-headers-5.4.0-7634-generic is not supported\n\nGPU: NVIDIA GeForce RTX 3060\n"
    assert "RD944" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "Im talking about the DKMS driver, its currently restricted to kernels up to 5.0,\n",
        "The problem with `rock-dkms` is that it does not support kernel newer than 5.4, see the readme.\n",
        "The ROCm 2.0 DKMS driver is not supported on kernel versions above 4.15 at this time.\n",
        "Building the ROCK kernel module is not yet supported on kernels above 4.15.\n",
        "amdgpu-dkms only supports kernels up to 6.8 on this release.\n",
    ],
)
def test_dkms_driver_bounded_to_kernels_up_to_a_release_is_read(text: str) -> None:
    assert RANGE in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "Is the DKMS driver restricted to kernels up to 5.0?\n",
        "If amdgpu-dkms does not support kernels newer than 6.8, what should I do\n",
        "amdgpu-dkms only supports kernels up to 6.8, so I use the inbox driver on 6.11 and it works fine.\n",
        # a lower bound: a kernel too old for the GPU is another finding's
        "The DKMS driver requires kernel 5.4 or newer.\n",
        # the kernel's own driver, or another vendor's DKMS module
        "The nvidia DKMS module does not support kernels newer than 6.8.\n",
    ],
)
def test_questions_conditions_working_setups_and_lower_bounds_are_not_read(text: str) -> None:
    assert RANGE not in signature_errors(text)


def test_dkms_driver_bounded_to_older_kernels_ties_the_failure_to_the_kernel() -> None:
    # the whole chain once; RD566's own cases pin the rule
    text = "ubuntu 18.04 has started to update to 5.3\nIm talking about the DKMS driver, its currently restricted to kernels up to 5.0,\n"
    assert "RD566" in problems_shown(text)


ATTACHED = "amdgpu_dkms_make_log_attached"


@pytest.mark.parametrize(
    "text",
    [
        # ROCm/amdgpu#85's shape: the dpkg error's log uploaded to AMD's kernel driver tracker
        "I tried to install rocm (and so rock) and got the attached error log from dpkg:\n[make.log](https://github.com/RadeonOpenCompute/ROCK-Kernel-Driver/files/3934831/make.log)\n",
        # ROCm/ROCm#631's shape: after DKMS's own lines
        "On Debian testing, apt install rocm-dkms fails.\nI attach the file\n[make.log](https://github.com/RadeonOpenCompute/ROCm/files/2660115/make.log)\n",
        # the bare link, a .txt upload
        "amdgpu-dkms does not install for 6.11, log: https://github.com/ROCm/ROCm/files/123456/make.log.txt\n",
    ],
)
def test_make_log_of_amds_dkms_driver_attached_as_a_file_is_read(text: str) -> None:
    assert ATTACHED in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # a ROCm library or an application built from source: its make.log is no DKMS log
        "Building rocBLAS from source fails, see [make.log](https://github.com/ROCm/rocBLAS/files/123/make.log)\n",
        "llama.cpp HIP build error: [make.log](https://github.com/ggml-org/llama.cpp/files/99/make.log)\n",
        # another vendor's DKMS module
        "the nvidia dkms build failed [make.log](https://github.com/NVIDIA/open-gpu-kernel-modules/files/1/make.log)\n",
        "dkms: see [make.log](https://github.com/x/y/files/1/make.log)\nConsult /var/lib/dkms/virtualbox/5.1.6/build/make.log\n",
        # the path named, not a file attached (amdgpu_dkms_build_failed reads DKMS's own line)
        "the log is in /var/lib/dkms/amdgpu/6.8.5/build/make.log\n",
    ],
)
def test_make_log_of_another_build_or_module_or_a_path_is_not_read_as_attached(text: str) -> None:
    assert ATTACHED not in signature_errors(text)


def test_attached_make_log_of_amds_dkms_driver_says_the_build_failed() -> None:
    text = "I tried to install rocm (and so rock) and got the attached error log from dpkg:\n[make.log](https://github.com/RadeonOpenCompute/ROCK-Kernel-Driver/files/3934831/make.log)\n"
    assert "RD944" in problems_shown(text)


REMOVED = "amdgpu_dkms_removal_fixed_told"


@pytest.mark.parametrize(
    "text",
    [
        # the wordings of legacy-rocm-build#5370, #5997 and ROCm/ROCm#6146
        "Removing `amdgpu-dkms` version `6.4.2.1` stopped the OS from crashing.\n",
        "Looks like removing `amdgpu-dkms` was sufficient to prevent the crashes.\n",
        "I decided to reinstall it without DKMS earlier on today, and my computer hasn't crashed yet.\n",
        "Issue resolved. Switching to 6.14.0-1018-oem kernel and removing amdgpu-dkms fixed the page fault.\n",
        "After removing amdgpu-dkms everything works again.\n",
    ],
)
def test_failure_said_to_end_once_amdgpu_dkms_was_removed_is_read(text: str) -> None:
    assert REMOVED in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # dpkg's progress line, the firmware package
        "Removing amdgpu-dkms (1:6.10.5.60302-2109964.24.04) ...\n",
        "thanks, after removing amdgpu-dkms-firmware, it appears to install.\n",
        # a removal that did not help
        "Removing amdgpu-dkms did not fix the crashes.\n",
        "Removing amdgpu-dkms didn't stop the freezes.\n",
        "I removed amdgpu-dkms but it still crashes.\n",
        "After removing amdgpu-dkms rocminfo still fails.\n",
        # advice, a question, a plan
        "Could you try removing amdgpu-dkms? If removing amdgpu-dkms fixed it, tell us.\n",
        "Does removing amdgpu-dkms fix it?\n",
        "I'll try to remove amdgpu-dkms over the weekend, right now I need the system running.\n",
        # a setup without DKMS that works, with no failure that ended (AMD's guide for Ryzen APUs installs so)
        "I installed ROCm without DKMS and it works.\n",
    ],
)
def test_dpkg_lines_removals_that_did_not_help_advice_and_plain_no_dkms_setups_are_not_read(text: str) -> None:
    assert REMOVED not in signature_errors(text)


def test_failure_ended_by_removing_amdgpu_dkms_is_the_driver_against_the_kernel() -> None:
    text = "Ubuntu 24.04 crashes after installing ROCm.\nRemoving `amdgpu-dkms` version `6.4.2.1` stopped the OS from crashing.\n"
    assert "RD955" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # rev59: the reporter's own program's log, in a report that says AMD's DKMS driver installed fine
        "ROCm 5.7 with amdgpu-dkms installed fine. My app compile fails: [make.log](https://github.com/foo/bar/files/123/make.log)\n",
        # a framework built from source, its log uploaded to its own tracker, dkms named elsewhere
        "ROCm 5.7, building PyTorch from source. The build failed, see [make.log](https://github.com/pytorch/pytorch/files/123/make.log).\n"
        "dkms status shows amdgpu/6.2 installed.\n",
        "Building PyTorch from source with ROCm 5.7 fails.\nSee [make.log](https://github.com/foo/bar/files/1/make.log)\n"
        "dkms status: amdgpu/6.2.4 installed\n",
    ],
)
def test_make_log_of_the_reporter_s_own_build_beside_a_dkms_mention_is_not_read_as_attached(text: str) -> None:
    assert ATTACHED not in signature_errors(text)
    assert "RD944" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # rev59: a removal whose good outcome did not last
        "Ubuntu 24.04, RX 7900 XTX, ROCm 6.4. Last year removing amdgpu-dkms fixed the crashes, now the crashes are back "
        "without it installed.\n",
        # the removal ended the crash but ROCm does not work on the kernel's driver
        "Ubuntu 24.04, RX 7900 XTX, ROCm 6.4. Removing amdgpu-dkms fixed the boot loop, but PyTorch now reports no GPU.\n",
        "Ubuntu 24.04, RX 7900 XTX, ROCm 6.4. I reinstalled without dkms and it hasn't crashed yet, but rocminfo shows no agents.\n",
    ],
)
def test_a_dkms_removal_whose_fix_did_not_last_or_left_rocm_broken_is_not_rd955(text: str) -> None:
    assert "RD955" not in problems_shown(text)


def test_an_old_release_s_kernel_bound_told_in_the_past_is_not_rd566() -> None:
    text = ("Ubuntu 18.04, ROCm 2.10, RX 580. The old rock-dkms was restricted to kernels up to 5.0, but ROCm 3.1 supports "
            "5.3 and I'm on 3.1 now. My problem is hipMalloc fails.\n")
    assert "RD566" not in problems_shown(text)


def test_a_dkms_removal_that_solved_nothing_is_not_rd955() -> None:
    # rev59
    assert "RD955" not in problems_shown("ROCm 6.2, RX 7900. Purging amdgpu-dkms solved nothing.\n")
