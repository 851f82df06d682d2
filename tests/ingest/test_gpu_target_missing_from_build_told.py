"""A report that says a program's or library's build is missing the GPU's target, or support for it (learn54c).

Row gpu_target_missing_from_build_told of rules/data/signatures.yaml; rule RD766. Sources: ROCm/rocm-libraries#3344,
ROCm/rocWMMA#600, ROCm/TransferBench#194.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_contexts

MISSING = "gpu_target_missing_from_build_told"


@pytest.mark.parametrize(
    "text",
    [
        # ROCm/rocm-libraries#3344 (the title, and a later line naming the build files)
        "rocthrust is missing gfx1150\n",
        "So, gfx1150 is actually missing from the `CMakeList.txt` files in hipcub, hipfft, hiprand, rocfft\n",
        # ROCm/rocWMMA#600 (the title, and the description's wording)
        "[Issue]: Missing support for Radeon 8060s (Ryzen AI Max+ 395) gfx1151\n",
        "While this is the latest generation of APU's from AMD support seems to be missing for gfx1151\n",
        # ROCm/TransferBench#194
        "After we debug, we find the MI355 arch device is missing in the cmake file, as below:\n",
    ],
)
def test_a_build_said_to_be_missing_a_gpu_target_is_read(text: str) -> None:
    assert MISSING in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # the reporter's own build, firmware, a documentation page, a question, the past
        "I am missing gfx1150 kernels in my build, how do I add them?\n",
        "gfx1150 is missing from /lib/firmware on this distro.\n",
        "gfx1201 is missing from the compatibility matrix.\n",
        "Is gfx1151 missing from the wheel?\n",
        "The RX 7900 XTX was missing from the list before the update.\n",
        # a feature, aiter's kernels, a compiler
        "Flash attention support is missing for gfx1100.\n",
        "gfx1201 is missing from AITER's architecture table.\n",
        "LLVM 17 is missing gfx1152.\n",
        # a driver, not a program's build (rev54c)
        "The driver for the RX 7900 XTX is missing from the amdgpu-install repo for Noble.\n",
        # overcome on the same line
        "rocthrust is missing gfx1150 but the nightly works fine.\n",
    ],
)
def test_a_person_a_tool_a_page_a_question_or_the_past_is_not_read(text: str) -> None:
    assert MISSING not in signature_contexts(text)


def test_a_library_said_to_miss_the_reports_gpu_gets_the_finding() -> None:
    report = "OS: Arch Linux\nGPU: AMD Radeon 8060S (gfx1151)\n\nrocthrust is missing gfx1151, so the build fails for my GPU.\n"
    assert "RD766" in problems_shown(report)


def test_a_library_said_to_miss_another_gpu_leaves_a_working_report_alone() -> None:
    report = (
        "GPU: AMD Radeon RX 7900 XTX (gfx1100)\nOS: Ubuntu 24.04\n\n"
        "Everything runs on the GPU. rocthrust is missing gfx1201, which does not matter for my card.\n"
    )
    assert problems_shown(report) == []
