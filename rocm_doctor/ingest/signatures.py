"""Error signatures: the table ``rules/data/signatures.yaml`` and a generic matcher.

Every row is a regex with an id; a line that matches adds the id to
``symptoms.signatures``. A row may also say which facts the message proves
(``implies``) and which named groups identify the GPU it is about (``gpu``).
The matcher knows nothing about any particular message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, List, Optional, Pattern, Tuple

from rocm_doctor.data import load_table
from rocm_doctor.errors import InputError
from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import gpu_fields, make_piece
from rocm_doctor.ingest.model import TRUST_HINT, Absent, GpuSighting, Observation, Piece
from rocm_doctor.knowledge._tables import source_urls

TABLE = "signatures"
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_ROW_KEYS = {"id", "pattern", "context", "implies", "gpu", "meaning", "source", "note"}
MAX_LINE = 4000
"""Longer lines are cut before matching (a minified blob is not an error message)."""


@dataclass(frozen=True)
class Signature:
    """One row of the signature table."""

    id: str
    pattern: Pattern[str]
    context: Optional[Pattern[str]]
    implies: Tuple[Tuple[str, Any], ...]
    gpu: Tuple[str, ...]
    meaning: str
    source: str


def _compile(text: Any, where: str) -> Pattern[str]:
    try:
        return re.compile(str(text), re.IGNORECASE)
    except re.error as exc:
        raise InputError(f"{where}: invalid regex ({exc})") from None


def build(data: Any) -> List[Signature]:
    """Validate the table's rows; a malformed row is an InputError naming it."""
    where = f"rules/data/{TABLE}.yaml"
    rows = data.get("signatures") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise InputError(f"{where}: must be a mapping with a 'signatures' list")
    out: List[Signature] = []
    for index, row in enumerate(rows):
        here = f"{where}: signatures[{index}]"
        if not isinstance(row, dict):
            raise InputError(f"{here} must be a mapping")
        unknown_keys = set(row) - _ROW_KEYS
        if unknown_keys:
            raise InputError(f"{here}: unknown field '{sorted(unknown_keys)[0]}'")
        for key in ("id", "pattern", "meaning", "source"):
            if not row.get(key):
                raise InputError(f"{here} needs field '{key}'")
        if not _ID.match(str(row["id"])):
            raise InputError(f"{here}.id '{row['id']}' must be snake_case")
        implies = row.get("implies") or {}
        if not isinstance(implies, dict):
            raise InputError(f"{here}.implies must be a mapping of fact path to value")
        out.append(
            Signature(
                id=str(row["id"]),
                pattern=_compile(row["pattern"], f"{here}.pattern"),
                context=_compile(row["context"], f"{here}.context") if row.get("context") else None,
                implies=tuple(sorted((str(k), _freeze(v)) for k, v in implies.items())),
                gpu=tuple(str(g) for g in row.get("gpu") or ()),
                meaning=str(row["meaning"]),
                source=_source(row, here),
            )
        )
    return out


def _source(row: Dict[str, Any], here: str) -> str:
    urls = source_urls(row["source"])
    if urls is None:
        raise InputError(f"{here}.source must be a public URL or a list of them")
    return " ".join(urls)


@lru_cache(maxsize=1)
def signatures() -> Tuple[Signature, ...]:
    """The shipped signature table."""
    return tuple(build(load_table(TABLE)))


def _freeze(value: Any) -> Any:
    return tuple(sorted(value.items())) if isinstance(value, dict) else value


def _implied(value: Any) -> Any:
    """``{absent: reason}`` in the table means the message proves the thing is not there."""
    if isinstance(value, tuple) and len(value) == 1 and value[0][0] == "absent":
        return Absent(str(value[0][1]))
    return value


def _gpu_sighting(signature: Signature, match: "re.Match[str]", line: Line) -> Optional[GpuSighting]:
    groups = {name: match.groupdict().get(name) for name in signature.gpu}
    if not any(groups.values()):
        return None
    return GpuSighting("report", 0, line, gpu_fields(gfx=groups.get("gfx"), device_id=groups.get("device_id")))


def match_block(block: Block, table: Optional[Tuple[Signature, ...]] = None) -> List[Piece]:
    """One piece per signature that occurs in the block (first occurrence)."""
    table = signatures() if table is None else table
    pieces: List[Piece] = []
    block_text: Optional[str] = None
    for signature in table:
        for line in block.lines:
            match = signature.pattern.search(line.text[:MAX_LINE])
            if match is None:
                continue
            if signature.context is not None:
                if block_text is None:
                    block_text = "\n".join(l.text[:MAX_LINE] for l in block.lines)
                if not signature.context.search(block_text):
                    break
            observations = [Observation("symptoms.signatures", [signature.id], line, TRUST_HINT)]
            observations += [Observation(path, _implied(value), line, TRUST_HINT) for path, value in signature.implies]
            sighting = _gpu_sighting(signature, match, line)
            pieces.append(make_piece(f"error:{signature.id}", [line], observations, [sighting] if sighting else []))
            break
    return pieces
