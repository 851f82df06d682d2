"""The typed fixes a rule declares (``fixes:`` in a rule file): env, pip, docker, code, manual.

Below the judge (which interpolates them into findings) and the chooser (which turns them into
exact steps for one machine: :mod:`rocm_doctor.remedy.decide`). Text fields may interpolate
``{fact.path}``; names, requirements and index URLs are checked when a rule loads.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Dict, List, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rocm_doctor import quoting

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
