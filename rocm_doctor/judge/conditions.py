"""Conditions: check their structure when rules load, evaluate them in three-valued logic.

The semantics are those of ``docs/rules.md``: a leaf over an ``unknown`` or
``failed`` fact is UNKNOWN (except ``status:``); a leaf over an ``absent`` fact is
decided (``exists: false``, ``ne`` and ``not_in`` are TRUE, every other test FALSE).
``all`` is FALSE if any part is FALSE, else UNKNOWN if any part is UNKNOWN; ``any``
is TRUE if any part is TRUE, else UNKNOWN if any part is UNKNOWN; ``not`` keeps UNKNOWN.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Dict, List, Optional, Tuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from rocm_doctor.facts.value import Fact
from rocm_doctor.limits import MATCH_CHARS
from rocm_doctor.judge import paths
from rocm_doctor.judge.paths import Scope
from rocm_doctor.judge.rule_regex import RuleRegexError, compile_rule_regex, searches

COMBINATORS = ("all", "any", "not")
TESTS = (
    "exists", "eq", "ne", "in", "not_in", "matches", "contains", "version", "gt", "ge", "lt", "le", "status",
)
FACT_STATUSES = ("known", "absent", "failed", "unknown")
_ABSENT_TRUE = ("ne", "not_in")

Loc = Tuple[Any, ...]


class Truth(enum.Enum):
    """A three-valued truth."""

    TRUE = "true"
    FALSE = "false"
    UNKNOWN = "unknown"


class ConditionError(ValueError):
    """A structurally invalid condition; ``loc`` points inside the ``when`` mapping."""

    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(message)
        self.loc = loc


@dataclass
class Outcome:
    """The truth of a condition, the facts that decided it and the paths that kept it open."""

    truth: Truth
    evidence: List[Tuple[str, Fact]] = field(default_factory=list)
    missing: List[str] = field(default_factory=list)
    """``path: reason`` for each fact that was unknown or failed."""
    supported: bool = False
    """For an UNKNOWN result: some known fact already pointed the way the rule fires (an ``all`` with a
    TRUE part), so only the unknown facts keep it open (what a pasted report's ``ask`` needs)."""


# ---------------------------------------------------------------- structure


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_LITERAL_CHECKS: Dict[str, Callable[[Any], bool]] = {
    "str": lambda v: isinstance(v, str),
    "int": _is_number,
    "float": _is_number,
    "bool": lambda v: isinstance(v, bool),
}


def _check_literal(loc: Loc, test: str, operand: Any, value_type: Optional[str]) -> None:
    """Reject a literal that can never equal a value of the fact's type (``eq: 7.2`` on a string)."""
    expected = "str" if value_type == "list" and test == "contains" else value_type
    checker = _LITERAL_CHECKS.get(expected or "")
    if checker is None:
        return
    for item in operand if test in ("in", "not_in") else [operand]:
        if not checker(item):
            hint = " (quote strings that look like numbers)" if expected == "str" else ""
            raise ConditionError(loc, f"{item!r} is not of type {expected}, the type of this fact{hint}")


def _check_test(loc: Loc, test: str, operand: Any, value_type: Optional[str]) -> None:
    if test == "exists":
        if not isinstance(operand, bool):
            raise ConditionError(loc, "exists takes true or false")
    elif test == "status":
        statuses = operand if isinstance(operand, list) else [operand]
        if not statuses or any(s not in FACT_STATUSES for s in statuses):
            raise ConditionError(loc, f"status takes one of {', '.join(FACT_STATUSES)} (or a list of them)")
    elif test in ("in", "not_in"):
        if not isinstance(operand, list) or not operand:
            raise ConditionError(loc, f"{test} takes a non-empty list")
        _check_literal(loc, test, operand, value_type)
    elif test == "matches":
        if not isinstance(operand, str):
            raise ConditionError(loc, "matches takes a regular expression string")
        try:
            compile_rule_regex(operand)
        except RuleRegexError as exc:
            raise ConditionError(loc, str(exc)) from None
    elif test == "version":
        if not isinstance(operand, str):
            raise ConditionError(loc, 'version takes a quoted specifier such as ">=2.5,<2.6"')
        try:
            SpecifierSet(operand)
        except InvalidSpecifier:
            raise ConditionError(loc, f"{operand!r} is not a version specifier (PEP 440)") from None
    elif test in ("gt", "ge", "lt", "le"):
        if not _is_number(operand):
            raise ConditionError(loc, f"{test} takes a number")
    elif test in ("eq", "ne", "contains"):
        if operand is None or isinstance(operand, (list, dict)):
            raise ConditionError(loc, f"{test} takes a single string, number or boolean")
        _check_literal(loc, test, operand, value_type)


def validate(condition: Any, for_each_gpu: bool, loc: Loc = ()) -> List[str]:
    """Check a condition's structure and paths; return the fact paths it reads.

    Raises ConditionError with the location of the first problem.
    """
    if not isinstance(condition, dict) or not condition:
        raise ConditionError(loc, "a condition is a mapping: all/any/not, or fact plus one test")
    keys = set(condition)
    combinators = keys & set(COMBINATORS)
    if combinators:
        if len(keys) != 1:
            raise ConditionError(loc, f"a combinator stands alone; found keys {', '.join(sorted(keys))}")
        (name,) = combinators
        body = condition[name]
        if name == "not":
            return validate(body, for_each_gpu, loc + ("not",))
        if not isinstance(body, list) or not body:
            raise ConditionError(loc + (name,), f"{name} takes a non-empty list of conditions")
        used: List[str] = []
        for index, part in enumerate(body):
            used += validate(part, for_each_gpu, loc + (name, index))
        return used
    if "fact" not in keys:
        unknown_keys = sorted(keys - set(TESTS))
        if unknown_keys:
            raise ConditionError(loc + (unknown_keys[0],), f"unknown condition key '{unknown_keys[0]}'")
        raise ConditionError(loc, "a leaf needs 'fact: <path>'")
    path = condition["fact"]
    if not isinstance(path, str):
        raise ConditionError(loc + ("fact",), "fact takes a dotted fact path")
    problem = paths.check(path, for_each_gpu)
    if problem is not None:
        raise ConditionError(loc + ("fact",), f"unknown fact path: {problem}")
    others = keys - {"fact"}
    unknown_keys = sorted(others - set(TESTS))
    if unknown_keys:
        raise ConditionError(loc + (unknown_keys[0],), f"unknown test '{unknown_keys[0]}' (tests: {', '.join(TESTS)})")
    if len(others) != 1:
        raise ConditionError(loc, f"a leaf has exactly one test; found {len(others)}")
    (test,) = others
    _check_test(loc + (test,), test, condition[test], paths.describe(path, for_each_gpu).value_type)
    return [path]


# ---------------------------------------------------------------- evaluation


@lru_cache(maxsize=512)
def _specifier(text: str) -> SpecifierSet:
    return SpecifierSet(text, prereleases=True)


def _version_in(value: Any, spec: str) -> Optional[bool]:
    try:
        version = Version(str(value))
    except ValueError:  # InvalidVersion, or a number part too long for int() (over 4,300 digits)
        return None
    return _specifier(spec).contains(Version(version.public), prereleases=True)


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    return a == b


def _known_test(test: str, operand: Any, value: Any) -> Optional[bool]:
    """The test on a known value; None when the value cannot be compared (a wrong type)."""
    if test == "exists":
        return bool(operand)
    if test == "eq":
        return _equal(value, operand)
    if test == "ne":
        return not _equal(value, operand)
    if test == "in":
        return any(_equal(value, o) for o in operand)
    if test == "not_in":
        return not any(_equal(value, o) for o in operand)
    if test == "matches":
        items = value if isinstance(value, list) else [value]
        return any(searches(operand, str(item)[:MATCH_CHARS.value]) for item in items)
    if test == "contains":
        if isinstance(value, (list, dict)):
            return any(_equal(item, operand) for item in value)
        return str(operand) in str(value) if isinstance(value, str) else None
    if test == "version":
        return _version_in(value, operand)
    if not _is_number(value):
        return None
    return {"gt": value > operand, "ge": value >= operand, "lt": value < operand, "le": value <= operand}[test]


def _missing(path: str, fact: Fact, why: Optional[str] = None) -> str:
    reason = why or fact.reason
    return f"{path} ({fact.status}: {reason})" if reason else f"{path} ({fact.status})"


def _leaf(condition: Dict[str, Any], scope: Scope) -> Outcome:
    path = condition["fact"]
    (test,) = [k for k in condition if k != "fact"]
    operand = condition[test]
    fact = paths.resolve(path, scope)
    read = [(path, fact)]
    if test == "status":
        statuses = operand if isinstance(operand, list) else [operand]
        return Outcome(Truth.TRUE if fact.status in statuses else Truth.FALSE, read)
    if fact.status == "absent":
        verdict = (not operand) if test == "exists" else test in _ABSENT_TRUE
        return Outcome(Truth.TRUE if verdict else Truth.FALSE, read)
    if not fact.is_known:
        return Outcome(Truth.UNKNOWN, read, [_missing(path, fact)])
    verdict = _known_test(test, operand, fact.value)
    if verdict is None:
        return Outcome(Truth.UNKNOWN, read, [_missing(path, fact, f"value {fact.value!r} cannot be tested with {test}")])
    # A fact about the machine supports a rule; where the facts came from (meta.origin) does not.
    return Outcome(Truth.TRUE if verdict else Truth.FALSE, read, supported=bool(verdict) and not path.startswith("meta."))


def _merge(parts: List[Outcome], truth: Truth) -> Outcome:
    """Combine the parts that carry ``truth``: their evidence and missing paths, without repeats."""
    evidence: List[Tuple[str, Fact]] = []
    missing: List[str] = []
    for part in parts:
        if part.truth is truth:
            evidence += [e for e in part.evidence if e[0] not in {p for p, _ in evidence}]
            missing += [m for m in part.missing if m not in missing]
    return Outcome(truth, evidence, missing)


def evaluate(condition: Dict[str, Any], scope: Scope, positive: bool = True) -> Outcome:
    """Evaluate a validated condition; the evidence is what decided the result.

    ``positive`` is False under an odd number of ``not``. A rule whose condition is false gives no finding,
    so the evidence of a false outcome is read only where a ``not`` turns it true: where the outcome's
    polarity is positive, an ``all`` stops at its first false part (and under a ``not``, an ``any`` at its
    first true part); the truth is the same, and every evidence or missing path a finding or an undecided
    rule shows is still collected whole."""
    if "not" in condition:
        inner = evaluate(condition["not"], scope, not positive)
        flipped = {Truth.TRUE: Truth.FALSE, Truth.FALSE: Truth.TRUE, Truth.UNKNOWN: Truth.UNKNOWN}[inner.truth]
        return Outcome(flipped, inner.evidence, inner.missing)
    if "all" in condition or "any" in condition:
        is_all = "all" in condition
        decisive = Truth.FALSE if is_all else Truth.TRUE
        stop_early = is_all == positive
        parts = []
        for part in condition["all" if is_all else "any"]:
            outcome = evaluate(part, scope, positive)
            parts.append(outcome)
            if stop_early and outcome.truth is decisive:
                break
        if any(p.truth is decisive for p in parts):
            merged = _merge(parts, decisive)
            merged.supported = decisive is Truth.TRUE and any(p.supported for p in parts if p.truth is Truth.TRUE)
            return merged
        if any(p.truth is Truth.UNKNOWN for p in parts):
            merged = _merge(parts, Truth.UNKNOWN)
            unknown_parts = [p for p in parts if p.truth is Truth.UNKNOWN]
            merged.supported = (
                any(p.truth is Truth.TRUE and p.supported for p in parts) or any(p.supported for p in unknown_parts)
                if is_all else any(p.supported for p in unknown_parts)
            )
            return merged
        merged = _merge(parts, Truth.TRUE if is_all else Truth.FALSE)
        merged.supported = is_all and any(p.supported for p in parts)
        return merged
    return _leaf(condition, scope)
