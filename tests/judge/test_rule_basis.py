"""Rules that rest only on user reports say so (``basis: community-report``), in explain and check."""

from __future__ import annotations

import io

from rich.console import Console

from judge_helpers import fact
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.render.console import render_check, render_rule

RULES = {r.id: r for r in load_rules(use_env=False)}
COMMUNITY = {"RD164", "RD214", "RD509", "RD609"}
"""The rules whose claims the audit of the database could not confirm from a primary source."""


def _console() -> tuple:
    buffer = io.StringIO()
    return Console(file=buffer, width=200, color_system=None), buffer


def test_the_unverifiable_rules_are_marked_and_no_others() -> None:
    marked = {rule_id for rule_id, rule in RULES.items() if rule.basis == "community-report"}
    assert marked == COMMUNITY


def test_explain_says_a_rule_rests_on_community_reports() -> None:
    console, buffer = _console()
    render_rule(RULES["RD214"], console)
    assert "basis: community report" in buffer.getvalue()
    console, buffer = _console()
    render_rule(RULES["RD210"], console)
    assert "community report" not in buffer.getvalue()


def test_check_marks_the_finding_of_such_a_rule(make_facts) -> None:
    facts = make_facts({
        "gpus": {"agents": {0: {"gfx": fact("gfx1151"), "integrated": fact(True)}}},
        "env": {"vars": fact({"TORCH_BLAS_PREFER_HIPBLASLT": "1"})},
    })
    result = evaluate([RULES["RD164"]], facts)
    assert [f.rule_basis for f in result.findings] == ["community-report"]
    console, buffer = _console()
    render_check(result, console, verbose=True)
    assert "(community report)" in buffer.getvalue()
