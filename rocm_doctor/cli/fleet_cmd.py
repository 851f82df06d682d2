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
    baseline: Optional[Path] = typer.Option(
        None, "--baseline", metavar="DIR", help="Also compare each node with its own earlier record in DIR (the same node names)."
    ),
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
    since = None
    if baseline is not None:
        from rocm_doctor.fleet import history

        earlier, _ = Reader(load_rules(rules or [])).read(expand([baseline]))
        if not earlier:
            raise InputError(f"--baseline {baseline}: no node documents in it")
        since = history.since(str(baseline), earlier, nodes)
    if json_output:
        doc = document(report, fail_on.value, time.monotonic() - start)
        if since is not None:
            doc["since_baseline"] = history.since_document(since)
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    elif output_format is Format.markdown:
        sys.stdout.write(render_markdown(report, fail_on.value) + (history.since_markdown(since) if since else ""))
    else:
        render_console(report, stdout_console(), fail_on.value)
        for line in ["", *history.since_lines(since)] if since else []:
            stdout_console().print(line, markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(report.exit_code(fail_on.value))
