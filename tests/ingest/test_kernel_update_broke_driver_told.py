"""The reporter's words that a kernel update broke ROCm's driver (RD685; issue 23, drv43, reviewed rev43c).

Forms from legacy-rocm-build#494 ("After upgrade kernel on Ubuntu 18.04 catch dkms error"), #420 ("switched to
a newer kernel with amdgpu, but ... rocm wouldn't build for it") and #1615 ("upgraded ... to the latest kernel
version ... ROCm upgrade has failed"); the texts are written for the test in those shapes.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

TOLD = "kernel_update_broke_rocm_driver_told"


@pytest.mark.parametrize(
    "text",
    [
        "After the kernel upgrade on Ubuntu 22.04 I get a dkms error.\n",
        "After the kernel update, rocm stopped working. rocminfo says no GPU.\n",
        "I switched to a newer kernel with amdgpu, but rocm wouldn't build for it.\n",
        "Ubuntu 22.04\nI upgraded to the latest kernel.\nNow ROCm fails with hipErrorNoDevice.\n",
    ],
)
def test_a_kernel_update_that_broke_rocm_is_read(text: str) -> None:
    assert TOLD in signature_errors(text)
    assert "RD685" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "ROCm failed until after updating the kernel.\n",
        "The dkms error went away after the kernel update.\n",
        "rocm failed with errors, which was fixed after the kernel update.\n",
        "After the kernel update rocm works again.\n",
        "Ubuntu 22.04\nI upgraded to the latest kernel.\nNow ROCm no longer fails.\n",
        "Ubuntu 22.04\nI upgraded to the latest kernel.\nThe rocm error went away.\n",
    ],
)
def test_a_kernel_update_that_fixed_rocm_is_not_read(text: str) -> None:
    assert "RD685" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "After a kernel update, dkms may fail, so reinstall amdgpu-dkms.\n",
        "Note: after a kernel update the dkms build can fail; run dkms autoinstall.\n",
        "You should reinstall amdgpu-dkms after a kernel update, otherwise rocm fails.\n",
        "Try to reboot after the kernel update if rocm fails.\n",
        "Does rocm fail after a kernel update?\n",
    ],
)
def test_advice_conditions_and_questions_are_not_read(text: str) -> None:
    assert TOLD not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "After a kernel update, apt upgrade of rocm fails with unmet dependencies.\n",
        "After the kernel update, rock music stopped working in my car.\n",
        "After the kernel update dkms failed for nvidia-driver-535.\n",
        "After the kernel update, zfs dkms failed to build.\n",
        "I updated the ROCm package to the new kernel driver version and it failed.\n",
    ],
)
def test_a_dependency_failure_or_another_module_is_not_rocms_driver(text: str) -> None:
    assert TOLD not in signature_errors(text)


# --- learn56g: the update told with its target, "since" for "after", and the spellings of the step back -----------

@pytest.mark.parametrize(
    "text",
    [
        "After the HWE update to kernel 6.11 ROCm stopped working.\n",
        "Since upgrading to kernel 6.11, amdgpu fails to load.\n",
        "> After upgrading to the latest kernel the amdgpu module is broken.\n",
        "Since the kernel update ROCm stopped working.\r\n",
        "After an update to kernel 6.8.0-44 amdgpu-dkms fails to build.\n",
    ],
)
def test_a_kernel_update_told_with_its_target_is_read(text: str) -> None:
    assert TOLD in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "If ROCm fails after the HWE update to kernel 6.11, reinstall the driver.\n",  # a condition, failure first
        "If ROCm fails after the kernel update, reinstall the driver.\n",
        "Did ROCm stop working after the HWE update to kernel 6.11?\n",  # a question
        "My friend says that after the HWE update to kernel 6.11 ROCm stopped working.\n",  # another person
        "After the HWE update to kernel 6.11 torch fails to import.\n",  # a program, not the driver
        "After the HWE update to kernel 6.11 ROCm works again.\n",  # the update fixed it
    ],
)
def test_a_kernel_update_with_its_target_outside_the_reporters_failure_is_not_read(text: str) -> None:
    assert TOLD not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "ROCm fails on 6.8.0-44. Reverting to the old kernel 5.15.0-131 works.\n",
        "ROCm fails on 6.8.0-44. Booting the old kernel 5.15.0-131 works.\n",
        "ROCm fails on 6.8.0-44. Rolling back to kernel 6.8.0-41 restored ROCm for me.\n",
    ],
)
def test_the_old_kernel_and_a_restored_rocm_are_a_kernel_change_that_made_it_work(text: str) -> None:
    assert "kernel_change_made_it_work_told" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "ROCm fails on 6.8.0-44. Try booting the old kernel 5.15.0-131, it might work.\n",
        "ROCm fails on 6.8.0-44. My colleague says booting the old kernel 5.15.0-131 works for him.\n",
        "Did booting the old kernel work for you?\n",
    ],
)
def test_advice_another_person_or_a_question_about_the_old_kernel_is_not_read(text: str) -> None:
    assert "kernel_change_made_it_work_told" not in signature_errors(text)


# --- rev56g: a hedge, advice to avoid it, a success told before a ';', the old kernel's package --------------------

@pytest.mark.parametrize(
    "text",
    [
        "You might see dkms errors after upgrading to kernel 6.8.\n",  # a hedge, nobody's failure
        "To avoid dkms errors after upgrading the kernel, hold the kernel package.\n",  # advice
        "Since upgrading to kernel 6.8 ROCm finally works; before, rocminfo failed.\n",  # the update fixed it
    ],
)
def test_a_hedge_advice_or_a_fix_by_the_kernel_update_is_not_read(text: str) -> None:
    assert TOLD not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # each holds a success word the reader takes without its exclusion ("I moved to the old kernel and restored it")
        "ROCm fails on 6.8.0-44. I moved to the old kernel package cache and restored it.\n",  # the package, no kernel
        "ROCm fails on 6.8.0-44. I booted the previous kernel and reinstalled ROCm to get it working, no luck.\n",
    ],
)
def test_the_old_kernels_package_or_no_luck_is_no_kernel_change_that_made_it_work(text: str) -> None:
    assert "kernel_change_made_it_work_told" not in signature_errors(text)
    assert "kernel_change_made_it_work_told" in signature_errors(text.replace(" package cache", "").replace(", no luck", ""))
