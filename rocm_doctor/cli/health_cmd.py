"""``rocm-doctor health``: one node's verdict for machines, inside a wall-clock budget.

Gathering and rules (and ``--bench quick`` when asked) run under ``--budget``; a probe that
hangs costs its own facts, never the run. One line of at most 80 characters names the most
severe finding; the exit code names its action class (``rocm_doctor.health.verdict``).
"""

from __future__ import annotations

import enum
import json
import re
import sys
import threading
import time
from pathlib import Path
from typing import List, Optional, Tuple

import typer

from rocm_doctor.bench import BenchLevel
from rocm_doctor.cli.app import app, command_started
from rocm_doctor.cli.inputs import RULES_OPTION, FactsSource, gather_plan, gathering_options, load_facts, usable_target
from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts
from rocm_doctor.health.verdict import VERDICTS, Incomplete, Verdict, verdict_of
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.report import CheckResult
from rocm_doctor.data import load_table_head, rules_dir
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.model.rules import ACTIONS

SCHEMA = "rocm-doctor/health/1"
MIN_BENCH_SECONDS = 5.0
"""Below this much budget per benchmark test, ``--bench`` is not started (the run says so)."""

FailOn = enum.Enum("FailOn", [(v, v) for v in VERDICTS if v != "ok"], type=str)  # type: ignore[misc]
Action = enum.Enum("Action", [(a, a) for a in ACTIONS], type=str)  # type: ignore[misc]

def judge_reserve(budget: float) -> float:
    """Seconds of the budget kept back from gathering for judging, rendering and exiting: a tenth of it,
    at least 0.15 s and at most 2 s (the shipped rules judge a machine in about 0.1 s on an idle
    machine; a loaded one takes several times that). benchmarks/health_budget.py measures the result."""
    return min(max(0.1 * budget, 0.15), 2.0)


def _read_tables() -> None:
    """Read the shipped data tables before the budget is split: parsing their YAML, as a node's first
    run does (later runs read the cache), takes longer than the judge reserve of a small budget, and
    the rules would then be cut off while a table loads."""
    for path in sorted((rules_dir() / "data").glob("*.yaml")):
        load_table_head(path.stem)


def _judged_within(loaded: list, facts: Facts, until: float) -> Tuple[Optional[CheckResult], Optional[str]]:
    """The rules' result, or None and why when judging did not end by the monotonic ``until``."""
    done: dict = {}

    def work() -> None:
        done["result"] = evaluate(loaded, facts)

    thread = threading.Thread(target=work, name="rocm-doctor-judge", daemon=True)
    thread.start()
    thread.join(max(until - time.monotonic(), 0.05))
    if "result" in done:
        return done["result"], None
    return None, "rules did not finish within the budget"


_BUDGET = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min)?\s*$", re.IGNORECASE)


def parse_budget(text: str) -> float:
    """``45s``, ``45``, ``1.5m`` -> seconds; anything else is bad input."""
    match = _BUDGET.match(text or "")
    if not match or float(match.group(1)) <= 0:
        raise InputError(f"--budget {text!r}: give seconds or minutes, such as 45s or 2m")
    return float(match.group(1)) * (60 if (match.group(2) or "s").lower().startswith("m") else 1)


def _facts_within(source: FactsSource, budget: float, stated: float) -> Tuple[Facts, Incomplete]:
    plan = gather_plan(source)
    if plan is None:  # --facts / --from: nothing to gather
        return load_facts(source), Incomplete()
    from rocm_doctor.health.bounded import gather_within

    bounded = gather_within(plan.system, plan.options, budget, plan.origin, plan.origin_detail, stated)
    facts = usable_target(source, bounded.facts) if plan.origin == "live" else bounded.facts
    return facts, bounded.incomplete


def _with_bench(facts: Facts, source: FactsSource, level: str, left: float) -> Tuple[Facts, Incomplete]:
    """Run the benchmarks when they fit in what is left: each test gets an equal share as its deadline."""
    from rocm_doctor.bench.runner import LEVEL_TESTS
    from rocm_doctor.cli.check_cmd import _with_bench as benchmarked

    per_test = left / len(LEVEL_TESTS[level])
    if per_test < MIN_BENCH_SECONDS:
        return facts, Incomplete(["bench"], f"bench not started: {left:.0f} s of the budget left")
    return benchmarked(facts, source.python, level, quiet=True, deadline=per_test), Incomplete()


def _document(verdict: Verdict, fail_on: str, seconds: float, budget: float) -> dict:
    worst = verdict.worst
    return {
        "schema": SCHEMA,
        "verdict": verdict.verdict,
        "exit_code": verdict.exit_code(fail_on),
        "line": verdict.line,
        "incomplete": {"parts": verdict.incomplete.parts, "reason": verdict.incomplete.reason} if verdict.incomplete else None,
        "worst": worst.id if worst else None,
        "findings": [
            {"id": f.id, "action": f.action, "severity": f.severity, "gpu": f.gpu, "title": f.title}
            for f in verdict.findings
        ],
        "seconds": round(seconds, 3),
        "budget_seconds": budget,
        "rule_database": _database(),
    }


def _database() -> dict:
    from rocm_doctor.ruledb import rule_database_info

    info = rule_database_info()
    return {key: info[key] for key in ("version", "release", "released", "origin")}


@app.command("health")
@gathering_options
def health(
    budget: str = typer.Option("45s", "--budget", metavar="DURATION", help="Wall-clock budget for the whole run (45s, 2m)."),
    bench: Optional[BenchLevel] = typer.Option(None, "--bench", help="Also run the GPU benchmarks at this level, inside the budget."),
    fail_on: FailOn = typer.Option("monitor", "--fail-on", help="Exit 0 for verdicts below this one (the line still names them)."),
    npd: Optional[Action] = typer.Option(
        None, "--npd", help="node-problem-detector plugin mode for one action class: exit 0 none, 1 present, 2 cannot tell."
    ),
    json_output: bool = typer.Option(False, "--json", help="Print the rocm-doctor/health/1 JSON document instead of the line."),
    prometheus: Optional[Path] = typer.Option(
        None, "--prometheus", metavar="FILE", help="Also write node_exporter textfile metrics to this file (atomically)."
    ),
    rules: Optional[List[Path]] = RULES_OPTION,
    source: FactsSource = FactsSource(),
) -> None:
    """One line for machines: the most severe finding and its action class, within a time budget.

    Exit codes: 0 ok, 10 monitor, 11 config, 12 unknown (the run could not finish),
    13 triage, 14 isolate, 15 reset; 2 bad input, 3 internal error.
    """
    seconds = parse_budget(budget)
    if bench is not None and not source.is_live:
        raise InputError("--bench runs on this machine; it cannot be combined with --machine, --facts or --from")
    if npd is not None and json_output:
        raise InputError("use --npd or --json, not both")
    start = command_started()
    deadline = start + seconds
    loaded = load_rules(rules or [])  # bad rules fail before any probe runs
    _read_tables()
    reserve = judge_reserve(seconds)
    facts, incomplete = _facts_within(source, max(deadline - reserve - time.monotonic(), 0.1), seconds)
    if bench is not None and not incomplete:
        facts, incomplete = _with_bench(facts, source, bench.value, deadline - reserve - time.monotonic())
    result, unjudged = _judged_within(loaded, facts, deadline)
    if result is None:
        result = evaluate([], facts)  # no rule judged: the verdict is unknown, saying why
        incomplete = Incomplete(incomplete.parts + ["rules"], "; ".join(filter(None, [incomplete.reason, unjudged])))
    verdict = verdict_of(result, incomplete)
    elapsed = time.monotonic() - start
    if npd is not None:
        code, message = verdict.npd(npd.value)
        sys.stdout.write(message + "\n")
    elif json_output:
        code = verdict.exit_code(fail_on.value)
        sys.stdout.write(json.dumps(_document(verdict, fail_on.value, elapsed, seconds), indent=2) + "\n")
    else:
        code = verdict.exit_code(fail_on.value)
        sys.stdout.write(verdict.line + "\n")
    sys.stdout.flush()
    if prometheus is not None:
        from rocm_doctor.export.prometheus import metrics_text, write_textfile

        write_textfile(prometheus, metrics_text(result, verdict, elapsed, time.time()))
    raise typer.Exit(code)

