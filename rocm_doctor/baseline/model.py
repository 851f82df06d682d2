"""What a stored baseline holds."""

from __future__ import annotations

from typing import List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from rocm_doctor.facts.model import Facts

BASELINE_SCHEMA = "rocm-doctor/baseline/1"
LAST_GOOD = "last-good"
"""The name ``check`` saves the last state without an error finding under."""


class BaselineFinding(BaseModel):
    """What a baseline keeps of one finding: enough to say which appeared or disappeared since."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    severity: str
    action: str
    title: str
    gpu: Optional[int] = None


class Baseline(BaseModel):
    """One remembered state of a machine."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    schema_: Literal["rocm-doctor/baseline/1"] = Field(default=BASELINE_SCHEMA, alias="schema")
    name: str
    saved_at: str
    """ISO 8601, UTC."""
    reason: str
    """Who saved it: ``baseline save``, ``check`` (last good), ``fix --apply`` (restore point)."""
    tool_version: str
    rule_database: str
    """``rules-<hash>`` of the database that judged ``findings``."""
    facts: Facts
    """The facts, redacted; ``facts.bench`` holds the benchmark when one ran."""
    findings: List[BaselineFinding] = Field(default_factory=list)
