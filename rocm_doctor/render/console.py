"""Console rendering of a ``check`` result: findings grouped by area, evidence, fixes, a summary.

Markers: ``✗`` error, ``!`` warning, ``•`` info, ``✓`` nothing to report. Info
findings and undecided rules appear only with ``-v``. Every text that comes from a
rule or a fact is escaped, so ``torch[device-gfx1100]`` prints as written.
"""

from __future__ import annotations

import textwrap
from typing import Dict, List, Optional

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.interpolate import render_value
from rocm_doctor.judge.model import Evidence, Finding, Fix, Rule
from rocm_doctor.judge.report import CheckResult

MARKERS: Dict[str, str] = {"error": "[bold red]✗[/]", "warning": "[bold yellow]![/]", "info": "[cyan]•[/]"}
OK_MARKER = "[bold green]✓[/]"
INDENT = "    "


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 or word == "info" else f"{count} {word}s"


def _gpu_label(facts: Facts, index: Optional[int]) -> str:
    if index is None:
        return ""
    for agent in facts.gpus.agents:
        if agent.index == index:
            parts = [str(f.value) for f in (agent.name, agent.gfx) if f.is_known and f.value]
            return f"GPU {index}" + (f" ({', '.join(parts)})" if parts else "")
    return f"GPU {index}"


def _evidence_line(item: Evidence) -> str:
    if item.status == "known":
        shown = render_value(item.value)
    else:
        shown = item.status
    source = f"  [dim](from {escape(item.source)})[/]" if item.source else ""
    return f"{escape(item.path)} = {escape(shown)}{source}"


def fix_lines(fix: Fix) -> List[str]:
    """The lines a fix prints as (plain text, not markup): text first, then exact actions."""
    lines = [fix.text] if fix.text else []
    lines += [f"set {name}={value}" for name, value in fix.set.items()]
    lines += [f"unset {name}" for name in fix.unset]
    if fix.intent:
        lines.append(f"pip: {fix.intent}" + (f" ({', '.join(fix.packages)})" if fix.packages else ""))
    elif fix.packages:
        lines.append(f"pip: {' '.join(fix.packages)}")
    if fix.index_url:
        lines.append(f"index: {fix.index_url}")
    lines += [f"$ {'sudo ' if fix.needs_root and not c.startswith('sudo ') else ''}{c}" for c in fix.commands]
    if fix.run_flags:
        lines.append(f"docker run {' '.join(fix.run_flags)}")
    lines += [f"Dockerfile: {line}" for line in fix.dockerfile]
    if fix.base:
        lines.append(f"base image: {fix.base}")
    if fix.platforms:
        lines.append(f"(on {', '.join(fix.platforms)})")
    return lines


def _print_indented(console: Console, text: str, indent: str) -> None:
    """Prose wrapped to the console's width with every line indented (no trailing spaces)."""
    width = max(console.width, 40)
    for paragraph in text.splitlines() or [""]:
        wrapped = textwrap.fill(paragraph, width=width, initial_indent=indent, subsequent_indent=indent)
        console.print(Text(wrapped or indent), soft_wrap=True)


def _print_fixes(console: Console, fixes: List[Fix]) -> None:
    for number, fix in enumerate(fixes, start=1):
        lines = fix_lines(fix)
        if not lines:
            continue
        label = "fix:" if len(fixes) == 1 else f"fix {number}:"
        if fix.keep_torch:
            label = label[:-1] + " (if you keep this torch):"
        # soft_wrap: commands are printed whole, never broken across lines, so they copy and paste.
        console.print(f"{INDENT}[bold]{label}[/] {escape(lines[0])}", soft_wrap=True)
        for line in lines[1:]:
            console.print(f"{INDENT}{' ' * (len(label) + 1)}{escape(line)}", soft_wrap=True)


def _print_finding(console: Console, finding: Finding, facts: Facts) -> None:
    gpu = _gpu_label(facts, finding.gpu)
    where = f" [dim]\\[{escape(gpu)}][/]" if gpu else ""
    preview = " [dim](preview)[/]" if finding.rule_status == "preview" else ""
    if finding.rule_basis == "community-report":
        preview += " [dim](community report)[/]"
    console.print(f"  {MARKERS[finding.severity]} [bold]{escape(finding.title)}[/]{where}  [dim]{finding.id}[/]{preview}")
    _print_indented(console, finding.message, INDENT)
    for item in finding.evidence:
        console.print(f"{INDENT}[dim]evidence:[/] {_evidence_line(item)}", soft_wrap=True)
    _print_fixes(console, finding.fixes)
    for ref in finding.references:
        title = f" ({escape(ref.title)})" if ref.title else ""
        console.print(f"{INDENT}[dim]see: {escape(ref.url)}{title}[/]", soft_wrap=True)


def _no_amd_gpu_lines(result: CheckResult) -> List[str]:
    """A plain statement when no AMD GPU was found (or it could not be decided), with the layers tried."""
    has_amd = result.derived.get("derived.has_amd_gpu")
    if has_amd is None or (has_amd.is_known and has_amd.value):
        return []
    tried = []
    for attempt in result.facts.gpus.attempts:
        detail = f": {attempt.detail}" if attempt.detail else ""
        tried.append(f"{attempt.layer} ({attempt.status}{detail})")
    looked = f"Looked in: {'; '.join(tried)}." if tried else ""
    if has_amd.is_known:
        return ["No AMD GPU was found on this machine.", looked]
    reason = f" ({has_amd.reason})" if has_amd.reason else ""
    return [f"Whether this machine has an AMD GPU could not be decided{reason}.", looked]


def _summary(result: CheckResult, shown_info: bool) -> str:
    counts = result.summary
    parts = []
    for severity in ("error", "warning", "info"):
        count = getattr(counts, severity)
        if count:
            hidden = " (shown with -v)" if severity == "info" and not shown_info else ""
            parts.append(f"{MARKERS[severity]} {_plural(count, severity)}{hidden}")
    checked = f"{result.rules_evaluated} rules checked"
    if result.undecided:
        checked += f", {len(result.undecided)} undecided" + ("" if shown_info else " (-v lists them)")
    if not counts.error and not counts.warning:
        head = f"{OK_MARKER} No problems found" + (f"; {parts[0]}" if parts else "")
        return f"{head} ({checked})."
    return f"{', '.join(parts)} ({checked})."


def render_check(result: CheckResult, console: Console, verbose: bool = False) -> None:
    """Print a check result for people."""
    for line in _no_amd_gpu_lines(result):
        if line:
            console.print(escape(line))
    by_area: Dict[str, List[Finding]] = {}
    for finding in result.findings:  # worst first, so the worst area comes first
        if verbose or finding.severity != "info":
            by_area.setdefault(finding.area, []).append(finding)
    for area, findings in by_area.items():
        console.print()
        console.print(f"[bold underline]{escape(area)}[/]")
        for finding in findings:
            _print_finding(console, finding, result.facts)
    if verbose and result.undecided:
        console.print()
        console.print("[bold underline]undecided[/] [dim](facts that could not be read)[/]")
        for item in result.undecided:
            gpu = f" [{_gpu_label(result.facts, item.gpu)}]" if item.gpu is not None else ""
            _print_indented(console, f"? {item.id} {item.name}{gpu}: {'; '.join(item.missing)}", "  ")
    if result.coverage:
        # A pasted report: what the verdict rests on, what to paste next, where to report.
        from rocm_doctor.render import paste

        paste.render_coverage(result, console)
        paste.render_asks(result, console)
        paste.render_nothing_matched(result, console)
        console.print()
        console.print(paste.paste_summary(result))
        return
    console.print()
    console.print(_summary(result, verbose))


def _literal(value: object) -> str:
    """A condition operand as the YAML author wrote it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    return str(value)


def reflow(text: str) -> str:
    """Join the hard-wrapped lines of each paragraph so the console can wrap them to its width.

    Paragraphs with list items or indented lines keep their lines as written.
    """
    paragraphs = []
    for paragraph in text.strip().split("\n\n"):
        lines = paragraph.splitlines()
        keep = any(line.startswith((" ", "-", "*", "$", "|")) or line[:2].rstrip(".").isdigit() for line in lines)
        paragraphs.append(paragraph if keep else " ".join(line.strip() for line in lines))
    return "\n\n".join(paragraphs)


def render_condition(condition: object, indent: int = 0) -> List[str]:
    """A condition as readable lines (for ``explain``)."""
    pad = "  " * indent
    if isinstance(condition, dict) and len(condition) == 1 and next(iter(condition)) in ("all", "any", "not"):
        (name, body), = condition.items()
        if name == "not":
            return [f"{pad}not:"] + render_condition(body, indent + 1)
        label = "all of:" if name == "all" else "any of:"
        return [f"{pad}{label}"] + [line for part in body for line in render_condition(part, indent + 1)]
    if isinstance(condition, dict) and "fact" in condition:
        tests = ", ".join(f"{k} {_literal(v)}" for k, v in condition.items() if k != "fact")
        return [f"{pad}{condition['fact']} {tests}"]
    return [f"{pad}{condition!r}"]


def render_rule(rule: Rule, console: Console) -> None:
    """The full documentation of one rule (``explain``)."""
    console.print(f"[bold]{rule.id}[/] {escape(rule.name)}  {MARKERS[rule.severity]} {rule.severity}")
    console.print(f"[bold]{escape(rule.title)}[/]")
    console.print(
        f"category: {rule.category} · action: {rule.effective_action} · area: {escape(rule.area)}"
        f" · status: {rule.status} · since: {escape(rule.since)}"
        + (" · one finding per GPU" if rule.for_each == "gpu" else "")
    )
    if rule.basis == "community-report":
        console.print(
            "[bold]basis: community report[/] - no primary source (code, AMD documentation, a maintainer) "
            "confirms this; it rests on what users reported."
        )
    console.print()
    console.print("[bold]What it checks[/]")
    for line in render_condition(rule.when):
        console.print(f"  {escape(line)}")
    _print_indented(console, f"message: {rule.message}", "  ")
    console.print()
    console.print("[bold]Why it matters[/]")
    console.print(Text(reflow(rule.explanation)))
    if rule.fixes:
        console.print()
        console.print("[bold]Fixes[/]")
        _print_fixes(console, rule.fixes)
    console.print()
    console.print("[bold]References[/]")
    for ref in rule.references:
        console.print(f"  {escape(ref.url)}" + (f" ({escape(ref.title)})" if ref.title else ""))
    if rule.source_file:
        console.print()
        console.print(f"[dim]defined in {escape(rule.source_file)}:{rule.source_line}[/]")
