"""The result of ``check``: findings, undecided rules and counts, and its JSON document."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from pydantic import BaseModel, ConfigDict, Field

from rocm_doctor.facts.model import Crash, Facts
from rocm_doctor.model.remedy import Plan
from rocm_doctor.facts.value import Fact
from rocm_doctor.model.rules import SEVERITY_ORDER, Finding, Undecided
from rocm_doctor.judge.paste_verdict import Area, Ask
from rocm_doctor.ruledb import rule_database_info

SCHEMA = "rocm-doctor/check/1"
FINDING_KEYS = (
    "id", "name", "severity", "category", "action", "area", "title", "message", "evidence", "fixes", "references",
    "gpu", "remedy",
)
"""The keys of a finding in ``check --json`` (a public contract: keys are added, never renamed or removed)."""


class Summary(BaseModel):
    """How many findings of each severity."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    error: int = 0
    warning: int = 0
    info: int = 0


class Problem(BaseModel):
    """One finding as people see it: a rule's finding, once, with every GPU it holds for."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    finding: Finding
    gpus: List[Optional[int]]
    """The GPUs, in finding order; ``[None]`` for a machine-wide finding."""


def _same_text(finding: Finding) -> str:
    return finding.model_dump_json(include={"id", "title", "message", "remedy"})


def as_problems(findings: List[Finding]) -> List[Problem]:
    """``findings`` with the per-GPU findings of one rule that read the same (title, message,
    remedy) merged into one, listing their GPUs; order kept. Every human output shows and
    counts these, so "8 warnings" never stands above 6 entries."""
    out: List[Problem] = []
    where: Dict[str, int] = {}
    for finding in findings:
        key = _same_text(finding) if finding.gpu is not None else None
        if key is not None and key in where:
            known = out[where[key]]
            out[where[key]] = Problem(finding=known.finding, gpus=known.gpus + [finding.gpu])
            continue
        if key is not None:
            where[key] = len(out)
        out.append(Problem(finding=finding, gpus=[finding.gpu]))
    return out


def count(items: List[Problem]) -> Summary:
    """How many problems of each severity."""
    return Summary(**{s: sum(1 for p in items if p.finding.severity == s) for s in SEVERITY_ORDER})


class CheckResult(BaseModel):
    """What ``check`` found on one machine."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tool_version: str
    facts: Facts
    findings: List[Finding] = Field(default_factory=list)
    undecided: List[Undecided] = Field(default_factory=list)
    summary: Summary = Field(default_factory=Summary)
    """Findings per severity as the JSON lists them (one per GPU); people see :attr:`shown_summary`."""
    asks: List[Ask] = Field(default_factory=list)
    """Pasted reports: rules the report leaves open only because it does not show some facts."""
    coverage: List[Area] = Field(default_factory=list)
    """Pasted reports: which areas the report decides and what to paste for the others."""
    crashes: List[Crash] = Field(default_factory=list)
    """Gatherers, derived facts, rules or the remedy chooser that raised (each with its crash log)."""
    plan: Optional[Plan] = Field(default=None, exclude=True)
    """The machine's fix plan (``fix --json``), decided with the findings' remedies."""
    derived: Dict[str, Fact] = Field(default_factory=dict, exclude=True)
    """Machine-wide derived facts (``derived.x``), for renderers; not part of the JSON."""
    rules_evaluated: int = Field(default=0, exclude=True)

    @property
    def problems(self) -> List[Problem]:
        """The findings as people see them (see :func:`as_problems`)."""
        return as_problems(self.findings)

    @property
    def shown_summary(self) -> Summary:
        """Problems per severity: the counts above the entries a person reads."""
        return count(self.problems)

    def at_or_above(self, severity: str) -> List[Finding]:
        """Findings whose severity is ``severity`` or worse."""
        floor = SEVERITY_ORDER[severity]
        return [f for f in self.findings if SEVERITY_ORDER[f.severity] >= floor]

    def to_document(self) -> Dict[str, Any]:
        """The ``check --json`` document."""
        database = rule_database_info()
        return {
            "schema": SCHEMA,
            "tool_version": self.tool_version,
            "rule_database": {key: database[key] for key in ("version", "checked", "release", "released", "origin")},
            "facts": self.facts.model_dump(mode="json"),
            "findings": [f.model_dump(mode="json", include=set(FINDING_KEYS)) for f in self.findings],
            "undecided": [u.model_dump(mode="json") for u in self.undecided],
            "asks": [a.model_dump(mode="json") for a in self.asks],
            "coverage": [a.model_dump(mode="json") for a in self.coverage],
            "summary": self.summary.model_dump(mode="json"),
            "crashes": [c.model_dump(mode="json") for c in self.crashes],
        }

    def to_json(self, indent: int = 2) -> str:
        """``check --json`` output."""
        return json.dumps(self.to_document(), indent=indent)
