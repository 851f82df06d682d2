"""A finding about one cause does not vouch for the rest of the machine.

A rule's message says what its evidence shows: a library that lacks the GPU's kernels does not make the
driver or the ROCm install right ("Nothing in the driver or ROCm install is wrong" was said of TensorFlow's
and ollama's target lists, and of flash-attn's refusal, where the report showed nothing of the driver)."""

from __future__ import annotations

import re

import pytest

from rocm_doctor.judge.loader import load_rules

_VOUCHES = re.compile(r"\bnothing\b[^.;]{0,60}\b(?:is|was)\s+(?:wrong|broken|at\s+fault)\b", re.IGNORECASE)
RULES = load_rules(use_env=False)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.id)
def test_no_finding_says_nothing_else_on_the_machine_is_wrong(rule) -> None:
    for field in ("title", "message"):
        text = getattr(rule, field) or ""
        assert not _VOUCHES.search(text), f"{rule.id}.{field} vouches for what it did not check: {text}"
