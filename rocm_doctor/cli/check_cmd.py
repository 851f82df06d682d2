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
from rocm_doctor.judge.loader import load_rules, validate_alone
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
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing but errors; the exit code is the result."),
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
    if quiet and (json_output or verbose):
        raise InputError("--quiet prints nothing: it cannot be combined with --json or --verbose")
    loaded = load_rules(rules or [])  # bad rules fail before any probe runs
    facts = load_facts_noting_pieces(source, quiet=json_output or quiet)
    if bench is not None:
        facts = _with_bench(facts, source.python, bench.value, quiet=json_output or quiet)
    result = evaluate(loaded, facts, context=Context(shell=shell.value if shell else None, python=source.python))
    if json_output:
        sys.stdout.write(result.to_json() + "\n")
    elif not quiet:
        from rocm_doctor.ruledb import rule_database_info

        render_check(result, stdout_console(), verbose=verbose, database=rule_database_info())
        _note_old_database()
        _note_regressions(facts, source.is_live)
        if source.from_file is not None:
            _note_story(source.from_file, loaded)
    if source.is_live and not source.no_torch and not result.crashes:
        # A check that did not look at torch cannot vouch for the stack: it leaves last-good alone.
        _save_last_good(facts, result.findings)
    if result.crashes:
        if quiet:  # a crash is an error: it is printed even with --quiet
            for crash in result.crashes:
                log = f"; crash log: {crash.log}" if crash.log else ""
                stderr_console().print(f"error: {crash.what} crashed: {crash.reason}{log}", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_CRASHED)  # a crashed check is a result: the diagnosis is incomplete
    if result.at_or_above(fail_on.value):
        raise typer.Exit(EXIT_FINDINGS)


def _note_old_database() -> None:
    """One line when the rule database in use is old (the findings above rest on it)."""
    from rocm_doctor.dbage import stale_note

    note = stale_note()
    if note:
        stdout_console().print(note, markup=False)


def _note_regressions(facts: Facts, live: bool) -> None:
    """Say when the versions in use, or the update since the last good state, match a known regression.

    The last good state is read only when a version in use is a known regression: an update can only
    walk into a regression that the version it reached is in.
    """
    # Imported here for start-up speed only: the notes are rendered after the findings.
    from rocm_doctor.diff.versions import regressions_in_use

    if not regressions_in_use(facts):
        return
    from rocm_doctor.baseline.model import LAST_GOOD
    from rocm_doctor.baseline.store import load, path_of
    from rocm_doctor.diff.notes import regression_notes

    last_good = None
    if live and path_of(LAST_GOOD).exists():
        try:
            last_good = load(LAST_GOOD).facts
        except InputError as exc:
            stderr_console().print(f"Note: the last good state cannot be read: {exc}", markup=False, soft_wrap=True)
    for line in regression_notes(facts, last_good):
        stdout_console().print(line, markup=False, soft_wrap=True)


def _note_story(paste: str, rules: List[Rule]) -> None:
    """A paste holding a before and an after state gets `diff`'s "what changed" section."""
    from rocm_doctor.diff.render import diff_lines
    from rocm_doctor.diff.story import FIRST, LAST, story_diff, story_of_paste

    pair = story_of_paste(paste)
    if pair is None:
        return
    console = stdout_console()
    for line in ["", *diff_lines(story_diff(pair, rules), FIRST, LAST)]:
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def _save_last_good(facts: Facts, findings: list) -> None:
    """Remember a state without an error finding as ``last-good`` (off: ROCM_DOCTOR_LAST_GOOD=off);
    a state the same as the one saved last costs one small file read (``baseline.fingerprint``)."""
    from rocm_doctor.baseline.fingerprint import already_saved, fingerprint, last_good_enabled, remember
    from rocm_doctor.ruledb import rule_database_info

    if not last_good_enabled() or any(f.severity == "error" for f in findings):
        return
    version = rule_database_info()["version"]
    state = fingerprint(facts.model_dump(mode="json"), [f.id for f in findings], version)
    if already_saved(state):
        return
    from rocm_doctor.diff.last_good import save_last_good  # only when there is something new to save

    try:
        if save_last_good(facts, findings, version) is not None:
            remember(state)
    except OSError as exc:  # a read-only data folder must not fail the check
        stderr_console().print(f"Note: the last good state was not saved: {exc}", markup=False, soft_wrap=True)


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
    from rocm_doctor.ruledb import database_label, rule_database_info
    from rocm_doctor.dbage import stale_note

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

    from rocm_doctor.judge.interpolate import readable
    from rocm_doctor.render.trimmed import print_trimmed

    table = Table(box=None, pad_edge=False)
    for column in ("id", "severity", "category", "action", "area", "status", "title"):
        table.add_column(column)
    for rule in sorted(loaded, key=lambda r: r.id):
        table.add_row(
            rule.id, rule.severity, rule.category, rule.effective_action, escape(rule.area), rule.status,
            escape(readable(rule.title)),
        )
    console = stdout_console()
    print_trimmed(console, table)
    console.print(
        f"{len(loaded)} rules · rule database {database_label(database)}, data tables checked {database['checked']}",
        markup=False,
    )
    note = stale_note()
    if note:
        console.print(note, markup=False)


@rules_app.command("validate")
def rules_validate(path: Path = typer.Argument(..., help="A rule file or a folder of rule files.")) -> None:
    """Check rule files on their own; exit 2 on the first problem.

    Ids must be unique within the files given; an id that is also a shipped rule's is named in a note
    (a checkout's rules/ beside an installed copy), not refused.
    """
    loaded, shadowed = validate_alone(path)
    stdout_console().print(f"{path}: {len(loaded)} rules valid", markup=False, highlight=False, soft_wrap=True)
    if shadowed:
        ids = ", ".join(rule.id for rule, _ in shadowed)
        where = Path(shadowed[0][1].source_file or "").parent
        stderr_console().print(
            f"Note: {len(shadowed)} of these ids are also shipped rules (in {where}): {ids}. "
            "That is expected for a copy of the rule database (a checkout's rules/); loaded with --rules or "
            "ROCM_DOCTOR_RULES beside the shipped rules they would be duplicates.",
            markup=False, highlight=False, soft_wrap=True,
        )


def _validate_staged(folder: Path) -> Optional[str]:
    """Load the staged database in a child process (its caches die with it): None, or the problem."""
    from rocm_doctor.system.live import run_command

    done = run_command([sys.executable, "-m", "rocm_doctor.cli.ruledb_check", str(folder)], timeout=120)
    if done.returncode == 0 and not done.timed_out:
        return None
    if done.timed_out:
        return "loading it took longer than 120 s"
    lines = [line for line in (done.stderr or "").splitlines() if line.strip()]
    return lines[-1] if lines else f"the check exited {done.returncode}"


@rules_app.command("update")
def rules_update(
    url: Optional[str] = typer.Option(
        None, "--url", help="The index to read (default: $ROCM_DOCTOR_RULES_URL, else the project's release downloads)."
    ),
    allow_downgrade: bool = typer.Option(False, "--allow-downgrade", help="Install a release older than the one in use."),
    revert: bool = typer.Option(False, "--revert", help="Switch back to the database in use before the last update."),
    timeout: float = typer.Option(60.0, "--timeout", min=1.0, max=600.0, help="Seconds each download may take in all."),
) -> None:
    """Fetch, verify (Ed25519 signature, file hashes) and install the newest rule database; --revert undoes it.

    Nothing changes unless every check passes. Works offline: the shipped database is always the floor.
    Exit codes: 0 installed or already newest, 2 refused (the reason is printed; nothing changed).
    """
    import os

    from rocm_doctor.limits import UPDATE_SECONDS
    from rocm_doctor.dbupdate import update as updating

    try:
        if revert:
            outcome = updating.revert()
        else:
            target = url or os.environ.get(updating.URL_VAR, "").strip() or updating.DEFAULT_URL
            outcome = updating.update(
                target, min(timeout, float(UPDATE_SECONDS.value)), _validate_staged, allow_downgrade=allow_downgrade
            )
    except updating.UpdateRefused as exc:
        raise InputError(f"rules update refused, nothing changed: {exc}") from None
    stdout_console().print(outcome.message, markup=False)
