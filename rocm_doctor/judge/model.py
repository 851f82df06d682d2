"""Types shared by the rule database, the engine, fixes and renderers.

These are the public contract of ``check --json`` (schema ``rocm-doctor/check/1``)
and of the YAML rule files (see ``docs/rules.md``).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Dict, List, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rocm_doctor import quoting

from rocm_doctor.facts.model import Crash
from rocm_doctor.remedy.model import Remedy

__all__ = ["Crash"]

Severity = Literal["error", "warning", "info"]
SEVERITY_ORDER: Dict[str, int] = {"info": 0, "warning": 1, "error": 2}

Category = Literal[
    "torch-build",
    "torch-rocm-mismatch",
    "gfx-unsupported",
    "gfx-override",
    "permissions",
    "device-selection",
    "platform",
    "driver",
    "blas",
    "env",
    "packages",
    "runtime",
]
CATEGORIES: tuple = Category.__args__  # type: ignore[attr-defined]

RuleStatus = Literal["stable", "preview", "deprecated"]

Action = Literal["monitor", "config", "triage", "isolate", "reset"]
"""What a cluster operator (or a scheduler) does about a finding, after DCGM's failure-code severities:

* ``monitor``: a note; the node is fine for work;
* ``config``: fix the software or its settings; the node's hardware is usable;
* ``triage``: a person must look (an unexplained crash or failure);
* ``isolate``: stop scheduling work here (a GPU gives wrong results);
* ``reset``: a GPU or node reset / reboot is needed.
"""
ACTIONS: tuple = Action.__args__  # type: ignore[attr-defined]
ACTION_ORDER: Dict[str, int] = {action: rank for rank, action in enumerate(ACTIONS)}
"""Actions from the mildest to the most severe (``health`` reports the most severe)."""


def default_action(severity: str) -> str:
    """The action of a rule that does not name one (user rule files): a note, or a person must look."""
    return "monitor" if severity == "info" else "triage"


RuleBasis = Literal["primary-source", "community-report"]
"""What a rule's claim rests on: a primary source (code at a tag, AMD's documentation, a
maintainer's statement) or only reports from users that no primary source confirms."""

RuleRank = Literal["normal", "catch-all", "weak-inference", "fallback"]
"""Where a rule's findings go in the order a reader reads them, after every other
problem and in this order: ``catch-all`` for a rule that fires on any report of a kind (a platform's
checklist), ``weak-inference`` for one that rests on a guess (an iGPU next to the GPU, whose use the
report does not show), ``fallback`` for the finding that says nothing else explains an error."""

FixKind = Literal["env", "pip", "docker", "code", "manual"]
Platform = Literal["linux", "windows", "wsl2", "container"]
PipIntent = Literal[
    "install-rocm-torch",
    "install-amd-windows-torch",
    "install-therock-torch",
    "remove-cuda-triton",
    "reinstall-torchvision-matching",
    "pin-numpy-1",
]
"""Pip remedies the chooser turns into exact commands; the first three replace torch."""
RunsOn = Literal["environment", "host", "windows"]
"""Where a manual step is done: the shell/Python environment torch runs in, the machine's OS
(kernel, driver, groups, firmware: from inside a container, the host's), or Windows itself
(from WSL2, outside WSL)."""


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Reference(_Strict):
    """A source for a rule: an upstream issue, a documentation page."""

    url: str
    title: Optional[str] = None


class _FixBase(_Strict):
    """What every kind of fix has. Text fields may interpolate ``{fact.path}``."""

    text: Optional[str] = None
    platforms: List[Platform] = Field(default_factory=list)
    """Empty = every platform; else the machines it applies to."""
    one_of: Optional[str] = None
    """Alternative group: the fixes of one rule that name the same group are alternatives ("one of");
    the chooser takes the first that can be applied on the machine and lists the others as alternatives.
    Fixes without a group are all applied."""


class EnvFix(_FixBase):
    """``set`` variables to values and/or ``unset`` variables."""

    kind: Literal["env"] = "env"
    set: Dict[str, str] = Field(default_factory=dict)
    unset: List[str] = Field(default_factory=list)
    diagnostic: bool = False
    """A setting to try while diagnosing (re-run with it and compare): shown as advice, never written."""

    # Checked when a rule loads, with every {placeholder} filled by a stand-in; the interpolated
    # values are checked again where they are used (env files, pip commands, Dockerfiles).
    @field_validator("set", "unset")
    @classmethod
    def _names(cls, value: Any) -> Any:
        for name in value:  # the keys of set, the items of unset
            if not quoting.IDENTIFIER.match(_filled(name, "X")):
                raise ValueError(f"{name!r} is not an environment variable name (letters, digits, _)")
        return value


class PipFix(_FixBase):
    """An ``intent`` the chooser turns into exact commands, or explicit ``packages``.

    ``torch`` / ``rocm``: PEP 440 specifiers the new torch build must meet for this fix to work
    (``">=2.7"``, ``">=6.3"``); on a machine where no such build fits the group's alternative is chosen.
    """

    kind: Literal["pip"] = "pip"
    intent: Optional[PipIntent] = None
    packages: List[str] = Field(default_factory=list)
    index_url: Optional[str] = None
    torch: Optional[str] = None
    rocm: Optional[str] = None

    # Checked when a rule loads, with every {placeholder} filled by a stand-in; the interpolated
    # values are checked again where they are used (pip commands).
    @field_validator("packages")
    @classmethod
    def _requirements(cls, value: List[str]) -> List[str]:
        for spec in value:
            problem = quoting.requirement_problem(_filled(spec, "0"))
            if problem is not None:
                raise ValueError(problem)
        return value

    @field_validator("index_url")
    @classmethod
    def _index(cls, value: Optional[str]) -> Optional[str]:
        problem = quoting.index_problem(_filled(value, "x")) if value is not None else None
        if problem is not None:
            raise ValueError(problem)
        return value


class DockerFix(_FixBase):
    """``run_flags`` for ``docker run`` and/or ``dockerfile`` lines, or a ``base`` image change."""

    kind: Literal["docker"] = "docker"
    run_flags: List[str] = Field(default_factory=list)
    dockerfile: List[str] = Field(default_factory=list)
    base: Optional[str] = None


class CodeFix(_FixBase):
    """Advice about the user's program."""

    kind: Literal["code"] = "code"


class ManualFix(_FixBase):
    """Steps only the user can do: ``commands`` in POSIX shell syntax (Linux) or PowerShell/cmd (Windows)."""

    kind: Literal["manual"] = "manual"
    commands: List[str] = Field(default_factory=list)
    needs_root: bool = False
    runs_on: RunsOn = "environment"
    after_torch: bool = False
    """The step changes the installed torch's files: it runs after any torch install (and after every reinstall)."""


Fix = Annotated[Union[EnvFix, PipFix, DockerFix, CodeFix, ManualFix], Field(discriminator="kind")]
"""One structured remedy, typed by its ``kind``."""
FIX_TYPES: Dict[str, Any] = {"env": EnvFix, "pip": PipFix, "docker": DockerFix, "code": CodeFix, "manual": ManualFix}
TORCH_INTENTS: Dict[str, str] = {
    "install-rocm-torch": "auto",
    "install-amd-windows-torch": "amd-windows",
    "install-therock-torch": "therock",
}
"""pip intents that replace torch, and the wheel source each asks for (``auto``: chosen per machine)."""


def make_fix(**data: Any) -> Any:
    """A fix of the type its ``kind`` names (tests and tools build fixes this way)."""
    return FIX_TYPES[data["kind"]](**data)


def replaces_torch(fix: Any) -> bool:
    """The fix installs another torch build."""
    return isinstance(fix, PipFix) and fix.intent in TORCH_INTENTS

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _filled(template: str, stand_in: str) -> str:
    """``template`` with every ``{placeholder}`` replaced by ``stand_in`` (for checks at load time)."""
    return _PLACEHOLDER.sub(stand_in, template)


class Rule(_Strict):
    """One entry of the rule database."""

    id: str
    name: str
    severity: Severity
    category: Category
    action: Optional[Action] = None
    """What an operator does about a finding; unset in a user rule file means :func:`default_action`."""
    area: str
    status: RuleStatus = "stable"
    basis: RuleBasis = "primary-source"
    rank: RuleRank = "normal"
    since: str = "0.1.0"
    for_each: Optional[Literal["gpu"]] = None
    category_from: Optional[str] = None
    """A derived fact whose value, when it is a known category, replaces ``category`` in the finding
    (RD599: an unexplained error is reported in the category its signature row names)."""
    when: Dict[str, Any]
    title: str
    message: str
    explanation: str
    fixes: List[Fix] = Field(default_factory=list)
    references: List[Reference] = Field(min_length=1)
    source_file: Optional[str] = Field(default=None, exclude=True)
    source_line: Optional[int] = Field(default=None, exclude=True)

    @property
    def effective_action(self) -> str:
        """The rule's action, or the default for its severity."""
        return self.action or default_action(self.severity)


class Evidence(_Strict):
    """A fact a finding rests on, with where it was read."""

    path: str
    status: str
    value: Any = None
    source: Optional[str] = None


class Finding(_Strict):
    """A rule that fired, with its interpolated message and fixes."""

    id: str
    name: str
    severity: Severity
    category: Category
    action: Action
    area: str
    title: str
    message: str
    explanation: str
    evidence: List[Evidence] = Field(default_factory=list)
    fixes: List[Fix] = Field(default_factory=list)
    references: List[Reference] = Field(default_factory=list)
    gpu: Optional[int] = None
    """Index of the GPU agent the finding is about (``for_each: gpu`` rules)."""
    rule_status: RuleStatus = "stable"
    rule_basis: RuleBasis = "primary-source"
    remedy: Optional[Remedy] = None
    """The fixes resolved for this machine, its shell and interpreter (:mod:`rocm_doctor.remedy.decide`)."""


class Undecided(_Strict):
    """A rule that could not be decided because facts were unknown."""

    id: str
    name: str
    gpu: Optional[int] = None
    missing: List[str] = Field(default_factory=list)
    """Fact paths that were unknown or failed, with the reason when there is one."""
    supported: bool = Field(default=False, exclude=True)
    """Known facts already point the way the rule fires; only ``missing`` keeps it open."""
