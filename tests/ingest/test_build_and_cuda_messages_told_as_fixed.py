"""An error told as past or fixed is not the machine's error now (mend60).

RD500 ("the PyTorch that ran is a CUDA build"): the CUDA build's NVIDIA-driver message retold in a sentence is a
statement (signature nvidia_driver_named_by_user, scope: statement: not a question, the past or another person's,
nor a sentence that goes on that it works or is fixed); a pasted "Found no NVIDIA driver on your system" under a
report that says it now works (context row works_now_told) leaves RD500, RD528 and RD100 silent, as RD542.
RD654 (a library's own target list): flash-attn's and aiter's refusals told as fixed, past or asked take the guard
rev60 gave sgl-kernel's (fragment build_refusal_not_current in rules/data/signatures.yaml)."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

AMD = "I have an RX 7900 XTX with ROCm 6.2.\n\n"
TRACEBACK = (
    "```\nRuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
    "driver from http://www.nvidia.com/Download/index.aspx\n```\n"
)
CUDA_BUILD = ("RD100", "RD500", "RD528")


@pytest.mark.parametrize(
    "text",
    [
        AMD + "The old message said no nvidia driver, but after reinstalling torch from the ROCm index it works.\n",
        AMD + "It used to say no nvidia driver, but I reinstalled torch.\n",
        AMD + "Does it say no nvidia driver when the CUDA wheel is installed?\n",
        AMD + "The error said no nvidia driver, which is fixed now that I use the ROCm wheel.\n",
    ],
)
def test_the_nvidia_driver_message_retold_as_past_fixed_or_asked_is_no_cuda_build(text: str) -> None:
    assert "nvidia_driver_named_by_user" not in signature_errors(text)
    assert not set(CUDA_BUILD) & set(problems_shown(text))


@pytest.mark.parametrize(
    "text",
    [
        AMD + "Before, I got this:\n\n" + TRACEBACK + "\nAfter reinstalling torch from the ROCm index now it works.\n",
        AMD + TRACEBACK + "\nEverything works now after pip install torch --index-url https://download.pytorch.org/whl/rocm6.2\n",
    ],
)
def test_a_pasted_cuda_build_message_under_a_report_that_now_works_is_no_finding(text: str) -> None:
    assert not set(CUDA_BUILD) & set(problems_shown(text))


@pytest.mark.parametrize(
    "text",
    [
        AMD + "The webui says no nvidia driver found when I start it.\n",
        AMD + "The old message said no nvidia driver, and it still does after reinstalling.\n",
        AMD + "it's now giving me an error that I hadn't ever gotten before \"No NVIDIA driver found on your system.\" "
        "Now I can't even use comfy for stills as I had been.\n",
        AMD + TRACEBACK,
        AMD + TRACEBACK + "\nNow it runs, but only on the CPU.\n",
    ],
)
def test_the_current_cuda_build_message_still_fires_rd500(text: str) -> None:
    assert "RD500" in problems_shown(text)


SEVEN_NINE = "GPU: AMD Radeon RX 7900 XTX\n"
STRIX = "GPU: AMD Radeon 8060S\n"
FLASH = (SEVEN_NINE, "AssertionError: One of GPU archs of ['gfx1100'] is invalid or not supported by Flash-Attention")
AITER_LIST = (STRIX, "AssertionError: One of GPU archs of ['gfx1151'] is invalid or not supported")
AITER_UNKNOWN = (STRIX, "RuntimeError: Unknown GPU architecture: gfx1151. Supported architectures: ['native', 'gfx90a', 'gfx942']")


@pytest.mark.parametrize("message", [FLASH, AITER_LIST, AITER_UNKNOWN], ids=["flash-attn", "aiter-list", "aiter-table"])
@pytest.mark.parametrize(
    "told",
    [
        'I patched setup.py so it no longer stops with "{m}" and now it builds.\n',
        "I used to get {m} - it is fixed in the new release.\n",
        'Will it still print "{m}" on a 7900 XTX?\n',
    ],
)
def test_a_build_refusal_told_as_fixed_past_or_asked_is_not_read(message: tuple, told: str) -> None:
    text = message[0] + told.format(m=message[1])
    assert not {"flash_attn_build_refuses_gpu_arch", "aiter_refuses_gpu_arch", "aiter_unknown_gpu_arch"} & set(signature_errors(text))
    assert "RD654" not in problems_shown(text)


@pytest.mark.parametrize("message", [FLASH, AITER_LIST, AITER_UNKNOWN], ids=["flash-attn", "aiter-list", "aiter-table"])
def test_a_pasted_build_refusal_still_fires_rd654(message: tuple) -> None:
    assert "RD654" in problems_shown(message[0] + "```\n" + message[1] + "\n```\n")
