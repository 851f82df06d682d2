"""Every JSON document rocm-doctor prints, by kind, and the pydantic model that describes it.

Each document names its kind and version in its first key, ``"schema": "rocm-doctor/<kind>/<n>"``.
The models here (or the model the command already builds, such as ``Facts`` and ``Plan``) are the
source of the JSON Schema files shipped in ``rocm_doctor/schemas/`` (``tools/generate_schemas.py``
writes them; a test checks that they match the models and that real outputs validate).

To add a kind, add its line to :data:`DOCUMENTS` (``"kind": "module:Model"``, the model's ``schema``
field a ``Literal`` of its id), then run ``python tools/generate_schemas.py``. See docs/json.md.
"""

from __future__ import annotations

import importlib
from typing import Any, Dict, List, Literal, Optional, Type

from pydantic import BaseModel, ConfigDict, Field, create_model

from rocm_doctor.bench.results import Figure, SpecPeak
from rocm_doctor.facts.model import Crash, Facts
from rocm_doctor.health.verdict import VERDICTS
from rocm_doctor.model.rules import Action, Finding, Rule, Severity, Undecided
from rocm_doctor.judge.paste_verdict import Area, Ask
from rocm_doctor.judge.report import FINDING_KEYS, Summary

DOCUMENTS: Dict[str, str] = {
    "facts": "rocm_doctor.facts.model:Facts",
    "check": "rocm_doctor.documents:CheckDocument",
    "fix": "rocm_doctor.model.remedy:Plan",
    "rules": "rocm_doctor.documents:RulesDocument",
    "health": "rocm_doctor.documents:HealthDocument",
    "bench": "rocm_doctor.documents:BenchDocument",
    "fleet": "rocm_doctor.documents:FleetDocument",
    "matrix": "rocm_doctor.remedy.matrix_model:MatrixDocument",
    "ps": "rocm_doctor.render.ps:PsDocument",
    "diff": "rocm_doctor.diff.document:DiffDocument",
}
"""Document kind -> the pydantic model of its current version (``module:attribute``, imported when asked)."""


def model_of(kind: str) -> Type[BaseModel]:
    """The model registered for ``kind``."""
    module, _, name = DOCUMENTS[kind].partition(":")
    return getattr(importlib.import_module(module), name)


def schema_id(model: Type[BaseModel]) -> str:
    """``rocm-doctor/<kind>/<n>``: the default of the model's ``schema`` field."""
    field = next(f for n, f in model.model_fields.items() if (f.alias or n) == "schema")
    return str(field.default)


class _Document(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


# ---------------------------------------------------------------- check --json

FindingDocument = create_model(  # type: ignore[call-overload]
    "FindingDocument",
    __config__=ConfigDict(frozen=True, extra="forbid"),
    **{key: (Finding.model_fields[key].annotation, Finding.model_fields[key]) for key in FINDING_KEYS},
)
"""A finding as ``check --json`` shows it: :class:`Finding` limited to ``FINDING_KEYS``."""


class RuleDatabaseRef(_Document):
    version: str
    """``rules-<hash>`` of the rule files and data tables."""
    checked: Optional[str] = None
    """The oldest date a data table was checked against its sources (ISO 8601)."""
    release: Optional[str] = None
    """The database's release (``2026.11.28``)."""
    released: Optional[str] = None
    """The day it was released (ISO 8601)."""
    origin: Literal["shipped", "updated"] = "shipped"
    """``shipped`` with rocm-doctor, or installed by ``rules update``."""


class CheckDocument(_Document):
    """``rocm-doctor check --json``."""

    schema_: Literal["rocm-doctor/check/1"] = Field(default="rocm-doctor/check/1", alias="schema")
    tool_version: str
    rule_database: RuleDatabaseRef
    facts: Facts
    findings: List[FindingDocument]  # type: ignore[valid-type]
    undecided: List[Undecided]
    asks: List[Ask]
    coverage: List[Area]
    summary: Summary
    crashes: List[Crash]


# ---------------------------------------------------------------- rules list --json


class TableCheck(_Document):
    checked: str
    against: List[str]


class RuleDatabaseInfo(RuleDatabaseRef):
    tables: Dict[str, TableCheck]


class RuleEntry(Rule):
    """A rule as ``rules list --json`` shows it: its action resolved, and where it is defined."""

    action: Action  # type: ignore[assignment]
    source: str
    """``file:line``."""


class RulesDocument(_Document):
    """``rocm-doctor rules list --json``."""

    schema_: Literal["rocm-doctor/rules/1"] = Field(default="rocm-doctor/rules/1", alias="schema")
    rule_database: RuleDatabaseInfo
    rules: List[RuleEntry]


# ---------------------------------------------------------------- health --json


class HealthIncomplete(_Document):
    parts: List[str]
    reason: str


class HealthFinding(_Document):
    id: str
    action: Action
    severity: Severity
    gpu: Optional[int] = None
    title: str


class HealthDocument(_Document):
    """``rocm-doctor health --json``."""

    schema_: Literal["rocm-doctor/health/1"] = Field(default="rocm-doctor/health/1", alias="schema")
    verdict: Literal[VERDICTS]  # type: ignore[valid-type]
    exit_code: int
    line: str
    incomplete: Optional[HealthIncomplete]
    worst: Optional[str]
    findings: List[HealthFinding]
    seconds: float
    budget_seconds: float
    rule_database: RuleDatabaseRef


# ---------------------------------------------------------------- bench --json


class BenchTest(_Document):
    status: str
    seconds: float
    step: Optional[str] = None
    reason: Optional[str] = None
    signal: Optional[str] = None
    exit_code: Optional[int] = None
    stderr_tail: Optional[str] = None
    metrics: Dict[str, Any]
    figures: List[Figure]


class BenchDocument(_Document):
    """``rocm-doctor bench --json``."""

    schema_: Literal["rocm-doctor/bench/1"] = Field(default="rocm-doctor/bench/1", alias="schema")
    level: str
    device: str
    python: str
    python_selected_by: Optional[str] = None
    """Why this interpreter: ``--python``, the active virtual environment, ... (the one interpreter decision)."""
    info: Dict[str, Any]
    """The worker's hello line: device name, gfx target, torch and HIP versions, PCIe link."""
    spec: Optional[SpecPeak]
    seconds: float
    workers: int
    failing: List[str]
    tests: Dict[str, BenchTest]
    noise: List[str]
    noise_dropped: int


# ---------------------------------------------------------------- fleet --json


class FleetValue(_Document):
    value: str
    count: int
    nodes: Optional[List[str]] = None
    """Absent for the majority's value."""


class FleetDimension(_Document):
    dimension: str
    majority: Optional[str]
    values: List[FleetValue]


class FleetSkipped(_Document):
    file: str
    reason: str


class FleetOddNode(_Document):
    node: str
    reasons: List[str]


class FleetFinding(_Document):
    id: str
    action: str
    severity: str
    title: str
    count: int
    nodes: List[str]


class FleetOutlier(_Document):
    node: str
    model: str
    test: str
    metric: str
    unit: str
    value: float
    median: float
    mad: float
    ratio: float
    peers: int


class FleetNodeSince(_Document):
    node: str
    changes: List[str]
    findings_appeared: List[str]
    findings_disappeared: List[str]


class FleetSince(_Document):
    """``fleet --baseline DIR``: each node against its own earlier record."""

    baseline: str
    changed: List[FleetNodeSince]
    unchanged: int
    new_nodes: List[str]
    gone_nodes: List[str]


class FleetDocument(_Document):
    """``rocm-doctor fleet --json``."""

    schema_: Literal["rocm-doctor/fleet/1"] = Field(default="rocm-doctor/fleet/1", alias="schema")
    tool_version: str
    nodes: int
    files: int
    verdict: Literal[VERDICTS]  # type: ignore[valid-type]
    exit_code: int
    skipped: List[FleetSkipped]
    odd_nodes: List[FleetOddNode]
    stack: List[FleetDimension]
    devices: List[FleetDimension]
    findings: List[FleetFinding]
    outliers: List[FleetOutlier]
    seconds: float
    since_baseline: Optional[FleetSince] = None
    """Only with ``--baseline``."""


def json_schema(kind: str) -> Dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the documents of ``kind``, as the models produce them."""
    model = model_of(kind)
    schema = model.model_json_schema(by_alias=True, mode="serialization")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": f"Generated from {DOCUMENTS[kind]} by tools/generate_schemas.py; do not edit.",
        "title": schema_id(model),
        **{k: v for k, v in schema.items() if k != "title"},
    }
