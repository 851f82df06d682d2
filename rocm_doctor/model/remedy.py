"""A remedy decided once: exact steps for one machine, its shell and its interpreter.

The chooser (:mod:`rocm_doctor.remedy.decide`) turns the typed fixes of every finding into
these, before anything is rendered. A finding carries its :class:`Remedy` (its alternative
groups, the default of each marked with the reason); the machine's whole :class:`Plan` is
the ``fix --json`` document (``rocm-doctor/fix/1``). ``check``, ``fix``, ``dockerfile``,
``docker-run`` and ``report`` only render, order and merge these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

PLAN_SCHEMA = "rocm-doctor/fix/1"

Where = Literal["environment", "host", "image", "windows"]
"""Where a step is done: the environment torch runs in (this shell and Python), the machine's
OS (outside a container: the host), a container image (Dockerfile lines, docker run flags) or
Windows (from WSL2: outside WSL)."""
StepKind = Literal["manual", "pip", "env", "docker", "code", "advice"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Step(_Frozen):
    """One thing to do, with the exact lines to paste."""

    kind: StepKind
    where: Where
    where_text: str
    """``where`` for a person on this machine (``on the host, outside this container``)."""
    text: str
    commands: List[str] = Field(default_factory=list)
    """Exact lines for the target's shell (``export X='1'``, the pip command, a manual command)."""
    argv: List[List[str]] = Field(default_factory=list)
    """pip steps: the argv lists ``fix --apply`` runs (no shell)."""
    env: Dict[str, Optional[str]] = Field(default_factory=dict)
    """env steps: variable -> value, None to unset."""
    run_flags: List[str] = Field(default_factory=list)
    dockerfile: List[str] = Field(default_factory=list)
    base: Optional[str] = None
    needs_root: bool = False
    after_torch: bool = False
    finding_ids: List[str] = Field(default_factory=list)


class Option(_Frozen):
    """One way to fix a finding."""

    text: str
    default: bool = False
    available: bool = True
    why: Optional[str] = None
    """Why this is the default, why it is only an alternative, or why it cannot be done here."""
    steps: List[Step] = Field(default_factory=list)


class Group(_Frozen):
    """The fixes of a finding that are alternatives (``one_of``); a single required fix is a group of one."""

    name: Optional[str] = None
    options: List[Option] = Field(default_factory=list)

    @property
    def chosen(self) -> Optional[Option]:
        return next((o for o in self.options if o.default), None)


class Remedy(_Frozen):
    """A finding's fixes, resolved for the target: the shell its lines are written for, and its groups."""

    shell: str
    groups: List[Group] = Field(default_factory=list)


class Wheel(_Frozen):
    """One install requirement and where it comes from (``--verify-index`` checks it exists)."""

    name: str
    spec: str
    version: Optional[str] = None
    index_url: Optional[str] = None
    url: Optional[str] = None


class TorchPlan(_Frozen):
    """The one torch build the plan installs (or would install), and why."""

    route: str
    torch: str
    rocm: Optional[str] = None
    index_url: Optional[str] = None
    torchvision: Optional[str] = None
    torchaudio: Optional[str] = None
    reasons: List[str] = Field(default_factory=list)
    ruled_out: List[str] = Field(default_factory=list)
    requested: bool = False
    wheels: List[Wheel] = Field(default_factory=list)


class Conflict(_Frozen):
    """Fixes that cannot all be applied: reported, never written."""

    subject: str
    choices: List[str]
    finding_ids: List[str] = Field(default_factory=list)

    def describe(self) -> str:
        return f"{self.subject}: " + " vs ".join(self.choices)


class Refusal(_Frozen):
    """A request (``--torch``) that cannot be honoured, with the reasons and what would work."""

    message: str
    ruled_out: List[str] = Field(default_factory=list)
    alternatives: List[str] = Field(default_factory=list)


class Target(_Frozen):
    """Who the commands are for."""

    python: str
    python_why: str
    shell: str
    shell_why: str
    platform: str
    """``linux``, ``wsl2``, ``container`` or ``windows``."""


class Alternative(_Frozen):
    """An option that is not the default, for the fix plan."""

    finding_ids: List[str]
    text: str
    available: bool
    why: Optional[str] = None
    steps: List[Step] = Field(default_factory=list)


class Plan(_Frozen):
    """Everything to do on one machine, in the order it must be done (``fix --json``)."""

    schema_: str = Field(default=PLAN_SCHEMA, alias="schema")
    target: Target
    torch: Optional[TorchPlan] = None
    steps: List[Step] = Field(default_factory=list)
    advice: List[Step] = Field(default_factory=list)
    """Info findings and diagnostic settings: shown, never applied or written."""
    alternatives: List[Alternative] = Field(default_factory=list)
    conflicts: List[Conflict] = Field(default_factory=list)
    notes: List[str] = Field(default_factory=list)
    refusal: Optional[Refusal] = None
    finding_ids: List[str] = Field(default_factory=list)

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    @property
    def is_empty(self) -> bool:
        return not (self.steps or self.conflicts or self.refusal)

    def of_kind(self, *kinds: str) -> List[Step]:
        return [s for s in self.steps if s.kind in kinds]

    def env_changes(self) -> Dict[str, Optional[str]]:
        """Every variable the plan sets (value) or unsets (None), in order."""
        merged: Dict[str, Optional[str]] = {}
        for step in self.of_kind("env"):
            merged.update(step.env)
        return merged

    def to_document(self) -> dict:
        return self.model_dump(mode="json", by_alias=True)



@dataclass(frozen=True)
class EnvChange:
    """Set (``value`` is a string) or unset (``value`` is None) one variable, for the env-file writer."""

    name: str
    value: Optional[str]
    finding_ids: tuple = ()

    @property
    def is_unset(self) -> bool:
        return self.value is None
