"""A later step that resolves torch again counts within the run of steps that named the ROCm index (learn56f).

renfald/tail-tagger#17 fenced its ROCm-index install and its later ``pip install -r requirements.txt`` in two blocks,
so the ROCm build the index asks for stayed read; with the fences stripped (a forum, a mail, a rendered page copied),
both commands sat in one prose block and the requirements install, a paragraph away, undid the reading. In prose a
step runs within its paragraph, as a fenced report's separate blocks are read; in one fenced block (one transcript) the
whole block is one run, as before (AUTOMATIC1111/stable-diffusion-webui#14994, Comfy-Org/ComfyUI#10680)."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

ROCM = "pip install --pre torch torchvision --index-url https://download.pytorch.org/whl/nightly/rocm7.0"


def _flavour(text: str):
    return ingest(text).facts.torch.flavour.value


@pytest.mark.parametrize(
    "text",
    [
        # fenced apart, fences kept
        f"It works fine on my RX 7900 XTX. Install the ROCm wheels:\n\n```\n{ROCM}\n```\nthen run\n\n```\npip install -r requirements.txt\n```\n",
        # the same with the fences stripped
        f"It works fine on my RX 7900 XTX. Install the ROCm wheels:\n\n{ROCM}\n\nthen run\n\npip install -r requirements.txt\n",
        # as a quoted reply, unfenced
        f"> It works fine on my RX 7900 XTX. Install the ROCm wheels:\n>\n> {ROCM}\n>\n> then run\n>\n> pip install -r requirements.txt\n",
        # indented commands in a list, unfenced
        f"It works fine on my RX 7900 XTX.\n\n1. install the ROCm wheels:\n   {ROCM}\n\n2. then the rest:\n   pip install -r requirements.txt\n",
    ],
)
def test_a_requirements_install_in_another_paragraph_leaves_the_rocm_index_read(text: str) -> None:
    assert _flavour(text) == "rocm"


@pytest.mark.parametrize(
    "text",
    [
        # one transcript: the requirements install ran after the ROCm install, in the same block
        f"RX 7900 XTX, the GPU is not found.\n```\n$ {ROCM}\n$ pip install -r requirements.txt\n```\n",
        # one prose paragraph: the same run of steps
        f"RX 7900 XTX, the GPU is not found. I ran {ROCM} and then pip install -r requirements.txt in the venv.\n",
        # one transcript with a blank line between the commands
        f"RX 7900 XTX, the GPU is not found.\n```\n$ {ROCM}\n\n$ pip install -r requirements.txt\n```\n",
    ],
)
def test_a_requirements_install_in_the_same_run_still_undoes_the_rocm_index(text: str) -> None:
    assert _flavour(text) != "rocm"
