"""The result of comparing two states of a machine (also the ``rocm-doctor/diff/1`` document's parts)."""

from __future__ import annotations

from typing import List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

GROUPS = (
    "kernel and driver",
    "ROCm user space",
    "Python stack",
    "Python",
    "environment variables",
    "GPUs",
    "other Python packages",
)
"""Groups of changes, most likely to matter first. Firmware is not among them: facts do not record
firmware versions, so a firmware update cannot be seen (``diff`` says so)."""

NOT_SEEN = "firmware versions are not recorded, so a firmware update (linux-firmware, MES, VBIOS) does not show here"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RegressionMatch(_Frozen):
    """A known regression an update walks into (``rules/data/regressions.yaml``)."""

    id: str
    text: str
    """``your update of torch from A to B matches the known regression ...``."""
    source: str
    fixed_in: Optional[str] = None
    last_good: Optional[str] = None


class Change(_Frozen):
    """One thing that differs; ``before``/``after`` None means absent (not installed, not set)."""

    group: str
    what: str
    before: Optional[str]
    after: Optional[str]
    regressions: List[RegressionMatch] = Field(default_factory=list)


class BenchDrop(_Frozen):
    """A benchmark figure below the machine's earlier runs beyond their noise (fleet's median/MAD model)."""

    test: str
    metric: str
    unit: str
    value: float
    median: float
    mad: float
    ratio: float
    runs: int
    """Earlier runs the median and MAD are taken over."""


class FindingRef(_Frozen):
    id: str
    severity: str
    title: str
    gpu: Optional[int] = None


class DiffResult(_Frozen):
    """Everything ``diff`` reports, in the order it reports it."""

    changes: List[Change]
    not_compared: List[str] = Field(default_factory=list)
    """What is known on one side only (unknown is not a change)."""
    bench: List[BenchDrop] = Field(default_factory=list)
    bench_note: Optional[str] = None
    """Why figures were not judged (too few earlier runs), when they were not."""
    appeared: List[FindingRef] = Field(default_factory=list)
    disappeared: List[FindingRef] = Field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        return not (self.changes or self.bench or self.appeared or self.disappeared)

    @property
    def verdict(self) -> Literal["no change", "changed"]:
        return "no change" if self.is_empty else "changed"
