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
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

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


@dataclass(slots=True)
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


def _merge(parts: List[Outcome], truth: Truth) -> Outcome:
    """Combine the parts that carry ``truth``: their evidence and missing paths, without repeats (a path
    already taken from an earlier part is not taken again)."""
    chosen = [part for part in parts if part.truth is truth]
    if len(chosen) == 1:  # the usual case: nothing to leave out
        return Outcome(truth, list(chosen[0].evidence), list(chosen[0].missing))
    evidence: List[Tuple[str, Fact]] = []
    missing: List[str] = []
    taken: Set[str] = set()
    noted: Set[str] = set()
    for part in chosen:
        if part.evidence:
            new = [e for e in part.evidence if e[0] not in taken] if taken else part.evidence
            evidence += new
            taken.update(e[0] for e in new)
        if part.missing:
            more = [m for m in part.missing if m not in noted] if noted else part.missing
            missing += more
            noted.update(more)
    return Outcome(truth, evidence, missing)


_FLIPPED = {Truth.TRUE: Truth.FALSE, Truth.FALSE: Truth.TRUE, Truth.UNKNOWN: Truth.UNKNOWN}

_Plan = Callable[[Scope, bool], Outcome]

_PLANS: Dict[int, Tuple[Any, _Plan]] = {}
"""Each condition evaluated so far as a tree of closures (:func:`_plan`), by the identity of the condition (kept in
the entry, so that an id is not reused while its entry lives): the same loaded rules judge every report of a run,
and reading a condition's keys again for each report was a third of judging one."""


def evaluate(condition: Dict[str, Any], scope: Scope, positive: bool = True) -> Outcome:
    """Evaluate a validated condition; the evidence is what decided the result.

    ``positive`` is False under an odd number of ``not``. A rule whose condition is false gives no finding,
    so the evidence of a false outcome is read only where a ``not`` turns it true: where the outcome's
    polarity is positive, an ``all`` stops at its first false part (and under a ``not``, an ``any`` at its
    first true part); the truth is the same, and every evidence or missing path a finding or an undecided
    rule shows is still collected whole."""
    entry = _PLANS.get(id(condition))
    if entry is None or entry[0] is not condition:
        if len(_PLANS) > 20_000:  # conditions made again and again (tests) do not grow it forever
            _PLANS.clear()
        entry = _PLANS[id(condition)] = (condition, _plan(condition, {}))
    return entry[1](scope, positive)


def _plan(condition: Dict[str, Any], made: Dict[int, _Plan]) -> _Plan:
    """The condition as a closure over its parts: what evaluating it does, with the keys read once. A part that
    stands in several places (a YAML alias) is made once: ``made`` holds the plans made so far, by the identity
    of their part (every part lives as long as the whole condition does)."""
    found = made.get(id(condition))
    if found is None:
        found = made[id(condition)] = _new_plan(condition, made)
    return found


def _new_plan(condition: Dict[str, Any], made: Dict[int, _Plan]) -> _Plan:
    if "not" in condition:
        inner_plan = _plan(condition["not"], made)

        def negation(scope: Scope, positive: bool) -> Outcome:
            inner = inner_plan(scope, not positive)
            return Outcome(_FLIPPED[inner.truth], inner.evidence, inner.missing)

        return negation
    if "all" in condition:
        return _combination(True, tuple(_plan(part, made) for part in condition["all"]))
    if "any" in condition:
        return _combination(False, tuple(_plan(part, made) for part in condition["any"]))
    return _leaf_plan(condition)


def _combination(is_all: bool, part_plans: Tuple[_Plan, ...]) -> _Plan:
    decisive = Truth.FALSE if is_all else Truth.TRUE
    unknown = Truth.UNKNOWN

    def combination(scope: Scope, positive: bool) -> Outcome:
        stop_early = is_all == positive
        parts = []
        decisive_parts = unknown_count = 0
        last_decisive = last_unknown = None
        for part_plan in part_plans:
            outcome = part_plan(scope, positive)
            parts.append(outcome)
            truth = outcome.truth
            if truth is decisive:
                decisive_parts += 1
                last_decisive = outcome
                if stop_early:
                    break
            elif truth is unknown:
                unknown_count += 1
                last_unknown = outcome
        if decisive_parts:
            if decisive_parts == 1:  # what _merge gives for one chosen part, without looking for others
                merged = Outcome(decisive, list(last_decisive.evidence), list(last_decisive.missing))
                merged.supported = decisive is Truth.TRUE and last_decisive.supported
                return merged
            merged = _merge(parts, decisive)
            merged.supported = decisive is Truth.TRUE and any(p.supported for p in parts if p.truth is Truth.TRUE)
            return merged
        if unknown_count:
            if unknown_count == 1:
                merged = Outcome(unknown, list(last_unknown.evidence), list(last_unknown.missing))
            else:
                merged = _merge(parts, unknown)
            unknown_parts = [p for p in parts if p.truth is unknown]
            merged.supported = (
                any(p.truth is Truth.TRUE and p.supported for p in parts) or any(p.supported for p in unknown_parts)
                if is_all else any(p.supported for p in unknown_parts)
            )
            return merged
        merged = _merge(parts, Truth.TRUE if is_all else Truth.FALSE)
        merged.supported = is_all and any(p.supported for p in parts)
        return merged

    return combination


def _tester(test: str, operand: Any) -> Callable[[Any], Optional[bool]]:
    """``_known_test`` with the test and its operand fixed: the same answer for every value, with the choice of
    test made once per leaf instead of once per evaluation."""
    if test in ("in", "not_in") and not any(isinstance(o, bool) for o in operand):
        # For a string value, ``any(_equal(value, o) ...)`` is whether some operand equals it: only a string can
        # (a bool or a number never equals a string), so set membership of the string operands gives the same.
        strings = frozenset(o for o in operand if isinstance(o, str))
        negate = test == "not_in"

        def membership(value: Any) -> Optional[bool]:
            if type(value) is str:
                return (value in strings) is not negate
            return _known_test(test, operand, value)

        return membership
    if test == "contains" and isinstance(operand, str):

        def contains(value: Any) -> Optional[bool]:
            # a list or dict holds an item equal to a string operand exactly when ``in`` finds it: such an item
            # is a string (a bool or a number never equals one), and a string equal to it hashes alike
            if isinstance(value, (list, dict)):
                return operand in value
            return operand in value if isinstance(value, str) else None

        return contains
    return lambda value: _known_test(test, operand, value)


def _leaf_plan(condition: Dict[str, Any]) -> _Plan:
    """A leaf (``fact`` and one test) with the path, the test and its operand read once."""
    path = condition["fact"]
    for test in condition:  # a validated leaf holds ``fact`` and exactly one test
        if test != "fact":
            break
    operand = condition[test]
    true, false, unknown = Truth.TRUE, Truth.FALSE, Truth.UNKNOWN
    # paths.resolve sends a machine-wide derived fact to paths._machine: the choice is the same for every scope
    find = paths._machine if path.startswith(paths._MACHINE_HEAD) else paths.resolve
    if test == "status":
        statuses = operand if isinstance(operand, list) else [operand]

        def status_leaf(scope: Scope, positive: bool) -> Outcome:
            fact = find(path, scope)
            return Outcome(true if fact.status in statuses else false, [(path, fact)])

        return status_leaf
    on_absent = true if ((not operand) if test == "exists" else test in _ABSENT_TRUE) else false
    supports = not path.startswith("meta.")  # a fact about the machine supports a rule; meta.origin does not
    tester = _tester(test, operand)

    def leaf(scope: Scope, positive: bool) -> Outcome:
        fact = find(path, scope)
        status = fact.status
        if status == "absent":
            return Outcome(on_absent, [(path, fact)])
        if status != "known":
            return Outcome(unknown, [(path, fact)], [_missing(path, fact)])
        verdict = tester(fact.value)
        if verdict is None:
            return Outcome(unknown, [(path, fact)], [_missing(path, fact, f"value {fact.value!r} cannot be tested with {test}")])
        if verdict:
            return Outcome(true, [(path, fact)], supported=supports)
        return Outcome(false, [(path, fact)])

    return leaf
