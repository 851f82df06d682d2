"""A fenced block under a label that hands it to another person or another machine (elsewhere59, issue 23 point 2).

The label on the prose line just before a fence sets the block's scope once (:func:`rocm_doctor.ingest.blocks.past_blocks`),
so every signature and fact read from the block knows it is another machine's, not this machine's current state. Real
reports label such blocks so:

- ollama/ollama#2502: a maintainer's ``<summary>`` "Here's an example run of 0.1.25 on a Radeon RX 7600 test system for
  reference" over a fenced server log (the reporter's machine is another one);
- ROCm/tensorflow-upstream#1106: "whereas on my host (Ubunut 20.04) it seem to work properly:" over the host's output
  (the report is about the container);
- pytorch/pytorch#106529 (tests/corpus/pytorch-106529-windows-6600xt-no-rocm-wheels.yaml): "somebody told me to try:"
  hands only the command to someone else; what follows it is the reporter's own run, and stays current.

The label must be tight: the reporter's own ("I get this:", "Here is my log:", "Same as my friend, I get:", "my friend told
me to run X, and I get:") keeps the block current.
"""

from __future__ import annotations

from typing import List

import pytest

from rocm_doctor.ingest import ingest_text
from rocm_doctor.ingest.blocks import split_blocks
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

_RULES = load_rules([], use_env=False)
_INTRO = "I'm trying to run pytorch on my RX 7900 XTX with ROCm 6.2.\n\n"
_KERNEL = "```\n/src/kernels.hip:12:3: error: instruction not supported on this GPU\n```\n"
_VISIBLE = "```\nRuntimeError: HIP_VISIBLE_DEVICES contains more devices than ROCR_VISIBLE_DEVICES\n```\n"

ANOTHERS_LABELS = [
    "My friend gets this on his machine:",
    "My colleague's machine fails with:",
    "On my other PC it prints:",
    "A colleague's log:",
    "Here is the output from the server that works:",
    "Tried it on my friend's PC:",
    "My friend gets the same error on his machine:",
    # mend60: another person's post on a forum, a thread or a chat
    "Someone on reddit got this:",
    "A user on the forum posted:",
    "Somebody posted this on Discord:",
    "A redditor shared this log:",
]
OWN_LABELS = [
    "I get this:",
    "Here is my log:",
    "Same as my friend, I get:",
    "my friend told me to run X, and I get:",
    "Same as my friend:",
    "My friend and I get this:",
    "Output on the server:",
    "On our test server:",
    "Someone on reddit told me to reinstall, and I get:",
    "Someone on the forum had the same error as me:",
    "Running as a user:",
]


def _findings(text: str) -> List[str]:
    return [f.id for f in evaluate(_RULES, ingest_text(text).facts).findings if f.severity in ("error", "warning")]


def _fence_scope(text: str) -> str:
    return next(b.scope for b in split_blocks(text) if b.kind == "fenced")


@pytest.mark.parametrize("label", ANOTHERS_LABELS)
def test_a_fence_labelled_as_another_persons_or_machines_is_elsewhere(label: str) -> None:
    assert _fence_scope(f"{_INTRO}{label}\n\n{_KERNEL}") == "elsewhere"


@pytest.mark.parametrize("label", ANOTHERS_LABELS)
@pytest.mark.parametrize("block, rule", [pytest.param(_KERNEL, "RD656", id="RD656"), pytest.param(_VISIBLE, "RD525", id="RD525")])
def test_an_error_in_another_machines_labelled_fence_decides_nothing_of_this_machine(label: str, block: str, rule: str) -> None:
    assert rule not in _findings(f"{_INTRO}{label}\n\n{block}")


@pytest.mark.parametrize("label", OWN_LABELS)
def test_the_reporters_own_label_keeps_the_fence_current(label: str) -> None:
    assert _fence_scope(f"{_INTRO}{label}\n\n{_KERNEL}") == "current"


@pytest.mark.parametrize("label", OWN_LABELS[:4])
@pytest.mark.parametrize("block, rule", [pytest.param(_KERNEL, "RD656", id="RD656"), pytest.param(_VISIBLE, "RD525", id="RD525")])
def test_an_error_under_the_reporters_own_label_still_fires(label: str, block: str, rule: str) -> None:
    assert rule in _findings(f"{_INTRO}{label}\n\n{block}")


def test_a_maintainers_test_system_run_in_a_summary_is_elsewhere() -> None:
    # ollama/ollama#2502 (shape): the maintainer's reference run on their own test system, folded under a summary
    text = (
        "Those log captures don't seem to be with debugging enabled.\n\n<details>\n<summary>Here's an example run of 0.1.25 "
        "on a Radeon RX 7600 test system for reference</summary>\n\n```\nOLLAMA_DEBUG=1 ./ollama-linux-amd64 serve\n"
        "RuntimeError: HIP_VISIBLE_DEVICES contains more devices than ROCR_VISIBLE_DEVICES\n```\n\n</details>\n"
    )
    assert _fence_scope(text) == "elsewhere"
    assert "RD525" not in _findings(text)


def test_the_hosts_working_output_set_against_the_container_is_elsewhere() -> None:
    # ROCm/tensorflow-upstream#1106 (shape): inside the container it fails, "whereas on my host ... it seem to work properly:"
    text = (
        "Inside the container I get hipErrorNoBinaryForGpu.\n\nwhereas on my host (Ubunut 20.04) it seem to work properly:\n\n"
        + _KERNEL
    )
    assert _fence_scope(text) == "elsewhere"
    assert "RD656" not in _findings(text)


def test_a_command_someone_told_the_reporter_to_try_keeps_its_output_current() -> None:
    # pytorch/pytorch#106529: "somebody told me to try:" hands the command over, not the machine it ran on
    text = f"{_INTRO}I asked in the unofficial pytorch discord server and somebody told me to try:\n\n{_VISIBLE}"
    assert _fence_scope(text) == "current"
    assert "RD525" in _findings(text)


_WINDOWS_INTRO = "I have an RX 7900 XTX on Windows 11 and want to run ComfyUI.\n\n"
_WINERROR = (
    "```\nOSError: [WinError 127] The specified procedure could not be found. Error loading "
    '"C:\\ComfyUI\\venv\\lib\\site-packages\\torch\\lib\\c10_hip.dll" or one of its dependencies.\n```\n'
)


@pytest.mark.parametrize("label", ["Someone on reddit got this:", "A user on the forum posted:", "My friend gets this:"])
def test_another_persons_pasted_winerror_leaves_no_unexplained_error_warning(label: str) -> None:
    # mend60: RD599 warned of a WinError 127 that only another person's post showed
    assert "RD599" not in _findings(f"{_WINDOWS_INTRO}{label}\n\n{_WINERROR}")
    assert "RD599" in _findings(f"{_WINDOWS_INTRO}I get this:\n\n{_WINERROR}")
