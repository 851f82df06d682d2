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
from rocm_doctor.judge.interpolate import readable, render_value
from rocm_doctor.model.fixes import Fix
from rocm_doctor.model.rules import Evidence, Finding, Rule
from rocm_doctor.judge.report import CheckResult, Problem

MARKERS: Dict[str, str] = {"error": "[bold red]✗[/]", "warning": "[bold yellow]![/]", "info": "[cyan]•[/]"}
MARKER_STYLES: Dict[str, str] = {"error": "bold red", "warning": "bold yellow", "info": "cyan"}
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
    """The lines a rule's fix prints as in ``explain`` (plain text, not markup): text first, then its actions.

    ``check`` and ``fix`` print the remedy decided for the machine instead (:mod:`rocm_doctor.render.remedy`).
    """
    from rocm_doctor.render.remedy import INTENT_WORDS

    get = lambda name, default=None: getattr(fix, name, default)  # noqa: E731 - fixes are typed by kind
    lines = [fix.text] if fix.text else []
    lines += [f"set {name}={value}" for name, value in (get("set") or {}).items()]
    lines += [f"unset {name}" for name in get("unset") or []]
    if get("intent"):
        lines.append(f"pip: {INTENT_WORDS.get(get('intent'), get('intent'))} (`rocm-doctor fix --pip` prints the commands)")
    elif get("packages"):
        lines.append(f"pip: {' '.join(get('packages'))}")
    if get("index_url"):
        lines.append(f"index: {get('index_url')}")
    lines += [f"$ {'sudo ' if get('needs_root') and not c.startswith('sudo ') else ''}{c}" for c in get("commands") or []]
    if get("run_flags"):
        lines.append(f"docker run {' '.join(get('run_flags'))}")
    lines += [f"Dockerfile: {line}" for line in get("dockerfile") or []]
    if get("base"):
        lines.append(f"base image: {get('base')}")
    if fix.one_of:
        lines.append(f"(one of: {fix.one_of})")
    if fix.platforms:
        lines.append(f"(on {', '.join(fix.platforms)})")
    return lines


def _print_indented(console: Console, text: str, indent: str) -> None:
    """Prose wrapped to the console's width with every line indented (no trailing spaces)."""
    width = max(console.width, 40)
    for paragraph in text.splitlines() or [""]:
        wrapped = textwrap.fill(paragraph, width=width, initial_indent=indent, subsequent_indent=indent)
        console.print(Text(wrapped or indent), soft_wrap=True)


def _print_fixes(console: Console, fixes: List[Fix], templates: bool = False) -> None:
    """``templates``: the rule's own fixes, with no machine at hand: placeholders read as names."""
    for number, fix in enumerate(fixes, start=1):
        lines = [readable(line) for line in fix_lines(fix)] if templates else fix_lines(fix)
        if not lines:
            continue
        label = "fix:" if len(fixes) == 1 else f"fix {number}:"
        # soft_wrap: commands are printed whole, never broken across lines, so they copy and paste.
        console.print(f"{INDENT}[bold]{label}[/] {escape(lines[0])}", soft_wrap=True)
        for line in lines[1:]:
            console.print(f"{INDENT}{' ' * (len(label) + 1)}{escape(line)}", soft_wrap=True)


def _gpus_label(facts: Facts, gpus: List[Optional[int]]) -> str:
    """``GPU 0 (name, gfx)`` or, for findings merged across GPUs, ``GPUs 0, 1 (name, gfx)``."""
    if len(gpus) == 1:
        return _gpu_label(facts, gpus[0])
    first = _gpu_label(facts, gpus[0])
    detail = first[first.index(" (") :] if " (" in first else ""
    return f"GPUs {', '.join(str(g) for g in gpus)}{detail}"


def _print_finding(console: Console, finding: Finding, facts: Facts, gpus: List[Optional[int]], verbose: bool) -> None:
    from rocm_doctor.render.remedy import print_lines, remedy_lines, wrap

    width = max(console.width, 40)
    gpu = _gpus_label(facts, gpus) if gpus != [None] else ""
    marker = {"error": "✗", "warning": "!", "info": "•"}[finding.severity]
    preview = " (preview)" if finding.rule_status == "preview" else ""
    if finding.rule_basis == "community-report":
        preview += " (community report)"
    head = f"{finding.title}" + (f" [{gpu}]" if gpu else "") + f"  {finding.id}{preview}"
    lines = wrap(head, width, f"  {marker} ", INDENT)
    first = Text(lines[0])
    first.stylize(MARKER_STYLES[finding.severity], 2, 3)
    first.stylize("bold", 4, min(len(lines[0]), 4 + len(finding.title)))
    console.print(first, soft_wrap=True)
    print_lines(console, lines[1:])
    _print_indented(console, finding.message, INDENT)
    if verbose:
        for item in finding.evidence:
            console.print(f"{INDENT}[dim]evidence:[/] {_evidence_line(item)}", soft_wrap=True)
    elif finding.evidence:
        items = [f"{e.path}={render_value(e.value) if e.status == 'known' else e.status}" for e in finding.evidence]
        line = f"{INDENT}evidence: {'; '.join(items)}"
        while len(line) > width and len(items) > 1:  # whole items only; -v shows them all
            items.pop()
            line = f"{INDENT}evidence: {'; '.join(items)}; … (-v)"
        console.print(Text(line, style="dim"), soft_wrap=True)
    if finding.remedy is not None:
        print_lines(console, remedy_lines(finding.remedy, width, INDENT))
    else:
        _print_fixes(console, finding.fixes)
    for ref in finding.references:
        title = f" ({escape(ref.title)})" if ref.title else ""
        console.print(f"{INDENT}[dim]see: {escape(ref.url)}{title}[/]", soft_wrap=True)


def is_platform_note(finding: Finding) -> bool:
    """An info finding about the platform (Windows, WSL2, a container) changes what to do there
    (train under Linux, guard DataLoader workers): the default output names it in one line."""
    return finding.severity == "info" and finding.category == "platform"


def is_change_note(finding: Finding) -> bool:
    """An info finding about the report itself (what changed since the state it says worked): where a
    regression is looked for first, so the default output says it in one line, with what differs."""
    return finding.severity == "info" and finding.area == "report"


def _print_note(console: Console, finding: Finding, facts: Facts, gpus: List[Optional[int]]) -> None:
    """A platform or change note in one entry: marker, title (a change note's message, which names what
    differs), GPUs and id (``-v`` prints the whole finding)."""
    from rocm_doctor.render.remedy import print_lines, wrap

    gpu = f" [{_gpus_label(facts, gpus)}]" if gpus != [None] else ""
    text = finding.message if is_change_note(finding) else finding.title
    lines = wrap(f"{text}{gpu}  {finding.id}", max(console.width, 40), "  • ", INDENT)
    first = Text(lines[0])
    first.stylize(MARKER_STYLES["info"], 2, 3)
    console.print(first, soft_wrap=True)
    print_lines(console, lines[1:])


def _print_crashes(console: Console, result: CheckResult) -> None:
    """A crashed gatherer, derived fact, rule or chooser is a row of its own, with its crash log."""
    if not result.crashes:
        return
    console.print()
    console.print("[bold underline]crashed[/] [dim](rocm-doctor's own checks that raised; please report them)[/]")
    for crash in result.crashes:
        log = f"; crash log: {crash.log}" if crash.log else ""
        _print_indented(console, f"✗ {crash.what} crashed: {crash.reason}{log}", "  ")


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


OVERVIEW = (
    ("GPU", ("gfx-unsupported", "gfx-override", "device-selection")),
    ("driver", ("driver", "permissions", "platform")),
    ("ROCm", ("torch-rocm-mismatch", "runtime", "env")),
    ("torch", ("torch-build", "blas", "packages")),
)
"""flutter doctor's per-area summary: the areas and the finding categories that mark them."""


def _area_value(result: CheckResult, area: str) -> str:
    facts = result.facts
    if area == "GPU":
        names = []
        for agent in facts.gpus.agents:
            parts = [str(f.value) for f in (agent.name, agent.gfx) if f.is_known and f.value]
            if parts:
                names.append(f"{parts[0]} ({parts[1]})" if len(parts) == 2 else parts[0])
        return "; ".join(dict.fromkeys(names)) or "no GPU found"
    if area == "driver":
        for fact, label in ((facts.driver.amdgpu_version, "amdgpu "), (facts.windows.driver_version, "Adrenalin ")):
            if fact.is_known:
                return f"{label}{fact.value}"
        return "in-tree or not reported" if facts.driver.amdgpu_loaded.is_known and facts.driver.amdgpu_loaded.value else "not reported"
    if area == "ROCm":
        return str(facts.rocm.version.value) if facts.rocm.version.is_known else "not installed system-wide"
    if facts.torch.version.is_known:
        flavour = f", {facts.torch.flavour.value} build" if facts.torch.flavour.is_known else ""
        return f"{facts.torch.version.value}{flavour}"
    return "not installed"


def overview(result: CheckResult) -> List[str]:
    """One line per area (GPU and gfx, driver, ROCm, torch build), each ✓ / ! / ✗ by its worst finding."""
    lines = []
    for area, categories in OVERVIEW:
        worst = max((SEVERITY_RANK[f.severity] for f in result.findings if f.category in categories and f.severity != "info"), default=0)
        marker = {0: OK_MARKER, 1: MARKERS["warning"], 2: MARKERS["error"]}[worst]
        lines.append(f"  {marker} {area}: {escape(_area_value(result, area))}")
    return lines


SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


def _info_hint(result: CheckResult) -> str:
    """Where the info findings are, when ``-v`` is not given: platform notes above, the rest with ``-v``."""
    infos = [p.finding for p in result.problems if p.finding.severity == "info"]
    notes = sum(1 for finding in infos if is_platform_note(finding))
    if not notes:
        return " (shown with -v)"
    if notes == len(infos):
        return f" ({_plural(notes, 'platform note')} above; -v explains them)"
    return f" ({_plural(notes, 'platform note')} above; {len(infos) - notes} more with -v)"


def _summary(result: CheckResult, shown_info: bool) -> str:
    counts = result.shown_summary  # what is shown: per-GPU findings that read the same are one entry
    parts = []
    for severity in ("error", "warning", "info"):
        count = getattr(counts, severity)
        if count:
            hidden = _info_hint(result) if severity == "info" and not shown_info else ""
            parts.append(f"{MARKERS[severity]} {_plural(count, severity)}{hidden}")
    checked = f"{result.rules_evaluated} rules checked"
    if result.crashes:
        checked += f", {len(result.crashes)} crashed"
    if result.undecided:
        checked += f", {len(result.undecided)} undecided" + ("" if shown_info else " (-v lists them)")
    if result.crashes and not counts.error and not counts.warning:
        return f"[bold red]✗[/] {len(result.crashes)} check(s) crashed, so the result is incomplete ({checked})."
    if not counts.error and not counts.warning:
        head = f"{OK_MARKER} No problems found" + (f"; {parts[0]}" if parts else "")
        return f"{head} ({checked})."
    return f"{', '.join(parts)} ({checked})."


def header_line(tool_version: str, database: Dict[str, str]) -> str:
    """Which rocm-doctor and which rule database judged: two reports differ by these first."""
    release = f" (release {database['release']}, {database.get('origin', 'shipped')})" if database.get("release") else ""
    return f"rocm-doctor {tool_version} · rule database {database['version']}{release}, data checked {database['checked']}"


def render_check(result: CheckResult, console: Console, verbose: bool = False, database: Optional[Dict[str, str]] = None) -> None:
    """Print a check result for people; ``database`` (``rule_database_info()``) makes the header line."""
    if database is not None:
        console.print(Text(header_line(result.tool_version, database), style="dim"), soft_wrap=True)
    for line in _no_amd_gpu_lines(result):
        if line:
            console.print(escape(line))
    if result.plan is not None:
        target = result.plan.target
        from rocm_doctor.render.remedy import wrap

        text = f"Target: {target.python} ({target.python_why}); commands for {target.shell} ({target.shell_why})."
        for line in wrap(text, max(console.width, 40), "", "  "):
            console.print(Text(line, style="dim"), soft_wrap=True)
    by_area: Dict[str, List[Problem]] = {}
    for problem in result.problems:  # worst first, so the worst area comes first
        if verbose or problem.finding.severity != "info" or is_platform_note(problem.finding) or is_change_note(problem.finding):
            by_area.setdefault(problem.finding.area, []).append(problem)
    for area, problems in by_area.items():
        console.print()
        console.print(f"[bold underline]{escape(area)}[/]")
        for problem in problems:
            if verbose or problem.finding.severity != "info":
                _print_finding(console, problem.finding, result.facts, problem.gpus, verbose)
            else:
                _print_note(console, problem.finding, result.facts, problem.gpus)
    _print_crashes(console, result)
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
    for line in overview(result):
        console.print(line)
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
    console.print(f"[bold]{escape(readable(rule.title))}[/]")
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
    _print_indented(console, f"message: {readable(rule.message)}", "  ")
    console.print()
    console.print("[bold]Why it matters[/]")
    console.print(Text(reflow(rule.explanation)))
    if rule.fixes:
        console.print()
        console.print("[bold]Fixes[/]")
        _print_fixes(console, rule.fixes, templates=True)
    console.print()
    console.print("[bold]References[/]")
    for ref in rule.references:
        console.print(f"  {escape(ref.url)}" + (f" ({escape(ref.title)})" if ref.title else ""))
    if rule.source_file:
        console.print()
        console.print(f"[dim]defined in {escape(rule.source_file)}:{rule.source_line}[/]")
