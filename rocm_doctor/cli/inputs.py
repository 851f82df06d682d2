"""Where facts come from: the live machine, a recorded machine, a facts file or a pasted report.

``facts``, ``check``, ``fix``, ``dockerfile``, ``docker-run`` and ``report`` all take
these options, so they live here once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import typer

from rocm_doctor.errors import InputError
from rocm_doctor.facts.gather import GatherOptions, gather
from rocm_doctor.facts.model import Facts, FactsFileError

PYTHON_OPTION = typer.Option(None, "--python", help="Target interpreter to inspect (default: this one).")
NO_TORCH_OPTION = typer.Option(False, "--no-torch", help="Do not start torch; read only what files say.")
MACHINE_OPTION = typer.Option(None, "--machine", help="Replay a recorded machine folder instead of this machine.")
FACTS_OPTION = typer.Option(None, "--facts", help="Read facts from a JSON file written by `facts --json`.")
FROM_OPTION = typer.Option(None, "--from", help="Diagnose a pasted report (file, or - for stdin).")
TIMEOUT_OPTION = typer.Option(60.0, "--timeout", help="Seconds the live torch probe may take.")


@dataclass(frozen=True)
class FactsSource:
    """The gathering options a command received."""

    python: Optional[str] = None
    no_torch: bool = False
    machine: Optional[Path] = None
    facts_file: Optional[Path] = None
    from_file: Optional[str] = None
    timeout: float = 60.0


def load_facts(source: FactsSource, progress: Optional[Callable[[str], None]] = None) -> Facts:
    """Obtain facts from exactly one source; bad input raises InputError."""
    chosen = [x for x in (source.machine, source.facts_file, source.from_file) if x is not None]
    if len(chosen) > 1:
        raise InputError("use only one of --machine, --facts and --from")
    options = GatherOptions(python=source.python, torch=not source.no_torch, torch_timeout=source.timeout)
    if source.facts_file is not None:
        try:
            text = Path(source.facts_file).read_text(encoding="utf-8")
        except OSError as exc:
            raise InputError(f"{source.facts_file}: {exc.strerror or exc}") from None
        try:
            return Facts.from_json(text)
        except FactsFileError as exc:
            raise InputError(f"{source.facts_file}: {exc}") from None
    if source.from_file is not None:
        from rocm_doctor.ingest import facts_from_report_file

        return facts_from_report_file(source.from_file)
    if source.machine is not None:
        from rocm_doctor.system.recorded import RecordedMachineError, RecordedSystem

        try:
            system = RecordedSystem(source.machine)
        except RecordedMachineError as exc:
            raise InputError(str(exc)) from None
        return gather(system, options, origin="recorded", origin_detail=str(source.machine), progress=progress)
    from rocm_doctor.system.live import LiveSystem

    return gather(LiveSystem(), options, origin="live", progress=progress)
