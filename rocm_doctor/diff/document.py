"""The ``rocm-doctor/diff/1`` document (``diff --json``)."""

from __future__ import annotations

from typing import List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from rocm_doctor.diff.model import BenchDrop, Change, DiffResult, FindingRef

DIFF_SCHEMA = "rocm-doctor/diff/1"


class DiffSide(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str
    """A baseline's name, ``this machine``, or the file or folder the facts came from."""
    saved_at: Optional[str] = None
    rule_database: Optional[str] = None


class DiffDocument(BaseModel):
    """``rocm-doctor diff --json``."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    schema_: Literal["rocm-doctor/diff/1"] = Field(default=DIFF_SCHEMA, alias="schema")
    tool_version: str
    before: DiffSide
    after: DiffSide
    verdict: Literal["no change", "changed"]
    changes: List[Change]
    not_compared: List[str]
    bench: List[BenchDrop]
    bench_note: Optional[str]
    findings_appeared: List[FindingRef]
    findings_disappeared: List[FindingRef]
    not_seen: str


def document(result: DiffResult, before: DiffSide, after: DiffSide) -> DiffDocument:
    from rocm_doctor import __version__
    from rocm_doctor.diff.model import NOT_SEEN

    return DiffDocument(
        tool_version=__version__, before=before, after=after, verdict=result.verdict, changes=result.changes,
        not_compared=result.not_compared, bench=result.bench, bench_note=result.bench_note,
        findings_appeared=result.appeared, findings_disappeared=result.disappeared, not_seen=NOT_SEEN,
    )
