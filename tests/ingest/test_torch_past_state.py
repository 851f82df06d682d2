"""A torch release a report names as the one it had before (an earlier state) is what changed, not the torch in
use; the release named as the present one decides (issue 23, "State and context"). The construct in reports: an
install step or an image's rebuild replaced a ROCm torch with the default CUDA or CPU one, and the report names
both: YanWenKun/ComfyUI-Docker#187 ("prints 2.12.0+cu130 ... The previous snapshot ... has 2.9.1+rocm7.2.3"),
invoke-ai/InvokeAI#8083 ("had AMD ROCM working and now the update is complaining about CUDA"),
easydiffusion/easydiffusion#1607 (the installer replaced 1.13.1+rocm5.2 with a non-ROCm torch 2.0).
Assertions are about facts and finding categories, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings


@pytest.mark.parametrize(
    "text",
    [
        "I installed torch 2.3.0+rocm5.7 at first and it worked. Then I ran the app's update script and now torch is 2.4.1+cpu.",
        "pip list before: torch 2.4.0+rocm6.1\nafter running install.sh: torch 2.4.0+cu121",
        'python -c "import torch; print(torch.__version__)" prints 2.12.0+cu130. The previous image had 2.9.1+rocm7.2.3 and worked.',
        "Previously I had torch 2.5.1+rocm6.2 and everything worked. After the update torch.__version__ says 2.6.0+cu124.",
        "It used to run on 2.4.1+rocm6.1. Since updating ComfyUI I see pytorch version: 2.7.0+cu126",
    ],
)
def test_a_rocm_torch_named_as_the_earlier_state_gives_way_to_the_build_named_now(text: str) -> None:
    facts = ingest(f"RX 7900 XTX on Ubuntu 22.04.\n{text}\n").facts
    assert facts.torch.flavour.value in ("cuda", "cpu")
    assert any("+rocm" in item for item in facts.symptoms.earlier.value or [])
    assert [category for _, _, category in serious_findings(f"RX 7900 XTX on Ubuntu 22.04.\n{text}\n")][:1] == ["torch-build"]


@pytest.mark.parametrize(
    "text",
    [
        # the earlier build was the wrong one and the one named now is ROCm's
        "Before: torch 2.4.0+cpu, it was slow. I reinstalled from the rocm6.1 index, now torch 2.4.0+rocm6.1 and it works.",
        "Previously I had torch 2.5.1+cu124 by mistake. Now torch 2.5.1+rocm6.2 is installed.",
        # "before" that starts a clause, a new clause after the past words, a question
        "Before running the webui, I installed torch 2.5.1+rocm6.2 from the rocm6.2 index.",
        "Previously it crashed, now torch 2.5.1+rocm6.2 runs fine.",
        "Did you have torch 2.5.1+rocm6.2 before the update?",
        # a question whose clause goes on after a comma is still a question
        "Did you have torch 2.5.1+rocm6.2 before the update, or was it a newer one?",
    ],
)
def test_a_rocm_torch_named_as_the_present_stays_the_torch_in_use(text: str) -> None:
    facts = ingest(f"RX 7900 XTX on Ubuntu 22.04.\n{text}\n").facts
    assert facts.torch.flavour.value == "rocm"


def test_a_past_state_wrapped_over_two_lines_is_still_the_earlier_state() -> None:
    text = "RX 7900 XTX on Ubuntu 22.04.\nI installed torch 2.3.0+rocm5.7 at\nfirst and it worked. Then the update script ran and now torch is 2.4.1+cpu.\n"
    facts = ingest(text).facts
    assert facts.torch.flavour.value == "cpu"
