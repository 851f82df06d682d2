"""node_exporter textfile-collector metrics of one health run (``health --prometheus FILE``).

Published: the verdict and its exit code, findings by rule, severity and action class, the
stack versions as an info metric, and the benchmark figures of ``--bench``. Not published:
what AMD's Device Metrics Exporter already does (temperatures, power, clocks, utilisation,
ECC counters). The file is written to a temporary name in the same folder and renamed, so
node_exporter never reads half a file (it reads only ``*.prom``).

Format: the Prometheus text exposition format 0.0.4
(https://prometheus.io/docs/instrumenting/exposition_formats/); the textfile collector is
https://github.com/prometheus/node_exporter#textfile-collector.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

from rocm_doctor.files import update_file
from rocm_doctor.health.verdict import EXIT_CODES, VERDICTS, Verdict
from rocm_doctor.model.rules import ACTIONS, SEVERITY_ORDER
from rocm_doctor.judge.report import CheckResult
from rocm_doctor.stack import bench_tests, devices_of, headline_figures, known_value, stack_of

PREFIX = "rocm_doctor"

_FIGURE_METRICS: Dict[str, Tuple[str, str, float]] = {
    "TFLOP/s": ("bench_gemm_flops_per_second", "dtype", 1e12),
    "GB/s": ("bench_bandwidth_bytes_per_second", "kind", 1e9),
}
"""Unit of a headline figure -> (metric, label name, factor): base units, as Prometheus naming asks."""

_HELP = {
    "health_verdict": ("gauge", "1 for the verdict of the last health run (ok, monitor, config, unknown, triage, isolate, reset)."),
    "health_exit_code": ("gauge", "Exit code of the last health run (0 ok, 10 monitor ... 15 reset)."),
    "health_last_run_timestamp_seconds": ("gauge", "Unix time the last health run finished."),
    "health_duration_seconds": ("gauge", "Seconds the last health run took."),
    "health_incomplete": ("gauge", "1 for each part that did not finish within the budget or crashed."),
    "rules_evaluated": ("gauge", "Rules evaluated in the last health run."),
    "rules_undecided": ("gauge", "Rule evaluations left undecided because a fact was unknown."),
    "finding": ("gauge", "1 for each finding of the last health run."),
    "findings": ("gauge", "Findings of the last health run by severity and action class."),
    "stack_info": ("gauge", "The software stack of this node (value is always 1)."),
    "bench_test_status": ("gauge", "1 for the status of each benchmark test of the last run."),
    "bench_gemm_flops_per_second": ("gauge", "Measured GEMM throughput of the benchmarked GPU."),
    "bench_bandwidth_bytes_per_second": ("gauge", "Measured copy bandwidth of the benchmarked GPU."),
}


def _escape(value: Any) -> str:
    """A label value as the text format wants it: backslash, double quote and newline escaped."""
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


class _Lines:
    """Metric families in order, each with its HELP and TYPE once."""

    def __init__(self) -> None:
        self.lines: List[str] = []
        self._seen: set = set()

    def add(self, name: str, value: float, labels: Optional[Mapping[str, Any]] = None) -> None:
        full = f"{PREFIX}_{name}"
        if name not in self._seen:
            kind, text = _HELP[name]
            self.lines += [f"# HELP {full} {text}", f"# TYPE {full} {kind}"]
            self._seen.add(name)
        body = ",".join(f'{k}="{_escape(v)}"' for k, v in (labels or {}).items())
        number = repr(float(value)) if isinstance(value, float) else str(int(value))
        self.lines.append(f"{full}{{{body}}} {number}" if body else f"{full} {number}")


def metrics_text(result: CheckResult, verdict: Verdict, seconds: float, finished_at: float) -> str:
    """The textfile for one health run."""
    facts = result.facts.model_dump(mode="json")
    out = _Lines()
    for name in VERDICTS:
        out.add("health_verdict", 1 if name == verdict.verdict else 0, {"verdict": name})
    out.add("health_exit_code", EXIT_CODES[verdict.verdict])
    out.add("health_last_run_timestamp_seconds", round(finished_at, 3))
    out.add("health_duration_seconds", round(seconds, 3))
    for part in verdict.incomplete.parts:
        out.add("health_incomplete", 1, {"part": part})
    out.add("rules_evaluated", result.rules_evaluated)
    out.add("rules_undecided", len(result.undecided))
    for finding in verdict.findings:
        labels = {"rule": finding.id, "name": finding.name, "severity": finding.severity, "action": finding.action}
        labels["gpu"] = "" if finding.gpu is None else finding.gpu
        out.add("finding", 1, labels)
    for severity in sorted(SEVERITY_ORDER, key=SEVERITY_ORDER.get, reverse=True):
        for action in ACTIONS:
            count = sum(1 for f in verdict.findings if f.severity == severity and f.action == action)
            out.add("findings", count, {"severity": severity, "action": action})
    out.add("stack_info", 1, {**stack_of(facts), **devices_of(facts)})
    device = {"device": known_value(facts, "bench.device_name") or "", "gfx": known_value(facts, "bench.gfx") or ""}
    for test, outcome in sorted(bench_tests(facts).items()):
        out.add("bench_test_status", 1, {"test": test, "status": outcome.get("status", "")})
    for figure in headline_figures(facts):
        name, label, factor = _FIGURE_METRICS[figure.unit]
        out.add(name, figure.value * factor, {**device, label: figure.label})
    return "\n".join(out.lines) + "\n"


def write_textfile(path: Path, text: str) -> None:
    """Write the metrics atomically (temp file + rename in the same folder), no backup: each run replaces the last."""
    update_file(path, lambda _old: text, backup=False)
