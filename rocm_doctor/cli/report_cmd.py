"""``rocm-doctor report``: write a redacted markdown bug report to paste into an issue."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from rocm_doctor.cli.app import app, stderr_console
from rocm_doctor.cli.check_cmd import BenchLevel, _with_bench
from rocm_doctor.cli.inputs import (
    RULES_OPTION,
    FactsSource,
    gathering_options,
)
from rocm_doctor.cli.pasted import load_facts_noting_pieces
from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts
from rocm_doctor.ingest import REPORT_MARKER
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.redact import Redactor, ReportRedactor, homes_in, strings_in
from rocm_doctor.report.markdown import build_report
from rocm_doctor.ruledb import database_label, rule_database_info
from rocm_doctor.dbage import stale_note

def facts_redactor(facts: Facts) -> Redactor:
    """Identity redaction from what the facts themselves say: their user, every home path in them."""
    from rocm_doctor.system.record import local_host_name

    user = facts.permissions.user.value if facts.permissions.user.is_known else None
    homes = homes_in(strings_in(facts.model_dump(mode="json")))
    return Redactor.from_names([user or ""], [local_host_name()], homes)


def _identity_redactor(source: FactsSource, facts: Facts) -> Redactor:
    from rocm_doctor.system.record import redactor_for

    if source.machine is not None:
        from rocm_doctor.system.recorded import RecordedSystem

        return _merge(redactor_for(RecordedSystem(source.machine)), facts_redactor(facts))
    if source.facts_file is not None or source.from_file is not None:
        return facts_redactor(facts)
    from rocm_doctor.system.live import LiveSystem

    return _merge(redactor_for(LiveSystem()), facts_redactor(facts))


def report_redactor(source: FactsSource, facts: Facts) -> ReportRedactor:
    """The redactor of a report of ``facts``: identity from where they came from, and the secrets of a
    pasted file read in its own words first (a reader may keep a piece of a secret, a GPU name, a
    folder name, without the words around it that say it is one)."""
    redactor = ReportRedactor.create(_identity_redactor(source, facts))
    if source.from_file is not None and source.from_file != "-":
        from rocm_doctor.files import read_limited
        from rocm_doctor.limits import PASTE_BYTES

        try:
            redactor.learn(read_limited(Path(source.from_file), PASTE_BYTES).decode("utf-8", errors="replace"))
        except (OSError, InputError):  # it was read a moment ago; a file gone since teaches nothing more
            pass
    return redactor


def _merge(first: Redactor, second: Redactor) -> Redactor:
    return Redactor(first.rules + tuple(rule for rule in second.rules if rule not in first.rules))


def _write(path: Path, text: str) -> None:
    """Write atomically; never overwrite a file that is not an earlier rocm-doctor report."""
    from rocm_doctor.files import update_file

    def replace_report(old: str) -> str:
        if old and REPORT_MARKER not in old[:200]:
            raise InputError(f"{path} exists and is not a rocm-doctor report; choose another --output")
        return text

    update_file(path, replace_report, backup=False)


@app.command("report")
@gathering_options
def report(
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="FILE", help="Write the report to this file (default, or -: print it)."),
    no_redact: bool = typer.Option(False, "--no-redact", help="Keep secrets, user, host, paths, addresses, serials and kernel parameters as they are."),
    bench: Optional[BenchLevel] = typer.Option(None, "--bench", help="Also run the GPU benchmark at this level and include it."),
    rules: Optional[List[Path]] = RULES_OPTION,
    source: FactsSource = FactsSource(),
) -> None:
    """Write a markdown bug report: findings, a facts table and the facts JSON (redacted by default).

    `rocm-doctor check --from REPORT.md` reads the report back and gives the same findings.
    """
    if bench is not None and not source.is_live:
        raise InputError("--bench runs on this machine; it cannot be combined with --machine, --facts or --from")
    loaded = load_rules(rules or [])
    facts = load_facts_noting_pieces(source)
    if bench is not None:
        facts = _with_bench(facts, source.python, bench.value, quiet=output is None or str(output) == "-")
    result = evaluate(loaded, facts)
    redactor = None if no_redact else report_redactor(source, facts)
    database = rule_database_info()
    text = build_report(result, database_label(database), redactor, database_note=stale_note())
    if output is None or str(output) == "-":  # -o - is standard output, as everywhere else
        sys.stdout.write(text)
        return
    _write(output, text)
    stderr_console().print(f"Report written to {output}" + ("" if no_redact else " (redacted)") + ".")
