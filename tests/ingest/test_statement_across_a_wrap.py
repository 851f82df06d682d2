"""A reading that the 80-column wrap used to change (rev52c, on zluda-vosen-140: RD571 became RD845).

A statement on a line a wrapping tool broke inside its sentence is read as on the line unwrapped: the past, another
machine or a question on the wrapped continuation is in its sentence ("... when I use ZLUDA, I have not" / "changed
anything before this problem came out"). The one-line reading is the one kept: a full stop typed without a space
("zluda.l have") cannot be told from a dotted name ("nvcuda.dll", "torch.cuda") and does not end the sentence.
Assertions are about contexts, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest


def _context(report: str) -> list:
    return ingest(report).facts.symptoms.context.value or []


_PAST_LINES = (
    "It ran well for a week on my RX 7900 XTX, then it fails when I use zluda, I have not",
    "changed anything before this problem came out and I tried to reinstall the HIP SDK.",
)
_NOW_LINES = (
    "It ran well for a week on my RX 7900 XTX, then it fails when I use zluda, I have",
    "reinstalled the HIP SDK twice and the error stays the same every single time.",
)


@pytest.mark.parametrize("joiner", [" ", "\n", "\r\n"])
def test_a_past_word_later_in_the_sentence_scopes_it_wrapped_or_not(joiner: str) -> None:
    assert "zluda_named" not in _context("Windows 11.\n" + joiner.join(_PAST_LINES) + "\n")


@pytest.mark.parametrize("joiner", [" ", "\n", "\r\n"])
def test_a_statement_with_no_past_word_is_read_wrapped_or_not(joiner: str) -> None:
    assert "zluda_named" in _context("Windows 11.\n" + joiner.join(_NOW_LINES) + "\n")


def test_a_new_sentence_on_the_next_line_does_not_scope_the_statement() -> None:
    report = (
        "I run SD.Next with ZLUDA on my RX 6800 and Windows 11 and it keeps giving me an error\n"
        "Before that I used DirectML.\n"
    )
    assert "zluda_named" in _context(report)
