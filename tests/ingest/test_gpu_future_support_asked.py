"""A reporter who asks whether or when a program or ROCm will support their GPU (learn54c).

Row gpu_future_support_asked of rules/data/signatures.yaml; rule RD766. Sources: ROCm/Tensile#1922, ROCm/rccl#2026,
ROCm/rocm-install-on-linux#447, ROCm/legacy-rocm-build#2128, ROCm/legacy-rocm-build#926.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_contexts

ASKED = "gpu_future_support_asked"


@pytest.mark.parametrize(
    "text",
    [
        "Will there be support for gfx1103 any time soon?\n",  # ROCm/Tensile#1922
        "I wonder if there will be support for Strix Halo devices for RCCL in the future?\n",  # ROCm/rccl#2026
        "I have a suggestion and a question: when will ROCm support the RX 9070 XT?\n",  # rocm-install-on-linux#447
        "Will the RX7900 series be supported?\n",  # ROCm/legacy-rocm-build#2128
        "When will the Radeon RX 5700 XT support ROCm\n",  # ROCm/legacy-rocm-build#926
    ],
)
def test_a_question_whether_the_gpu_will_be_supported_is_read(text: str) -> None:
    assert ASKED in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # a GPU to be bought, another person's
        "I plan to buy an RX 9070 XT; will the RX 9070 XT be supported?\n",
        "My friend asks: will the RX 6700 XT be supported?\n",
        # answered on the same line
        "Will the RX 7900 XTX be supported? It is already supported in 6.4.\n",
        # a feature, the display driver, no GPU named
        "Will there be flash attention support for gfx1100?\n",
        "When will the driver for Radeon RX7900 XTX graphics be released? The display stays black.\n",
        "Will there be support for multi-GPU setups?\n",
    ],
)
def test_a_bought_or_another_persons_gpu_an_answer_or_a_feature_is_not_read(text: str) -> None:
    assert ASKED not in signature_contexts(text)


def test_a_question_about_the_reports_own_gpu_gets_the_finding_where_its_rocm_lacks_the_target() -> None:
    # ROCm/Tensile#1922: a 780M (gfx1103); the pytorch.org wheels built with ROCm 6.1 have no gfx1103 kernels
    report = "OS: Arch Linux\nGPU: AMD Radeon 780M (gfx1103)\nROCm 6.1\n\nWill there be support for gfx1103 any time soon?\n"
    assert "RD766" in problems_shown(report)


def test_a_question_about_a_target_no_release_was_built_for_gets_the_finding() -> None:
    # ROCm/legacy-rocm-build#926: an RX 5700 XT (gfx1010), in no pytorch.org release
    report = "GPU: AMD Radeon RX 5700 XT (gfx1010)\nOS: Ubuntu 20.04\n\nWhen will the Radeon RX 5700 XT support ROCm?\n"
    assert "RD766" in problems_shown(report)


@pytest.mark.parametrize(
    "report",
    [
        # rev54c: the ROCm shown (5.7.1, 6.2.4) has gfx1100; a question about the future is not a missing target
        "GPU: AMD Radeon RX 7900 XTX (gfx1100)\nOS: Ubuntu 22.04\nROCm 5.7.1\n\nWhen will ROCm support the RX 7900 XTX?\n",
        "OS: Ubuntu 24.04\nROCm: 6.2.4\nGPU: AMD Radeon RX 7900 XTX (gfx1100)\n\n"
        "Everything works on Linux. When will ROCm support the RX 7900 XTX on Windows?\n",
        "GPU: AMD Radeon RX 7900 XTX (gfx1100), ROCm 6.2, Ubuntu\n\nWill there be support for gfx1100 in hipBLASLt?\n",
        # a question the reporter answers, on the same line
        "GPU: AMD Radeon 780M (gfx1103)\n\nWill there be support for gfx1103 in ROCm 7? I use TheRock nightlies and it runs fine.\n",
    ],
)
def test_a_question_about_a_gpu_the_shown_stack_supports_gets_no_finding(report: str) -> None:
    assert "RD766" not in problems_shown(report)


def test_a_question_about_another_gpu_leaves_a_working_report_alone() -> None:
    report = (
        "GPU: AMD Radeon RX 7900 XTX (gfx1100)\nOS: Ubuntu 24.04\n\n"
        "Everything runs on the GPU. Out of curiosity: will the RX 9070 XT be supported?\n"
    )
    assert problems_shown(report) == []
