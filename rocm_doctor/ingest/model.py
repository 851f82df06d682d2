"""What the per-format parsers return: partial facts with the line they were read from.

A parser never builds a :class:`~rocm_doctor.facts.model.Facts`; it returns
:class:`Piece` objects holding :class:`Observation` (one fact path and value) and
:class:`GpuSighting` (one GPU as one tool listed it). :mod:`rocm_doctor.ingest.assemble`
weighs them and builds the facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from pydantic import BaseModel, ConfigDict

from rocm_doctor.facts.model import Facts
from rocm_doctor.ingest.blocks import Line

# How much a kind of text is trusted when two pieces give the same fact different
# values: machine output beats a template field, which beats an error message's hint.
TRUST_FACTS_JSON = 100
TRUST_TOOL = 50
TRUST_TEMPLATE = 30
TRUST_HINT = 10


@dataclass(frozen=True)
class Absent:
    """An observation value meaning: the text proves the thing is not there (an ``absent`` fact)."""

    reason: str = field(default="", compare=False)


@dataclass(frozen=True)
class Observation:
    """One fact read from one line."""

    path: str
    """Facts path such as ``torch.version`` or ``host.distro_id``."""
    value: Any
    line: Line
    trust: int = TRUST_TOOL


@dataclass
class GpuSighting:
    """One GPU as one listing showed it (rocminfo agent, lspci line, torch device ...)."""

    layer: str
    """Which listing: ``rocminfo``, ``amd-smi``, ``rocm-smi``, ``hipinfo``, ``torch``, ``hip``, ``pci``, ``report``."""
    position: int
    """Order within that listing (HIP-level listings: the device index)."""
    line: Line
    fields: Dict[str, Any] = field(default_factory=dict)
    """GpuAgent field name -> value (``name``, ``gfx``, ``device_id``, ``vendor`` ...)."""


@dataclass
class Piece:
    """One recognised piece of the paste and what it says."""

    kind: str
    block: int
    line_start: int
    line_end: int
    observations: List[Observation] = field(default_factory=list)
    gpus: List[GpuSighting] = field(default_factory=list)
    facts: Optional[Facts] = None
    """A complete facts document (rocm-doctor's own ``facts --json`` or report)."""


class PieceInfo(BaseModel):
    """The public description of a recognised piece (what ``check --from`` prints)."""

    model_config = ConfigDict(frozen=True)

    kind: str
    block: int
    line_start: int
    line_end: int


class IngestResult(BaseModel):
    """Facts read from a pasted report and the pieces they came from."""

    model_config = ConfigDict(frozen=True)

    facts: Facts
    pieces: List[PieceInfo]
