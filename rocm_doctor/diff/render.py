"""``diff`` as text: console lines and a Markdown section (reports and pastes reuse it)."""

from __future__ import annotations

from typing import List

from rocm_doctor.diff.model import GROUPS, NOT_SEEN, Change, DiffResult, FindingRef

NO_CHANGE = "no change"


def _value(text: "str | None") -> str:
    return "(absent)" if text is None else text


def change_line(change: Change) -> str:
    """``torch: 2.5.1+rocm6.2 -> 2.6.0+rocm6.2`` (``added``/``removed`` when one side is absent)."""
    if change.before is None:
        return f"{change.what}: added {change.after}"
    if change.after is None:
        return f"{change.what}: removed (was {change.before})"
    return f"{change.what}: {change.before} -> {change.after}"


def _finding(f: FindingRef) -> str:
    gpu = f" (GPU {f.gpu})" if f.gpu is not None else ""
    return f"{f.id} [{f.severity}] {f.title}{gpu}"


def diff_lines(result: DiffResult, before: str, after: str) -> List[str]:
    """The console text: what changed from ``before`` to ``after``, most likely cause first."""
    lines = [f"What changed from {before} to {after}:"]
    if result.is_empty:
        lines.append(f"  {NO_CHANGE}")
    matched = [m for c in result.changes for m in c.regressions]
    if matched:
        lines.append("")
        lines.append("Known regression:" if len(matched) == 1 else "Known regressions:")
        lines += [f"  {m.text}" for m in matched]
    if result.changes:
        lines.append("")
        lines.append("Changes, most likely cause first:")
        for number, change in enumerate(result.changes, 1):
            tag = "  <- known regression" if change.regressions else ""
            lines.append(f"  {number}. [{change.group}] {change_line(change)}{tag}")
    if result.appeared or result.disappeared:
        lines.append("")
        lines += ["Findings that appeared:"] * bool(result.appeared) + [f"  + {_finding(f)}" for f in result.appeared]
        lines += ["Findings that disappeared:"] * bool(result.disappeared) + [f"  - {_finding(f)}" for f in result.disappeared]
    if result.bench:
        lines.append("")
        lines.append("Benchmark figures below the earlier runs beyond their noise (median/MAD, as fleet):")
        for drop in result.bench:
            lines.append(
                f"  {drop.test} {drop.metric}: {drop.value:.4g} {drop.unit} = {drop.ratio:.0%} of the median "
                f"{drop.median:.4g} of {drop.runs} earlier runs"
            )
    notes = [n for n in (result.bench_note,) if n]
    if result.not_compared:
        notes.append("not compared, known on one side only: " + "; ".join(result.not_compared))
    notes.append(NOT_SEEN)
    lines.append("")
    lines += [f"Note: {n}" for n in notes]
    return lines


def diff_markdown(result: DiffResult, before: str, after: str) -> str:
    """A ``## What changed`` section."""
    out = [f"## What changed ({before} -> {after})", ""]
    if result.is_empty:
        out += [f"{NO_CHANGE.capitalize()}.", ""]
    for match in (m for c in result.changes for m in c.regressions):
        out += [f"> **Known regression:** {match.text}", ""]
    for group in GROUPS:
        rows = [c for c in result.changes if c.group == group]
        if rows:
            out += [f"**{group}**", ""] + [f"- {change_line(c)}" for c in rows] + [""]
    if result.appeared:
        out += ["**findings that appeared**", ""] + [f"- {_finding(f)}" for f in result.appeared] + [""]
    if result.disappeared:
        out += ["**findings that disappeared**", ""] + [f"- {_finding(f)}" for f in result.disappeared] + [""]
    if result.bench:
        out += ["**benchmark figures below their noise**", ""]
        out += [f"- {d.test} {d.metric}: {d.value:.4g} {d.unit} ({d.ratio:.0%} of the median of {d.runs} runs)" for d in result.bench]
        out.append("")
    notes = [n for n in (result.bench_note,) if n] + (
        ["not compared (known on one side only): " + "; ".join(result.not_compared)] if result.not_compared else []
    ) + [NOT_SEEN]
    out += [f"_Note: {n}._" for n in notes] + [""]
    return "\n".join(out)
