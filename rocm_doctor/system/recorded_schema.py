"""The shape of a recorded machine folder's ``machine.yaml`` and ``commands.yaml``.

:class:`~rocm_doctor.system.recorded.RecordedSystem` checks both documents against
these models when it opens a folder, so a hand-edited recording with a wrong type
(``returncode: "abc"``, ``argv: 5``, ``env`` as a list) is one line naming the file
and the field, not a crash halfway through gathering. Types are strict: YAML already
gives ints, strings and lists, and a quoted number where an int belongs is a mistake.
Values the system hands out as strings (environment values, argv items, command
output) may be any YAML scalar.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

from pydantic import BaseModel, ConfigDict, StrictBool, StrictFloat, StrictInt, StrictStr, ValidationError

Scalar = Union[StrictStr, StrictInt, StrictFloat, StrictBool]
"""A YAML scalar the recorded system turns into a string."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Platform(_Strict):
    system: Optional[StrictStr] = None
    release: Optional[Scalar] = None
    version: Optional[Scalar] = None
    machine: Optional[StrictStr] = None


class _Identity(_Strict):
    user: Optional[StrictStr] = None
    uid: Optional[StrictInt] = None
    groups: Optional[List[Scalar]] = None
    group_ids: Optional[Dict[StrictStr, StrictInt]] = None


class _Resources(_Strict):
    cpu_model: Optional[StrictStr] = None
    cpu_vendor: Optional[StrictStr] = None
    logical_cores: Optional[StrictInt] = None
    physical_cores: Optional[StrictInt] = None
    memory_total: Optional[StrictInt] = None
    memory_available: Optional[StrictInt] = None


class _Process(_Strict):
    """One process of the snapshot (``facts --record --pid``)."""

    pid: StrictInt
    ppid: Optional[StrictInt] = None
    name: Optional[StrictStr] = None
    user: Optional[StrictStr] = None
    uid: Optional[StrictInt] = None
    exe: Optional[StrictStr] = None
    cmdline: Optional[List[Scalar]] = None
    age_seconds: Optional[Union[StrictInt, StrictFloat]] = None
    problem: Optional[StrictStr] = None
    environ: Optional[Dict[StrictStr, Scalar]] = None
    environ_error: Optional[StrictStr] = None
    """``permission`` or ``gone``: what reading the environment raised."""
    modules: Optional[List[StrictStr]] = None
    modules_error: Optional[StrictStr] = None


class MachineDocument(_Strict):
    """``machine.yaml``."""

    description: Optional[StrictStr] = None
    sources: Optional[List[Any]] = None
    notes: Optional[Any] = None
    platform: Optional[_Platform] = None
    identity: Optional[_Identity] = None
    resources: Optional[_Resources] = None
    env: Optional[Dict[StrictStr, Scalar]] = None
    python: Optional[StrictStr] = None
    shell: Optional[StrictStr] = None
    disks: Optional[Dict[StrictStr, StrictInt]] = None
    access: Optional[Dict[StrictStr, StrictStr]] = None
    unreadable: Optional[List[StrictStr]] = None
    processes: Optional[List[_Process]] = None


class CommandEntry(_Strict):
    """One item of ``commands.yaml``."""

    label: Optional[StrictStr] = None
    argv: Optional[List[Scalar]] = None
    returncode: Optional[StrictInt] = None
    stdout: Optional[Scalar] = None
    stderr: Optional[Scalar] = None
    timeout: Optional[StrictBool] = None
    missing: Optional[StrictBool] = None
    error: Optional[Scalar] = None
    duration: Optional[Union[StrictInt, StrictFloat]] = None


_UNION_TAGS = ("str", "int", "float", "bool")
"""pydantic adds the union member that failed to the location (``duration.int``); not a field."""


def _where(loc: tuple) -> str:
    """``(0, 'argv')`` -> ``[0].argv``; ``('env', 'A')`` -> ``env.A``."""
    parts = list(loc)
    while len(parts) > 1 and parts[-1] in _UNION_TAGS:
        parts.pop()
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts).lstrip(".")


def problem(model: type, data: Any, prefix: tuple = ()) -> Optional[str]:
    """``field: what is wrong`` for the first problem of ``data`` against ``model``; None when it fits."""
    try:
        model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        message = "unknown key" if first["type"] == "extra_forbidden" else first["msg"].split(" or instance of ")[0]
        return f"field '{_where(prefix + tuple(first['loc']))}': {message}"
    return None


def commands_problem(commands: List[Any]) -> Optional[str]:
    """The first problem of a ``commands.yaml`` list, naming the entry; None when every entry fits."""
    for index, entry in enumerate(commands):
        if not isinstance(entry, dict):
            return f"entry [{index}] is not a mapping"
        found = problem(CommandEntry, entry, (index,))
        if found is not None:
            return found
    return None
