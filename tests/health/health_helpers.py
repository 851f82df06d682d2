"""Facts files for the health tests: a healthy node, and one whose GPU returned zeros (RD600, isolate)."""

from __future__ import annotations

from pathlib import Path

from fleet_gen import FIGURES, bench_run, node_facts


def healthy_facts_file(folder: Path) -> Path:
    """A healthy ROCm 7.2 node with a quick benchmark that passed."""
    path = folder / "healthy.json"
    path.write_text(node_facts(bench=bench_run(dict(FIGURES))).to_json(), encoding="utf-8")
    return path


def zeros_facts_file(folder: Path) -> Path:
    """The same node, but host-to-device copies came back as zeros: an injected ``isolate`` fault."""
    path = folder / "zeros.json"
    path.write_text(node_facts(bench=bench_run(dict(FIGURES), copy_status="wrong")).to_json(), encoding="utf-8")
    return path
