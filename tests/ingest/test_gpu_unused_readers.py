"""The reports' words for "the GPU is not seen / not used / the program runs on the CPU": one statement
read by three readers that agree (rules/data/signatures.yaml: gpu_not_seen_said, torch_on_cpu_told,
gpu_unused_told). The first two imply the third, and all three read a statement only in a sentence of
the current state: not a yes/no question, not a past state, not another machine."""

from __future__ import annotations

from typing import List

import pytest
from ingest_helpers import problems_shown, report_contexts

READERS = ("gpu_not_seen_said", "torch_on_cpu_told", "gpu_unused_told")


def _read(text: str) -> List[str]:
    return [c for c in report_contexts(text) if c in READERS]


@pytest.mark.parametrize(
    "sentence",
    [
        "[2024-12-19 13:27:10,911]::[InvokeAI]::INFO --> Using torch device: CPU",
        "Webui launches normally, but uses CPU to generate images",
        "TensorFlow cannot detect GPU",
        "it won't see my card",
    ],
)
def test_a_gpu_not_seen_or_a_program_on_the_cpu_is_also_the_gpu_unused(sentence: str) -> None:
    assert "gpu_unused_told" in _read(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "pytorch isn't detecting my GPU",
        "The graphics card isn't detected",
        "The gpu is still not visible",
        "My issue is that I think it can't detect the gpu location",
        "Why doesn't rocminfo detect my GPU?",
    ],
)
def test_every_wording_of_the_gpu_not_seen_is_read_by_the_not_seen_reader(sentence: str) -> None:
    assert "gpu_not_seen_said" in _read(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Does it fall back to CPU?",
        "Is the GPU not detected?",
        "It used to run on the CPU before I installed the ROCm torch.",
        "Before the update it didn't detect my GPU, now it does.",
        "It did not detect my GPU before the update.",
        "On my other machine it falls back to CPU.",
        "On my friend's PC it doesn't detect the GPU either.",
    ],
)
def test_a_question_a_past_state_or_another_machine_is_not_the_gpu_unseen_or_unused_now(sentence: str) -> None:
    assert _read(sentence) == []


@pytest.mark.parametrize(
    "line",
    [
        # ROCm/amdgpu#68: the question is the next sentence of the same line
        "rocm kernel is built, GPUs are not recognized.  Thought it was a hardware failure. Any ideas?",
        "It does not detect my GPU. It worked before the update.",
    ],
)
def test_a_question_or_a_past_state_in_another_sentence_of_the_line_leaves_the_statement(line: str) -> None:
    assert {"gpu_not_seen_said", "gpu_unused_told"} <= set(_read(line))


@pytest.mark.parametrize("sentence", ["The tokenizer runs on the CPU.", "The VAE is offloaded and runs on the CPU."])
def test_a_part_of_the_work_on_the_cpu_is_not_the_program_on_the_cpu(sentence: str) -> None:
    assert _read(sentence) == []


def test_asking_whether_it_falls_back_to_the_cpu_gets_no_torch_build_guess() -> None:
    text = "RX 6800 XT, Ubuntu 22.04. Does it fall back to CPU when the webui starts?\n"
    assert "RD571" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "RX 6800, Ubuntu 22.04.\n\n> @bob wrote: for me it falls back to CPU as well.\n\nI reinstalled and it works now.",
        "RX 6800, Ubuntu 22.04.\n\nbob wrote:\n> it doesn't detect my GPU\n\nThanks, mine works fine.",
        "RX 9070 XT, Ubuntu 24.04.\n\nBefore the update:\nrocminfo does not find the GPU\n\nNow:\nrocminfo lists gfx1201\n",
    ],
)
def test_a_statement_in_a_quoted_reply_or_under_a_past_label_is_not_the_machine_now(text: str) -> None:
    assert _read(text) == []


def test_a_quoted_reply_that_runs_on_the_cpu_gets_no_torch_build_guess() -> None:
    text = "RX 6800, Ubuntu 22.04.\n\n> @bob wrote: for me it falls back to CPU as well.\n\nI reinstalled and it works now."
    assert "RD571" not in problems_shown(text)


def test_the_sample_without_repeated_lines_keeps_the_blocks_scope() -> None:
    from rocm_doctor.ingest.blocks import Block, Line, without_repeats

    lines = tuple(Line("same line", 1, n, "same line") for n in range(1, 40))
    (sample,) = without_repeats([Block(1, "prose", lines, "past")])
    assert len(sample.lines) < len(lines) and sample.scope == "past"


@pytest.mark.parametrize("sentence", ["pytorch cant see my gpu", "why rocminfo cant detect my card", "rocminfo cant show my gpu"])
def test_cant_without_its_apostrophe_is_read_as_cant(sentence: str) -> None:
    # "cant" is how many people type "can't" (as "doesnt" and "isnt", which these readers already take)
    assert "gpu_not_seen_said" in report_contexts(f"RX 6800 on Ubuntu 22.04, ROCm 6.2\n{sentence}\n")


@pytest.mark.parametrize(
    "sentence",
    [
        # legacy-rocm-build#1218, #4739, #4952 (and #4809, the same template)
        "ROCm 3.7, only detect CPU, not GPU",
        "when using the rocminfo command, I can only see the CPU.",
        "Actual Behavior: Only the CPU is detected, and there is no acknowledgment of the GPU",
        "The only hardware detected is the CPU, and there are no signs of the GPU",
    ],
)
def test_only_the_cpu_seen_is_read_as_the_gpu_not_seen(sentence: str) -> None:
    assert "gpu_not_seen_said" in _read(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Not only the CPU is detected but also the GPU.",
        "I only see CPU usage in htop while it generates.",
        "Does rocminfo only show the CPU?",
        "Before the update rocminfo could only see the CPU, now it lists the GPU.",
    ],
)
def test_the_cpus_load_a_contrast_a_question_or_the_past_is_not_only_the_cpu_seen(sentence: str) -> None:
    assert "gpu_not_seen_said" not in _read(sentence)
