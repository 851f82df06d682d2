"""``rocm-doctor facts``: print what rocm-doctor sees, or record it as a machine folder."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from rocm_doctor.cli.app import app, stderr_console, stdout_console
from rocm_doctor.cli.facts_view import render_facts
from rocm_doctor.cli.pasted import load_facts_noting_pieces
from rocm_doctor.cli.inputs import (
    FactsSource,
    gathering_options,
    within_limits,
)
from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts
from rocm_doctor.render.safe import safe_json

RECORD_OPTION = typer.Option(
    None, "--record", metavar="DIR", help="Also write this machine as a recorded-machine folder (names, homes, addresses, serials redacted)."
)


def _record(source: FactsSource, folder: Path) -> Facts:
    """Gather through a RecordingSystem and write the folder."""
    from rocm_doctor.facts.env import is_recorded
    from rocm_doctor.facts.context import GatherOptions
    from rocm_doctor.facts.gather import gather
    from rocm_doctor.redact import ReportRedactor
    from rocm_doctor.system.record import RecordingSystem, redactor_for
    from rocm_doctor.system.base import System
    from rocm_doctor.system.recorded import RecordedSystem

    if source.facts_file is not None or source.from_file is not None:
        raise InputError("--record needs a machine to read; it cannot be combined with --facts or --from")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise InputError(f"{folder}: --record needs a new or empty folder")
    inner: System
    if source.machine is not None:
        inner = RecordedSystem(source.machine)  # a bad folder raises RecordedMachineError, an InputError
        origin, detail = "recorded", str(source.machine)
    else:
        from rocm_doctor.system.live import LiveSystem

        inner, origin, detail = LiveSystem(), "live", None
    recorder = RecordingSystem(inner, redactor=ReportRedactor.create(redactor_for(inner)), keep_env=is_recorded)
    options = GatherOptions(python=source.python, torch=not source.no_torch, torch_timeout=source.timeout)
    facts = within_limits(gather(recorder, options, origin=origin, origin_detail=detail), source)
    recorder.write(folder)
    stderr_console().print(f"Recorded to {folder} (names, home paths, addresses and serial numbers redacted).")
    return facts


@app.command("facts")
@gathering_options
def facts(
    json_output: bool = typer.Option(False, "--json", help="Print the facts as JSON (nothing else on stdout)."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show where each fact was read, and every fact."),
    record: Optional[Path] = RECORD_OPTION,
    source: FactsSource = FactsSource(),
) -> None:
    """Print what rocm-doctor sees on this machine (or a recorded one): OS, GPUs, ROCm, PyTorch, environment."""
    result = _record(source, record) if record is not None else load_facts_noting_pieces(source, quiet=json_output, conflicts=True)
    if json_output:
        sys.stdout.write(safe_json(result.to_json()) + "\n")
    else:
        render_facts(result, stdout_console(), verbose=verbose)
