"""Visibility variables that leave a program no GPU, as reports tell it (issue 23, class env_var_misuse,
block h31d). With one GPU the only device index is 0, and the HIP runtime stops at the first entry that
names no GPU (ROCm/clr rocdevice.cpp at 0053584a): a list that starts at 1 on a one-GPU machine, or
with -1, hides every GPU. Assertions are about context signatures and finding ids and categories, never
about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import report_contexts, serious_findings

SINGLE = "single_gpu_said"


@pytest.mark.parametrize(
    "sentence",
    [
        "I only have one GPU, an RX 7900 XTX.",
        "I have one RX 7900 XTX.",
        "My only card is an RX 6700 XT.",
        "I have a single RX 6800 XT in this box.",
        "This is a single-GPU machine with an RX 6600.",
        "Single RX 6800 XT on Ubuntu 22.04.",
        "there is only one GPU in my system",
        "we just have one graphics card",
    ],
)
def test_the_reporter_saying_the_machine_has_one_gpu_is_read(sentence: str) -> None:
    assert SINGLE in report_contexts(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        # how many a program found, not how many the machine has
        "only one GPU is detected, the other one is missing",
        "ollama uses only one GPU",
        # more than one device in the same line
        "I have one RX 7900 XTX and one RX 6800.",
        "I have one 7900 XTX and an RTX 3090.",
        "I have one RX 7900 XTX and the iGPU of my Ryzen.",
        "I have a single RX 7900 XTX plus the integrated graphics.",
        # a question, the past, another machine, a negation
        "Do I have only one GPU?",
        "I used to have only one GPU.",
        "My friend's machine has only one GPU.",
        "I don't have only one GPU, there are two.",
    ],
)
def test_a_count_found_by_a_program_a_second_device_a_question_or_the_past_is_not_one_gpu(sentence: str) -> None:
    assert SINGLE not in report_contexts(sentence)


@pytest.mark.parametrize(
    "report",
    [
        "I set HIP_VISIBLE_DEVICES=1 but pytorch still shows no gpu. I only have one GPU, RX 7900 XTX",
        "HIP_VISIBLE_DEVICES=1 python train.py -> No HIP GPUs are available (I have one RX 7900 XTX)",
        "My only card is an RX 6700 XT. With CUDA_VISIBLE_DEVICES=1 torch.cuda.device_count() is 0, with 0 it works.",
        "export HIP_VISIBLE_DEVICES=1\ntorch.cuda.is_available() returns False. Single RX 6800 XT on Ubuntu 22.04.",
        "export ROCR_VISIBLE_DEVICES=1\nrocminfo shows only the CPU agent. I have one GPU, a Radeon VII.",
    ],
)
def test_an_index_past_the_one_gpu_the_reporter_has_is_said_first_as_an_environment_mistake(report: str) -> None:
    findings = serious_findings(report)
    assert findings and findings[0][0] == "RD681" and findings[0][2] == "env"


@pytest.mark.parametrize(
    "report",
    [
        "CUDA_VISIBLE_DEVICES=-1 is set in my .bashrc, torch doesn't see the AMD GPU",
        "export HIP_VISIBLE_DEVICES=none\nRX 6800 XT, torch.cuda.is_available() False",
    ],
)
def test_a_list_starting_with_minus_one_or_a_word_is_said_as_an_environment_mistake(report: str) -> None:
    findings = serious_findings(report)
    assert findings and findings[0][0] == "RD681" and findings[0][2] == "env"
    assert "RD321" not in [f[0] for f in findings]


@pytest.mark.parametrize(
    "report",
    [
        "Two GPUs, RX 7900 XTX and RX 6800. HIP_VISIBLE_DEVICES=1 selects the 6800 as expected.",
        "I set HIP_VISIBLE_DEVICES=0 so it uses only my 7900 XTX; works great.",
        "HIP_VISIBLE_DEVICES=1 makes torch pick my second card, an RX 6800.",
        "I have one RX 7900 XTX. Should I set HIP_VISIBLE_DEVICES=1?",
        # the machine's GPU count is not said: the index may be right
        "HIP_VISIBLE_DEVICES=1 python train.py fails with HIP error: invalid device function on my RX 6600",
    ],
)
def test_an_index_that_may_name_a_gpu_is_not_said_to_hide_every_gpu(report: str) -> None:
    assert "RD681" not in [f[0] for f in serious_findings(report)]


@pytest.mark.parametrize(
    "report",
    [
        "export ROCR_VISIBLE_DEVICES=-1\nRX 7900 XTX, torch.cuda.is_available() returns False",
        "export ROCR_VISIBLE_DEVICES=\"\"\nrocminfo lists only the CPU agent, RX 6800 XT",
    ],
)
def test_a_rocr_list_that_is_empty_or_starts_with_minus_one_hides_every_gpu(report: str) -> None:
    findings = serious_findings(report)
    assert findings and findings[0][0] == "RD681"


def test_a_rocr_uuid_that_cannot_be_checked_is_not_said_to_hide_every_gpu() -> None:
    assert "RD681" not in [f[0] for f in serious_findings("ROCR_VISIBLE_DEVICES=GPU-abc123 torch sees nothing")]
