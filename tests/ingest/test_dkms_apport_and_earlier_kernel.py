"""Two driver_too_old readings (learn55a, issue 23).

Ubuntu's crash report of a failed DKMS build: the dkms apport hook attaches the module's make.log as
"DKMSBuildLog:" only when the build failed, so AMD's make.log under that field is the failure even when the
paste stops before the compiler's error (ROCm/ROCm#3762, ROCm/amdgpu#104, ROCm/ROCm#969, #4164).
The kernel that ran before said to work, in the orders kernel_change_made_it_work_told does not read
(ROCm/legacy-rocm-build#1504, ROCm/ROCm#5833, ROCm/amdgpu#204). The texts are written for the test in those shapes.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

APPORT = "amdgpu_dkms_apport_build_log"
EARLIER = "earlier_kernel_works_told"

_APPORT_HEAD = "ProblemType: Package\nDKMSBuildLog:\n DKMS make.log for {module} for kernel 6.8.0-45-generic (x86_64)\n make: Entering directory '/usr/src/linux-headers-6.8.0-45-generic'\n   CC [M]  /tmp/amd.abc/ttm/ttm_tt.o\n"


@pytest.mark.parametrize("module", ["amdgpu-6.8.5-2009582.24.04", "amdgpu-3.9-17"])
def test_apport_crash_report_with_amd_make_log_is_a_failed_build(module: str) -> None:
    assert APPORT in signature_errors(_APPORT_HEAD.format(module=module))


def test_apport_crash_report_of_amd_driver_shows_the_dkms_build_failure() -> None:
    # the whole chain once (rule loading is shared with the suite); RD385's own cases pin the rule
    assert "RD385" in problems_shown(_APPORT_HEAD.format(module="amdgpu-3.9-17"))


@pytest.mark.parametrize(
    "text",
    [
        # a make.log copied from /var/lib/dkms: DKMS keeps it after a build that worked too
        "DKMS make.log for amdgpu-6.8.5-2009582.24.04 for kernel 6.8.0-45-generic (x86_64)\n make: Entering directory '/usr/src/linux-headers-6.8.0-45-generic'\n",
        # another vendor's module under the apport field
        "ProblemType: Package\nDKMSBuildLog:\n DKMS make.log for nvidia-331-331.113 for kernel 3.13.0-45-generic (x86_64)\n",
    ],
)
def test_make_log_header_without_apport_field_or_of_another_module_is_not_read(text: str) -> None:
    assert APPORT not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "I rebooted with the prior kernel. With the older kernel, both rocminfo and clinfo worked correctly.\n",
        "This happens since the kernel update to 6.18.2. The kernel version i had before is working without that error.\n",
        "ComfyUI crashes on kernel 6.18.3. No failures occur after rolling back to kernel `6.17.9`.\n",
    ],
)
def test_the_kernel_that_ran_before_said_to_work_is_read(text: str) -> None:
    assert EARLIER in signature_errors(text)


def test_the_kernel_that_ran_before_said_to_work_ties_the_failure_to_the_kernel() -> None:
    # the whole chain once; RD566's own cases pin the rule
    assert "RD566" in problems_shown("I rebooted with the prior kernel. With the older kernel, both rocminfo and clinfo worked correctly.\n")


@pytest.mark.parametrize(
    "text",
    [
        "Try the older kernel, it might work with the previous kernel.\n",
        "Does it work with the older kernel?\n",
        "It works with the older kernel too, so the kernel is not the cause.\n",
        "With the older kernel it worked fine until the torch update.\n",
        "With the older kernel it does not work either.\n",
        "If no crashes occur after rolling back to the previous kernel, report it.\n",
        "With the older kernel it worked last year, now neither kernel works.\n",
        "Changelog 6.3: fixed: no crashes after rolling back to the previous kernel\n",
    ],
)
def test_advice_questions_and_successes_on_both_kernels_are_not_read(text: str) -> None:
    assert EARLIER not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # rev53f's misfires of the earlier attempt: a GPU compute kernel, another part of the machine, another person
        "HIP kernel launch crashed; no errors after switching to the older kernel implementation (naive GEMM) on gfx1100.\n",
        "No crashes after switching to the LTS kernel for my wifi card; torch still fails on the RX 6800.\n",
        "For him, with the previous kernel it is working, but my RX 6800 crashes.\n",
        # rev55a's probes: a compute kernel named on the line, another part of the machine, what another user said
        "On the old kernel the tests worked, the new kernel test (the GEMM kernel) fails.\n",
        "With the older kernel version of flash attention it worked.\n",
        "My Wi-Fi broke on 6.11. With the older kernel the Wi-Fi works.\n",
        "A user in the forum said: with the older kernel it works.\n",
    ],
)
def test_a_compute_kernel_another_part_or_another_person_is_not_read(text: str) -> None:
    assert EARLIER not in signature_errors(text)


@pytest.mark.parametrize(
    "header",
    [
        # learn56f: the header read by the module it names, whatever follows it
        " DKMS make.log for amdgpu-3.9-17 for kernel 5.8.0-25-generic (x86_64)",
        " DKMS (dkms-3.2.0) make.log for amdgpu/6.10.5-2084815.24.04 for kernel 6.8.0-49-generic (x86_64)",
        " DKMS make.log for amdgpu-3.9-17 for Linux 5.8.0-25-generic (x86_64)",  # the kernel retyped in other words
        " DKMS make.log for amdgpu-6.8.5-2041575.24.04",  # the paste cut after the module
    ],
)
def test_the_apport_make_log_header_is_read_by_its_module_whatever_names_the_kernel(header: str) -> None:
    assert APPORT in signature_errors(f"ProblemType: Package\nDKMSBuildLog:\n{header}\n make: Entering directory '/usr/src/linux-headers-6.8.0-45-generic'\n")
