"""``rocm-doctor fleet``: many nodes' check, facts and bench documents in one view."""

from __future__ import annotations

import enum
import json
import sys
import time
from pathlib import Path
from typing import List, Optional

import typer

from rocm_doctor.cli.app import app, stdout_console
from rocm_doctor.cli.health_cmd import FailOn
from rocm_doctor.cli.inputs import RULES_OPTION
from rocm_doctor.errors import InputError
from rocm_doctor.fleet.aggregate import aggregate
from rocm_doctor.fleet.load import Reader, expand
from rocm_doctor.fleet.render import document, render_console, render_markdown
from rocm_doctor.judge.loader import load_rules


class Format(str, enum.Enum):
    console = "console"
    markdown = "markdown"


@app.command("fleet")
def fleet(
    paths: List[Path] = typer.Argument(..., help="Folders (every *.json below them) or files of check, facts or bench JSON."),
    json_output: bool = typer.Option(False, "--json", help="Print the rocm-doctor/fleet/1 JSON document."),
    output_format: Format = typer.Option(Format.console, "--format", help="console or markdown."),
    fail_on: FailOn = typer.Option("monitor", "--fail-on", help="Exit 0 for verdicts below this one."),
    rules: Optional[List[Path]] = RULES_OPTION,
) -> None:
    """Which nodes drifted from the rest, what is wrong where, which GPUs are slow for their model.

    Exit codes: 0 nothing to report, else the worst verdict's code as in `health`
    (10 monitor, 11 config, 12 unknown, 13 triage, 14 isolate, 15 reset); 2 bad input.
    """
    start = time.monotonic()
    files = expand(paths)
    nodes, skipped = Reader(load_rules(rules or [])).read(files)
    if not nodes:
        raise InputError(f"no node documents in {', '.join(map(str, paths))} ({len(skipped)} files skipped)")
    report = aggregate(nodes, skipped, len(files))
    if json_output:
        sys.stdout.write(json.dumps(document(report, fail_on.value, time.monotonic() - start), indent=2) + "\n")
    elif output_format is Format.markdown:
        sys.stdout.write(render_markdown(report, fail_on.value))
    else:
        render_console(report, stdout_console(), fail_on.value)
    raise typer.Exit(report.exit_code(fail_on.value))
