"""Three-valued condition logic, exactly as docs/rules.md states it."""

from __future__ import annotations

from typing import Any, Dict

import pytest

from judge_helpers import fact
from rocm_doctor.judge.conditions import ConditionError, Truth, evaluate, validate
from rocm_doctor.judge.derived import DerivedValues
from rocm_doctor.judge.paths import Scope

T, F, U = Truth.TRUE, Truth.FALSE, Truth.UNKNOWN

STATUS_FACTS: Dict[str, Dict[str, Any]] = {
    "known": fact("2.5.1+rocm6.2"),
    "absent": {"status": "absent", "source": "site-packages"},
    "failed": {"status": "failed", "source": "torch/version.py", "reason": "permission denied"},
    "unknown": {"status": "unknown", "reason": "not gathered"},
}


def _truth(make_facts, condition: Dict[str, Any], change: Dict[str, Any] = None) -> Truth:
    facts = make_facts(change or {})
    validate(condition, for_each_gpu=False)
    return evaluate(condition, Scope(facts, DerivedValues(facts))).truth


# (test, operand, expected on the known value "2.5.1+rocm6.2", on absent, on failed/unknown)
LEAF_TABLE = [
    ("exists", True, T, F),
    ("exists", False, F, T),
    ("eq", "2.5.1+rocm6.2", T, F),
    ("ne", "2.5.1+rocm6.2", F, T),
    ("in", ["2.5.1+rocm6.2", "x"], T, F),
    ("not_in", ["2.5.1+rocm6.2"], F, T),
    ("matches", r"\+rocm6\.", T, F),
    ("contains", "rocm", T, F),
    ("version", ">=2.5,<2.6", T, F),
    ("version", ">=2.6", F, F),
]


@pytest.mark.parametrize(("test", "operand", "on_known", "on_absent"), LEAF_TABLE)
def test_leaf_truth_by_fact_status(make_facts, test: str, operand: Any, on_known: Truth, on_absent: Truth) -> None:
    condition = {"fact": "torch.version", test: operand}
    assert _truth(make_facts, condition, {"torch": {"version": STATUS_FACTS["known"]}}) is on_known
    assert _truth(make_facts, condition, {"torch": {"version": STATUS_FACTS["absent"]}}) is on_absent
    for status in ("failed", "unknown"):
        assert _truth(make_facts, condition, {"torch": {"version": STATUS_FACTS[status]}}) is U


@pytest.mark.parametrize("status", ["known", "absent", "failed", "unknown"])
def test_status_test_is_decided_for_every_status(make_facts, status: str) -> None:
    change = {"torch": {"version": STATUS_FACTS[status]}}
    assert _truth(make_facts, {"fact": "torch.version", "status": status}, change) is T
    other = "known" if status != "known" else "failed"
    assert _truth(make_facts, {"fact": "torch.version", "status": other}, change) is F
    assert _truth(make_facts, {"fact": "torch.version", "status": [other, status]}, change) is T


def _const(truth: Truth) -> Dict[str, Any]:
    """A leaf that evaluates to ``truth`` on the baseline."""
    return {
        T: {"fact": "host.os", "eq": "linux"},
        F: {"fact": "host.os", "eq": "windows"},
        U: {"fact": "host.macos_version", "eq": "14"},
    }[truth]


UNKNOWN_MAC = {"host": {"macos_version": {"status": "unknown", "reason": "not gathered"}}}

ALL_TABLE = [((T, T), T), ((T, F), F), ((F, U), F), ((U, F), F), ((T, U), U), ((U, U), U), ((F, F), F)]
ANY_TABLE = [((T, T), T), ((T, F), T), ((F, U), U), ((U, T), T), ((T, U), T), ((U, U), U), ((F, F), F)]


@pytest.mark.parametrize(("parts", "expected"), ALL_TABLE)
def test_all_truth_table(make_facts, parts, expected) -> None:
    assert _truth(make_facts, {"all": [_const(p) for p in parts]}, UNKNOWN_MAC) is expected


@pytest.mark.parametrize(("parts", "expected"), ANY_TABLE)
def test_any_truth_table(make_facts, parts, expected) -> None:
    assert _truth(make_facts, {"any": [_const(p) for p in parts]}, UNKNOWN_MAC) is expected


@pytest.mark.parametrize(("inner", "expected"), [(T, F), (F, T), (U, U)])
def test_not_keeps_unknown(make_facts, inner: Truth, expected: Truth) -> None:
    assert _truth(make_facts, {"not": _const(inner)}, UNKNOWN_MAC) is expected


def test_missing_dict_key_is_absent_with_the_dicts_source(make_facts) -> None:
    facts = make_facts()
    outcome = evaluate(
        {"fact": "env.vars.HSA_OVERRIDE_GFX_VERSION", "exists": False}, Scope(facts, DerivedValues(facts))
    )
    assert outcome.truth is T
    (path, read), = outcome.evidence
    assert (path, read.status, read.source) == ("env.vars.HSA_OVERRIDE_GFX_VERSION", "absent", "environment")


def test_key_of_an_unknown_dict_is_unknown_and_named_as_missing(make_facts) -> None:
    facts = make_facts({"env": {"vars": {"status": "failed", "source": "environ", "reason": "boom"}}})
    outcome = evaluate({"fact": "env.vars.HIP_VISIBLE_DEVICES", "eq": "0"}, Scope(facts, DerivedValues(facts)))
    assert outcome.truth is U
    assert outcome.missing == ["env.vars.HIP_VISIBLE_DEVICES (failed: boom)"]


def test_version_ignores_the_local_part_and_accepts_prereleases(make_facts) -> None:
    change = {"torch": {"version": fact("2.8.0a0+gitfc14c65")}}
    assert _truth(make_facts, {"fact": "torch.version", "version": ">=2.8.0a0,<2.9"}, change) is T
    assert _truth(make_facts, {"fact": "torch.version", "version": "<2.8"}, change) is F
    assert _truth(make_facts, {"fact": "rocm.version", "version": "==7.2"}) is T


def test_a_value_that_is_not_a_version_is_unknown_not_false(make_facts) -> None:
    change = {"torch": {"version": fact("nightly-build")}}
    assert _truth(make_facts, {"fact": "torch.version", "version": ">=2.5"}, change) is U


def test_booleans_never_equal_numbers(make_facts) -> None:
    facts = make_facts({"host": {"windows_build": fact(1)}})
    scope = Scope(facts, DerivedValues(facts))
    assert evaluate({"fact": "host.windows_build", "eq": True}, scope).truth is F
    assert evaluate({"fact": "host.windows_build", "eq": 1}, scope).truth is T
    with pytest.raises(ConditionError, match="is not of type int"):
        validate({"fact": "host.windows_build", "eq": True}, for_each_gpu=False)


def test_numeric_comparisons_and_list_contains(make_facts) -> None:
    assert _truth(make_facts, {"fact": "host.shm_bytes", "lt": 1 << 30}) is F
    assert _truth(make_facts, {"fact": "host.shm_bytes", "ge": 1 << 30}) is T
    assert _truth(make_facts, {"fact": "torch.live.arch_list", "contains": "gfx1100"}) is T
    assert _truth(make_facts, {"fact": "torch.live.arch_list", "contains": "gfx1031"}) is F
    assert _truth(make_facts, {"fact": "packages.installed", "contains": "numpy"}) is T


def test_evidence_of_a_true_any_is_only_the_parts_that_made_it_true(make_facts) -> None:
    facts = make_facts()
    condition = {"any": [_const(F), _const(T)]}
    outcome = evaluate(condition, Scope(facts, DerivedValues(facts)))
    assert [p for p, _ in outcome.evidence] == ["host.os"]
    assert outcome.truth is T


@pytest.mark.parametrize(
    ("condition", "message"),
    [
        ({"fact": "torch.version"}, "exactly one test"),
        ({"fact": "torch.version", "eq": "1", "ne": "2"}, "exactly one test"),
        ({"fact": "torch.version", "equals": "1"}, "unknown test 'equals'"),
        ({"fact": "torch.versoin", "eq": "1"}, "has no field 'versoin'"),
        ({"fact": "torch.version", "matches": "("}, "does not compile"),
        ({"fact": "torch.version", "version": ">>2"}, "not a version specifier"),
        ({"fact": "rocm.version", "eq": 7.2}, "is not of type str"),
        ({"fact": "torch.live.arch_list", "contains": 1100}, "is not of type str"),
        ({"all": []}, "non-empty list"),
        ({"all": [_const(T)], "any": [_const(T)]}, "stands alone"),
        ({"fact": "gpu.gfx", "eq": "gfx1100"}, "for_each: gpu"),
        ({"fact": "derived.no_such_thing", "eq": True}, "not a registered derived fact"),
        ({"fact": "torch.version.major", "eq": "2"}, "not a dict fact"),
        ({"fact": "torch.live", "exists": True}, "is a section"),
        ({"fact": "gpus.agents", "exists": True}, "not a fact a rule can read"),
        ({"fact": "host.os", "status": "missing"}, "status takes"),
    ],
)
def test_structural_errors_are_caught_at_load_time(condition: Dict[str, Any], message: str) -> None:
    with pytest.raises(ConditionError, match=message.replace("(", r"\(")):
        validate(condition, for_each_gpu=False)


def test_error_location_points_inside_the_condition() -> None:
    with pytest.raises(ConditionError) as info:
        validate({"all": [_const(T), {"not": {"fact": "host.nope", "eq": "x"}}]}, for_each_gpu=False)
    assert info.value.loc == ("all", 1, "not", "fact")


def test_valid_paths_lists_model_fields_dict_keys_agent_fields_and_derived_facts() -> None:
    from rocm_doctor.judge.paths import valid_paths

    listed = valid_paths()
    for path in ("torch.live.arch_list", "env.vars.<key>", "packages.installed.<key>", "gpu.gfx", "gpu.index",
                 "rocm.tools.rocminfo", "derived.has_amd_gpu", "gpu.is_amd"):
        assert path in listed, path
    assert "gpus.agents" not in listed and "torch.live" not in listed


def _outcome(make_facts, condition: Dict[str, Any], change: Dict[str, Any]):
    facts = make_facts(change)
    validate(condition, for_each_gpu=False)
    return evaluate(condition, Scope(facts, DerivedValues(facts)))


def test_a_not_over_a_false_all_shows_the_evidence_of_every_false_part(make_facts) -> None:
    # An "all" stops at its first false part only where a false outcome is discarded; under a "not" it turns true
    # and its evidence is what a finding shows, so every false part is still read.
    change = {"torch": {"version": STATUS_FACTS["known"]}, "python": {"version": fact("3.12.3")}}
    both_false = {"all": [{"fact": "torch.version", "eq": "x"}, {"fact": "python.version", "eq": "y"}]}
    outcome = _outcome(make_facts, {"not": both_false}, change)
    assert outcome.truth is T
    assert [path for path, _ in outcome.evidence] == ["torch.version", "python.version"]


def test_an_all_that_stops_at_a_false_part_has_the_truth_of_reading_every_part(make_facts) -> None:
    change = {"torch": {"version": STATUS_FACTS["unknown"]}, "python": {"version": fact("3.12.3")}}
    unknown_then_false = {"all": [{"fact": "torch.version", "eq": "x"}, {"fact": "python.version", "eq": "y"}]}
    false_then_unknown = {"all": list(reversed(unknown_then_false["all"]))}
    assert _outcome(make_facts, unknown_then_false, change).truth is F
    assert _outcome(make_facts, false_then_unknown, change).truth is F
    # under a "not", an "any" stops at its first true part: the "not" is false either way
    true_then_unknown = {"any": [{"fact": "python.version", "eq": "3.12.3"}, {"fact": "torch.version", "eq": "x"}]}
    assert _outcome(make_facts, {"not": true_then_unknown}, change).truth is F
    # and a positive "any" still collects every true part's evidence (a finding shows them all)
    known = dict(change, torch={"version": STATUS_FACTS["known"]})
    both_true = {"any": [{"fact": "python.version", "eq": "3.12.3"}, {"fact": "torch.version", "contains": "rocm"}]}
    assert [p for p, _ in _outcome(make_facts, both_true, known).evidence] == ["python.version", "torch.version"]
