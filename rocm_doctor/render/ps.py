"""``rocm-doctor ps``: one line per process (80 columns), or the ``rocm-doctor/ps/1`` document."""

from __future__ import annotations

from typing import List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field
from rich.console import Console

from rocm_doctor import __version__
from rocm_doctor.facts.process_scan import ProcessScan
from rocm_doctor.facts.processes import ProcessReading
from rocm_doctor.judge.process_verdict import Verdict, judge_process, runtime_installs

VerdictName = Literal["gpu", "cpu-only", "no-gpu-build", "mixed-runtimes", "unknown"]


class _Doc(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class PsLibrary(_Doc):
    path: str
    kind: str
    """``hip-runtime``, ``hsa-runtime``, ``rocm-library``, ``torch-rocm``, ``torch-cuda``, ``torch-cpu``, ``cuda``."""
    install: str
    """The folder of the install it comes from (``/opt/rocm-6.2.0``, ``.../site-packages/torch``)."""


class PsTorch(_Doc):
    flavour: str
    """``rocm``, ``cuda`` or ``cpu``: from the torch libraries it loaded."""
    version: Optional[str] = None
    """From the package's own ``torch-*.dist-info/METADATA`` next to it."""
    version_problem: Optional[str] = None
    location: str


class PsGpu(_Doc):
    source: str
    """``kfd`` (a compute context) or ``drm`` (a DRM client, from fdinfo)."""
    gpu_id: Optional[int] = None
    kfd_node: Optional[int] = None
    pci: Optional[str] = None
    vram_bytes: Optional[int] = None


class PsProcess(_Doc):
    pid: int
    ppid: Optional[int] = None
    user: Optional[str] = None
    command: List[str]
    exe: Optional[str] = None
    age_seconds: Optional[float] = None
    torch: Optional[PsTorch] = None
    runtime_installs: List[str]
    """Installs the HIP and HSA runtimes come from."""
    libraries: Optional[List[PsLibrary]] = None
    """None when the loaded libraries could not be read (see ``problems``)."""
    gpu_context: Optional[bool] = None
    """A KFD compute context (the process opened /dev/kfd); None when it cannot be told."""
    gpus: List[PsGpu]
    vram_bytes: Optional[int] = None
    verdict: VerdictName
    reason: str
    problems: List[str]
    """What could not be read, and why (another user's process without root)."""


class PsSkipped(_Doc):
    pid: int
    reason: str


class PsDocument(_Doc):
    """``rocm-doctor ps --json``."""

    schema_: Literal["rocm-doctor/ps/1"] = Field(default="rocm-doctor/ps/1", alias="schema")
    tool_version: str
    scanned: int
    """Processes in the process table."""
    candidates: int
    """Processes whose loaded libraries were read (a KFD context, or a Python interpreter)."""
    amd_gpus: Optional[bool] = None
    processes: List[PsProcess]
    skipped: List[PsSkipped]


def _row(reading: ProcessReading, verdict: Verdict) -> PsProcess:
    entry = reading.entry
    problems = [p for p in (entry.problem, reading.libraries_problem, reading.gpu_problem) if p]
    torch = reading.torch
    return PsProcess(
        pid=entry.pid,
        ppid=entry.ppid,
        user=entry.user,
        command=list(entry.cmdline) or [entry.name],
        exe=entry.exe,
        age_seconds=round(entry.age_seconds, 1) if entry.age_seconds is not None else None,
        torch=PsTorch(flavour=torch.flavour, version=torch.version, version_problem=torch.version_problem,
                      location=torch.location) if torch else None,
        runtime_installs=runtime_installs(reading),
        libraries=[PsLibrary(path=lib.path, kind=lib.kind, install=lib.install) for lib in reading.libraries]
        if reading.libraries is not None else None,
        gpu_context=reading.kfd_context,
        gpus=[PsGpu(source=g.source, gpu_id=g.gpu_id, kfd_node=g.node, pci=g.pci, vram_bytes=g.vram_bytes) for g in reading.gpus],
        vram_bytes=reading.vram_bytes,
        verdict=verdict.verdict,  # type: ignore[arg-type]
        reason=verdict.reason,
        problems=problems,
    )


def ps_document(scan: ProcessScan) -> PsDocument:
    """The document of a scan: every process with its verdict, and what was skipped."""
    return PsDocument(
        tool_version=__version__,
        scanned=scan.scanned,
        candidates=scan.candidates,
        amd_gpus=scan.amd_gpus,
        processes=[_row(r, judge_process(r, scan.amd_gpus)) for r in scan.readings],
        skipped=[PsSkipped(pid=pid, reason=why) for pid, why in scan.skipped],
    )


def _size(value: Optional[int]) -> str:
    if value is None:
        return "-"
    for unit, scale in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if value >= scale:
            return f"{value / scale:.1f}{unit}"
    return f"{value}B"


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "~"


def _command(row: PsProcess) -> str:
    words = row.command
    if len(words) > 1 and _base(words[0]).lower().startswith("python"):
        words = words[1:]  # "python train.py": the script says more than the interpreter
    text = " ".join(_base(w) if i == 0 else w for i, w in enumerate(words))
    return " ".join(text.split())  # a `python -c` script's newlines and tabs: one line per process


def _base(path: str) -> str:
    """The last part of a POSIX or Windows path."""
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def _torch(row: PsProcess) -> str:
    if row.torch is None:
        return "-"
    return f"{row.torch.flavour} {row.torch.version or '?'}"


def _gpu(row: PsProcess) -> str:
    nodes = sorted({str(g.kfd_node) for g in row.gpus if g.kfd_node is not None})
    if nodes:
        return ",".join(nodes)
    if row.gpu_context is None:
        return "?"
    return "yes" if row.gpu_context or row.gpus else "-"


COLUMNS = (("PID", 7), ("USER", 8), ("COMMAND", 16), ("TORCH", 18), ("GPU", 5), ("VRAM", 6), ("VERDICT", 14))
"""Header and width of each column: 74 characters and 6 separators fit 80 columns."""


def render_ps(document: PsDocument, console: Console) -> None:
    """One line per process, then an indented line with the runtime installs and the reason."""
    console.print(" ".join(f"{name:<{width}}" for name, width in COLUMNS).rstrip(), markup=False, highlight=False)
    for row in document.processes:
        cells = (str(row.pid), row.user or "?", _command(row), _torch(row), _gpu(row), _size(row.vram_bytes), row.verdict)
        line = " ".join(f"{_fit(cell, width):<{width}}" for cell, (_, width) in zip(cells, COLUMNS))
        console.print(line.rstrip(), markup=False, highlight=False)
        detail = f"runtime from {', '.join(row.runtime_installs)}; {row.reason}" if row.runtime_installs else row.reason
        console.print(_fit(f"  {detail}", 80), markup=False, highlight=False)
    summary = f"{len(document.processes)} GPU process(es) among {document.scanned}; {document.candidates} read"
    if document.skipped:
        summary += f"; {len(document.skipped)} exited while being read"
    console.print(summary, markup=False, highlight=False)

