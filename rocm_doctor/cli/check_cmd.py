"""``rocm-doctor check``, ``explain`` and ``rules list|validate``."""

from __future__ import annotations

import enum
import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from rocm_doctor.bench import BenchLevel
from rocm_doctor.cli.app import app, stderr_console, stdout_console
from rocm_doctor.cli.inputs import (
    RULES_OPTION,
    FactsSource,
    gathering_options,
)
from rocm_doctor.cli.pasted import load_facts_noting_pieces
from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_files, load_rules, rule_sources
from rocm_doctor.model.rules import Rule
from rocm_doctor.remedy.decide import Context
from rocm_doctor.shells import SHELLS
from rocm_doctor.render.console import render_check, render_rule


class FailOn(str, enum.Enum):
    """The lowest severity that makes ``check`` exit 1."""

    error = "error"
    warning = "warning"
    info = "info"


EXIT_FINDINGS = 1
EXIT_CRASHED = 3
CommandShell = enum.Enum("CommandShell", {s: s for s in SHELLS}, type=str)  # type: ignore[misc]


def _with_bench(facts: Facts, python: Optional[str], level: str, quiet: bool, deadline: Optional[float] = None) -> Facts:
    """Run the benchmarks in the target interpreter and put their results in ``facts.bench``.

    ``deadline``: seconds per test (None: the level's default).
    """
    from rocm_doctor.bench import bench_facts, run_bench

    target = python or (facts.python.executable.value if facts.python.executable.is_known else None) or sys.executable
    if not quiet:
        stderr_console().print(f"Running the {level} GPU benchmarks in {target} ...")
    run = run_bench(target, level, "auto", deadline)
    return facts.model_copy(update={"bench": bench_facts(run)})


@app.command("check")
@gathering_options
def check(
    json_output: bool = typer.Option(False, "--json", help="Print the rocm-doctor/check/1 JSON document."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Also show info findings and undecided rules."),
    fail_on: FailOn = typer.Option(FailOn.error, "--fail-on", help="Exit 1 when a finding is at least this severe."),
    rules: Optional[List[Path]] = RULES_OPTION,
    bench: Optional[BenchLevel] = typer.Option(
        None, "--bench", help="Also run the GPU benchmarks at this level and judge their results."
    ),
    shell: Optional[CommandShell] = typer.Option(
        None, "--shell", help="Print commands for this shell (default: detected; a pasted report's platform)."
    ),
    source: FactsSource = FactsSource(),
) -> None:
    """Judge this machine (or a recorded one) and explain every finding.

    Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it,
    2 bad input, 3 internal error or a crashed check (a crashed row names its crash log).
    """
    if bench is not None and not source.is_live:
        raise InputError("--bench runs on this machine; it cannot be combined with --machine, --facts or --from")
    loaded = load_rules(rules or [])  # bad rules fail before any probe runs
    facts = load_facts_noting_pieces(source, quiet=json_output)
    if bench is not None:
        facts = _with_bench(facts, source.python, bench.value, quiet=json_output)
    result = evaluate(loaded, facts, context=Context(shell=shell.value if shell else None, python=source.python))
    if json_output:
        sys.stdout.write(result.to_json() + "\n")
    else:
        render_check(result, stdout_console(), verbose=verbose)
    if result.crashes:
        raise typer.Exit(EXIT_CRASHED)  # a crashed check is a result: the diagnosis is incomplete
    if result.at_or_above(fail_on.value):
        raise typer.Exit(EXIT_FINDINGS)


def _find_rule(rules: List[Rule], key: str) -> Rule:
    for rule in rules:
        if key.upper() == rule.id or key.lower() == rule.name:
            return rule
    raise InputError(f"no rule {key}; `rocm-doctor rules list` shows every rule")


@app.command("explain")
def explain(
    rule_id: str = typer.Argument(..., metavar="ID", help="Rule id (RD101) or name."),
    rules: Optional[List[Path]] = RULES_OPTION,
) -> None:
    """Print a rule's full documentation: what it checks, why, fixes, references."""
    render_rule(_find_rule(load_rules(rules or []), rule_id), stdout_console())


rules_app = typer.Typer(help="List or validate rule files.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")


@rules_app.command("list")
def rules_list(
    json_output: bool = typer.Option(False, "--json", help="Print the rules as JSON."),
    rules: Optional[List[Path]] = RULES_OPTION,
) -> None:
    """List every rule (id, severity, category, action, area, status, title) and the database version and check date."""
    from rocm_doctor.ruledb import rule_database_info

    loaded = load_rules(rules or [])
    database = rule_database_info()
    if json_output:
        document = {
            "schema": "rocm-doctor/rules/1",
            "rule_database": database,
            "rules": [
                r.model_dump(mode="json") | {"action": r.effective_action, "source": f"{r.source_file}:{r.source_line}"}
                for r in loaded
            ],
        }
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
        return
    from rich.markup import escape
    from rich.table import Table

    table = Table(box=None, pad_edge=False)
    for column in ("id", "severity", "category", "action", "area", "status", "title"):
        table.add_column(column)
    for rule in sorted(loaded, key=lambda r: r.id):
        table.add_row(
            rule.id, rule.severity, rule.category, rule.effective_action, escape(rule.area), rule.status, escape(rule.title)
        )
    console = stdout_console()
    console.print(table)
    console.print(f"{len(loaded)} rules · rule database {database['version']}, data tables checked {database['checked']}")


@rules_app.command("validate")
def rules_validate(path: Path = typer.Argument(..., help="A rule file or a folder of rule files.")) -> None:
    """Check rule files (with the shipped rules, for duplicate ids); exit 2 on the first problem."""
    files = rule_sources([path], use_env=False)
    target = {f.resolve() for f in rule_sources([path], use_env=False, builtin=False)}
    loaded = load_files(files)
    count = sum(1 for r in loaded if r.source_file and Path(r.source_file).resolve() in target)
    stdout_console().print(f"{path}: {count} rules valid")
