"""The GPU said to need root or sudo, and the two halves of "works as root, not as the user", in the
field's wordings (issue 23, perm67: the "only runs for root" variant the readers missed).

Each form is seen in several public reports; the comment of gpu_works_as_root_told in
rules/data/signatures.yaml names them (ROCm/rocm-examples#187, ROCm/legacy-rocm-build#810, #823, #1088,
#1411, #1826; the need forms beside ROCm/ROCm-docker#41 and #90 and xuhuisheng/rocm-gfx803#2). None is
one report's whole text. The look-alikes are advice, installing, root failing as well, the past,
another person's machine, a question and a negation.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

ROOT_ONLY = {"works_only_as_root", "gpu_only_for_root", "gpu_needs_root_or_sudo", "gpu_works_as_root_told"}


@pytest.mark.parametrize(
    "line",
    [
        # the reporter's own need, the clause ending there
        "seems i need to run it with sudo",
        "I have to run it with sudo.",
        "It looks like I need to run everything as root, otherwise nothing is found.",
        "I always have to run the examples with `sudo`.",
        "I need to run rocminfo as root to see the GPU",
        "Apparently I need to use sudo for the GPU.",
        # root privilege named as the need
        "Can't use ROCm without root privilege.",
        "OpenCL requires root privileges on this machine.",
        "Required to be root to list devices",
        # the two halves apart
        "I can't list devices as user:",
        "rocminfo cannot see the GPU as my user.",
        "But I can do it as root:",
        "but it starts when run as root.",
        "clinfo works fine if I run it with sudo.",
    ],
)
def test_the_gpu_needing_root_or_sudo_reads_in_these_wordings(line: str) -> None:
    assert ROOT_ONLY & set(signature_errors(line))


@pytest.mark.parametrize(
    "line",
    [
        # advice, or a question
        "You may need to run it with sudo.",
        "You need to run it with sudo",
        "Do I need to run it with sudo?",
        # root fails as well
        "I need to run it with sudo, but it still fails with the same error.",
        "I need to run it with sudo and it still says no ROCm-capable device",
        "I ran it with sudo and it still fails",
        "But I can do it as root too, same error.",
        "I can't run it as root either.",
        "It works when I run it with sudo and also as my user.",
        # installing, administering the machine, another program
        "sudo pip install torch",
        "I need to run pip install with sudo.",
        "I need to run amdgpu-install with sudo.",
        "I have to run the installer as root.",
        "I need to use sudo to install the packages.",
        "ROCm requires root privileges to install.",
        "I need to run docker with sudo.",
        "I have to run dmesg with sudo.",
        "I can't install it as user.",
        "I can't log in as root.",
        # a choice, not the only way
        "Running as root is not recommended.",
        "But I can run it as root if needed.",
        # negated, the past, another person's machine
        "I don't need to run it with sudo.",
        "I no longer need to run it with sudo.",
        "I used to need to run it with sudo, now it works as my user.",
        "Before adding myself to render I had to run it with sudo.",
        "My friend needs to run it with sudo.",
        "On my other PC I need to run it with sudo.",
        # a name after "as user" is another account of another program
        "I cannot access the database as user postgres",
    ],
)
def test_advice_installing_root_failing_too_the_past_or_another_machine_is_no_root_only_statement(line: str) -> None:
    assert not ROOT_ONLY & set(signature_errors(line))


NEEDS_SUDO_REPORT = """\
I have an 8-GPU MI300X node.
$ ./rocblas_gemm
An error encountered: "no ROCm-capable device is detected" at main.cpp:146
rocm-smi lists all eight cards.
seems i need to run it with sudo
"""


def test_a_report_saying_it_needs_sudo_beside_no_device_gets_the_root_only_finding() -> None:
    assert "RD517" in problems_shown(NEEDS_SUDO_REPORT)


def test_the_same_report_advising_sudo_gets_no_root_only_finding() -> None:
    advice = NEEDS_SUDO_REPORT.replace("seems i need to run it with sudo", "you may need to run it with sudo")
    assert "RD517" not in problems_shown(advice)


LISTING_AS_ROOT_ONLY = """\
Ubuntu 22.04, ROCm 5.3.
I can't list devices as user:
me@box:~$ clinfo --list
But I can do it as root:
me@box:~$ sudo -u root clinfo --list
Platform #0: AMD Accelerated Parallel Processing
 `-- Device #0: gfx1033
"""


def test_listing_devices_only_as_root_gets_the_root_only_finding() -> None:
    assert "RD517" in problems_shown(LISTING_AS_ROOT_ONLY)


def test_listing_devices_as_root_too_with_the_same_error_gets_no_root_only_finding() -> None:
    both = LISTING_AS_ROOT_ONLY.replace("I can't list devices as user:\n", "").replace(
        "But I can do it as root:", "But I can do it as root too, same result:"
    )
    assert "RD517" not in problems_shown(both)


@pytest.mark.parametrize(
    "line",
    [
        # another permission than the GPU's: the docker daemon, a file system, a mount, a service (review67)
        "To start the container I have to run it with sudo, since I am not in the docker group.",
        "I can't run docker as a user.",
        "I can't start the service as user.",
        "I can't write to /opt/rocm as user but I can do it as root.",
        "I can't mount the drive as user, but I can do it as root.",
        "The build fails in my home dir, but I can do it as root.",
        # installing or setting up ROCm needs root; that is not the GPU refusing the user
        "ROCm setup requires root privileges.",
    ],
)
def test_root_needed_for_docker_files_mounts_or_setup_is_no_root_only_statement(line: str) -> None:
    assert not ROOT_ONLY & set(signature_errors(line))


def test_the_gpu_named_after_but_reads_anywhere_on_the_line() -> None:
    assert ROOT_ONLY & set(signature_errors("clinfo finds nothing as user, but I can see the GPU as root."))
