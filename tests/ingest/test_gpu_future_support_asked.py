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


def test_a_question_about_the_reports_own_gpu_gets_the_finding() -> None:
    report = "OS: Ubuntu 25.04\nGPU: AMD Radeon 8060S (gfx1151)\n\nI wonder if there will be support for Strix Halo devices for RCCL in the future?\n"
    assert "RD766" in problems_shown(report)


def test_a_question_about_another_gpu_leaves_a_working_report_alone() -> None:
    report = (
        "GPU: AMD Radeon RX 7900 XTX (gfx1100)\nOS: Ubuntu 24.04\n\n"
        "Everything runs on the GPU. Out of curiosity: will the RX 9070 XT be supported?\n"
    )
    assert problems_shown(report) == []
