"""``pip list`` and ``pip freeze`` output: the installed distributions.

* ``pip list``: a ``Package  Version`` header, a dashed rule, then ``name  version [location]``;
* ``pip freeze``: ``name==version`` or ``name @ url`` lines, one per distribution.

A freeze is recognised only as two or more consecutive such lines with distinct
names, so that ``pip install torch==2.3.1+rocm6.0`` commands and lists of
versions someone tried are not mistaken for what is installed.
"""

from __future__ import annotations

import re
from typing import Dict, List, Tuple

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.collect_env import companion_observations
from rocm_doctor.ingest.formats.common import make_piece, torch_version_observations
from rocm_doctor.ingest.model import Observation, Piece
from rocm_doctor.lazy_regex import when_used

_HEADER = when_used(r"^\s*Package\s+Version(\s+.*)?$")
_RULE = when_used(r"^\s*-{3,}\s+-{3,}")
_LIST_ROW = when_used(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s+(\d[^\s]*)(?:\s+.*)?$")
_FREEZE_ROW = when_used(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(?:==\s*([^\s;#]+)|\s@\s+\S+)\s*$")


def canonical(name: str) -> str:
    """PEP 503 normalised distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _observations(rows: List[Tuple[str, str, Line]]) -> List[Observation]:
    installed: Dict[str, str] = {name: version for name, version, _ in rows}
    out = [Observation("packages.installed", installed, rows[0][2])]
    for name, version, line in rows:
        if name == "torch" and version:
            out += torch_version_observations(version, line)
        else:
            out += companion_observations(name, version, line)
    return out


def _pip_list(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    lines = block.lines
    i = 0
    while i < len(lines):
        if _HEADER.match(lines[i].text) and i + 1 < len(lines) and _RULE.match(lines[i + 1].text):
            rows: List[Tuple[str, str, Line]] = []
            j = i + 2
            while j < len(lines) and _LIST_ROW.match(lines[j].text):
                match = _LIST_ROW.match(lines[j].text)
                rows.append((canonical(match.group(1)), match.group(2), lines[j]))
                j += 1
            if rows:
                pieces.append(make_piece("pip-list", lines[i:j], _observations(rows)))
            i = j
            continue
        i += 1
    return pieces


def _pip_freeze(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    run: List[Tuple[str, str, Line]] = []

    def close() -> None:
        names = [name for name, _, _ in run]
        if len(run) >= 2 and len(set(names)) == len(names):
            pieces.append(make_piece("pip-freeze", [line for _, _, line in run], _observations(list(run))))
        run.clear()

    for line in block.lines:
        match = _FREEZE_ROW.match(line.text) if not line.command else None
        if match is None:
            close()
            continue
        run.append((canonical(match.group(1)), match.group(2) or "", line))
    close()
    return pieces


def parse(block: Block) -> List[Piece]:
    return _pip_list(block) + _pip_freeze(block)
