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
# values: a tool's output beats what an error message implies, which beats a labelled
# field (``GPU: ...``, an issue-template section), which beats a mention in prose,
# which beats a hint (the user name in a shell prompt).
TRUST_FACTS_JSON = 100
TRUST_TOOL = 50
TRUST_SIGNATURE = 40
TRUST_TEMPLATE = 30
TRUST_PROSE = 20
TRUST_HINT = 10
TRUST_NAMES = {
    TRUST_FACTS_JSON: "rocm-doctor facts",
    TRUST_TOOL: "tool output",
    TRUST_SIGNATURE: "error message",
    TRUST_TEMPLATE: "labelled field",
    TRUST_PROSE: "prose mention",
    TRUST_HINT: "hint",
}


def one_line(value: Any) -> Any:
    """A value read across a line break (a name or a release a wrapping tool cut: "Radeon AI\\nPRO
    R9700", "Ubuntu\\n22.04.1") with the break as the space it was; other values as they are."""
    if isinstance(value, str) and "\n" in value:
        return " ".join(piece.strip() for piece in value.split("\n") if piece.strip())
    if isinstance(value, list) and any(isinstance(item, str) and "\n" in item for item in value):
        return [one_line(item) for item in value]
    return value


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
    intended: bool = False
    """Read from what a command or an image asks for (an install command's ``--index-url .../rocm6.2``, a
    ``rocm/pytorch:...`` image tag), not from what a program printed, listed or the reporter said is in place: the
    build asked for, which a later step (an installer, a package's requirement) may have replaced
    (``torch.flavour_evidence``: :func:`rocm_doctor.ingest.assemble._flavour_evidence`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", one_line(self.value))


@dataclass
class GpuSighting:
    """One GPU as one listing showed it (rocminfo agent, lspci line, torch device ...)."""

    layer: str
    """Which listing: ``rocminfo``, ``amd-smi``, ``rocm-smi``, ``hipinfo``, ``torch``, ``hip``, ``clinfo``, ``pci``, ``report``."""
    position: int
    """Order within that listing (HIP-level listings: the device index)."""
    line: Line
    fields: Dict[str, Any] = field(default_factory=dict)
    """GpuAgent field name -> value (``name``, ``gfx``, ``device_id``, ``vendor`` ...)."""
    doubtful: bool = False
    """A prose mention that may name a GPU other than this machine's (another person's, one asked about,
    "my old" one): kept only when the report names no other GPU (:func:`rocm_doctor.ingest.assemble._agents`)."""

    def __post_init__(self) -> None:
        self.fields = {key: one_line(value) for key, value in self.fields.items()}


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
    settings: List["SettingSighting"] = field(default_factory=list)
    """Environment settings the piece shows (``export``, ``ENV``, ``$env:``, an ``env`` listing ...)."""
    coverage: Optional[List[str]] = None
    """For an environment listing: the variable names it is complete for (regular expressions)."""


@dataclass(frozen=True)
class SettingSighting:
    """One environment setting as the text shows it (see :class:`rocm_doctor.facts.model.EnvSetting`)."""

    name: str
    value: Optional[str]
    origin: str
    where: str
    line: Line
    reaches: Optional[bool] = None
    reason: Optional[str] = None
    trust: int = TRUST_PROSE
    until: Optional[int] = None
    """The last line of the one command's output a command-prefix setting (``NAME=value cmd``) is in
    force for; None for a setting of the whole session (``export``, ``set``, ``$env:``), which is in
    force from its line on (:func:`rocm_doctor.ingest.assemble.in_force`)."""
    failed_with: bool = False
    """Written inside a sentence that says the program failed with it ("also doesn't work when running
    `$env:NAME=...; ollama serve`"): in force for the reported failure wherever the sentence stands, not
    a command of a transcript ordered in time against the lines around it
    (:func:`rocm_doctor.ingest.assemble.in_force`)."""
    paragraph_from: Optional[int] = None
    """For a session setting written without a prompt after a blank line: the number of the first line of its
    paragraph. Lines above that break are not ordered in time against it (a log, then the reporter's own
    ``export`` set apart), with or without Markdown fences round the log; a prompted command is
    (:func:`rocm_doctor.ingest.assemble.in_force`)."""
    worked_with: bool = False
    """Written inside a sentence that says the program worked with it ("It runs fine after I did
    `$env:NAME=...`"): a fix, not in force for an error printed before it, fenced apart or not."""
    for_error: Optional[bool] = None
    """False when the setting was in force for none of the errors the report shows (another command's
    prefix, a command run after the error): it does not decide the environment the error came from."""
    command: Optional[str] = None
    """The one command whose own environment this is (:attr:`rocm_doctor.facts.model.EnvSetting.command`)."""


class PieceInfo(BaseModel):
    """The public description of a recognised piece (what ``check --from`` prints)."""

    model_config = ConfigDict(frozen=True)

    kind: str
    block: int
    line_start: int
    line_end: int


class ConflictInfo(BaseModel):
    """Two readings of one fact that disagree: which was kept (by trust) and which lost."""

    model_config = ConfigDict(frozen=True)

    path: str
    kept: str
    others: List[str]


class IngestResult(BaseModel):
    """Facts read from a pasted report, the pieces they came from and the readings that disagreed."""

    model_config = ConfigDict(frozen=True)

    facts: Facts
    pieces: List[PieceInfo]
    conflicts: List[ConflictInfo] = []
