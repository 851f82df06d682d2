"""Console sections that only a pasted report gets: what the verdict rests on, what to ask for next.

A verdict on a paste never ends in a bare green tick: it says which areas the report
decided, which it did not show and the exact command for each, which rules are open
only for want of those outputs, and, when nothing was found, where to take the report.
"""

from __future__ import annotations

from typing import Dict, List

from rich.console import Console
from rich.markup import escape

from rocm_doctor.judge.paste_verdict import WHERE_TO_REPORT, Collect, nothing_matched
from rocm_doctor.judge.report import CheckResult

MAX_ASKED_RULES = 6
"""Rule ids listed per command to paste (the rest are counted)."""


def _command(collect: Collect, windows: bool) -> str:
    return collect.windows if windows and collect.windows else collect.linux


def render_coverage(result: CheckResult, console: Console) -> None:
    """The areas the report decides, and one command per area it does not show."""
    if not result.coverage:
        return
    windows = result.facts.host.os.is_known and result.facts.host.os.value == "windows"
    console.print()
    shown = sum(1 for area in result.coverage if area.shown)
    console.print(f"[bold underline]What the report shows[/] [dim]({shown} of {len(result.coverage)} areas)[/]")
    width = max(len(area.name) for area in result.coverage)
    for area in result.coverage:
        if area.shown:
            console.print(f"  ✓ {area.name:<{width}}  {escape(area.evidence or 'shown')}", soft_wrap=True)
        elif area.collect is not None:
            console.print(f"  ? {area.name:<{width}}  not shown; paste: [bold]{escape(_command(area.collect, windows))}[/]", soft_wrap=True)
        else:
            console.print(f"  ? {area.name:<{width}}  not shown", soft_wrap=True)


def render_asks(result: CheckResult, console: Console) -> None:
    """Rules that the report leaves open only for want of some outputs, grouped by the output to paste."""
    if not result.asks:
        return
    windows = result.facts.host.os.is_known and result.facts.host.os.value == "windows"
    by_command: Dict[str, List[str]] = {}
    whats: Dict[str, str] = {}
    for ask in result.asks:
        for collect in ask.collect:
            command = _command(collect, windows)
            whats[command] = collect.what
            label = f"{ask.id} {ask.title}"
            if label not in by_command.setdefault(command, []):
                by_command[command].append(label)
    console.print()
    console.print("[bold underline]Not shown in the report[/] [dim](these outputs would decide more rules)[/]")
    for command, labels in by_command.items():
        console.print(f"  {escape(whats[command])}: [bold]{escape(command)}[/]", soft_wrap=True)
        for label in labels[:MAX_ASKED_RULES]:
            console.print(f"      would decide {escape(label)}", soft_wrap=True)
        if len(labels) > MAX_ASKED_RULES:
            console.print(f"      and {len(labels) - MAX_ASKED_RULES} more rules")


def render_nothing_matched(result: CheckResult, console: Console) -> None:
    """A paste with no error or warning: say it plainly and name where to report it."""
    if not nothing_matched(result.findings, result.facts):
        return
    console.print()
    console.print(
        "No known cause matches what the report shows. That is information too: either the report leaves "
        "out the facts above, or the problem is not one rocm-doctor knows. Report it where it belongs, with "
        "`rocm-doctor report` (run on the machine) attached:"
    )
    for what, where in WHERE_TO_REPORT:
        console.print(f"  {escape(what)}: {escape(where)}", soft_wrap=True)


def paste_summary(result: CheckResult) -> str:
    """The last line for a paste: never a bare green tick, always how much the verdict rests on."""
    shown = sum(1 for area in result.coverage if area.shown)
    counts = result.shown_summary  # as shown: per-GPU findings that read the same are one entry
    parts = [f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((counts.error, "error"), (counts.warning, "warning")) if n]
    found = ", ".join(parts) if parts else "no problem found"
    asked = f"; {len(result.asks)} rules wait for outputs the report does not show" if result.asks else ""
    return f"From the pasted report: {found}, resting on {shown} of {len(result.coverage)} areas{asked}."
