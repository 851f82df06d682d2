"""Rule test cases as data: ``tests/rule_cases/<ID>.yaml`` overlays on a healthy baseline.

A case file::

    fires:                       # each case must make the rule fire
      - name: CUDA wheel with an RX 7900 XTX
        facts: {torch: {flavour: {status: known, value: cuda, source: test}}}
        gpus: [0]                # optional, for_each rules: exactly these GPU indices fire
    passes:                      # each case must leave the rule silent
      - name: ROCm wheel
        facts: {}
    undecided:                   # optional: each case must leave the rule undecided
      - name: no live probe
        facts: {torch: {live: {arch_list: {status: unknown, reason: --no-torch}}}}

``facts`` is deep-merged on the baseline (:func:`overlay`): mappings merge, a mapping
with a ``status`` key is a Fact and replaces the baseline's Fact whole, lists replace,
and a mapping with integer keys on a list merges into those items
(``gpus: {agents: {0: {gfx: {...}}}}`` changes only GPU 0's gfx).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

from rocm_doctor.facts.model import Facts, FactsFileError
from rocm_doctor.judge.derived import DerivedValues
from rocm_doctor.judge.engine import verdicts
from rocm_doctor.judge.loader import LineDict, RuleFileError, parse_yaml
from rocm_doctor.model.rules import Rule

CASE_KINDS = ("fires", "passes", "undecided")
CASE_KEYS = ("name", "facts", "gpus")


@dataclass(frozen=True)
class Case:
    """One test case of one rule."""

    rule_id: str
    kind: str
    """``fires``, ``passes`` or ``undecided``."""
    name: str
    facts: Dict[str, Any] = field(default_factory=dict)
    gpus: Optional[List[int]] = None
    where: str = ""
    """``file:line`` of the case, for failure messages."""


def overlay(base: Any, change: Any) -> Any:
    """Deep-merge ``change`` onto ``base`` (see the module docstring); inputs are not modified."""
    if isinstance(change, dict) and "status" in change:
        return copy.deepcopy(change)
    if isinstance(base, dict) and isinstance(change, dict):
        merged = dict(base)
        for key, value in change.items():
            merged[key] = overlay(base[key], value) if key in base else copy.deepcopy(value)
        return merged
    if isinstance(base, list) and isinstance(change, dict) and all(isinstance(k, int) for k in change):
        merged_list = list(base)
        for index, value in change.items():
            if not 0 <= index < len(merged_list):
                raise ValueError(f"overlay index {index} is outside a list of {len(merged_list)}")
            merged_list[index] = overlay(merged_list[index], value)
        return merged_list
    return copy.deepcopy(change)


def _plain(data: Any) -> Any:
    """LineDict/LineList -> dict/list (so overlays compare and copy as plain data)."""
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    return data


def load_cases(path: Path, rule_id: str) -> List[Case]:
    """The cases in one case file; a malformed file raises RuleFileError naming the line."""
    data = parse_yaml(path)
    if not isinstance(data, LineDict):
        raise RuleFileError(f"{path}:1: a case file is a mapping with fires/passes lists")
    cases: List[Case] = []
    for key in data:
        if key not in CASE_KINDS:
            raise RuleFileError(f"{path}:{data.lines[key]}: unknown key '{key}' (expected {', '.join(CASE_KINDS)})")
        entries = data[key] or []
        if not isinstance(entries, list):
            raise RuleFileError(f"{path}:{data.lines[key]}: '{key}' must be a list of cases")
        for index, entry in enumerate(entries):
            where = f"{path}:{entries.lines[index]}"
            if not isinstance(entry, dict) or "name" not in entry:
                raise RuleFileError(f"{where}: a case is a mapping with 'name' and 'facts'")
            extra = [k for k in entry if k not in CASE_KEYS]
            if extra:
                line = entry.lines.get(extra[0], entries.lines[index]) if isinstance(entry, LineDict) else entries.lines[index]
                raise RuleFileError(f"{path}:{line}: unknown key '{extra[0]}' in a case (expected {', '.join(CASE_KEYS)})")
            facts = _plain(entry.get("facts") or {})
            gpus = entry.get("gpus")
            if not isinstance(facts, dict) or (gpus is not None and not isinstance(gpus, list)):
                raise RuleFileError(f"{where}: 'facts' is a mapping and 'gpus' a list of GPU indices")
            cases.append(Case(rule_id, key, str(entry["name"]), facts, _plain(gpus), where))
    return cases


def case_facts(baseline: Dict[str, Any], case: Case) -> Facts:
    """The baseline with the case's overlay applied, validated as Facts."""
    try:
        return Facts.from_dict(overlay(baseline, case.facts))
    except (FactsFileError, ValueError) as exc:
        raise RuleFileError(f"{case.where}: case '{case.name}': {exc}") from None


def load_baseline(path: Path) -> Dict[str, Any]:
    """The healthy-machine facts document the overlays apply to."""
    return json.loads(path.read_text(encoding="utf-8"))


def run_case(rule: Rule, case: Case, baseline: Dict[str, Any]) -> Optional[str]:
    """None when the case holds, else a one-line description of what happened instead."""
    facts = case_facts(baseline, case)
    result = verdicts([rule], facts, DerivedValues(facts))  # firing is the judge's; no remedies, no other derived facts
    fired = sorted(-1 if f.gpu is None else f.gpu for f in result.findings if f.id == rule.id)
    undecided = [u for u in result.undecided if u.id == rule.id]
    label = f"{case.where}: {rule.id} {case.kind} case '{case.name}'"
    if case.kind == "fires":
        if not fired:
            why = f"; undecided: {'; '.join(m for u in undecided for m in u.missing)}" if undecided else ""
            return f"{label}: the rule did not fire{why}"
        if case.gpus is not None and fired != sorted(case.gpus):
            return f"{label}: fired on GPUs {fired}, expected {sorted(case.gpus)}"
    elif case.kind == "passes":
        if fired:
            return f"{label}: the rule fired (GPUs {fired}): {result.findings[0].message}"
    elif not undecided or fired:
        return f"{label}: expected undecided, got {'fired' if fired else 'decided false'}"
    return None
