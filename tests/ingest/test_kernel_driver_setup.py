"""The kernel driver against the setup AMD documents, as reports tell it (issue 23 round 7, h33g).

Class driver_too_old. The texts are written for the test in the shapes real reports use (named per
case); the assertions are about the signature read and the finding shown first.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

SECURE_BOOT_TOLD = "secure_boot_blocks_amdgpu_told"
FAULT = "Memory access fault by GPU node-1 (Agent handle: 0x55d1) on address 0x7f00. Reason: Page not present or supervisor privilege.\n"


@pytest.mark.parametrize(
    "text",
    [
        # legacy-rocm-build#4328 (the reporter's diagnosis and its summary line)
        "After the reboot rocminfo and clinfo found no GPU. The cause was Secure Boot, which was preventing the kernel from loading the amdgpu module.\n",
        "Issue: Secure Boot blocking the loading of the amdgpu module\n",
        # psygreg/rocm-ubuntu#1 (the enrolment skipped)
        "I accidentally bypassed the secure boot bit by hitting continue instead of enroll.\nrocminfo\nROCk module is NOT loaded, possibly no GPU devices\n",
        "I skipped the MOK enrollment screen after amdgpu-install, now rocminfo can't find my GPU\n",
        "Turns out secure boot blocks the amdgpu dkms module\n",
    ],
)
def test_a_report_saying_secure_boot_kept_amdgpu_from_loading_gets_the_secure_boot_finding(text: str) -> None:
    assert SECURE_BOOT_TOLD in signature_errors(text)
    assert problems_shown(text)[:2].count("RD619") == 1


@pytest.mark.parametrize(
    "text",
    [
        "Is Secure Boot blocking the amdgpu module? rocminfo fails\n",
        "Secure Boot is not blocking the amdgpu module, I checked. rocminfo fails\n",
        "Secure boot is disabled so it isn't preventing amdgpu from loading. rocminfo fails\n",
        "Secure Boot used to block the amdgpu module, I disabled it and now rocm works.\n",
        "If Secure Boot blocks the amdgpu module, enroll the DKMS key with mokutil. rocminfo fails\n",
        "On my other machine secure boot blocked amdgpu, but here rocminfo fails with no error.\n",
    ],
)
def test_secure_boot_asked_denied_past_or_advised_is_not_read_as_the_cause(text: str) -> None:
    assert SECURE_BOOT_TOLD not in signature_errors(text)
    assert "RD619" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "Ubuntu 24.04, RX 580. Secure Boot is disabled in the BIOS, so it cannot be blocking the amdgpu module.\n"
        "rocminfo says: ROCk module is NOT loaded, possibly no GPU devices\n",
        "Ubuntu 22.04 with an RX 6800. Secure boot is off in my firmware, so I never enrolled the MOK key when installing amdgpu-dkms.\n"
        "rocminfo: ROCk module is NOT loaded, possibly no GPU devices\n",
        "RX 6800 on Ubuntu 22.04. I didn't enroll the MOK because Secure Boot is disabled anyway.\n"
        "rocminfo: ROCk module is NOT loaded, possibly no GPU devices\n",
        "RX 6800 on Ubuntu 22.04, ROCm 6.2. I disabled Secure Boot to stop it from blocking the amdgpu module, "
        "but rocminfo still says ROCk module is NOT loaded, possibly no GPU devices\n",
    ],
)
def test_secure_boot_said_to_be_off_or_turned_off_without_help_is_not_read_as_the_cause(text: str) -> None:
    # r33a: "cannot be blocking" is a denial; with Secure Boot off no key needs enrolling; turning it off
    # that did not help says it is not the cause.
    assert SECURE_BOOT_TOLD not in signature_errors(text)
    assert "RD619" not in problems_shown(text)


def test_the_kernel_log_refusal_speaks_instead_of_the_retold_secure_boot() -> None:
    text = (
        "Secure Boot was blocking the amdgpu module.\n"
        "$ sudo modprobe amdgpu\nmodprobe: ERROR: could not insert 'amdgpu': Key was rejected by service\n"
    )
    shown = problems_shown(text)
    assert "RD638" in shown and "RD619" not in shown


@pytest.mark.parametrize(
    ("gpu", "kernel", "rocm"),
    [
        # legacy-rocm-build#6146: Radeon 8060S, Ubuntu's generic 6.17 kernel, ROCm 7.2.1
        ("Radeon 8060S (gfx1151)", "Kernel: Linux 6.17.0-20-generic", "ROCm: 7.2.1"),
        # ROCm/amdgpu#213: Radeon 890M on a 6.17 OEM kernel with ROCm 7.1.1
        ("Radeon 890M (gfx1150)", "uname -r\n6.17.0-1017-oem", "ROCm 7.1.1"),
        # a Strix Halo on Fedora's kernel, the ROCm release read from the torch wheel
        ("Radeon 8060S (gfx1151)", "Kernel: 6.17.9-300.fc43.x86_64", "torch 2.9.1+rocm7.1"),
    ],
)
def test_a_strix_gpu_faulting_outside_amds_kernel_setup_is_told_so(gpu: str, kernel: str, rocm: str) -> None:
    text = f"GPU: {gpu}\n{kernel}\n{rocm}\n{FAULT}"
    assert problems_shown(text)[:1] == ["RD618"]


@pytest.mark.parametrize(
    "text",
    [
        # the documented OEM kernel
        "GPU: Radeon 8060S (gfx1151)\nKernel: 6.14.0-1018-oem\nROCm: 7.2.1\n" + FAULT,
        # the ROCm release not shown: the kernel AMD names depends on it
        "GPU: Radeon 8060S (gfx1151)\nKernel: 6.17.0-20-generic\n" + FAULT,
        # a discrete GPU on the same kernel
        "GPU: Radeon RX 7900 XTX (gfx1100)\nKernel: 6.17.0-20-generic\nROCm: 7.2.1\n" + FAULT,
        # no fault or hang
        "GPU: Radeon 8060S (gfx1151)\nKernel: 6.17.0-20-generic\nROCm: 7.2.1\nEverything works.\n",
    ],
)
def test_strix_kernel_setup_is_not_raised_without_the_fault_the_release_or_the_apu(text: str) -> None:
    assert "RD618" not in problems_shown(text)


@pytest.mark.parametrize(
    ("cpu", "generation"),
    [
        ("Intel Core i7-3770K", "Ivy Bridge"),  # legacy-rocm-build#1218
        ("Info: 6-Core model: Intel Xeon X5650 bits: 64 type: MT MCP arch: Nehalem", "Westmere"),  # #1214 (inxi)
        ("Intel(R) Xeon(R) CPU E5-2670 0 @ 2.60GHz", "Sandy Bridge-EP"),  # #157
        ("Intel(R) Xeon(R) CPU E5-1650 v2 @ 3.50GHz", "Sandy Bridge-EP"),  # #406
        ("Intel(R) Core(TM) i7-2600K CPU @ 3.40GHz", "Sandy Bridge"),
        ("Intel Core i7-920", "Nehalem"),
    ],
)
def test_cpu_generations_before_pcie_atomics_are_recognised(cpu: str, generation: str) -> None:
    from rocm_doctor.judge.derived import Tables
    from rocm_doctor.judge.derived_facts.pcie_atomics import cpu_generation_without_atomics

    found = cpu_generation_without_atomics(cpu, Tables())
    assert found is not None and generation in found


@pytest.mark.parametrize(
    "cpu",
    [
        "Intel(R) Core(TM) i7-4770K CPU @ 3.50GHz",  # Haswell
        "Intel(R) Xeon(R) CPU E5-2680 v3 @ 2.50GHz",
        "Intel(R) Xeon(R) CPU E3-1230 v3 @ 3.30GHz",
        "Intel(R) Core(TM) i3-10100 CPU @ 3.60GHz",
        "Intel(R) Core(TM) i5-12400",
        "AMD Ryzen 7 5800X 8-Core Processor",
        "AMD EPYC 7551 32-Core Processor",
    ],
)
def test_cpus_with_pcie_atomics_are_not_flagged(cpu: str) -> None:
    from rocm_doctor.judge.derived import Tables
    from rocm_doctor.judge.derived_facts.pcie_atomics import cpu_generation_without_atomics

    assert cpu_generation_without_atomics(cpu, Tables()) is None


def test_a_gfx8_gpu_unseen_behind_a_cpu_without_atomics_is_told_so() -> None:
    text = "CPU: Intel Core i7-3770K\nGPU: Radeon RX 580\nrocminfo does not find my GPU, only the CPU agent.\n"
    assert problems_shown(text)[:1] == ["RD620"]


@pytest.mark.parametrize(
    "text",
    [
        "CPU: Intel(R) Core(TM) i7-4770K CPU @ 3.50GHz\nGPU: Radeon RX 580\nrocminfo does not find my GPU\n",
        "CPU: Intel Core i7-3770K\nGPU: Radeon RX Vega 56\nrocminfo does not find my GPU\n",
        "CPU: Intel Core i7-3770K\nGPU: Radeon RX 580\nEverything works.\n",
    ],
)
def test_atomics_are_not_blamed_for_a_haswell_cpu_a_gfx9_gpu_or_a_working_gpu(text: str) -> None:
    assert "RD620" not in problems_shown(text)
