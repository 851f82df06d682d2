"""AMD processors and their integrated GPU (``rules/data/cpus.yaml``).

A CPU name as ``/proc/cpuinfo``, ``lscpu``, Windows or a bug report spells it
(``AMD Ryzen 7 7800X3D 8-Core Processor``, ``Ryzen 5825U``, ``R7 7700``,
``AMD Ryzen AI Max+ 395 w/ Radeon 8060S``) is reduced to a line (``ryzen``,
``ryzen-ai``, ``ryzen-ai-max``, ``athlon``, ``threadripper``, ``epyc``), a model number and a
suffix, and matched against the table's families in order.

Public API:

* :func:`parse_cpu_name` -- the (line, number, suffix) of a name, or None;
* :func:`cpu_family` -- the :class:`CpuFamily` row a name belongs to (which may say the
  part has no iGPU), or None when the table does not know it;
* :func:`igpu_for_cpu` -- the :class:`IntegratedGpu` the part carries, or None when it
  has none or the table does not know the part (ask :func:`cpu_family` to tell apart);
* :class:`CpuTable` -- the same over a parsed table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, List, Optional, Pattern, Tuple

from rocm_doctor.errors import InputError
from rocm_doctor.knowledge._tables import cached_view, need_mapping, need_source, where

TABLE = "cpus"
LINES = ("ryzen", "ryzen-ai", "ryzen-ai-max", "athlon", "threadripper", "epyc")


@dataclass(frozen=True)
class IntegratedGpu:
    """The GPU inside a processor."""

    gfx: str
    name: str


@dataclass(frozen=True)
class CpuFamily:
    """One row of the table: a family of processors and its iGPU (None: it has none)."""

    name: str
    codename: str
    line: str
    model: Pattern[str]
    suffix: Pattern[str]
    igpu: Optional[IntegratedGpu]
    sources: Tuple[str, ...]
    verified: bool = True


@dataclass(frozen=True)
class CpuName:
    """A processor name reduced to what the table matches on."""

    line: str
    number: str
    suffix: str


_MARKS = re.compile(r"\((?:tm|r)\)|[\u2122\u00ae]", re.IGNORECASE)
_TAIL = re.compile(r"\s(?:w/|with)\s.*$", re.IGNORECASE)
_LINES: Tuple[Tuple[str, Pattern[str]], ...] = (
    ("ryzen-ai-max", re.compile(r"\bryzen\s*ai\s*max\b\+?")),
    ("ryzen-ai", re.compile(r"\bryzen\s*ai\b")),
    ("threadripper", re.compile(r"\bthreadripper\b")),
    ("ryzen", re.compile(r"\bryzen\b|\br[3579]\b")),
    ("athlon", re.compile(r"\bathlon\b")),
    ("epyc", re.compile(r"\bepyc\b")),
)
_MODEL = re.compile(r"(?<![0-9a-z])(\d{3,5})([a-z][a-z0-9]*)?(?![0-9a-z])")


def parse_cpu_name(name: str) -> Optional[CpuName]:
    """``AMD Ryzen 7 7800X3D 8-Core Processor`` -> (ryzen, 7800, x3d); None for a name that is
    not an AMD Ryzen, Ryzen AI, Athlon, Threadripper or EPYC model."""
    text = _MARKS.sub(" ", name[:300]).lower()
    text = _TAIL.sub("", text)
    text = re.sub(r"\b\d+-core\b|\bprocessor\b|\bamd\b", " ", text)
    for line, pattern in _LINES:
        found = pattern.search(text)
        if found is None:
            continue
        rest = text[found.end():]
        # "Ryzen 7 PRO 7840U", "Ryzen AI 9 HX 370": skip the tier digit and PRO/HX words.
        model = _MODEL.search(rest)
        if model is None:
            return None
        return CpuName(line=line, number=model.group(1), suffix=model.group(2) or "")
    return None


def _compile(text: Any, path: str) -> Pattern[str]:
    try:
        return re.compile(str(text))
    except re.error as exc:
        raise InputError(f"{where(TABLE, path)}: not a regular expression ({exc})") from None


def _row(index: int, row: Any) -> CpuFamily:
    path = f"families[{index}]"
    need_mapping(row, TABLE, path)
    for field in ("name", "codename", "line", "model", "suffix", "source"):
        if field not in row:
            raise InputError(f"{where(TABLE, path)} needs '{field}'")
    if row["line"] not in LINES:
        raise InputError(f"{where(TABLE, path)}.line must be one of {', '.join(LINES)}")
    sources = need_source(row, TABLE, path).split(" ")
    igpu = row.get("igpu")
    if igpu is not None:
        need_mapping(igpu, TABLE, f"{path}.igpu")
        if not re.fullmatch(r"gfx[0-9a-f]{3,4}", str(igpu.get("gfx", ""))):
            raise InputError(f"{where(TABLE, path)}.igpu.gfx must be a gfx target")
    return CpuFamily(
        name=str(row["name"]),
        codename=str(row["codename"]),
        line=row["line"],
        model=_compile(row["model"], f"{path}.model"),
        suffix=_compile(row["suffix"], f"{path}.suffix"),
        igpu=IntegratedGpu(gfx=str(igpu["gfx"]), name=str(igpu.get("name", ""))) if igpu else None,
        sources=tuple(str(s) for s in sources),
        verified=bool(row.get("verified", True)),
    )


class CpuTable:
    """The parsed processor table."""

    def __init__(self, families: List[CpuFamily]) -> None:
        self.families = tuple(families)

    @classmethod
    def from_data(cls, data: Any) -> "CpuTable":
        need_mapping(data, TABLE, "document")
        rows = data.get("families")
        if not isinstance(rows, list) or not rows:
            raise InputError(f"{where(TABLE, 'families')} must be a non-empty list")
        return cls([_row(i, row) for i, row in enumerate(rows)])

    def family(self, name: str) -> Optional[CpuFamily]:
        parsed = parse_cpu_name(name)
        if parsed is None:
            return None
        for row in self.families:
            if row.line == parsed.line and row.model.fullmatch(parsed.number) and row.suffix.fullmatch(parsed.suffix):
                return row
        return None


def table(data: Optional[Any] = None) -> CpuTable:
    """The shipped table (or ``data`` parsed), built once per table object."""
    return cached_view(TABLE, data, CpuTable.from_data)


def cpu_family(name: str, data: Optional[Any] = None) -> Optional[CpuFamily]:
    """The family row of a processor name, or None when the table does not know the part."""
    return table(data).family(name)


def igpu_for_cpu(name: str, data: Optional[Any] = None) -> Optional[IntegratedGpu]:
    """The integrated GPU of a processor; None when it has none or the part is unknown."""
    row = cpu_family(name, data)
    return row.igpu if row is not None else None
