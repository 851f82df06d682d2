"""The reporter's words that ROCm does not install on the kernel they name (RD692; issue 23, h31e).

Forms from legacy-rocm-build#1699 ("installing Rocm 5.0.2 on Ubuntu with kernel 5.16.xx and it refuses
to install"), #1809 ("errors when installing on Ubuntu 20.04.5 LTS with Kernel 5.14.0-1051-oem"), #1658
("Can't install rock/rocm on Linux kernel 5.13.0-27-generic"), #696 ("can't install ROCm on Kali linux
with kernel 4.19"), #1819 ("Cannot install on Ubuntu 22.04 with RC Kernel"); the texts are written for
the test in those shapes.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

TOLD = "rocm_install_fails_on_kernel_told"


@pytest.mark.parametrize(
    "text",
    [
        "I tried installing ROCm 6.1 on Fedora with kernel 6.9.4 and it refuses to install.\n",
        "I get errors when installing amdgpu-install on Ubuntu 22.04.3 with kernel 6.5.0-14-generic.\n",
        "Can't install rock/rocm on Linux kernel 5.13.0-27-generic\n",
        "I can't install ROCm on Debian with kernel 6.1.\n",
        "Cannot install ROCm on Ubuntu 24.04 with the mainline kernel.\n",
        "Unable to install amdgpu-dkms on the 6.14 kernel.\n",
    ],
)
def test_rocm_not_installing_on_a_named_kernel_is_read(text: str) -> None:
    assert TOLD in signature_errors(text)
    assert "RD692" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "Can I install ROCm on kernel 6.14?\n",  # a question
        "I couldn't install ROCm on kernel 5.16 before, now it works on 5.15.\n",  # a past state
        "I can install ROCm on kernel 6.8 without problems.\n",  # no failure
        "My friend can't install ROCm on his 6.14 kernel.\n",  # another person's machine
        "pip fails to install torch on kernel 6.8 with ROCm 6.2.\n",  # another package
    ],
)
def test_questions_past_success_others_and_other_packages_are_not_read(text: str) -> None:
    assert TOLD not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "I couldn't install ROCm on kernel 6.8 at first, but after switching to 6.5 it installed and works.\n",
        "If you can't install ROCm with kernel 6.8, use --no-dkms.\n",
        "I could not install ROCm on the 6.11 kernel; after downgrading to 6.8 it installed fine.\n",
    ],
)
def test_a_failure_said_to_be_passed_or_advice_for_whoever_meets_it_is_not_read(text: str) -> None:
    assert TOLD not in signature_errors(text)
    assert "RD692" not in problems_shown(text)


def test_the_dkms_build_log_is_said_by_its_own_rule_not_by_the_words() -> None:
    text = (
        "I can't install ROCm on Ubuntu with kernel 6.14.\n"
        "Error! Bad return status for module build on kernel: 6.14.0-24-generic (x86_64)\n"
        "Consult /var/lib/dkms/amdgpu/6.10.5-2084815.24.04/build/make.log for more information.\n"
    )
    assert "RD692" not in problems_shown(text)
