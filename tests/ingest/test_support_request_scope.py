"""A request for GPU support stands down where the report shows torch finding the GPU and no error, or where the
request is another thread's words quoted after a reference to it (prec57; rules/data/signatures.yaml
cuda_available_told and gpu_support_requested_told's unless_line, RD766). Aggregate assertions over many phrasings."""

from __future__ import annotations

from functools import lru_cache
from typing import List

from ingest_helpers import ingest

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


@lru_cache(maxsize=None)
def _rules() -> tuple:
    return tuple(load_rules([], use_env=False))


def context(text: str) -> List[str]:
    told = ingest(text).facts.symptoms.context
    return list(told.value or []) if told.is_known else []


def fired(text: str) -> List[str]:
    return [f.id for f in evaluate(list(_rules()), ingest(text).facts).findings]


AVAILABLE_SAID = [
    "torch.cuda.is_available() -> True on my rx 7900 xtx.",
    "torch.cuda.is_available() returns True on my RX 7900 XTX.",
    "`torch.cuda.is_available()` is `True` here.",
    "If I run `torch.cuda.is_available()`, It shows True.",
    "torch.cuda.is_available(): True",
    "print(torch.cuda.is_available()) prints True",
    "Is CUDA available: True",
]
NOT_AVAILABLE_SAID = [
    "Make sure torch.cuda.is_available() returns True.",
    "- [ ] torch.cuda.is_available() returns True",
    "Check that torch.cuda.is_available() returns True before training.",
    "If torch.cuda.is_available() returns True, the GPU path is taken.",
    "torch.cuda.is_available() returns True but every op fails.",
    "Does torch.cuda.is_available() return True for you?",
    "torch.cuda.is_available() returns False on my RX 7900 XTX.",
    "It used to say torch.cuda.is_available() is True.",
    # rev57i: a False beside it, the past, another machine
    "torch.cuda.is_available() returned True yesterday, today it returns False.",
    "On my other machine torch.cuda.is_available() returns True.",
    "Is CUDA available: True in the docker image, False on the host.",
]


def test_torch_finding_the_gpu_is_read_in_the_ways_reporters_say_it() -> None:
    assert [t for t in AVAILABLE_SAID if "cuda_available_told" not in context(t)] == []


def test_a_checklist_condition_question_contrast_or_false_is_not_read_as_available() -> None:
    assert [t for t in NOT_AVAILABLE_SAID if "cuda_available_told" in context(t)] == []


HEALTHY_THEN_ASKS = [
    "torch.cuda.is_available() -> True on my rx 7900 xtx. Please add support for the RX 7900 XTX on Windows too.",
    "torch.cuda.is_available() returns True on my RX 7900 XTX under Linux.\nPlease add support for gfx1100 in the Windows wheels.",
    "My RX 7900 XTX works: `torch.cuda.is_available()` is True. Could you add support for gfx1100 to the Windows build?",
]
QUOTED_REQUEST = [
    'Related: ollama/ollama#4099 "Please add support for gfx1100"\nI have an RX 7900 XTX.',
    'See https://github.com/ollama/ollama/issues/4099 "please support gfx1100 in rocm docker image". My GPU is an RX 7900 XTX.',
    'Duplicate of #4099 \u201cCan you add support for gfx1100?\u201d. RX 7900 XTX here.',
    'There is an issue titled "Please add support for gfx1100" already. I have an RX 7900 XTX.',
]
STILL_ASKED = [
    "I have an RX 7900 XTX. Please add support for gfx1100 in the Windows build.",
    "Like #4099, please add support for gfx1100. My GPU is an RX 7900 XTX.",
    "torch.cuda.is_available() returns True on my RX 7900 XTX but RuntimeError: HIP error: invalid device function. Please add support for gfx1100.",
    # rev57i: a closing quotation mark is no opening one; True with the GPU unused, or on the iGPU beside it
    'I had issue #12 where I wrote "it crashes"; please add support for the RX 7900 XTX (gfx1100).',
    "Please add support for gfx1100 (RX 7900 XTX). With HSA_OVERRIDE_GFX_VERSION=11.0.0 torch.cuda.is_available() returns True, without it the GPU is not used.",
    "My RX 7900 XTX (gfx1100) is ignored. torch.cuda.is_available() returns True, it runs on the 780M iGPU only. Please add support for gfx1100.",
    "Could you please add support for the RX 7900 XTX (gfx1100)? torch.cuda.is_available() returned True yesterday, today it returns False.",
]


def test_a_healthy_report_or_a_quoted_request_gets_no_support_warning() -> None:
    assert [t for t in HEALTHY_THEN_ASKS + QUOTED_REQUEST if "RD766" in fired(t)] == []


def test_the_reporters_own_request_still_counts_beside_a_reference_or_an_error() -> None:
    assert [t for t in STILL_ASKED if "RD766" not in fired(t)] == []
