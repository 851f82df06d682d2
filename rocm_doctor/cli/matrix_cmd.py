"""``rocm-doctor matrix``: the GPU x PyTorch x ROCm x OS support matrix, as data and as an answer."""

from __future__ import annotations

import json
import sys
from typing import Optional

import typer

from rocm_doctor.cli.app import app, stdout_console
from rocm_doctor.cli.check_cmd import CommandShell
from rocm_doctor.errors import InputError


@app.command("matrix")
def matrix(
    gfx: Optional[str] = typer.Option(None, "--gfx", help="One gfx target (gfx1151)."),
    gpu: Optional[str] = typer.Option(None, "--gpu", help="One GPU by name (\"RX 7900 XTX\"), resolved through the GPU table."),
    python: Optional[str] = typer.Option(None, "--python-version", help="Choose builds for this Python (3.12)."),
    json_output: bool = typer.Option(False, "--json", help="Print the rocm-doctor/matrix/1 document."),
    shell: Optional[CommandShell] = typer.Option(None, "--shell", help="Write commands for this shell (default: bash for Linux, PowerShell for Windows)."),
) -> None:
    """Which torch builds run on a GPU, newest first, with the exact install command (--json: the whole matrix)."""
    from rocm_doctor.remedy import matrix as support
    from rocm_doctor.render.matrix import summary_lines, target_lines

    if gfx and gpu:
        raise InputError("give --gfx or --gpu, not both")
    target = support.gfx_for_gpu(gpu) if gpu else (gfx.strip().lower() if gfx else None)
    if target is not None and target not in support.all_targets():
        raise InputError(f"{target}: not a gfx target the GPU table knows; `rocm-doctor matrix` lists them")
    document = support.build_document([target] if target else None, python=python)
    if json_output:
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
        return
    console = stdout_console()
    lines = target_lines(document["targets"][0], shell.value if shell else None) if target else summary_lines(document)
    for line in lines:  # never broken mid-word: commands carry their own shell line continuations
        console.print(line, markup=False, highlight=False, soft_wrap=True)
