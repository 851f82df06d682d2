"""A reporter who says a program lacks or does not support "this" or "my" GPU, naming the GPU elsewhere (dev65gfx).

Row gpu_support_lacking_this_told of rules/data/signatures.yaml; rule RD766. Sources: ollama/ollama#9999,
ROCm/legacy-rocm-build#5108, ROCmSoftwarePlatform/tensorflow#55.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, report_contexts, signature_contexts

THIS = "gpu_support_lacking_this_told"


@pytest.mark.parametrize(
    "text",
    [
        # ollama/ollama#9999
        "However, Ollama currently lacks native support for this architecture.\n",
        # ROCm/legacy-rocm-build#5108
        "After realizing that pytorch ROCm does not support this device, I thought I might build it from source.\n",
        # ROCmSoftwarePlatform/tensorflow#55
        "there was otherwise no indication that tensorflow would not support this GPU chipset.\n",
        # the same statement in other spellings of its verb and noun
        "llama.cpp's HIP build doesn't support my graphics card.\n",
        "The Windows wheels don't yet support my GPU.\n",
    ],
)
def test_a_program_said_to_lack_this_gpu_is_read(text: str) -> None:
    assert THIS in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # "it" may be anything the sentence before named (ollama/ollama#4099 wrote it of the SoC)
        "Unfortunately, ollama does not support it yet.\n",
        # a board, a kernel, a driver or a graphics API, not a program's build
        "My motherboard does not support this GPU in the second slot.\n",
        "The 5.15 kernel does not support this GPU.\n",
        "Mesa's OpenCL doesn't support my card.\n",
        # a feature, not the build
        "Flash attention does not support this architecture.\n",
        # a conditional
        "If ollama does not support my GPU, I will use Vulkan.\n",
        # overcome on the same line
        "ROCm 6.0 did not support my GPU but 6.2 works fine now.\n",
    ],
)
def test_it_a_board_a_driver_a_feature_or_a_conditional_is_not_read(text: str) -> None:
    assert THIS not in signature_contexts(text)


def test_a_question_is_not_read() -> None:
    assert THIS not in report_contexts("GPU: Radeon 890M (gfx1150)\n\nDoes ollama not support my GPU at all? Doesn't ROCm support this device?\n")


def test_a_quoted_reply_is_not_read() -> None:
    assert THIS not in report_contexts("GPU: AMD Radeon RX 7900 XTX\n\n> ROCm does not support this device\n\nI do not think so.\n")


def test_the_reports_only_gpu_said_to_be_unsupported_gets_the_finding() -> None:
    report = (
        "OS: Ubuntu 24.04 LTS\nOllama: 0.6.2 (official .deb)\nGPU: Radeon 890M (gfx1150, 16GB dynamic VRAM)\n\n"
        "However, Ollama currently lacks native support for this architecture.\n"
    )
    assert "RD766" in problems_shown(report)


def test_this_gpu_beside_two_discrete_gpus_is_left_alone() -> None:
    report = "GPUs: AMD Radeon RX 7900 XTX (gfx1100) and AMD Radeon RX 6800 (gfx1030)\n\nollama does not support this GPU.\n"
    assert "RD766" not in problems_shown(report)
