"""The one pipeline (rocm_doctor/pipeline.py): derive -> judge -> decide, in that order, in one place."""

from __future__ import annotations

import pytest

from rocm_doctor.judge.engine import judge
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import decide, derive, evaluate
from rocm_doctor.remedy import decide as remedy_decide
from test_machine_findings import facts_of

MACHINE = "ubuntu2204-6700xt"


def test_the_judge_stage_decides_no_remedy_and_the_decide_stage_adds_them() -> None:
    rules, facts = load_rules(use_env=False), facts_of(MACHINE)
    derived = derive(facts)
    judged = judge(rules, facts, derived)
    assert judged.findings and all(f.remedy is None for f in judged.findings) and judged.plan is None
    decided = decide(judged, derived)
    assert [f.model_copy(update={"remedy": None}) for f in decided.findings] == judged.findings
    assert decided.plan is not None and all(f.remedy is not None for f in decided.findings)
    assert decided.to_document() == evaluate(rules, facts).to_document()


def test_a_chooser_that_raises_leaves_the_findings_and_adds_a_crashed_row(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(remedy_decide, "decide", broken)
    result = evaluate(load_rules(use_env=False), facts_of(MACHINE))
    assert result.findings and all(f.remedy is None for f in result.findings)
    assert result.plan is None
    assert result.crashes[-1].what == "remedy chooser" and "RuntimeError: boom" in result.crashes[-1].reason
