"""Known environment variables and whether the ROCm / PyTorch runtime reads them.

Reads ``rules/data/env_vars.yaml`` (every row names its public sources).
The fix planner asks :func:`is_read_by_runtime` before it writes a variable, so it never
writes a myth such as ``HIP_DISABLE_IPC`` into a user's environment.

Public API:

* :func:`lookup` -- the :class:`EnvVar` row of a variable (``HSA_OVERRIDE_GFX_VERSION_1``
  matches the per-node pattern row), or None when the table does not know it;
* :func:`is_read_by_runtime` -- True / False from the table, None for an unknown variable;
* :func:`known_variables` -- every row;
* :class:`EnvVarTable` -- the same over a parsed table (derived facts pass their own).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, Iterable, List, Mapping, Optional, Pattern, Tuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from rocm_doctor.data import load_table
from rocm_doctor.errors import InputError
from rocm_doctor.knowledge._tables import cached_view, source_urls

TABLE = "env_vars"
READERS = ("hip-runtime", "rocr", "pytorch", "rocblas", "miopen", "rccl", "build-time", "none")
"""Who reads a variable; ``build-time`` and ``none`` are never read by a running program."""
PLATFORMS = ("linux", "windows", "wsl2")
_REQUIRED = ("name", "meaning", "read_by", "runtime_reads", "platforms", "values", "source")
_OPTIONAL = ("pattern", "debug", "note", "read_by_torch", "rocm_only")


@dataclass(frozen=True)
class EnvVar:
    """One row of the environment-variable table."""

    name: str
    meaning: str
    read_by: str
    runtime_reads: bool
    platforms: Tuple[str, ...]
    values: str
    source: str
    pattern: Optional[str] = None
    """Regex for a family of names (``HSA_OVERRIDE_GFX_VERSION_<N>``)."""
    debug: bool = False
    """A debugging aid that slows every run when left set."""
    note: Optional[str] = None
    read_by_torch: Optional[SpecifierSet] = None
    """For a PyTorch variable read only by some releases: those releases (other releases read nothing)."""
    rocm_only: bool = False
    """Only ROCm software reads it (the ROCr runtime, MIOpen, a ROCm build of PyTorch), or its name is ROCm's
    (TORCH_BLAS_PREFER_HIPBLASLT, an alias a CUDA build reads too): a report that sets it is about a
    machine meant to run ROCm (the weak fact ``derived.amd_gpu_told``)."""

    def unread_with_torch(self, torch_release: Optional[Version]) -> Optional[bool]:
        """True when the installed torch (its release, ``2.5.1``) reads nothing of this name although
        older or newer releases do; False when it reads it or the row has no release range; None when
        the release is not known."""
        if self.read_by_torch is None:
            return False
        if torch_release is None:
            return None
        return not self.read_by_torch.contains(torch_release, prereleases=True)


def _row_error(index: int, field: str, message: str) -> InputError:
    return InputError(f"rules/data/{TABLE}.yaml: variables[{index}].{field}: {message}")


def _parse_row(index: int, row: Any) -> EnvVar:
    if not isinstance(row, dict):
        raise _row_error(index, "*", "each row must be a mapping")
    unknown = sorted(set(row) - set(_REQUIRED) - set(_OPTIONAL))
    if unknown:
        raise _row_error(index, unknown[0], "unknown key")
    for field in _REQUIRED:
        if field not in row:
            raise _row_error(index, field, "missing")
    if row["read_by"] not in READERS:
        raise _row_error(index, "read_by", f"must be one of {', '.join(READERS)}")
    if not isinstance(row["runtime_reads"], bool):
        raise _row_error(index, "runtime_reads", "must be true or false")
    if row["read_by"] in ("build-time", "none") and row["runtime_reads"]:
        raise _row_error(index, "runtime_reads", f"a {row['read_by']} variable is not read at run time")
    platforms = row["platforms"]
    if not isinstance(platforms, list) or any(p not in PLATFORMS for p in platforms):
        raise _row_error(index, "platforms", f"must be a list of {', '.join(PLATFORMS)}")
    urls = source_urls(row["source"])
    if urls is None:
        raise _row_error(index, "source", "must be a public URL or a list of them")
    read_by_torch = None
    if row.get("read_by_torch") is not None:
        if row["read_by"] != "pytorch":
            raise _row_error(index, "read_by_torch", "only for read_by: pytorch")
        try:
            read_by_torch = SpecifierSet(str(row["read_by_torch"]))
        except InvalidSpecifier:
            raise _row_error(index, "read_by_torch", "must be a version specifier") from None
    if not isinstance(row.get("rocm_only", False), bool):
        raise _row_error(index, "rocm_only", "must be true or false")
    return EnvVar(
        name=str(row["name"]),
        meaning=str(row["meaning"]),
        read_by=row["read_by"],
        runtime_reads=row["runtime_reads"],
        platforms=tuple(platforms),
        values=str(row["values"]),
        source=" ".join(urls),
        pattern=row.get("pattern"),
        debug=bool(row.get("debug", False)),
        note=row.get("note"),
        read_by_torch=read_by_torch,
        rocm_only=bool(row.get("rocm_only", False)),
    )


class EnvVarTable:
    """The parsed table with name and pattern lookup."""

    def __init__(self, rows: Iterable[EnvVar]) -> None:
        self.rows: Tuple[EnvVar, ...] = tuple(rows)
        self._by_name: Dict[str, EnvVar] = {r.name: r for r in self.rows if r.pattern is None}
        self._patterns: List[Tuple[Pattern[str], EnvVar]] = [
            (re.compile(r.pattern), r) for r in self.rows if r.pattern is not None
        ]

    @classmethod
    def from_data(cls, data: Any) -> "EnvVarTable":
        """Validate the YAML document; a malformed row is an InputError naming it."""
        if not isinstance(data, dict) or not isinstance(data.get("variables"), list):
            raise InputError(f"rules/data/{TABLE}.yaml: variables: must be a list of rows")
        rows = [_parse_row(i, row) for i, row in enumerate(data["variables"])]
        names = [r.name for r in rows]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise InputError(f"rules/data/{TABLE}.yaml: variables: {duplicates[0]} is listed twice")
        return cls(rows)

    def lookup(self, name: str) -> Optional[EnvVar]:
        """The row for ``name``, or None when the table does not know the variable."""
        row = self._by_name.get(name)
        if row is not None:
            return row
        for pattern, candidate in self._patterns:
            if pattern.match(name):
                return candidate
        return None

    def is_read_by_runtime(self, name: str) -> Optional[bool]:
        """True / False per the table; None when the variable is not in it."""
        row = self.lookup(name)
        return None if row is None else row.runtime_reads

    def select(self, env: Mapping[str, str], **wanted: Any) -> List[str]:
        """Names set in ``env`` whose row has every attribute in ``wanted`` (sorted)."""
        chosen = []
        for name in sorted(env):
            row = self.lookup(name)
            if row is not None and all(getattr(row, k) == v for k, v in wanted.items()):
                chosen.append(name)
        return chosen


def env_var_table(data: Any) -> EnvVarTable:
    """``data`` (the table the rules are judged with) validated once per table object, not once per report."""
    return cached_view(TABLE, data, EnvVarTable.from_data)


@lru_cache(maxsize=1)
def default_table() -> EnvVarTable:
    """The table shipped in the rule database."""
    return EnvVarTable.from_data(load_table(TABLE))


def lookup(name: str) -> Optional[EnvVar]:
    """The row for ``name`` in the shipped table, or None."""
    return default_table().lookup(name)


def is_read_by_runtime(name: str) -> Optional[bool]:
    """Whether a running program reads ``name``: True, False (a myth or build-time only), None (unknown)."""
    return default_table().is_read_by_runtime(name)


def known_variables() -> Tuple[EnvVar, ...]:
    """Every row of the shipped table, in file order."""
    return default_table().rows
