"""Prose statements of the present state (signature rows with ``scope: statement``) are not read from a
sentence that asks, or that puts them in the past or on another machine (issue 23: "a question, a past
state, another person's machine is not the current state"). Assertions name signature ids only.
"""

from __future__ import annotations

from typing import List

import pytest
from ingest_helpers import ingest

from rocm_doctor.errors import InputError
from rocm_doctor.ingest.signatures import build


def read(text: str) -> List[str]:
    facts = ingest(text).facts.symptoms
    out: List[str] = []
    for found in (facts.signatures, facts.context):
        out += list(found.value or []) if found.is_known else []
    return out


@pytest.mark.parametrize(
    "text, signature",
    [
        ("Does ComfyUI ask for an NVIDIA GPU when the ROCm torch is missing? Mine is an RX 7900 XTX and it works fine.", "nvidia_or_cuda_wanted_retold"),
        ("It used to ask for CUDA before I installed the ROCm torch; now it works on my RX 6800.", "nvidia_or_cuda_wanted_retold"),
        ("It used to run on the CPU, but after reinstalling torch from the ROCm index it uses my RX 6800 XT.", "torch_on_cpu_told"),
        ("Is it normal that the VAE runs on the CPU? Generation on my RX 7900 XTX is fast.", "torch_on_cpu_told"),
        ("My friend's ComfyUI runs on the CPU, mine on an RX 7900 XTX works well.", "torch_on_cpu_told"),
        ("Is the GPU refused due to lack of permissions? I'm in the render group, rocminfo works for my RX 6800.", "gpu_permission_lack_told"),
        ("On my other machine torch doesn't detect the GPU. This one with an RX 6800 is fine.", "gpu_unused_told"),
    ],
)
def test_a_statement_asked_or_put_in_the_past_or_on_another_machine_is_not_read(text: str, signature: str) -> None:
    assert signature not in read(text)


@pytest.mark.parametrize(
    "text, signature",
    [
        ("ComfyUI keeps asking for an NVIDIA GPU on my RX 7900 XTX.", "nvidia_or_cuda_wanted_retold"),
        ("InvokeAI runs on the CPU instead of my RX 6800 XT, any idea.", "torch_on_cpu_told"),
        # stated with Ubuntu's release dots in the sentence, then asked in the next one
        ("On Ubuntu 24.04 it runs on the CPU. Why?", "torch_on_cpu_told"),
        ("The ollama container can't access the GPU due to permission problems.", "gpu_permission_lack_told"),
        # an earlier state, then the present one in the same sentence
        ("It used to work on my RX 6800 XT, but now ComfyUI runs on the CPU.", "torch_on_cpu_told"),
        ("Before the update it worked; now InvokeAI runs on the CPU.", "torch_on_cpu_told"),
        # "earlier" and "previously" that point back in the text, not in time
        ("As I said earlier, ComfyUI runs on the CPU.", "torch_on_cpu_told"),
        ("As previously mentioned, InvokeAI runs on the CPU.", "torch_on_cpu_told"),
        ("At first it used the GPU, then it fell back to the CPU.", "torch_on_cpu_told"),
    ],
)
def test_a_statement_of_the_present_state_is_still_read(text: str, signature: str) -> None:
    assert signature in read(text)


def test_a_statement_field_that_is_not_a_boolean_is_refused() -> None:
    row = {"id": "x_told", "pattern": "x", "meaning": "m", "source": "https://github.com/a/b/issues/1", "statement": "yes"}
    with pytest.raises(InputError):
        build({"signatures": [row]})


@pytest.mark.parametrize(
    "text",
    [
        "I don't think ComfyUI runs on the CPU, the GPU load goes up.",
        "Not sure if it falls back to the CPU.",
        "I was wondering if it runs on the CPU.",
    ],
)
def test_a_statement_the_reporter_doubts_is_not_read(text: str) -> None:
    assert "torch_on_cpu_told" not in (ingest(text + "\n").facts.symptoms.context.value or [])
