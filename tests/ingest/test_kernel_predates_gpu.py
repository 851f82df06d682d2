"""The running kernel said in prose, and a GPU the kernel is too old to drive (RD560).

Issue 23, class driver_too_old. The prose forms are the ones independent real reports use (named per
case); the texts are written for the test, not copied from one report.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown


@pytest.mark.parametrize(
    "text, release",
    [
        # legacy-rocm-build#5102 ("Ubuntu 24.04.02 with 6.8 Kernel didn't recognize the GPU")
        ("Ubuntu 24.04.2 with 6.8 Kernel does not see my card.", "6.8"),
        # ROCm/amdgpu#68 ("It's a 4.15 kernel.")
        ("It's a 4.15 kernel.", "4.15"),
        # legacy-rocm-build#1367 ("failing on Ubuntu 20.04.1 with 5.4 kernel")
        ("The install is failing on Ubuntu 20.04.1 with 5.4 kernel.", "5.4"),
        # legacy-rocm-build#449 ("was updated today to the 4.15 kernel")
        ("Ubuntu 16.04 was updated today to the 4.15 kernel from 18.04.", "4.15"),
        # legacy-rocm-build#1809 ("Ubuntu 20.04.5 LTS with 5.14 Kernel")
        ("Ubuntu 20.04.5 LTS with 5.14 Kernel", "5.14"),
        # stated, then asked after a comma
        ("I'm on Ubuntu 24.04 with the 6.8 kernel and the GPU is not found, what can I do?", "6.8"),
        # a "not" that denies the GPU being seen, not the kernel (h31e)
        ("RX 9070 XT not detected on Ubuntu 24.04 with the 6.8 kernel", "6.8"),
        ("The GPU is not recognized on Linux Mint 22 with 6.8 kernel.", "6.8"),
    ],
)
def test_the_running_kernel_is_read_where_its_release_comes_before_the_word_kernel(text: str, release: str) -> None:
    found = ingest(text).facts.host.kernel_release
    assert found.is_known and found.value == release


@pytest.mark.parametrize(
    "text",
    [
        # an earlier state (legacy-rocm-build#5624: "The compilation worked perfectly for the 6.14 kernel")
        "The compilation worked perfectly for the 6.14 kernel.",
        # a question, a plan
        "Is there any timeline as to when will the 6.17 kernel be supported?",
        "Should I move to the 6.11 kernel?",
        "I plan to install the 6.11 kernel next week.",
        # asked or planned where a release's dots come between ("Ubuntu 24.04"), or the question mark
        # comes further on
        "Should I install Ubuntu 24.04 with the 6.8 kernel for my RX 9070 XT?",
        "I want to install Ubuntu 24.04.2 with the 6.8 kernel.",
        "Does ROCm 6.4.1 support the RX 9070 XT on Ubuntu 24.04 with the 6.8 kernel or do I need a newer one?",
        # a list of kernels, and a package name
        "ROCm 4.0 works with 5.10, 5.11 and 5.12 kernels.",
        "I installed the 6.8 kernel-headers package.",
        # what a release ships with, another machine's kernel
        "Ubuntu 24.04 ships with 6.8 kernel by default; I run 6.14.",
        "My friend's PC is on 6.8 kernel and it doesn't detect the GPU.",
        # the kernel itself denied
        "I'm not on the 6.8 kernel any more.",
        "I am not using the 6.8 kernel.",
    ],
)
def test_a_kernel_release_before_the_word_kernel_that_is_not_the_running_one_is_not_read(text: str) -> None:
    assert not ingest(text).facts.host.kernel_release.is_known


def test_an_rdna4_card_on_a_68_kernel_without_amds_dkms_driver_is_first_said_to_need_a_newer_kernel() -> None:
    text = "I installed ROCm 6.4.1 for my RX 9070 XT. Fedora 40 with 6.8 Kernel didn't recognize the GPU.\n"
    assert problems_shown(text)[:1] == ["RD560"]


@pytest.mark.parametrize(
    "text",
    [
        # AMD supports the RX 9000 series on Ubuntu 24.04.2 (6.8 GA kernel) and 22.04.5 (5.15 GA, 6.8 HWE) through
        # its amdgpu-dkms driver (ROCm 6.4.2 system requirements, footnote RDNA-OS): the old kernel alone says nothing
        "I installed ROCm 6.4.1 for my RX 9070 XT. Ubuntu 24.04.2 with 6.8 Kernel didn't recognize the GPU.\n",
        "RX 9070 XT, Ubuntu 24.04, kernel 6.8, ROCm 6.4. rocminfo shows only the CPU agent.\n",
        "RX 9060 XT on Ubuntu 22.04.5 with kernel 5.15.0-140-generic, installed amdgpu-dkms, torch.cuda.is_available() returns False.\n",
    ],
)
def test_an_rdna4_card_on_an_old_ubuntu_kernel_is_not_said_to_need_a_newer_kernel(text: str) -> None:
    assert "RD560" not in problems_shown(text)


def test_an_rdna4_card_on_a_kernel_that_drives_it_gets_no_kernel_finding() -> None:
    text = "I installed ROCm 6.4.1 for my RX 9070 XT on Ubuntu 24.04.2 with 6.11 Kernel and it crashes.\n"
    assert "RD560" not in problems_shown(text)


def test_an_rdna4_card_rocminfo_lists_is_driven_whatever_kernel_is_named() -> None:
    text = (
        "Ubuntu 24.04 with 6.8 kernel, RX 9070 XT\n"
        "*******\nAgent 2\n*******\n"
        "  Name:                    gfx1201\n"
        "  Marketing Name:          AMD Radeon RX 9070 XT\n"
        "  Vendor Name:             AMD\n"
        "  Device Type:             GPU\n"
    )
    assert "RD560" not in problems_shown(text)


def test_a_kernel_too_old_for_the_gpu_reads_before_gfx_in_no_release_build() -> None:
    # gfx1152 is in no pytorch.org wheel (RD527 stays: it is true whatever kernel runs), but a kernel
    # that cannot drive the GPU at all is what a maintainer reads first.
    shown = problems_shown("My laptop has a Radeon 860M. Ubuntu 24.04 with 6.8 kernel, torch.cuda.is_available() is False.\n")
    assert shown[:1] == ["RD560"] and "RD527" in shown


def test_a_gpu_named_on_an_old_kernel_without_a_sign_that_it_is_unseen_gets_no_kernel_finding() -> None:
    # AMD's amdgpu-dkms driver serves an RX 9070 XT on Ubuntu's 6.8 kernel; a report about something
    # else (a crash in a model) does not say the GPU is unseen, so the kernel is not blamed.
    text = "RX 9070 XT, Ubuntu 24.04 with 6.8 kernel, ROCm 6.4.1. ComfyUI crashes in the VAE decode.\n"
    assert "RD560" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "Ubuntu 24.04.02 with 6.8 Kernel didn't recognize the GPU.",  # legacy-rocm-build#5102
        "rocm kernel is built, GPUs are not recognized",  # ROCm/amdgpu#68
        "`/opt/rocm/bin/rocminfo` does not find the AMD GPU",  # legacy-rocm-build#1214
        "now when I run it, it doesn't detect my GPU",  # Umio-Yasuno/amdgpu_top#92
        "TensorFlow cannot detect GPU",  # legacy-rocm-build#3071
    ],
)
def test_the_reporters_words_that_the_gpu_is_not_seen_are_read(text: str) -> None:
    assert "gpu_not_seen_said" in (ingest(text).facts.symptoms.context.value or [])


def test_a_gpu_that_is_detected_is_not_said_to_be_unseen() -> None:
    assert "gpu_not_seen_said" not in (ingest("rocminfo detects the GPU fine; it's the model that fails.").facts.symptoms.context.value or [])


def test_a_question_about_an_old_kernel_gets_no_kernel_finding() -> None:
    text = "Should I install Ubuntu 24.04 with the 6.8 kernel for my RX 9070 XT? I read that rocminfo doesn't detect the GPU on it.\n"
    assert "RD560" not in problems_shown(text)


def test_a_fedora_container_on_an_ubuntu_kernel_is_not_judged_as_fedoras_own_amdgpu() -> None:
    # os-release is the distrobox's, the running kernel (Ubuntu's -generic) the host's, where AMD's
    # amdgpu-dkms drives the RX 9000 series (r34b)
    text = (
        "RX 9070 XT. I run ROCm inside a Fedora 41 distrobox on my Ubuntu 24.04 host.\n"
        "$ cat /etc/os-release\nNAME=\"Fedora Linux\"\nID=fedora\nVERSION_ID=41\n"
        "$ uname -r\n6.8.0-60-generic\nrocminfo lists only the CPU agent.\n"
    )
    assert "RD560" not in problems_shown(text)
    assert "RD560" in problems_shown(text.replace("6.8.0-60-generic", "6.8.5-301.fc40.x86_64"))


@pytest.mark.parametrize(
    "text",
    [
        "My friend's PC runs kernel 6.8.0-45-generic and it works there. Mine fails with hipErrorNoBinaryForGpu.",
        "On my other machine 6.11.0-19-generic works fine.",
        "A colleague has 6.8.0-31-generic and rocminfo lists the GPU for him.",
    ],
)
def test_a_full_kernel_release_said_of_another_persons_or_machines_kernel_is_not_read(text: str) -> None:
    assert not ingest(text).facts.host.kernel_release.is_known


def test_a_full_kernel_release_the_reporter_runs_is_read_beside_a_friends_words_in_another_sentence() -> None:
    text = "My friend's PC works. I run kernel 6.8.0-45-generic and it fails."
    assert ingest(text).facts.host.kernel_release.value == "6.8.0-45-generic"


@pytest.mark.parametrize(
    "text",
    [
        "I used to run 6.5.0-14-generic and rocminfo listed the GPU.",
        "Previously 6.5.0-14-generic worked with my RX 7900 XTX.",
    ],
)
def test_a_full_kernel_release_of_the_past_is_not_read_as_the_running_one(text: str) -> None:
    assert not ingest(text).facts.host.kernel_release.is_known


# drv60: the kernel release's own name says the distribution (rules/data/kernel_gpu_support.yaml, own_amdgpu_kernels):
# Arch's -archN-N / -zenN-N-zen and Fedora's .fcNN spellings, as real reports print them (the table names them).
@pytest.mark.parametrize(
    "text",
    [
        # a bare uname -r, no distribution named
        "RX 9070 XT\n$ uname -r\n6.10.2-arch1-1\nRuntimeError: No HIP GPUs are available\n",
        # uname -a
        "Linux box 6.10.5-arch1-1 #1 SMP PREEMPT_DYNAMIC Thu, 15 Aug 2024 x86_64 GNU/Linux\nGPU: AMD Radeon RX 9070 XT\nrocminfo doesn't see the GPU\n",
        # Python's platform string
        "Platform: Linux-6.8.9-arch1-1-x86_64-with-glibc2.39\nGPU: AMD Radeon RX 9060 XT\nRuntimeError: No HIP GPUs are available\n",
        # an Ubuntu container on a Fedora host: the host's kernel decides
        "RX 9070 XT. I run ROCm inside an Ubuntu 24.04 distrobox.\n$ cat /etc/os-release\nNAME=\"Ubuntu\"\nID=ubuntu\nVERSION_ID=\"24.04\"\n$ uname -r\n6.10.5-200.fc40.x86_64\nrocminfo lists only the CPU agent.\n",
    ],
)
def test_a_gpu_on_a_kernel_release_that_names_a_distribution_without_amd_dkms_is_said_to_need_a_newer_kernel(text: str) -> None:
    assert problems_shown(text)[:1] == ["RD560"]


@pytest.mark.parametrize(
    "text",
    [
        # new enough
        "RX 9070 XT\n$ uname -r\n6.14.2-arch1-1\nRuntimeError: No HIP GPUs are available\n",
        # the old Arch kernel is the past one
        "Before the update I was on kernel 6.8.9-arch1-1 and rocminfo did not see the GPU.\nNow:\n$ uname -r\n6.14.2-arch1-1\nGPU: RX 9070 XT\nRuntimeError: No HIP GPUs are available\n",
        # another machine's Arch kernel; this one runs Ubuntu's, where AMD's DKMS driver may serve the card
        "My friend's laptop runs 6.8.9-arch1-1 and it works there.\n$ uname -r\n6.8.0-60-generic\nGPU: RX 9070 XT\nRuntimeError: No HIP GPUs are available\n",
        # rocminfo lists the GPU: a driver serves it
        "$ uname -r\n6.10.2-arch1-1\n$ rocminfo | grep gfx\n  Name:                    gfx1201\n      Name:                    amdgcn-amd-amdhsa--gfx1201\nGPU: RX 9070 XT\nRuntimeError: No HIP GPUs are available\n",
        # AMD's DKMS module is installed for this kernel
        "$ uname -r\n6.10.2-arch1-1\nGPU: RX 9070 XT\n$ dkms status\namdgpu/6.12.12-2147987, 6.10.2-arch1-1, x86_64: installed\nRuntimeError: No HIP GPUs are available\n",
    ],
)
def test_a_kernel_release_that_names_a_distribution_is_not_blamed_where_it_is_new_enough_past_another_machines_or_a_driver_serves_the_gpu(text: str) -> None:
    assert "RD560" not in problems_shown(text)
