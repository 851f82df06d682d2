"""The kernel driver and the Windows display driver as reports name them (issue 23, driver_too_old).

Each form is the shape several independent real reports use (the sources are named per test);
the texts are written for the test, not copied from one report. Assertions are about facts.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest


def signatures(text: str) -> list:
    found = ingest(text).facts.symptoms.signatures
    return list(found.value or []) if found.is_known else []


@pytest.mark.parametrize(
    "text, release",
    [
        # ollama#7107, AMD Software's own name for the release
        ("The latest Adrenalin Edition 24.9.1 slows everything down.\n", "24.9.1"),
        # ollama#7425, ROCm/legacy-rocm-build#5829
        ("I'm using Adrenalin 24.10.1 and the model sits in RAM.\n", "24.10.1"),
        ("AMD Chat broke in AMD Adrenalin 25.12.1.\n", "25.12.1"),
        # ROCm/hip#3644, ollama#7715: an update names the release now installed after "to"
        ("I updated my driver from 24.9.1 to 24.10.1 (latest available version).\n", "24.10.1"),
        ("After updating amd drivers to v-24.10.1 it stopped using VRAM.\n", "24.10.1"),
        ("I have updated to the latest Adrenalin Drivers (26.1.1).\n", "26.1.1"),
        # rev48c: a move back names the release after "to" in the "drivers" form as in the Adrenalin one
        ("I went back from display drivers (25.5.1) to (25.4.1).\n", "25.4.1"),
        ("I went back from display drivers 25.5.1 to 25.4.1.\n", "25.4.1"),
    ],
)
def test_an_adrenalin_release_named_in_prose_is_the_windows_driver(text: str, release: str) -> None:
    assert ingest(text).facts.windows.driver_version.value == release


@pytest.mark.parametrize(
    "text",
    [
        "amdgpu-pro driver 21.50.2 on Ubuntu 20.04\n",  # AMD's Linux driver numbering
        "I am not using driver 24.9.1 any more\n",
        "Driver Version: 32.0.15.9186\n",  # NVIDIA's driver-store version (AMD's are read through rules/data/adrenalin_releases.yaml)
        "the Pro edition driver that comes with the HIP SDK works\n",
        # rev48c: advice to move to a release, and a list of releases in a parenthesis
        "You should update to Adrenalin 25.5.1.\n",
        "Please update to the newest AMD display drivers (25.5.1) and try again.\n",
        "I tested display drivers (25.5.1, 25.4.1 and 25.3.1), all fail.\n",
    ],
)
def test_numbers_that_are_not_an_adrenalin_release_are_not_read_as_one(text: str) -> None:
    assert not ingest(text).facts.windows.driver_version.is_known


def test_two_different_adrenalin_releases_leave_the_driver_unknown() -> None:
    text = "It broke in Adrenalin 25.12.1.\n\nLater: updated to Adrenalin 26.1.1, works now.\n"
    assert not ingest(text).facts.windows.driver_version.is_known


@pytest.mark.parametrize(
    "text",
    [
        # DKMS 3.x (ROCm/legacy-rocm-build#5905, #5111)
        "Autoinstall of module amdgpu/6.16.13-2278356.24.04 for kernel 6.18.7-061807-generic (x86_64)\n"
        "Building module(s)......(bad exit status: 2)\nFailed command:\n'make' KERNELVER=6.18.7-061807-generic\n",
        # Ubuntu's dkms apport hook (legacy-rocm-build#449, #546, #4619)
        "Loading new amdgpu-1.9-211 DKMS files...\n"
        "ERROR (dkms apport): kernel package linux-headers-4.17.0-041700-generic is not supported\n",
        # the title of the hook's crash report, pasted with its make.log cut short (legacy-rocm-build#3762,
        # ROCm/ROCm#969, #1637); an epoch in the package version or none
        "ProblemType: Package\nDKMSBuildLog:\n DKMS make.log for amdgpu-6.8.5-2009582.24.04 for kernel 6.8.0-45-generic (x86_64)\n"
        "SourcePackage: amdgpu-dkms\nTitle: amdgpu-dkms 1:6.8.5.60200-2009582.24.04: amdgpu kernel module failed to build\n",
        "Package: rock-dkms 2.6-22\nTitle: rock-dkms 2.6-22: amdgpu kernel module failed to build\n",
    ],
)
def test_the_newer_dkms_wordings_of_an_amdgpu_build_failure_are_read(text: str) -> None:
    assert "amdgpu_dkms_build_failed" in signatures(text)


def test_a_dkms_3_build_failure_of_another_module_is_not_amdgpus() -> None:
    text = "Autoinstall of module nvidia/550.54 for kernel 6.8.0-45-generic (x86_64)\nBuilding module(s)......(bad exit status: 2)\n"
    assert "amdgpu_dkms_build_failed" not in signatures(text)


_CRASH_TITLE = "amdgpu-dkms 1:6.8.5.60200-2009582.24.04: amdgpu kernel module failed to build"


@pytest.mark.parametrize(
    "text",
    [
        f"The \"{_CRASH_TITLE}\" error was fixed by installing the 6.8.0-45 headers.\n",
        f"My friend's PC shows '{_CRASH_TITLE}', mine installs fine.\n",
        f"Is \"{_CRASH_TITLE}\" something to worry about?\n",
    ],
)
def test_the_dkms_crash_title_solved_elsewhere_or_asked_about_is_not_read(text: str) -> None:
    assert "amdgpu_dkms_build_failed" not in signatures(text)


def test_the_dkms_crash_report_of_another_module_is_not_amdgpus() -> None:
    # beside an amdgpu module that is installed: the report names amdgpu, the crash is nvidia's
    text = (
        "$ dkms status\namdgpu/6.8.5-2009582.24.04, 6.8.0-45-generic, x86_64: installed\n"
        "SourcePackage: nvidia-graphics-drivers-580\nTitle: nvidia-dkms-580 580.126.09-0ubuntu3: nvidia kernel module failed to build\n"
    )
    assert "amdgpu_dkms_build_failed" not in signatures(text)


@pytest.mark.parametrize(
    "text, release",
    [
        # /proc/version as pasted (ollama#9302); Ubuntu's package version at its end is not a second kernel
        (
            "Linux version 5.15.0-133-generic (buildd@lcy02-amd64-040) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, "
            "GNU ld (GNU Binutils for Ubuntu) 2.38) #144-Ubuntu SMP Fri Feb 7 20:47:38 UTC 2025 (Ubuntu 5.15.0-133.144-generic 5.15.173)\n",
            "5.15.0-133-generic",
        ),
        # the first line of dmesg, and of journalctl -k (legacy-rocm-build#4919)
        ("[    0.000000] Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) (x86_64-linux-gnu-gcc-13) #45-Ubuntu SMP\n", "6.8.0-45-generic"),
        ("Jun 18 16:36:53 archb kernel: Linux version 6.15.2-arch1-1 (linux@archlinux) (gcc (GCC) 15.1.1) #1 SMP PREEMPT_DYNAMIC\n", "6.15.2-arch1-1"),
        # `uname -r` and its output, in any distribution's spelling (legacy-rocm-build#546, #5111, #5824)
        ("$ uname -r\n4.17.0-041700-generic\n", "4.17.0-041700-generic"),
        ("$ uname -r\n6.12.100+deb13-amd64\n", "6.12.100+deb13-amd64"),
        ("```\n$ uname -r\n6.17.8-200.nobara.fc43.x86_64\n```\n", "6.17.8-200.nobara.fc43.x86_64"),
    ],
)
def test_the_kernel_release_reads_from_proc_version_dmesg_and_uname_r(text: str, release: str) -> None:
    assert ingest(text).facts.host.kernel_release.value == release


def test_uname_r_that_failed_names_no_kernel() -> None:
    assert not ingest("$ uname -r\nuname: command not found\n").facts.host.kernel_release.is_known


def test_the_previous_kernel_that_worked_is_the_earlier_state_not_the_current_one() -> None:
    text = (
        "When I update to this kernel ollama fails:\n\n```\n"
        "Linux version 5.15.0-133-generic (buildd@lcy02) (gcc 11.4.0) #144-Ubuntu SMP\n```\n\n"
        "Reverting to the previous kernel works:\n\n```\n"
        "Linux version 5.15.0-131-generic (buildd@lcy02) (gcc 11.4.0) #141-Ubuntu SMP\n```\n"
    )
    facts = ingest(text).facts
    assert facts.host.kernel_release.value == "5.15.0-133-generic"
    assert "host.kernel_release=5.15.0-131-generic" in (facts.symptoms.earlier.value or [])


def test_the_kernel_of_another_machine_not_said_to_work_is_no_earlier_working_kernel() -> None:
    # "On my other machine" with "both fail the same way": RD801 must not tell them to boot it
    text = (
        "ollama on my RX 7900 XTX with ROCm.\n\nOn my other machine:\n```\n$ uname -r\n6.5.0-21-generic\n```\n"
        "This machine:\n```\n$ uname -r\n6.8.0-45-generic\n```\nBoth fail the same way with Segmentation fault.\n"
    )
    facts = ingest(text).facts
    assert facts.host.kernel_release.value == "6.8.0-45-generic"
    assert not any(str(item).startswith("host.kernel_release=") for item in facts.symptoms.earlier.value or [])


def test_the_kernel_of_another_machine_said_to_work_is_an_earlier_working_kernel() -> None:
    text = "It fails here.\n```\n$ uname -r\n6.8.0-45-generic\n```\n\nOn my other machine (works):\n```\n$ uname -r\n6.5.0-21-generic\n```\n"
    facts = ingest(text).facts
    assert facts.host.kernel_release.value == "6.8.0-45-generic"
    assert "host.kernel_release=6.5.0-21-generic" in (facts.symptoms.earlier.value or [])


def test_the_adrenalin_release_of_an_earlier_state_is_kept_as_what_changed() -> None:
    text = "Now I run Adrenalin 24.10.1 and the model sits in shared memory.\n\nOlder driver:\n\n```\nAdrenalin 24.8.1\n```\n"
    facts = ingest(text).facts
    assert facts.windows.driver_version.value == "24.10.1"
    assert "windows.driver_version=24.8.1" in (facts.symptoms.earlier.value or [])


def test_a_dkms_module_that_was_only_added_is_read_as_never_built() -> None:
    # legacy-rocm-build#687 and #1583 paste this state; AMD (ROCm/amdgpu#115) reads it as a failed build
    facts = ingest("$ dkms status\namdgpu, 2.0-89: added\n").facts
    assert facts.driver.dkms_amdgpu.value == "amdgpu, 2.0-89: added"


def test_every_amdgpu_line_of_one_dkms_status_is_kept_together() -> None:
    text = (
        "$ sudo dkms status\n"
        "amdgpu/6.16.6-2255209.24.04, 6.17.0-5-generic, x86_64: installed (Original modules exist)\n"
        "amdgpu/6.16.6-2255209.24.04, 6.17.0-8-generic, x86_64: installed (Original modules exist)\n"
    )
    value = ingest(text).facts.driver.dkms_amdgpu.value
    assert value is not None and "6.17.0-5-generic" in value and "6.17.0-8-generic" in value


def test_a_prose_paragraph_introduced_as_the_previous_kernel_is_the_earlier_state() -> None:
    # the same report with its code fences stripped (ollama#9302 pasted it fenced)
    text = (
        "When I update to this kernel ollama fails:\n\n"
        "Linux version 5.15.0-133-generic (buildd@lcy02) (gcc 11.4.0) #144-Ubuntu SMP\n\n"
        "Reverting to the previous kernel works:\n\n"
        "Linux version 5.15.0-131-generic (buildd@lcy02) (gcc 11.4.0) #141-Ubuntu SMP\n\n"
        "See the attached logs.\n"
    )
    facts = ingest(text).facts
    assert facts.host.kernel_release.value == "5.15.0-133-generic"
    assert "host.kernel_release=5.15.0-131-generic" in (facts.symptoms.earlier.value or [])


@pytest.mark.parametrize(
    "text, release",
    [
        # legacy-rocm-build#5824 (Nobara), #5595-style Fedora reports, RHEL's el9 kernels
        ("Kernel is 6.17.8-200.nobara.fc43.x86_64 and ROCm 6.3 from Fedora.\n", "6.17.8-200.nobara.fc43.x86_64"),
        ("now running 6.19.8-200.fc43.x86_64 after the update\n", "6.19.8-200.fc43.x86_64"),
        ("RHEL 9.5 on 5.14.0-503.11.1.el9_5.x86_64 with an MI210\n", "5.14.0-503.11.1.el9_5.x86_64"),
        # Debian 13 (legacy-rocm-build#5111), Proxmox and CachyOS hosts
        ("Building for 6.12.100+deb13-amd64 failed\n", "6.12.100+deb13-amd64"),
        ("the Proxmox host runs 6.8.12-4-pve\n", "6.8.12-4-pve"),
        ("CachyOS with 6.17.7-2-cachyos\n", "6.17.7-2-cachyos"),
    ],
)
def test_distribution_kernel_releases_named_in_prose_are_read(text: str, release: str) -> None:
    assert ingest(text).facts.host.kernel_release.value == release


def test_a_package_version_is_not_a_kernel_release() -> None:
    assert not ingest("package foo 2.3.0-1 installed\n").facts.host.kernel_release.is_known


def test_the_adrenalin_shared_memory_fix_claims_no_later_release_is_free_of_the_defect() -> None:
    # ROCm/hip#3644 and legacy-rocm-build#4040 name 24.8.1 and the Pro driver, and no release
    # after 24.10.1 that fixes it: RD800 may not promise "any later release"
    from rocm_doctor.judge.loader import load_rules

    (rule,) = [r for r in load_rules([], use_env=False) if r.id == "RD800"]
    texts = " ".join(f.text or "" for f in rule.fixes)
    assert "24.8.1" in texts
    assert "later release than" not in texts and "later release AMD lists as fixing it" in texts


def test_a_package_quoted_in_a_sentence_does_not_hide_the_prose_after_it() -> None:
    # The package named in the quoted message and again in the crash report's Package: line were one listing piece
    # spanning every line between them; the GPU, OS and kernel said in that prose were dropped as inside a tool's
    # output (found by the metamorphic "error quoted in prose, added" rewrite of legacy-rocm-build#3762).
    text = (
        'Getting "amdgpu-dkms 1:6.8.5.60200-2009582.24.04: amdgpu kernel module failed to build" when installing ROCm.\n'
        "I have a Radeon Pro W7900 on Ubuntu 24.04 with kernel 6.8.0-45-generic.\n"
        "ProblemType: Package\n"
        "Package: amdgpu-dkms 1:6.8.5.60200-2009582.24.04\n"
    )
    facts = ingest(text).facts
    assert [agent.gfx.value for agent in facts.gpus.agents] == ["gfx1100"]
    assert facts.host.kernel_release.value == "6.8.0-45-generic"
    assert facts.driver.amdgpu_version.value == "6.8.5"  # the package is still read


def test_the_zluda_adrenalin_25_5_1_rule_says_if_and_names_the_comgr_break() -> None:
    # rev48c: no reader takes the ZLUDA build in use, and lshqqytiger's 3.9.5 (PR #109) and vosen's PR #366 run on
    # 25.5.1; both fixes are about the driver's comgr (amd_comgr_2.dll reports 2.9, uses the v3 interface), not
    # the HIP runtime. RD964 may not say every ZLUDA build fails there, nor blame the HIP runtime.
    from rocm_doctor.judge.loader import load_rules

    (rule,) = [r for r in load_rules([], use_env=False) if r.id == "RD964"]
    said = " ".join([rule.title or "", rule.message or ""])
    assert "comgr" in said and "HIP runtime" not in said
    assert "If the ZLUDA in use is older than lshqqytiger's 3.9.5" in said
    assert "does not show which ZLUDA build" in said
