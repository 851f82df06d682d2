"""``ps``'s gathering: every process that loaded torch or a GPU runtime, read once.

Fast on a busy machine: the process table comes from one psutil pass; ``maps`` is read only
for candidates (:func:`~rocm_doctor.facts.processes.is_candidate`: a KFD context, or a
Python interpreter), and the environment and parent chain not at all (``check --pid`` reads them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple

from rocm_doctor.facts.processes import MachineView, ProcessReading, is_candidate, loads_gpu_stack, read_process
from rocm_doctor.system.base import System


@dataclass(frozen=True)
class ProcessScan:
    """What ``ps`` found."""

    readings: Tuple[ProcessReading, ...]
    """The processes that loaded torch or a GPU runtime (or whose libraries could not be read)."""
    skipped: Tuple[Tuple[int, str], ...]
    """(pid, why) of candidates left out: they exited while being read."""
    scanned: int
    """Processes in the table."""
    candidates: int
    amd_gpus: Optional[bool]
    """The machine has AMD GPUs with KFD (None: cannot be told, e.g. not Linux)."""


def scan_processes(system: System) -> ProcessScan:
    """Read every candidate process; never raises for a process that cannot be read."""
    view = MachineView.of(system)
    table = system.processes()
    readings: List[ProcessReading] = []
    skipped: List[Tuple[int, str]] = []
    candidates = [e for e in table if is_candidate(e, view)]
    for entry in candidates:
        reading = read_process(system, entry, view, environment=False, parents=False)
        if reading.gone:
            skipped.append((entry.pid, reading.gone))
        elif loads_gpu_stack(reading):
            readings.append(reading)
    amd = bool(view.nodes) if view.linux else None
    return ProcessScan(tuple(readings), tuple(skipped), len(table), len(candidates), amd)
