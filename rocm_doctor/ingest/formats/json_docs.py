"""JSON documents in a paste: rocm-doctor's own ``facts --json`` / ``check --json``, amd-smi ``--json``.

A facts document is taken whole (schema version checked by
:meth:`~rocm_doctor.facts.model.Facts.from_dict`); one that does not validate is
ignored like any other unrecognised text.
"""

from __future__ import annotations

import json
from typing import Any, List, Optional

from rocm_doctor.facts.model import Facts, FactsFileError, looks_like_facts
from rocm_doctor.ingest.blocks import Block
from rocm_doctor.ingest.formats import smi
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import Piece

MAX_JSON_CHARS = 5_000_000


def _load(block: Block) -> Optional[Any]:
    lines = block.lines
    starts = [i for i, line in enumerate(lines) if line.text.lstrip().startswith(("{", "["))]
    if not starts:
        return None
    first = starts[0]
    ends = [i for i, line in enumerate(lines) if i >= first and line.text.rstrip().endswith(("}", "]"))]
    if not ends:
        return None
    text = "\n".join(line.text for line in lines[first : ends[-1] + 1])
    if len(text) > MAX_JSON_CHARS:
        return None
    try:
        return first, ends[-1], json.loads(text)
    except (ValueError, RecursionError):
        return None


def facts_document(data: Any) -> Optional[Facts]:
    """The Facts inside a ``facts --json`` or ``check --json`` document, else None."""
    if isinstance(data, dict) and isinstance(data.get("facts"), dict) and str(data.get("schema", "")).startswith("rocm-doctor/"):
        data = data["facts"]
    if not looks_like_facts(data):
        return None
    try:
        return Facts.from_dict(data)
    except (FactsFileError, ValueError, TypeError, RecursionError):
        return None


def parse(block: Block) -> List[Piece]:
    loaded = _load(block)
    if loaded is None:
        return []
    first, last, data = loaded
    span = block.lines[first : last + 1]
    facts = facts_document(data)
    if facts is not None:
        piece = make_piece("rocm-doctor-facts", span, [])
        piece.facts = facts
        return [piece]
    return smi.parse_json(Block(block.index, block.kind, tuple(span)), data)
