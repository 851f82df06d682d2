"""Evaluate rules over facts: one pass, pure, deterministic."""

from __future__ import annotations

from typing import Iterable, List, Optional, Tuple, Union

from rocm_doctor import __version__
from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact
from rocm_doctor.judge.conditions import Truth, evaluate as evaluate_condition
from rocm_doctor.judge.derived import DerivedValues, Tables, registered_names
from rocm_doctor.judge.interpolate import interpolate, interpolate_fix
from rocm_doctor.judge.model import SEVERITY_ORDER, Evidence, Finding, Rule, Undecided
from rocm_doctor.judge.paths import Scope
from rocm_doctor.judge.report import CheckResult, Summary


def _evidence(path: str, fact: Fact) -> Evidence:
    value = fact.model_dump(mode="json")["value"]
    return Evidence(path=path, status=fact.status, value=value, source=fact.source)


def _judge(rule: Rule, scope: Scope) -> Union[Finding, Undecided, None]:
    gpu = scope.agent.index if scope.agent is not None else None
    outcome = evaluate_condition(rule.when, scope)
    if outcome.truth is Truth.UNKNOWN:
        return Undecided(id=rule.id, name=rule.name, gpu=gpu, missing=outcome.missing)
    if outcome.truth is Truth.FALSE:
        return None
    return Finding(
        id=rule.id,
        name=rule.name,
        severity=rule.severity,
        category=rule.category,
        area=rule.area,
        title=interpolate(rule.title, scope),
        message=interpolate(rule.message, scope),
        explanation=rule.explanation,
        evidence=[_evidence(path, fact) for path, fact in outcome.evidence],
        fixes=[interpolate_fix(fix, scope) for fix in rule.fixes],
        references=list(rule.references),
        gpu=gpu,
        rule_status=rule.status,
        rule_basis=rule.basis,
    )


def _scopes(rule: Rule, facts: Facts, derived: DerivedValues) -> List[Scope]:
    if rule.for_each == "gpu":
        return [Scope(facts, derived, agent) for agent in facts.gpus.agents]
    return [Scope(facts, derived, None)]


def _finding_key(finding: Finding) -> Tuple:
    gpu = -1 if finding.gpu is None else finding.gpu
    return (-SEVERITY_ORDER[finding.severity], finding.area, finding.id, gpu)


def evaluate(rules: Iterable[Rule], facts: Facts, tables: Optional[Tables] = None) -> CheckResult:
    """Judge ``facts`` with ``rules``: findings (worst first), undecided rules and counts.

    ``for_each: gpu`` rules run once per GPU agent (every agent: rules that are about
    AMD GPUs say ``gpu.is_amd``); their findings carry the agent's index.
    """
    derived = DerivedValues(facts, tables)
    findings: List[Finding] = []
    undecided: List[Undecided] = []
    count = 0
    for rule in rules:
        count += 1
        for scope in _scopes(rule, facts, derived):
            verdict = _judge(rule, scope)
            if isinstance(verdict, Finding):
                findings.append(verdict)
            elif isinstance(verdict, Undecided):
                undecided.append(verdict)
    findings.sort(key=_finding_key)
    undecided.sort(key=lambda u: (u.id, -1 if u.gpu is None else u.gpu))
    summary = Summary(**{s: sum(1 for f in findings if f.severity == s) for s in SEVERITY_ORDER})
    machine = {path: derived.machine(path) for path in registered_names("machine")}
    return CheckResult(
        tool_version=__version__,
        facts=facts,
        findings=findings,
        undecided=undecided,
        summary=summary,
        derived={p: f for p, f in machine.items() if f is not None},
        rules_evaluated=count,
    )

