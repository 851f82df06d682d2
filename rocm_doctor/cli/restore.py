"""``fix --to BASELINE``: print (and with ``--apply`` run, then re-check) the way back to a baseline."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console

from rocm_doctor.cli.inputs import FactsSource, load_facts
from rocm_doctor.errors import InputError


def _say(console: Console, text: str = "") -> None:
    console.print(text, markup=False, highlight=False, soft_wrap=True)


def restore(
    console: Console, name: str, source: FactsSource, rules: Optional[List[Path]], shell: Optional[str],
    installer: str, index_url: Optional[str], apply: bool, yes: bool, pip_only: bool,
) -> None:
    """Plan the way back to baseline ``name`` for the machine ``source`` describes; run it with ``apply``."""
    from rocm_doctor.diff.restore import restore_plan
    from rocm_doctor.baseline.store import load
    from rocm_doctor.cli.diff_cmd import State, compare_states, refs
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor import shells
    from rocm_doctor.remedy.shell_choice import detect
    from rocm_doctor.remedy.pip import Target, target_python

    loaded = load_rules(rules or [])
    baseline = load(name)
    facts = load_facts(source)
    chosen_shell, _ = detect(facts, shell)
    python, _why = target_python(facts, source.python)
    target = Target(python=python, installer=installer, index_override=index_url)
    plan = restore_plan(baseline.facts, facts, target, loaded)
    lines = [shells.quote_argv(chosen_shell, list(c.argv)) for c in plan.commands]
    if pip_only:
        for line in lines:
            _say(console, line)
        return
    _say(console, f"The way back to baseline {baseline.name} (saved {baseline.saved_at} by {baseline.reason}):")
    if plan.is_empty:
        _say(console, "   nothing to do: the Python stack and the system match the baseline.")
    for command, line in zip(plan.commands, lines):
        _say(console, f"   # {command.purpose}")
        _say(console, f"   $ {line}")
    for step in plan.manual:
        _say(console, f"   Do this yourself: {step}")
    for reason in plan.refused:
        _say(console, f"   Refused: {reason}")
    for note in plan.notes:
        _say(console, f"   Note: {note}")
    if plan.refused and not plan.commands:
        raise typer.Exit(2)
    if not apply:
        return
    if not source.is_live:
        raise InputError("--apply changes this machine: it cannot be used with --machine, --facts or --from")
    if not plan.commands:
        _say(console, "\nNo pip command to run.")
        return
    if not yes and not typer.confirm("Run them?", default=False):
        _say(console, "Nothing was run.")
        raise typer.Exit(1)
    from rocm_doctor.baseline.auto import save_restore_point
    from rocm_doctor.fix.installer import DEFAULT_TIMEOUT, run_commands
    from rocm_doctor.pipeline import evaluate
    from rocm_doctor.ruledb import rule_database_info

    point = save_restore_point(facts, evaluate(loaded, facts).findings, rule_database_info()["version"])
    _say(console, f"Saved the state before the change as baseline {point.stem}.")
    outcome = run_commands(plan.commands, lambda line: _say(console, line), DEFAULT_TIMEOUT)
    if not outcome.ok:
        assert outcome.failed is not None
        _say(console, f"\nStopped: {shells.quote_argv(chosen_shell, list(outcome.failed.argv))} failed ({outcome.reason}).")
        raise typer.Exit(1)
    after = load_facts(source)
    result = compare_states(
        State(baseline.name, baseline.facts, refs(baseline.findings)), State("this machine", after, []), loaded
    )
    remaining = [c for c in result.changes if c.group in ("Python stack", "other Python packages")]
    _say(console, "\nRe-check:")
    if not remaining:
        _say(console, f"   the Python stack matches baseline {baseline.name}.")
    for change in remaining:
        _say(console, f"   still different: {change.what}: {change.before} (baseline) / {change.after} (now)")
    if remaining:
        raise typer.Exit(1)
