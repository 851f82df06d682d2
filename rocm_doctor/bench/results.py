"""Benchmark results: the classification vocabulary, spec-peak lookup, verdicts, and Facts.

Pure functions over data. The spec peaks, PCIe table, expected bands and thresholds
come from ``rules/data/gpu_peaks.yaml`` (every figure with its public source; rows that rest
on third-party spec tables say so with ``basis: community-report``). A figure above ``plausibility`` x the spec peak (1.05) is an
``invalid`` measurement, never a pass; a figure below its band's ``warn_below`` makes
the test ``slow``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional

from pydantic import ConfigDict

from rocm_doctor.data import load_table
from rocm_doctor.facts.model import BenchFacts
from rocm_doctor.facts.value import known
from rocm_doctor.numbers import small_int

OK, SLOW, WRONG, HANG, CRASH, ERROR, SKIPPED, INVALID = (
    "ok", "slow", "wrong", "hang", "crash", "error", "skipped", "invalid",
)
CLASSIFICATIONS = (OK, SLOW, WRONG, HANG, CRASH, ERROR, SKIPPED, INVALID)
FAILING = (WRONG, HANG, CRASH)
"""Classifications that make ``rocm-doctor bench`` exit nonzero."""

PEAKS_TABLE = "gpu_peaks"
BENCH_SCHEMA = "rocm-doctor/bench/1"
"""The ``bench --json`` document's schema."""
_HALF = ("fp16", "bf16")


@dataclass
class Figure:
    """One measured figure next to the spec peak and its expected band."""

    # Strict wherever it is validated or described: without this, the JSON Schema of a plain dataclass
    # took the extra-keys policy of whichever pydantic model described it first (import order).
    __pydantic_config__ = ConfigDict(extra="forbid")

    test: str
    metric: str
    value: float
    unit: str
    spec_peak: Optional[float] = None
    fraction: Optional[float] = None
    band: Optional[str] = None
    verdict: str = OK
    note: Optional[str] = None


@dataclass
class TestResult:
    """The classified outcome of one test."""

    __test__ = False  # not a pytest test class, despite the name

    name: str
    status: str
    step: Optional[str] = None
    """The step that failed, or that started last before a hang or crash."""
    reason: Optional[str] = None
    metrics: Dict[str, Any] = field(default_factory=dict)
    steps: List[Dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    signal: Optional[str] = None
    exit_code: Optional[int] = None
    stderr_tail: Optional[str] = None
    figures: List[Figure] = field(default_factory=list)


@dataclass
class BenchRun:
    """Everything one ``bench`` run produced."""

    level: str
    device: str
    python: str
    info: Dict[str, Any] = field(default_factory=dict)
    """The worker's ``hello`` line: device name, gfx target, torch/HIP versions, PCIe link."""
    tests: Dict[str, TestResult] = field(default_factory=dict)
    seconds: float = 0.0
    workers: int = 0
    noise: List[str] = field(default_factory=list)
    """Lines on the protocol stream that were not trusted protocol records (``bench.max_noise_lines`` kept)."""
    noise_dropped: int = 0
    """Noise lines beyond ``bench.max_noise_lines``, counted and dropped."""
    spec: Optional["SpecPeak"] = None
    python_why: Optional[str] = None
    """Why ``python`` is the target (``--python``, the active virtual environment, ...), when the CLI chose it."""

    @property
    def failing(self) -> List[TestResult]:
        return [t for t in self.tests.values() if t.status in FAILING]

    @property
    def ran(self) -> List[TestResult]:
        """Tests that ran to a measurement or a failure (not skipped, not an error before they could run)."""
        return [t for t in self.tests.values() if t.status not in (SKIPPED, ERROR)]

    @property
    def failed(self) -> bool:
        """The run failed: a test was wrong, hung or crashed, or no test ran at all."""
        return bool(self.failing) or not self.ran


@dataclass(frozen=True)
class SpecPeak:
    """One row of ``gpu_peaks.yaml``."""

    # Strict wherever it is validated or described: without this, the JSON Schema of a plain dataclass
    # took the extra-keys policy of whichever pydantic model described it first (import order).
    __pydantic_config__ = ConfigDict(extra="forbid")

    product: str
    gfx: Optional[str]
    klass: str
    fp32_tflops: Optional[float] = None
    fp16_tflops: Optional[float] = None
    bf16_tflops: Optional[float] = None
    mem_bw_gbs: Optional[float] = None
    pcie_gen: Optional[int] = None
    pcie_width: Optional[int] = None
    integrated: bool = False
    source: str = ""

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> "SpecPeak":
        pcie = row.get("pcie") or {}
        return cls(
            product=row["product"],
            gfx=row.get("gfx"),
            klass=row["class"],
            fp32_tflops=row.get("fp32_tflops"),
            fp16_tflops=row.get("fp16_tflops"),
            bf16_tflops=row.get("bf16_tflops"),
            mem_bw_gbs=row.get("mem_bw_gbs"),
            pcie_gen=pcie.get("gen"),
            pcie_width=pcie.get("width"),
            integrated=bool(row.get("integrated", False)),
            source=row.get("source", ""),
        )


def _whole_word(pattern: str, name: str) -> bool:
    return re.search(r"(?<![A-Za-z0-9])" + re.escape(pattern) + r"(?![A-Za-z0-9])", name, re.IGNORECASE) is not None


def lookup_peak(
    gfx: Optional[str], name: Optional[str], compute_units: Optional[int] = None, table: Optional[Mapping] = None
) -> Optional[SpecPeak]:
    """The spec row for a device: gfx target plus product name (longest pattern first), else a unique CU count."""
    table = table if table is not None else load_table(PEAKS_TABLE)
    gfx = (gfx or "").split(":")[0].lower()
    rows = [r for r in table.get("gpus", []) if (r.get("gfx") or "").lower() == gfx]
    candidates = []
    for row in rows:
        for pattern in row.get("match", []):
            if name and _whole_word(pattern, name) and not any(_whole_word(x, name) for x in row.get("not_match", [])):
                candidates.append((len(pattern), row))
    if candidates:
        return SpecPeak.from_row(max(candidates, key=lambda c: c[0])[1])
    by_cus = [r for r in rows if compute_units is not None and r.get("compute_units") == compute_units]
    return SpecPeak.from_row(by_cus[0]) if len(by_cus) == 1 else None


def link_gbs(speed: Optional[str], width: Optional[str], table: Optional[Mapping] = None) -> Optional[float]:
    """Per-direction theoretical GB/s of a PCIe link from sysfs strings (``16.0 GT/s PCIe``, ``16``)."""
    table = table if table is not None else load_table(PEAKS_TABLE)
    match = re.match(r"\s*([0-9.]+)\s*GT/s", speed or "")
    lanes = small_int(width or "")
    if not match or lanes is None or lanes < 0:
        return None
    gts = float(match.group(1))
    for row in table.get("pcie_x16_gbs", []):
        if abs(row["gts"] - gts) < 0.5:
            return row["gbs"] * lanes / 16
    return None


def _verdict(value: float, peak: Optional[float], band: Optional[Mapping], plausibility: float) -> tuple:
    """(fraction, band text, verdict) for one figure."""
    if not peak:
        return None, None, OK
    fraction = value / peak
    good = (band or {}).get("good")
    text = f"{good[0]:.0%}-{good[1]:.0%}" if good else "info only"
    if fraction > plausibility:
        return fraction, text, INVALID
    warn = (band or {}).get("warn_below")
    if warn is not None and fraction < warn:
        return fraction, text, SLOW
    return fraction, text, OK


def figures_for(
    result: TestResult, info: Mapping[str, Any], spec: Optional[SpecPeak], table: Optional[Mapping] = None
) -> List[Figure]:
    """The figures of one test next to the spec peak, with a verdict each."""
    table = table if table is not None else load_table(PEAKS_TABLE)
    plaus = float(table.get("thresholds", {}).get("plausibility", 1.05))
    metrics = result.metrics
    out: List[Figure] = []
    if result.name == "gemm":
        bands = table.get("gemm_bands", {}).get(spec.klass, {}) if spec else {}
        for label in ("fp32", "fp16", "bf16"):
            value = metrics.get(f"{label}_tflops")
            if value is None:
                continue
            peak = getattr(spec, f"{label}_tflops") if spec else None
            band = bands.get("half" if label in _HALF else "fp32")
            fraction, text, verdict = _verdict(value, peak, band, plaus)
            notes = []
            window = metrics.get(f"{label}_window_seconds")
            if window is not None:
                notes.append(f"sustained over {window:.3g} s (median of {metrics.get(f'{label}_trials', '?')} timings)")
            if spec is not None and peak is None:
                notes.append(f"{spec.product} has no {label} hardware units: info only")
            note = "; ".join(notes) or None
            out.append(Figure("gemm", f"{label}_tflops", value, "TFLOP/s", peak, fraction, text, verdict, note))
    elif result.name == "bandwidth":
        out.extend(_bandwidth_figures(metrics, info, spec, table, plaus))
    elif result.name == "init":
        limit = float(table.get("thresholds", {}).get("first_gemm_seconds", 15))
        value = metrics.get("first_gemm_seconds")
        if value is not None:
            verdict = SLOW if value > limit else OK
            out.append(Figure("init", "first_gemm_seconds", value, "s", None, None, f"< {limit:g} s", verdict))
    return out


def _bandwidth_figures(
    metrics: Mapping[str, Any], info: Mapping[str, Any], spec: Optional[SpecPeak], table: Mapping, plaus: float
) -> List[Figure]:
    bands = table.get("copy_bands", {})
    out: List[Figure] = []
    for key in ("d2d_gbs", "triad_gbs"):
        if metrics.get(key) is not None:
            peak = spec.mem_bw_gbs if spec else None
            fraction, text, verdict = _verdict(metrics[key], peak, bands.get("device"), plaus)
            out.append(Figure("bandwidth", key, metrics[key], "GB/s", peak, fraction, text, verdict))
    link = info.get("link") or {}
    negotiated = link_gbs(link.get("current_link_speed"), link.get("current_link_width"), table)
    if negotiated is None and spec is not None and spec.pcie_gen:
        rows = {r["gen"]: r["gbs"] for r in table.get("pcie_x16_gbs", [])}
        negotiated = rows.get(spec.pcie_gen, 0) * (spec.pcie_width or 16) / 16 or None
    integrated = bool(spec and spec.integrated)
    pageable = bands.get("pageable", {})
    for direction in ("h2d", "d2h"):
        pinned = metrics.get(f"{direction}_pinned_gbs")
        if pinned is not None:
            peak = None if integrated else negotiated
            fraction, text, verdict = _verdict(pinned, peak, bands.get("pinned_link"), plaus)
            note = "unified memory: no PCIe hop" if integrated else None
            out.append(Figure("bandwidth", f"{direction}_pinned_gbs", pinned, "GB/s", peak, fraction, text, verdict, note))
        value = metrics.get(f"{direction}_pageable_gbs")
        if value is not None:
            low = value < float(pageable.get("min_gbs", 2.0)) or (
                pinned is not None and value < float(pageable.get("min_fraction_of_pinned", 0.15)) * pinned
            )
            out.append(
                Figure("bandwidth", f"{direction}_pageable_gbs", value, "GB/s", None, None, "info",
                       SLOW if low and not integrated else OK)
            )
    return out


def apply_verdicts(result: TestResult, info: Mapping[str, Any], spec: Optional[SpecPeak], table: Optional[Mapping] = None) -> None:
    """Attach figures to an ``ok`` test and downgrade it to ``invalid`` or ``slow`` when a figure says so."""
    if result.status != OK:
        return
    result.figures = figures_for(result, info, spec, table)
    verdicts = {f.verdict for f in result.figures}
    for verdict in (INVALID, SLOW):
        if verdict in verdicts:
            bad = [f for f in result.figures if f.verdict == verdict]
            result.status = verdict
            result.reason = "; ".join(_describe(f) for f in bad)
            return


def _describe(fig: Figure) -> str:
    if fig.verdict == INVALID:
        return f"{fig.metric} {fig.value:g} {fig.unit} is above the spec peak {fig.spec_peak:g}: invalid measurement"
    if fig.fraction is not None:
        return f"{fig.metric} {fig.value:g} {fig.unit} is {fig.fraction:.0%} of the spec peak {fig.spec_peak:g} (expected {fig.band})"
    return f"{fig.metric} {fig.value:g} {fig.unit} is below the expected {fig.band}"


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) or value is None


def result_dict(result: TestResult) -> Dict[str, Any]:
    """A JSON-friendly view of one test (``--json`` and ``bench.tests``)."""
    out: Dict[str, Any] = {"status": result.status, "seconds": round(result.seconds, 3)}
    for key in ("step", "reason", "signal", "exit_code", "stderr_tail"):
        if getattr(result, key) is not None:
            out[key] = getattr(result, key)
    out["metrics"] = dict(result.metrics)
    out["figures"] = [vars(f).copy() for f in result.figures]
    return out


def run_dict(run: BenchRun) -> Dict[str, Any]:
    """The ``bench --json`` document (schema ``rocm-doctor/bench/1``)."""
    return {
        "schema": BENCH_SCHEMA,
        "level": run.level,
        "device": run.device,
        "python": run.python,
        **({"python_selected_by": run.python_why} if run.python_why else {}),
        "info": run.info,
        "spec": vars(run.spec).copy() if run.spec else None,
        "seconds": round(run.seconds, 3),
        "workers": run.workers,
        "failing": [t.name for t in run.failing],
        "tests": {n: result_dict(r) for n, r in run.tests.items()},
        "noise": run.noise,
        "noise_dropped": run.noise_dropped,
    }


def flat_results(run: BenchRun) -> Dict[str, Any]:
    """``<test>.<key>`` -> scalar, the view rules read as ``bench.results.<test>.<key>``."""
    flat: Dict[str, Any] = {}
    for name, result in run.tests.items():
        flat[f"{name}.status"] = result.status
        for key in ("step", "reason", "signal", "exit_code"):
            if getattr(result, key) is not None:
                flat[f"{name}.{key}"] = getattr(result, key)
        for key, value in result.metrics.items():
            if _scalar(value) and value is not None:
                flat.setdefault(f"{name}.{key}", value)
        for fig in result.figures:
            if fig.fraction is not None:
                flat[f"{name}.{fig.metric}_fraction"] = round(fig.fraction, 4)
    return flat


def bench_facts(run: BenchRun) -> BenchFacts:
    """The ``bench`` section of Facts for one run, so ordinary rules judge it."""
    source = f"rocm-doctor bench --level {run.level} (worker in {run.python})"
    name = run.info.get("name")
    gfx = run.info.get("gcn_arch")
    return BenchFacts(
        level=known(run.level, source),
        device=known(run.device, source),
        device_name=known(name, source) if name else BenchFacts().device_name,
        gfx=known(gfx, source) if gfx else BenchFacts().gfx,
        tests=known({n: result_dict(r) for n, r in run.tests.items()}, source),
        results=known(flat_results(run), source),
    )
