"""``rocm-doctor diff [BEFORE] [AFTER]``: what changed since a baseline, and which change matches a known regression."""

from __future__ import annotations

import enum
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Sequence

import typer

from rocm_doctor.cli.app import app, stdout_console
from rocm_doctor.cli.inputs import RULES_OPTION, FactsSource, gathering_options, load_facts
from rocm_doctor.diff.model import FindingRef
from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts
from rocm_doctor.model.rules import Rule

EXIT_CHANGED = 1


class Format(str, enum.Enum):
    console = "console"
    markdown = "markdown"


@dataclass(frozen=True)
class State:
    """One side of a comparison."""

    label: str
    facts: Facts
    findings: List[FindingRef] = field(default_factory=list)
    saved_at: Optional[str] = None
    rule_database: Optional[str] = None


_PACKAGE_PATH = re.compile(r"packages\.installed\.([A-Za-z0-9][A-Za-z0-9_.-]*)")


def rule_packages(rules: Sequence[Rule]) -> List[str]:
    """Package names the rules read (``packages.installed.<name>``): part of the Python stack."""
    names = set()
    for rule in rules:
        names.update(_PACKAGE_PATH.findall(rule.model_dump_json()))
    return sorted(names)


def refs(findings: Sequence[object]) -> List[FindingRef]:
    return [FindingRef(id=f.id, severity=f.severity, title=f.title, gpu=f.gpu) for f in findings]  # type: ignore[attr-defined]


def _judged(rules: Sequence[Rule], facts: Facts) -> List[FindingRef]:
    from rocm_doctor.pipeline import evaluate

    return refs(evaluate(list(rules), facts).findings)


def state_of(reference: str, rules: Sequence[Rule]) -> State:
    """A baseline by name, or a file: a baseline file, a facts document (``facts --json``), ``check --json``,
    or a pasted report (any other text, read as ``check --from`` reads it)."""
    from rocm_doctor.baseline.store import load, name_problem, read_file

    if name_problem(reference) is None and not Path(reference).is_file():
        b = load(reference)
        return State(b.name, b.facts, refs(b.findings), b.saved_at, b.rule_database)
    path = Path(reference)
    if not path.is_file():
        raise InputError(f"{reference}: neither a saved baseline nor a file")
    from rocm_doctor import bounded_json
    from rocm_doctor.files import read_limited
    from rocm_doctor.limits import BASELINE_BYTES

    head = read_limited(path, BASELINE_BYTES)[:4096].lstrip()
    if not head.startswith(b"{"):
        # A pasted report (the state before, as the user pasted it): read like `check --from`.
        from rocm_doctor.cli.inputs import ingest_paste

        facts = ingest_paste(str(path)).facts
        return State(str(path), facts, _judged(rules, facts))
    try:
        data = bounded_json.loads(read_limited(path, BASELINE_BYTES).decode("utf-8"))
    except (ValueError, bounded_json.JsonLimitError) as exc:
        raise InputError(f"{path}: not a baseline, facts or check document ({exc})") from None
    if isinstance(data, dict) and data.get("schema") == "rocm-doctor/baseline/1":
        b = read_file(path)
        return State(str(path), b.facts, refs(b.findings), b.saved_at, b.rule_database)
    if isinstance(data, dict) and data.get("schema") == "rocm-doctor/check/1" and isinstance(data.get("facts"), dict):
        data = data["facts"]
    try:
        facts = Facts.from_dict(data)
    except ValueError as exc:
        raise InputError(f"{path}: {exc}") from None
    return State(str(path), facts, _judged(rules, facts))


def _source_label(source: FactsSource) -> str:
    for value in (source.machine, source.facts_file, source.from_file):
        if value is not None:
            return str(value)
    return "this machine"


def bench_history(before: State) -> List[list]:
    """The figures of ``before`` and of every stored baseline of the same benchmarked GPU."""
    from rocm_doctor.baseline.store import list_all
    from rocm_doctor.stack import headline_figures

    mine = headline_figures(before.facts.model_dump(mode="json"))
    if not mine:
        return []
    device = before.facts.bench.device_name.value
    runs = [mine]
    stored, _ = list_all()
    for item in stored:
        b = item.baseline
        if b is None or b.saved_at == before.saved_at or b.facts.bench.device_name.value != device:
            continue
        figures = headline_figures(b.facts.model_dump(mode="json"))
        if figures:
            runs.append(figures)
    return runs


def compare_states(before: State, after: State, rules: Sequence[Rule]):  # type: ignore[no-untyped-def]
    """The diff of two states, both redacted the same way (a baseline is stored redacted)."""
    from rocm_doctor.baseline.redaction import redact_facts
    from rocm_doctor.diff.compare import diff

    return diff(
        redact_facts(before.facts), redact_facts(after.facts), before.findings, after.findings,
        bench_history(before), rule_packages(rules),
    )


def _earlier_hint(before: Optional[str], story: object, empty: bool) -> List[str]:
    """Nothing changed since last-good, which `check` may have saved after the update: name the earlier good states."""
    from rocm_doctor.diff.last_good import EARLIER
    from rocm_doctor.baseline.store import list_all

    if before is not None or story is not None or not empty:
        return []
    earlier = [item.name for item in list_all()[0] if item.name.startswith(EARLIER)][:3]
    if not earlier:
        return []
    return [f"Note: last-good is the latest good state; earlier ones: {', '.join(earlier)} (`rocm-doctor diff {earlier[0]}`)."]


@app.command("diff")
@gathering_options
def diff_command(
    before: Optional[str] = typer.Argument(
        None, metavar="[BEFORE]",
        help="A baseline's name, or a baseline, facts or check JSON file, or a pasted report (default: last-good; "
        "with --from, a paste holding two states compares its first with its last).",
    ),
    after: Optional[str] = typer.Argument(None, metavar="[AFTER]", help="Compare with this baseline or file instead of the machine."),
    json_output: bool = typer.Option(False, "--json", help="Print the rocm-doctor/diff/1 JSON document."),
    output_format: Format = typer.Option(Format.console, "--format", help="console or markdown."),
    rules: Optional[List[Path]] = RULES_OPTION,
    source: FactsSource = FactsSource(),
) -> None:
    """What changed since a baseline: kernel and driver, ROCm, the Python stack, Python, environment,
    GPUs, benchmark figures beyond their noise, and findings; known regressions first.

    Exit codes: 0 no change, 1 something changed, 2 bad input.
    """
    from rocm_doctor.diff.document import DiffSide, document
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.diff.render import diff_lines, diff_markdown

    loaded = load_rules(rules or [])
    story = None
    if before is None and after is None and source.from_file is not None:
        from rocm_doctor.diff.story import FIRST, LAST, story_of_paste

        story = story_of_paste(source.from_file)
    if story is not None:
        old = State(FIRST, story[0], _judged(loaded, story[0]))
        new = State(LAST, story[1], _judged(loaded, story[1]))
    elif after is not None:
        if not source.is_live or source.python is not None:
            raise InputError("give AFTER or a facts source (--machine, --facts, --from, --python), not both")
        old, new = state_of(before or "last-good", loaded), state_of(after, loaded)
    else:
        old = state_of(before or "last-good", loaded)
        facts = load_facts(source)
        new = State(_source_label(source), facts, _judged(loaded, facts))
    result = compare_states(old, new, loaded)
    if json_output:
        doc = document(
            result, DiffSide(label=old.label, saved_at=old.saved_at, rule_database=old.rule_database),
            DiffSide(label=new.label, saved_at=new.saved_at, rule_database=new.rule_database),
        )
        sys.stdout.write(json.dumps(doc.model_dump(mode="json", by_alias=True), indent=2) + "\n")
    elif output_format is Format.markdown:
        sys.stdout.write(diff_markdown(result, old.label, new.label))
    else:
        console = stdout_console()
        for line in diff_lines(result, old.label, new.label) + _earlier_hint(before, story, result.is_empty):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    if not result.is_empty:
        raise typer.Exit(EXIT_CHANGED)
