"""``rocm-doctor bench``: GPU micro-benchmarks in the target interpreter, with a progress bar and a summary."""

from __future__ import annotations

import enum
import json
import sys
from typing import Optional, Tuple

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from rocm_doctor.bench import BenchLevel, run_bench
from rocm_doctor.bench.results import FAILING, BenchRun, run_dict
from rocm_doctor.cli.app import app, stderr_console, stdout_console
from rocm_doctor.cli.inputs import PYTHON_OPTION
from rocm_doctor.errors import InputError

EXIT_FAILING = 1
_STYLE = {"ok": "green", "slow": "yellow", "invalid": "magenta", "skipped": "dim", "error": "red"}


class Device(str, enum.Enum):
    auto = "auto"
    cuda = "cuda"
    cpu = "cpu"


def _target(python: Optional[str]) -> Tuple[str, str]:
    """(interpreter the worker runs in, why): the one decision ``check``, ``fix`` and ``facts`` make too
    (the active venv or conda env before rocm-doctor's own interpreter; ``rocm_doctor.facts.target``)."""
    from rocm_doctor.facts.target import target_interpreter
    from rocm_doctor.system.live import LiveSystem

    system = LiveSystem()
    chosen, why = target_interpreter(system, python)
    if python is not None:
        found = chosen if system.exists(chosen) else system.which(chosen)
        if found is None:
            raise InputError(f"--python {python}: no such interpreter")
        chosen = found
    return chosen, why


def _figure(value: Optional[float], digits: int = 3) -> str:
    return "" if value is None else f"{value:.{digits}g}"


def render_summary(run: BenchRun, console: Console) -> None:
    """Device header, then one row per figure (or per test without figures): value, spec peak, fraction."""
    info = run.info
    name = info.get("name") or run.device
    if run.python_why:
        console.print(f"[bold]Target:[/] {escape(run.python)} ({escape(run.python_why)})", soft_wrap=True)
    if info.get("gcn_arch"):
        gfx = f" ({info['gcn_arch']})"
    elif info.get("compute_capability"):
        gfx = f" (CUDA compute capability {info['compute_capability']})"
    else:
        gfx = ""
    console.print(f"[bold]Device:[/] {escape(str(name))}{gfx}, torch {escape(str(info.get('torch', '?')))}, level {run.level}")
    if run.spec is not None:
        console.print(f"[bold]Spec peaks:[/] {escape(run.spec.product)} [dim]({escape(run.spec.source)})[/]")
    else:
        console.print("[bold]Spec peaks:[/] none for this device; figures are shown without a fraction of peak")
    table = Table(box=None, pad_edge=False)
    for column in ("test", "status", "figure", "value", "spec peak", "fraction", "expected", "detail"):
        table.add_column(column)
    for result in run.tests.values():
        style = "bold red" if result.status in FAILING else _STYLE.get(result.status, "")
        status = f"[{style}]{result.status}[/]" if style else result.status
        detail = result.reason or ""
        if result.step and result.status not in ("ok", "skipped"):
            detail = f"step {result.step}: {detail}"
        if not result.figures:
            table.add_row(result.name, status, "", "", "", "", "", escape(detail))
            continue
        for index, fig in enumerate(result.figures):
            table.add_row(
                result.name if index == 0 else "",
                status if index == 0 else "",
                fig.metric,
                f"{_figure(fig.value)} {fig.unit}",
                _figure(fig.spec_peak),
                f"{fig.fraction:.0%}" if fig.fraction is not None else "",
                fig.band or "",
                escape("; ".join(text for text in (fig.note, detail if index == 0 else "") if text)),
            )
    console.print(table)
    failing = run.failing
    if failing:
        console.print(f"[bold red]{len(failing)} test(s) failed:[/] " + ", ".join(f"{t.name} ({t.status})" for t in failing))
    elif not run.ran:
        console.print("[bold red]No test ran:[/] every test was skipped or ended in an error before it could run.")
    console.print(f"[dim]{run.seconds:.1f} s, {run.workers} worker process(es)[/]")


@app.command("bench")
def bench(
    level: BenchLevel = typer.Option(BenchLevel("quick"), "--level", help="quick (< 10 s GPU), standard (< 60 s), extended (minutes)."),
    device: Device = typer.Option(Device.auto, "--device", help="auto, cuda (also ROCm/HIP) or cpu."),
    python: Optional[str] = PYTHON_OPTION,
    deadline: Optional[float] = typer.Option(
        None, "--deadline", min=1.0, metavar="SECONDS", help="Seconds per test, import and init included (default: 60/120/600 by level)."
    ),
    json_output: bool = typer.Option(False, "--json", help="Print the rocm-doctor/bench/1 JSON document."),
) -> None:
    """Run GPU micro-benchmarks in the target interpreter: integrity, bandwidth, GEMM, attention, compile.

    Exit codes: 0 every test that ran was ok or slow, 1 a test was wrong, hung or crashed, or no test
    ran at all (every test skipped or failed to start), 2 bad input.
    """
    target, why = _target(python)
    err = stderr_console()
    with Progress(
        SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal,
    ) as bar:
        task = bar.add_task("starting the worker", total=None)

        def progress(test: str, step: Optional[str], finished: int, total: int) -> None:
            label = f"{test}: {step}" if step else f"{test} finished"
            bar.update(task, description=escape(label), completed=finished, total=total)

        run = run_bench(target, level.value, device.value, deadline, progress)
    run.python_why = why
    if json_output:
        sys.stdout.write(json.dumps(run_dict(run), indent=2, default=str) + "\n")
    else:
        render_summary(run, stdout_console())
    if run.failing:
        raise typer.Exit(EXIT_FAILING)
    if not run.ran:
        # Nothing was measured (no torch, --device cuda on a CPU build, every test failed to start): not a pass.
        reasons = sorted({t.reason for t in run.tests.values() if t.reason}) or ["no test ran"]
        stderr_console().print(f"No benchmark ran: {'; '.join(reasons[:3])}", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_FAILING)
