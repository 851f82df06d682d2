"""``rocm-doctor ps``: the processes that loaded torch or a GPU runtime, and whether each is on the GPU."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from rocm_doctor.cli.app import app, stdout_console
from rocm_doctor.render.safe import safe_json


@app.command("ps")
def ps(
    json_output: bool = typer.Option(False, "--json", help="Print the rocm-doctor/ps/1 JSON document."),
    machine: Optional[Path] = typer.Option(
        None, "--machine", metavar="DIR", help="Replay a recorded machine folder (with a process snapshot) instead of this machine."
    ),
) -> None:
    """List the processes that loaded torch or a ROCm runtime: PID, user, command, the torch
    build, the runtime installs, GPU context and VRAM, and a verdict (gpu, cpu-only,
    no-gpu-build, mixed-runtimes, unknown with the reason). Exit code 0 whatever it finds."""
    from rocm_doctor.facts.process_scan import scan_processes
    from rocm_doctor.render.ps import ps_document, render_ps

    if machine is not None:
        from rocm_doctor.system.recorded import RecordedSystem

        system = RecordedSystem(machine)
    else:
        from rocm_doctor.system.live import LiveSystem

        system = LiveSystem()
    document = ps_document(scan_processes(system))
    if json_output:
        sys.stdout.write(safe_json(document.model_dump_json(by_alias=True, indent=2)) + "\n")
    else:
        render_ps(document, stdout_console())
