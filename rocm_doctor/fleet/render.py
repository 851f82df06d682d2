"""The fleet report as the ``rocm-doctor/fleet/1`` JSON document, console text or markdown.

Node lists of the majority are never printed (ten thousand names help nobody); minority
lists are shortened to :data:`SHOWN` names on the console and in markdown, and are complete
in JSON.
"""

from __future__ import annotations

import textwrap
from typing import Any, Dict, List, Sequence

from rich.console import Console
from rich.text import Text

from rocm_doctor import __version__
from rocm_doctor.fleet.aggregate import Dimension, FleetReport
from rocm_doctor.render.safe import escape_line

SCHEMA = "rocm-doctor/fleet/1"
SHOWN = 8


def names(nodes: Sequence[str], limit: int = SHOWN) -> str:
    """``a, b, c`` or ``a, b, ... and 12 more``."""
    if len(nodes) <= limit:
        return ", ".join(nodes)
    return ", ".join(nodes[:limit]) + f" ... and {len(nodes) - limit} more"


def _dimension_doc(dimension: Dimension) -> Dict[str, Any]:
    return {
        "dimension": dimension.name,
        "majority": dimension.majority,
        "values": [
            {"value": v.value, "count": v.count, **({} if v.value == dimension.majority else {"nodes": v.nodes})}
            for v in dimension.values
        ],
    }


def document(report: FleetReport, fail_on: str, seconds: float) -> Dict[str, Any]:
    """The versioned JSON document."""
    return {
        "schema": SCHEMA,
        "tool_version": __version__,
        "nodes": report.nodes,
        "files": report.files,
        "verdict": report.verdict,
        "exit_code": report.exit_code(fail_on),
        "skipped": [{"file": s.file, "reason": s.reason} for s in report.skipped],
        "odd_nodes": [{"node": node, "reasons": reasons} for node, reasons in report.odd_nodes.items()],
        "stack": [_dimension_doc(d) for d in report.stack],
        "devices": [_dimension_doc(d) for d in report.devices],
        "findings": [
            {"id": r.id, "action": r.action, "severity": r.severity, "title": r.title, "count": len(r.nodes), "nodes": r.nodes}
            for r in report.findings
        ],
        "outliers": [
            {
                "node": o.node, "model": o.model, "test": o.test, "metric": o.metric, "unit": o.unit,
                "value": o.value, "median": o.median, "mad": o.mad, "ratio": round(o.ratio, 4), "peers": o.peers,
            }
            for o in report.outliers
        ],
        "seconds": round(seconds, 3),
    }


def _dimension_lines(dimension: Dimension) -> List[str]:
    if len(dimension.values) == 1:
        return [f"{dimension.name}: all {dimension.total} nodes run {dimension.values[0].value}"]
    if dimension.majority is None:
        parts = "; ".join(f"{v.count} run {v.value} ({names(v.nodes)})" for v in dimension.values)
        return [f"{dimension.name}: split, no majority: {parts}"]
    return [f"{dimension.sentence(v)}: {names(v.nodes)}" for v in dimension.odd]


def _lines(report: FleetReport) -> Dict[str, List[str]]:
    """The report's sections as plain lines (shared by console and markdown)."""
    sections: Dict[str, List[str]] = {}
    sections["Odd nodes out"] = [f"{node}: {'; '.join(why)}" for node, why in report.odd_nodes.items()]
    sections["Stack"] = [line for d in report.stack for line in _dimension_lines(d)]
    sections["GPU layout"] = [line for d in report.devices for line in _dimension_lines(d)]
    sections["Findings, most severe first"] = [
        f"{r.id} {r.action} ({r.severity}) on {len(r.nodes)} node(s): {r.title}: {names(r.nodes)}" for r in report.findings
    ]
    sections["Benchmark outliers (median and MAD of the same GPU model)"] = [
        f"{o.node}: {o.model} {o.test} {o.metric} {o.value:.4g} {o.unit}, {o.ratio:.0%} of the median {o.median:.4g} "
        f"of {o.peers} nodes (MAD {o.mad:.3g})"
        for o in report.outliers
    ]
    sections["Skipped files"] = [f"{s.file}: {s.reason}" for s in report.skipped]
    return sections


def headline(report: FleetReport, fail_on: str) -> str:
    return f"{report.nodes} nodes from {report.files} files; verdict {report.verdict} (exit {report.exit_code(fail_on)})"


def _wrap(text: str, width: int, first: str, rest: str) -> List[str]:
    """Whole words per line (node names and versions are never broken), the rest indented by ``rest``."""
    return textwrap.wrap(text, width=width, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False) or [first.rstrip()]


def render_console(report: FleetReport, console: Console, fail_on: str) -> None:
    """The report wrapped to the console's width (``COLUMNS`` when piped), each entry with a hanging indent."""
    width = max(console.width, 40)
    for part in _wrap(escape_line(headline(report, fail_on)), width, "", "  "):
        console.print(Text(part, style="bold"), soft_wrap=True)
    for title, lines in _lines(report).items():
        if not lines:
            continue
        console.print()
        console.print(f"[bold]{title}[/]")
        for line in lines:
            # Node names are file names and values come from node documents: one item, one line.
            for part in _wrap(escape_line(line), width, "  ", "      "):
                console.print(Text(part), soft_wrap=True)


def _markdown_text(line: str) -> str:
    """Node names and values are data: keep markdown from reading ``*``, ``_`` or ``|`` in them, and a new
    line in a file name from starting an item of its own."""
    for char in ("\\", "*", "_", "|", "`", "<"):
        line = line.replace(char, "\\" + char)
    return escape_line(line)


def render_markdown(report: FleetReport, fail_on: str) -> str:
    out = ["# rocm-doctor fleet report", "", headline(report, fail_on)]
    for title, lines in _lines(report).items():
        if lines:
            out += ["", f"## {title}", ""] + ["- " + _markdown_text(line) for line in lines]
    return "\n".join(out) + "\n"
