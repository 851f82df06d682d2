"""Types shared by the rule database, the engine, fixes and renderers.

These are the public contract of ``check --json`` (schema ``rocm-doctor/check/1``)
and of the YAML rule files (see ``docs/rules.md``).
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rocm_doctor import quoting

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

FixKind = Literal["env", "pip", "docker", "code", "manual"]


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Reference(_Strict):
    """A source for a rule: an upstream issue, a documentation page."""

    url: str
    title: Optional[str] = None


class Fix(_Strict):
    """One structured remedy. Text fields may interpolate ``{fact.path}``.

    * ``env``: ``set`` variables to values and/or ``unset`` variables;
    * ``pip``: an ``intent`` the planner turns into exact commands
      (``install-rocm-torch``, ``remove-cuda-triton``, ...), or explicit ``packages``;
    * ``docker``: ``run_flags`` for ``docker run`` and/or ``dockerfile`` lines, or a ``base`` image change;
    * ``code``: advice about the user's program;
    * ``manual``: steps only the user can do (``commands``; ``needs_root`` when sudo is needed).
    """

    kind: FixKind
    text: Optional[str] = None
    set: Dict[str, str] = Field(default_factory=dict)
    unset: List[str] = Field(default_factory=list)
    intent: Optional[str] = None
    packages: List[str] = Field(default_factory=list)
    index_url: Optional[str] = None
    commands: List[str] = Field(default_factory=list)
    run_flags: List[str] = Field(default_factory=list)
    dockerfile: List[str] = Field(default_factory=list)
    base: Optional[str] = None
    needs_root: bool = False
    keep_torch: bool = False
    """Only for a user who keeps the installed torch: the alternative to replacing it.

    ``fix`` lists it beside the torch replacement and applies it only with ``--keep-torch``
    (e.g. ``TORCH_BLAS_PREFER_HIPBLASLT=0`` for a ROCm 6.2 wheel that will not be upgraded).
    """
    platforms: List[str] = Field(default_factory=list)
    """Empty = every platform; else a subset of ``linux``, ``windows``, ``wsl2``, ``container``."""

    # Checked when a rule loads, with every {placeholder} filled by a stand-in; the interpolated
    # values are checked again where they are used (env files, pip commands, Dockerfiles).
    @field_validator("set", "unset")
    @classmethod
    def _names(cls, value: Any) -> Any:
        for name in value:  # the keys of set, the items of unset
            if not quoting.IDENTIFIER.match(_filled(name, "X")):
                raise ValueError(f"{name!r} is not an environment variable name (letters, digits, _)")
        return value

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
    area: str
    status: RuleStatus = "stable"
    since: str = "0.1.0"
    for_each: Optional[Literal["gpu"]] = None
    when: Dict[str, Any]
    title: str
    message: str
    explanation: str
    fixes: List[Fix] = Field(default_factory=list)
    references: List[Reference] = Field(min_length=1)
    source_file: Optional[str] = Field(default=None, exclude=True)
    source_line: Optional[int] = Field(default=None, exclude=True)


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


class Undecided(_Strict):
    """A rule that could not be decided because facts were unknown."""

    id: str
    name: str
    gpu: Optional[int] = None
    missing: List[str] = Field(default_factory=list)
    """Fact paths that were unknown or failed, with the reason when there is one."""
