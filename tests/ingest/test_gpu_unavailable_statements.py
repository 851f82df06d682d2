"""The reporter's own words that PyTorch finds no GPU ("torch.cuda.is_available() returned False"), in the
ways people write them, and the sentences that look alike but say nothing of the machine now (issue 23).
The wordings come from real reports (rules/data/signatures.yaml names them on the h30a row); assertions
are about the context id and finding categories, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import report_contexts, serious_findings

GPU_UNAVAILABLE = "cuda_unavailable_reported"


@pytest.mark.parametrize(
    "sentence",
    [
        "torch.cuda.is_available() returned False.",
        "torch.cuda.is_available() returns False",
        "torch.cuda.is_available() is returning False",
        "torch.cuda.is_available() returning False.",
        "torch.cuda.is_available() keeps returning False",
        "torch.cuda.is_available() still returns False",
        "torch.cuda.is_available() always returns false",
        "torch.cuda.is_available() gives me False",
        "torch.cuda.is_available() says False",
        "torch.cuda.is_available() prints False",
        "torch.cuda.is_available() outputs False",
        "torch.cuda.is_available() shows False",
        "torch.cuda.is_available() evaluates to False",
        "torch.cuda.is_available() is False",
        "torch.cuda.is_available() -> False",
        "torch.cuda.is_available(): False",
        "torch.cuda.is_available() = False",
    ],
)
def test_is_available_false_is_read_in_any_tense_and_verb(sentence: str) -> None:
    assert GPU_UNAVAILABLE in report_contexts("RX 6800 XT on Ubuntu 22.04. " + sentence + "\n")


@pytest.mark.parametrize(
    "sentence",
    [
        "`torch.cuda.is_available()` returns `False`",
        "'torch.cuda.is_available()' returns 'False'.",
        'torch.cuda.is_available() returned "False"',
        "**`torch.cuda.is_available()` is False**",
        "print(torch.cuda.is_available()) return false",
        "when I run 'torch.cuda.is_available()' it always returns False",
    ],
)
def test_is_available_false_is_read_with_quotes_backticks_or_a_print_round_the_call(sentence: str) -> None:
    assert GPU_UNAVAILABLE in report_contexts(sentence + "\n")


def test_is_available_false_is_read_with_the_subject_repeated_after_the_call() -> None:
    assert GPU_UNAVAILABLE in report_contexts("When I use torch.cuda.is_available(), it return False\n")


def test_a_why_question_presupposes_the_state_and_is_read() -> None:
    assert GPU_UNAVAILABLE in report_contexts("Why does torch.cuda.is_available() return False on my 7900 XTX?\n")


@pytest.mark.parametrize(
    "sentence",
    [
        "torch.cuda.is_available() returns True",
        "torch.cuda.is_available() is not False",
        "Does torch.cuda.is_available() return False for you?",
        "torch.cuda.is_available() used to return False before I joined the render group.",
        "torch.cuda.is_available() no longer returns False",
        "torch.cuda.is_available() doesn't return False anymore",
        "torch.cuda.is_available() returned False until I added my user to the render group.",
        "If torch.cuda.is_available() returns False, the script falls back to the CPU.",
        "Please check whether torch.cuda.is_available() returns False in your venv.",
        "torch.cuda.is_available() returned False on my other machine.",
        "assert torch.cuda.is_available() == False",
        "    assert torch.cuda.is_available() is False",
        "Describe the problem (e.g. torch.cuda.is_available() returns False).",
        "For example: `torch.cuda.is_available()` returns `False` when ROCm is missing.",
    ],
)
def test_true_a_question_a_negation_a_past_a_condition_or_an_example_is_not_read_as_no_gpu(sentence: str) -> None:
    assert GPU_UNAVAILABLE not in report_contexts(sentence + "\n")


@pytest.mark.parametrize(
    "sentence",
    [
        "torch.backends.mps.is_available() returns False",
        "torch.xpu.is_available() returns False",
        "torch.mps.is_available() is False",
    ],
)
def test_another_backends_is_available_false_is_not_read_as_no_gpu(sentence: str) -> None:
    assert GPU_UNAVAILABLE not in report_contexts(sentence + "\n")


def test_a_prose_is_available_false_on_an_amd_gpu_gets_the_torch_build_check() -> None:
    report = (
        "I installed pytorch with pip install torch torchvision on Ubuntu 22.04 with my RX 7900 XTX and ROCm 6.1. "
        "rocminfo shows the gpu but torch.cuda.is_available() returned False.\n"
    )
    assert "torch-build" in [category for _, _, category in serious_findings(report)]


def test_a_tools_no_gpu_line_in_another_machines_block_is_not_this_machines() -> None:
    report = "On my other machine:\n```\nIs CUDA available: False\n```\n"
    assert GPU_UNAVAILABLE not in report_contexts(report)


def test_a_tools_no_gpu_line_in_the_reporters_own_block_is_read() -> None:
    report = "RX 6800 XT, Ubuntu 22.04:\n```\nIs CUDA available: False\n```\n"
    assert GPU_UNAVAILABLE in report_contexts(report)
