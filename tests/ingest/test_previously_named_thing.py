""""Previously" that names a thing by its past ("Previously fixed issue #12 is back:") is no earlier state (learn56f).

The word marks a past state when it says when ("Previously I had torch 2.4.1+rocm6.1", "Previously:"); before a
participle and a failure's noun ("previously fixed issue", "the previously reported crash", "originally resolved
bug") it names the failure, which the sentence says is back now: the versions under or after it are the machine's."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest


@pytest.mark.parametrize(
    "text",
    [
        "RX 6700 XT.\nPreviously fixed issue #12 is back:\ntorch 2.5.1+rocm6.2\nRuntimeError: HIP error: invalid device function\n",
        "RX 6700 XT. The previously reported crash came back with torch 2.5.1+rocm6.2 and ROCm 6.2.\n",
        "RX 6700 XT. Originally resolved bug #7 reappeared:\ntorch 2.5.1+rocm6.2, ROCm 6.2\n",
        "RX 6700 XT. A previously closed regression returns on torch 2.5.1+rocm6.2.\n",
    ],
)
def test_a_failure_named_by_its_past_leaves_the_versions_current(text: str) -> None:
    facts = ingest(text).facts
    assert facts.torch.version.value == "2.5.1+rocm6.2"
    assert not any(e.startswith("torch.version=") for e in facts.symptoms.earlier.value or [])


@pytest.mark.parametrize(
    "text",
    [
        "RX 6700 XT. Previously I had torch 2.4.1+rocm6.1. Now torch 2.5.1+rocm6.2 crashes.\n",
        "RX 6700 XT. Previously:\ntorch 2.4.1+rocm6.1\n",
        "RX 6700 XT. Previously fixed with torch 2.4.1+rocm6.1, it fails again on the new install.\n",
        "RX 6700 XT. Originally I installed torch 2.4.1+rocm6.1 from the ROCm index.\n",
    ],
)
def test_previously_that_says_when_still_makes_the_torch_past(text: str) -> None:
    facts = ingest(text).facts
    assert facts.torch.version.value != "2.4.1+rocm6.1"
    assert "torch.version=2.4.1+rocm6.1" in (facts.symptoms.earlier.value or [])
