"""``rocm-doctor baseline save|list|show|rm``: remember a machine's state to compare with later."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from rocm_doctor.bench import BenchLevel
from rocm_doctor.cli.app import app, stdout_console
from rocm_doctor.cli.inputs import RULES_OPTION, FactsSource, gathering_options
from rocm_doctor.cli.pasted import load_facts_noting_pieces
from rocm_doctor.errors import InputError

baseline_app = typer.Typer(help="Remember machine states to diff later.", no_args_is_help=True)
app.add_typer(baseline_app, name="baseline")


def _say(text: str) -> None:
    stdout_console().print(text, markup=False, highlight=False, soft_wrap=True)


def default_name() -> str:
    from rocm_doctor.baseline.store import now_iso

    return "saved-" + now_iso()[:19].replace(":", "").replace("-", "")


@baseline_app.command("save")
@gathering_options
def baseline_save(
    name: Optional[str] = typer.Argument(None, help="Name to save under (default: saved-<date and time>)."),
    bench: Optional[BenchLevel] = typer.Option(None, "--bench", help="Also run the GPU benchmarks at this level and keep their figures."),
    rules: Optional[List[Path]] = RULES_OPTION,
    source: FactsSource = FactsSource(),
) -> None:
    """Save the facts (redacted), the findings and the rule database's version as a baseline."""
    from rocm_doctor.baseline.capture import capture
    from rocm_doctor.baseline.store import checked_name, save
    from rocm_doctor.pipeline import evaluate
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.ruledb import rule_database_info

    chosen = checked_name(name or default_name())  # a bad name fails before anything is gathered
    if bench is not None and not source.is_live:
        raise InputError("--bench runs on this machine; it cannot be combined with --machine, --facts or --from")
    loaded = load_rules(rules or [])
    facts = load_facts_noting_pieces(source, quiet=True)
    if bench is not None:
        from rocm_doctor.cli.check_cmd import _with_bench

        facts = _with_bench(facts, source.python, bench.value, quiet=False)
    result = evaluate(loaded, facts)
    path = save(capture(chosen, facts, result.findings, rule_database_info()["version"], "baseline save"))
    _say(f"Saved baseline {chosen} ({path}); `rocm-doctor diff {chosen}` shows what changed since.")


@baseline_app.command("list")
def baseline_list() -> None:
    """List the saved baselines, newest first."""
    from rocm_doctor.baseline.store import baselines_dir, list_all
    from rocm_doctor.stack import stack_of

    found, left = list_all()
    if not found:
        _say(f"No baselines in {baselines_dir()}; `rocm-doctor baseline save NAME` saves one.")
        return
    for item in found:
        if item.baseline is None:
            _say(f"{item.name}  unreadable: {item.problem}")
            continue
        b = item.baseline
        stack = stack_of(b.facts.model_dump(mode="json"))
        errors = sum(f.severity == "error" for f in b.findings)
        _say(
            f"{b.name}  {b.saved_at}  ({b.reason})  torch {stack['torch']}, ROCm {stack['rocm']}, "
            f"driver {stack['driver']}; {len(b.findings)} findings, {errors} errors"
        )
    if left:
        _say(f"Note: {left} older baselines were not read (limit baseline.max_count).")


@baseline_app.command("show")
def baseline_show(name: str = typer.Argument(..., help="The baseline's name.")) -> None:
    """Show a baseline: when and why it was saved, its stack and its findings."""
    from rocm_doctor.baseline.store import load
    from rocm_doctor.stack import devices_of, stack_of

    b = load(name)
    data = b.facts.model_dump(mode="json")
    _say(f"Baseline {b.name}: saved {b.saved_at} by {b.reason} (rocm-doctor {b.tool_version}, rule database {b.rule_database})")
    for key, value in {**stack_of(data), **devices_of(data)}.items():
        _say(f"  {key}: {value}")
    _say(f"Findings ({len(b.findings)}):" if b.findings else "Findings: none")
    for f in b.findings:
        _say(f"  {f.id} [{f.severity}] {f.title}")


@baseline_app.command("rm")
def baseline_rm(name: str = typer.Argument(..., help="The baseline's name.")) -> None:
    """Remove a baseline."""
    from rocm_doctor.baseline.store import remove

    remove(name)
    _say(f"Removed baseline {name}.")
