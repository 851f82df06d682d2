"""The reading order of findings: what explains the reported error first, catch-alls and guesses last."""

from __future__ import annotations

from typing import Any, Dict, List

from judge_helpers import fact
from rocm_doctor.pipeline import evaluate
from rocm_doctor.model.rules import Rule


def _rule(rule_id: str, severity: str, when: Dict[str, Any], rank: str = "normal") -> Rule:
    return Rule.model_validate(
        {
            "id": rule_id,
            "name": f"order-{rule_id.lower()}",
            "severity": severity,
            "category": "env",
            "area": "env",
            "rank": rank,
            "when": when,
            "title": rule_id,
            "message": rule_id,
            "explanation": "test rule",
            "references": [{"url": "https://example.org/test"}],
        }
    )


ALWAYS = {"fact": "torch.version", "exists": True}
SHOWS_SEGFAULT = {"fact": "symptoms.signatures", "contains": "segfault"}


def _order(make_facts, rules: List[Rule]) -> List[str]:
    facts = make_facts({"symptoms": {"signatures": fact(["segfault"])}})
    return [f.id for f in evaluate(rules, facts).findings]


def test_a_finding_that_explains_the_reported_error_outranks_an_error_that_does_not(make_facts) -> None:
    rules = [_rule("TST901", "error", ALWAYS), _rule("TST902", "warning", {"all": [ALWAYS, SHOWS_SEGFAULT]})]
    assert _order(make_facts, rules) == ["TST902", "TST901"]


def test_catch_alls_then_the_unexplained_error_then_weak_inferences_rank_after_every_other_problem(make_facts) -> None:
    rules = [
        _rule("TST911", "error", SHOWS_SEGFAULT, rank="fallback"),
        _rule("TST912", "error", ALWAYS, rank="weak-inference"),
        _rule("TST913", "error", ALWAYS, rank="catch-all"),
        _rule("TST914", "warning", ALWAYS),
        _rule("TST915", "info", SHOWS_SEGFAULT),
    ]
    # a guess from a CPU model name ranks below the finding that names an error the report shows
    assert _order(make_facts, rules) == ["TST914", "TST913", "TST911", "TST912", "TST915"]


def test_severity_orders_findings_within_a_tier(make_facts) -> None:
    rules = [_rule("TST921", "warning", ALWAYS), _rule("TST922", "error", ALWAYS)]
    assert _order(make_facts, rules) == ["TST922", "TST921"]


def test_a_rule_that_says_it_explains_the_reported_error_ranks_with_those_that_test_it(make_facts) -> None:
    explaining = _rule("TST931", "error", ALWAYS).model_copy(update={"explains": ["segfault"]})
    rules = [explaining, _rule("TST932", "warning", {"all": [ALWAYS, SHOWS_SEGFAULT]})]
    assert _order(make_facts, rules) == ["TST931", "TST932"]


def test_an_error_a_rule_says_it_explains_is_not_left_unexplained(make_facts) -> None:
    facts = make_facts({"symptoms": {"signatures": fact(["no_torch_for_this_python"])}})
    unexplained = _rule("TST942", "warning", {"fact": "derived.unexplained_signatures", "exists": True}, rank="fallback")
    silent = _rule("TST941", "error", ALWAYS)
    assert [f.id for f in evaluate([silent, unexplained], facts).findings] == ["TST941", "TST942"]
    explaining = silent.model_copy(update={"explains": ["no_torch_for_this_python"]})
    assert [f.id for f in evaluate([explaining, unexplained], facts).findings] == ["TST941"]
