"""Types shared by the rule database, the engine, fixes and renderers.

These are the public contract of ``check --json`` (schema ``rocm-doctor/check/1``)
and of the YAML rule files (see ``docs/rules.md``).
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from rocm_doctor.model.fixes import Fix
from rocm_doctor.model.remedy import Remedy

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

RuleRank = Literal["normal", "reported-fix", "catch-all", "weak-inference", "fallback"]
"""Where a rule's findings go in the order a reader reads them: ``reported-fix`` for a finding that
rests on the reporter's own statement of what fixed the problem (RD557), read with the findings that
explain an error the report shows (first); the others after every other problem and in this order: ``catch-all`` for a rule that fires on any report of a kind (a platform's
checklist; left out when a ``normal`` error or warning of its category and area fired), ``fallback`` for the finding that says nothing else explains an error (it still names an
error the report shows), ``weak-inference`` for one that rests on a guess (an iGPU next to the GPU,
whose use the report does not show)."""

class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Reference(_Strict):
    """A source for a rule: an upstream issue, a documentation page."""

    url: str
    title: Optional[str] = None


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
    explains: List[str] = Field(default_factory=list)
    """Error signature ids a finding of this rule explains although its condition does not test them
    (RD532 explains pip's "no matching distribution" through the index the report used): with the
    ones its condition tests, they rank the finding first and keep "nothing explains" quiet about them."""
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
