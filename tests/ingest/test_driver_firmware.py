"""Firmware and kernels under ROCm on RDNA3.5 APUs (issue 23, class driver_too_old).

Each form is the shape independent real reports use (named per case); the texts are written for
the test, not copied from one report, and the assertions are about the signature read and the
finding shown first.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors


@pytest.mark.parametrize(
    "text",
    [
        # debugfs amdgpu_firmware_info, in the format of legacy-rocm-build#2196 and #5616
        "MES feature version: 1, firmware version: 0x00000083\n",
        "/sys/kernel/debug/dri/1/amdgpu_firmware_info:MES feature version: 1, firmware version: 0x00000083\n",
        # prose (legacy-rocm-build#5724, #5616)
        "I was still showing MES version 83 despite being on the latest packages.\n",
        "rebooted but still have MES 0x83 loaded\n",
        # the number ends the sentence (another user in #5724: "... still have MES 0x83. This is a Fedora 43 laptop")
        "I copied the firmware file and rebooted, but still have MES 0x83. This is a Fedora laptop.\n",
        "Even with the newest packages it still showed MES version 83.\n",
        "the distribution now ships the broken 0x83 MES FW\n",
        # the firmware release that carries it (#5616, kyuz0/amd-strix-halo-toolboxes)
        "$ rpm -q amd-gpu-firmware\namd-gpu-firmware-20251125-1.fc43.noarch\n",
        "linux-firmware 20251125-1 is installed\n",
    ],
)
def test_the_mes_0x83_firmware_is_read_in_each_form(text: str) -> None:
    assert "amdgpu_mes_firmware_0x83" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # the reverted releases and RDNA4's correct one (legacy-rocm-build#5724, #6155)
        "MES feature version: 1, firmware version: 0x00000080\n",
        "the loaded MES FW for these GPUs is 0x8B\n",
        "sorted with MES firmware `0x00000080`\n",
        # the KIQ pipe's line, and another firmware release
        "MES_KIQ feature version: 6, firmware version: 0x00000083\n",
        "linux-firmware 20251111 is installed\n",
        # numbers that only contain 83
        "MES version 0x830\n",
        "MES version 83.5 of some other table\n",
    ],
)
def test_other_mes_releases_are_not_the_0x83_firmware(text: str) -> None:
    assert "amdgpu_mes_firmware_0x83" not in signature_errors(text)


def test_a_strix_point_report_with_mes_0x83_is_told_about_the_firmware_first() -> None:
    # the shape of legacy-rocm-build#5724 (Framework 13, Radeon 890M) and #5616 (Fedora 43)
    report = (
        "My system is a Framework 13 with Ryzen AI 9 HX 370 w Radeon 890M, kernel 6.18.2.\n"
        "Memory access fault by GPU node-1 (Agent handle: 0x55d0c8a0) on address (nil). Reason: Page not present or supervisor privilege.\n"
        "$ sudo grep MES /sys/kernel/debug/dri/1/amdgpu_firmware_info\n"
        "MES_KIQ feature version: 6, firmware version: 0x0000006f\n"
        "MES feature version: 1, firmware version: 0x00000083\n"
    )
    assert problems_shown(report)[:1] == ["RD750"]


def test_mes_0x83_beside_another_gpu_generation_is_not_called_the_apu_regression() -> None:
    report = (
        "GPU: AMD Radeon RX 7900 XTX\n"
        "MES feature version: 1, firmware version: 0x00000083\n"
    )
    assert "RD750" not in problems_shown(report)


def test_a_strix_halo_report_that_shows_another_mes_release_loaded_is_not_told_it_runs_0x83() -> None:
    # the firmware was downgraded (AMD's advice in legacy-rocm-build#5724) and the hang has another cause
    report = (
        "Strix Halo (Radeon 8060S, gfx1151), Fedora 43, ROCm 6.4.4, llama.cpp hangs after a few minutes.\n"
        "I downgraded amd-gpu-firmware-20251125 to amd-gpu-firmware-20251111 and rebooted:\n"
        "$ sudo grep MES /sys/kernel/debug/dri/1/amdgpu_firmware_info\n"
        "MES_KIQ feature version: 6, firmware version: 0x0000006f\n"
        "MES feature version: 1, firmware version: 0x00000080\n"
        "HW Exception by GPU node-1 (Agent handle: 0x55d1c0b0) reason :GPU Hang\n"
    )
    assert "RD750" not in problems_shown(report)


@pytest.mark.parametrize(
    "text",
    [
        "I downgraded amd-gpu-firmware-20251125 to amd-gpu-firmware-20251111 and it still hangs\n",
        "rolled back linux-firmware 20251125 to the November 11 release\n",
    ],
)
def test_a_move_away_from_the_20251125_firmware_is_not_the_0x83_firmware(text: str) -> None:
    assert "amdgpu_mes_firmware_0x83" not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # apt's tail of a failed configure (t2linux/T2-Ubuntu#23, ROCm/amdgpu#144, SkyyySi/pytorch-docker-gfx803#1)
        "Processing triggers for libc-bin (2.31-0ubuntu9.1) ...\nErrors were encountered while processing:\n amdgpu-dkms\nE: Sub-process /usr/bin/dpkg returned an error code (1)\n",
        "Errors were encountered while processing:\n rock-dkms\n",
        # one of several packages listed, the indentation lost in the paste
        "Errors were encountered while processing:\nrocm-dkms\namdgpu-dkms\nrocm-dev\n",
        "Errors were encountered while processing:\n amdgpu-dkms-firmware\n amdgpu-dkms\n",
    ],
)
def test_apts_summary_of_a_failed_amdgpu_dkms_configure_is_read(text: str) -> None:
    assert "apt_errors_processing_amdgpu_dkms" in signature_errors(text)
    assert problems_shown(text)[:1] == ["RD941"]


@pytest.mark.parametrize(
    "text",
    [
        # the package named to be installed, and another package's failure
        "The following NEW packages will be installed:\n  amdgpu-dkms\n",
        "Errors were encountered while processing:\n nvidia-dkms-535\n",
        # amdgpu-dkms in an earlier list of apt's, and another package's failure in the summary
        "The following packages will be upgraded:\n  amdgpu-dkms\n1 upgraded, 0 newly installed.\n"
        "dpkg: error processing package rocm-llvm (--configure):\n"
        "Errors were encountered while processing:\n rocm-llvm\nE: Sub-process /usr/bin/dpkg returned an error code (1)\n",
        "The following packages have unmet dependencies:\n amdgpu-dkms : Depends: amdgpu-dkms-firmware but it is not going to be installed\n",
    ],
)
def test_amdgpu_dkms_named_without_apts_failure_summary_is_not_a_failed_configure(text: str) -> None:
    assert "apt_errors_processing_amdgpu_dkms" not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # DKMS's pointer to the build log, left where the paste was cut (ROCm/amdgpu#144, pop-os/pop#1135)
        "Building initial module for 5.15.0-53-generic\nConsult /var/lib/dkms/amdgpu/5.13.11.21.50-1373477/build/make.log for more information.\n",
        "Consult /var/lib/dkms/amdgpu/1.8-151/build/make.log for more information.\n",
    ],
)
def test_dkms_pointing_at_amdgpus_build_log_is_a_failed_build(text: str) -> None:
    assert "amdgpu_dkms_build_failed" in signature_errors(text)


def test_another_modules_build_log_is_not_amdgpus() -> None:
    assert "amdgpu_dkms_build_failed" not in signature_errors(
        "Consult /var/lib/dkms/nvidia/535.54.03/build/make.log for more information.\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        # make.log of the DKMS build (ROCm/amdgpu#53; ROCm 6's /tmp/amd.XXXX tree, legacy-rocm-build#3701)
        "/var/lib/dkms/amdgpu/1.8-192/build/amd/amdgpu/amdgpu_atpx_handler.c:577:19: error: initialization from incompatible pointer type [-Werror=incompatible-pointer-types]\n",
        "/tmp/amd.stPK9gWX/amd/amdgpu/../display/amdgpu_dm/amdgpu_dm_helpers.c:563:64: error: passing argument 2 of 'drm_dp_add_payload_part2' from incompatible pointer type\n",
        "make[2]: *** [scripts/Makefile.build:317: /var/lib/dkms/amdgpu/1.9-224.el7/build/amd/amdgpu/amdgpu_drv.o] Error 1\n",
        # Arch's rock-dkms names its tree amdgpu-<release> (rocm-arch/rocm-arch#55)
        "/var/lib/dkms/amdgpu-3.1/44/build/include/kcl/kcl_version.h:4:34: error: missing expression between '(' and ')'\n",
        # the DKMS Makefile's own check of the kernel (legacy-rocm-build#2155)
        "/var/lib/dkms/amdgpu/5.18.13-1538762.el8/build/Makefile:16: *** dma_resv->seq is missing., exit.... Stop.\n",
    ],
)
def test_a_compiler_error_in_amds_dkms_tree_is_a_failed_build(text: str) -> None:
    assert "amdgpu_dkms_build_failed" in signature_errors(text)
    assert problems_shown(text)[:1] == ["RD385"]


@pytest.mark.parametrize(
    "text",
    [
        # warnings, and another module's tree
        "/var/lib/dkms/amdgpu/2.6-22/build/amd/amdkcl/kcl_drm.c:12:5: warning: no previous prototype\n",
        "  CC [M]  /var/lib/dkms/amdgpu/2.6-22/build/amd/amdkcl/main.o\n",
        "/var/lib/dkms/nvidia/535.54.03/build/nvidia/nv.c:10:1: error: unknown type name\n",
    ],
)
def test_a_dkms_build_that_only_warns_or_is_another_module_is_not_amdgpus_failure(text: str) -> None:
    assert "amdgpu_dkms_build_failed" not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # ROCm 6's make.log prints paths relative to the build tree (legacy-rocm-build#5085)
        "DKMS make.log for amdgpu-6.12.12-2164967.24.04 for kernel 6.14.0-24-generic (x86_64)\n...\n"
        "amd/amdgpu/amdgpu_drv.c:2416:25: error: implicit declaration of function 'drm_fbdev_ttm_setup' [-Werror=implicit-function-declaration]\n",
        # DKMS 3.x's header (legacy-rocm-build#5624) and a localised make (#2155)
        "DKMS (dkms-3.2.0) make.log for amdgpu/6.12.12-2202139.24.04 for kernel 6.17.0-6-generic (x86_64)\n"
        "make[3]: *** [scripts/Makefile.build:287: amd/amdgpu/amdgpu_ttm.o] Error 1\n",
    ],
)
def test_an_error_in_a_pasted_amdgpu_dkms_make_log_is_a_failed_build(text: str) -> None:
    assert "amdgpu_dkms_make_log_error" in signature_errors(text)
    assert problems_shown(text)[:1] == ["RD385"]


@pytest.mark.parametrize(
    "text",
    [
        # a C error from another build, and a make.log that only warns
        "ggml/src/ggml-cuda/common.cuh:12:3: error: unknown type name\namdgpu driver 6.8.5 is loaded\n",
        "DKMS make.log for amdgpu-2.6-22 for kernel 5.4.0-91-generic (x86_64)\n"
        "/var/lib/dkms/amdgpu/2.6-22/build/amd/amdkcl/kcl_drm.c:12:5: warning: no previous prototype\n",
    ],
)
def test_errors_outside_an_amdgpu_dkms_make_log_are_not_its_failure(text: str) -> None:
    assert "amdgpu_dkms_make_log_error" not in signature_errors(text)


def test_rocminfo_without_the_amdgpu_module_on_a_host_is_told_as_the_driver_first() -> None:
    # the shape of legacy-rocm-build#1850 (Ubuntu 22.10, 5.19 kernel) and tsl0922/pytorch-gfx803#7
    report = (
        "Ubuntu 22.04.3 LTS, Kernel: Linux 6.2.0-39-generic, RX470\n"
        "$ rocminfo\n"
        "ROCk module is NOT loaded, possibly no GPU devices\n"
        "Unable to open /dev/kfd read-write: No such file or directory\n"
    )
    assert problems_shown(report)[:1] == ["RD751"]


@pytest.mark.parametrize(
    "text",
    [
        # in a container the host's module is not what rocminfo saw (RD962)
        "I run it inside a docker container (rocm/pytorch image).\n$ rocminfo\nROCk module is NOT loaded, possibly no GPU devices\n",
        # under WSL2 there is no amdgpu module at all
        "Ubuntu 22.04 under WSL2\n$ rocminfo\nROCk module is NOT loaded, possibly no GPU devices\n",
    ],
)
def test_rocminfo_without_the_module_in_a_container_or_wsl_is_not_called_the_hosts_driver(text: str) -> None:
    assert "RD751" not in problems_shown(text)


@pytest.mark.parametrize(
    ("text", "worked", "now"),
    [
        # legacy-rocm-build#1307's form, ROCm/amdgpu#53's, and a bisection told in one sentence (ollama/ollama#8262)
        ("ROCm works on 5.4.0-54-generic, not on 5.4.0-57-generic.\n", "5.4.0-54-generic", "5.4.0-57-generic"),
        ("The module works fine with 4.15.0-29-generic but fails with 4.15.0-33-generic\n", "4.15.0-29-generic", "4.15.0-33-generic"),
        ("It worked on kernel 6.11.10 but after updating to kernel 6.12.4 ollama segfaults.\n", "6.11.10", "6.12.4"),
    ],
)
def test_a_kernel_that_worked_and_the_one_that_fails_are_read_as_before_and_now(text: str, worked: str, now: str) -> None:
    from ingest_helpers import ingest

    facts = ingest(text).facts
    assert facts.host.kernel_release.value == now
    assert f"host.kernel_release={worked}" in (facts.symptoms.earlier.value or [])
    assert "RD801" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # versions of other things, and a kernel with a ROCm release
        "It works with torch 2.5.1 but fails with 2.6.0\n",
        "Works on kernel 6.8 but not with ROCm 6.2\n",
    ],
)
def test_a_change_of_something_else_is_not_a_kernel_that_worked(text: str) -> None:
    from ingest_helpers import ingest

    earlier = ingest(text).facts.symptoms.earlier.value or []
    assert not any(str(item).startswith("host.kernel_release=") for item in earlier)


def test_a_release_that_ends_a_sentence_is_still_read() -> None:
    from ingest_helpers import ingest

    assert ingest("I am on kernel 6.12.4.\n").facts.host.kernel_release.value == "6.12.4"


def test_rocminfo_that_lists_gpu_agents_after_its_module_check_is_not_a_missing_driver() -> None:
    # amdgpu built into the kernel has no /sys/module/amdgpu/initstate, so the module check fails
    # while KFD works (ROCm/rocm_smi_lib#102, ROCm/amdsmi#172)
    report = (
        "$ rocminfo\nROCk module is NOT loaded, possibly no GPU devices\n=====================\nHSA System Attributes\n"
        "=====================\nRuntime Version:         1.1\n==========\nHSA Agents\n==========\n*******\nAgent 1\n*******\n"
        "  Name:                    AMD Ryzen 9 7950X\n  Device Type:             CPU\n*******\nAgent 2\n*******\n"
        "  Name:                    gfx1100\n  Marketing Name:          AMD Radeon RX 7900 XTX\n  Device Type:             GPU\n"
    )
    assert "RD751" not in problems_shown(report)
