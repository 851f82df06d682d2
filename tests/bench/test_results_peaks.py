"""Spec-peak lookup, verdicts against the bands, exit-code decoding, and the Facts the rules read."""

from __future__ import annotations

import pytest

from rocm_doctor.bench.results import (
    BenchRun,
    Figure,
    TestResult,
    apply_verdicts,
    bench_facts,
    figures_for,
    link_gbs,
    lookup_peak,
)
from rocm_doctor.bench.runner import describe_exit
from rocm_doctor.facts.model import Facts
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules


@pytest.mark.parametrize(
    ("gfx", "name", "product"),
    [
        ("gfx1100", "AMD Radeon RX 7900 XTX", "AMD Radeon RX 7900 XTX"),
        ("gfx1100", "AMD Radeon RX 7900 XT", "AMD Radeon RX 7900 XT"),
        ("gfx942:sramecc+:xnack-", "AMD Instinct MI300X", "AMD Instinct MI300X"),
        ("gfx1201", "AMD Radeon RX 9070", "AMD Radeon RX 9070"),
        ("gfx1201", "AMD Radeon RX 9070 XT", "AMD Radeon RX 9070 XT"),
    ],
)
def test_peak_rows_match_gfx_and_the_whole_product_name(gfx: str, name: str, product: str) -> None:
    assert lookup_peak(gfx, name).product == product


def test_a_name_on_the_wrong_gfx_or_a_sibling_product_finds_no_row() -> None:
    assert lookup_peak("gfx1030", "AMD Radeon RX 7900 XTX") is None
    assert lookup_peak("gfx1102", "AMD Radeon RX 7600 XT") is None  # different clocks, no row
    assert lookup_peak(None, "cpu") is None


def test_an_apu_with_a_generic_name_is_found_by_its_compute_units() -> None:
    spec = lookup_peak("gfx1151", "AMD Radeon Graphics", compute_units=40)
    assert spec.product.startswith("AMD Radeon 8060S") and spec.integrated
    assert lookup_peak("gfx1151", "AMD Radeon Graphics", compute_units=32) is None


def test_every_peak_row_names_its_source() -> None:
    from rocm_doctor.data import load_table

    rows = load_table("gpu_peaks")["gpus"]
    assert rows and all(row.get("source") for row in rows)


def test_negotiated_link_bandwidth_comes_from_the_pcie_table() -> None:
    assert link_gbs("16.0 GT/s PCIe", "16") == 31.5
    assert link_gbs("32.0 GT/s PCIe", "8") == 31.5
    assert link_gbs("Unknown", "16") is None


def _gemm(value: float) -> TestResult:
    return TestResult(name="gemm", status="ok", metrics={"bf16_tflops": value})


def test_a_figure_above_one_point_o_five_times_the_peak_is_invalid_not_a_pass() -> None:
    spec = lookup_peak("gfx1100", "AMD Radeon RX 7900 XTX")
    at_limit = figures_for(_gemm(122.8 * 1.05), {}, spec)[0]
    above = figures_for(_gemm(122.8 * 1.06), {}, spec)[0]
    assert at_limit.verdict == "ok"
    assert above.verdict == "invalid"
    result = _gemm(200.0)
    apply_verdicts(result, {}, spec)
    assert result.status == "invalid"


def test_gemm_fraction_is_judged_against_its_class_band() -> None:
    spec = lookup_peak("gfx1100", "AMD Radeon RX 7900 XTX")
    good = figures_for(_gemm(95.0), {}, spec)[0]
    assert (good.band, good.verdict, round(good.fraction, 2)) == ("70%-86%", "ok", 0.77)
    low = _gemm(40.0)
    apply_verdicts(low, {}, spec)
    assert low.status == "slow" and "33% of the spec peak 122.8" in low.reason


def test_rdna2_bf16_has_no_peak_and_is_info_only() -> None:
    spec = lookup_peak("gfx1030", "AMD Radeon RX 6900 XT")
    fig = figures_for(_gemm(3.1), {}, spec)[0]
    assert (fig.spec_peak, fig.verdict) == (None, "ok")
    assert "no bf16 hardware units" in fig.note


def test_pinned_copies_are_judged_against_the_negotiated_link() -> None:
    spec = lookup_peak("gfx1100", "AMD Radeon RX 7900 XTX")
    info = {"link": {"current_link_speed": "8.0 GT/s PCIe", "current_link_width": "16"}}
    result = TestResult(name="bandwidth", status="ok", metrics={"h2d_pinned_gbs": 13.0, "d2d_gbs": 640.0})
    figs = {f.metric: f for f in figures_for(result, info, spec)}
    assert figs["h2d_pinned_gbs"].spec_peak == 15.75  # the Gen3 link it trained at, not the card's Gen4
    assert figs["d2d_gbs"].band == "65%-90%"


def test_unified_memory_apus_get_no_pcie_fraction() -> None:
    spec = lookup_peak("gfx1151", "AMD Radeon 8060S")
    result = TestResult(name="bandwidth", status="ok", metrics={"h2d_pinned_gbs": 40.0})
    fig = figures_for(result, {}, spec)[0]
    assert fig.spec_peak is None and fig.note == "unified memory: no PCIe hop"


def test_first_gemm_slower_than_the_threshold_is_slow() -> None:
    result = TestResult(name="init", status="ok", metrics={"first_gemm_seconds": 21.0})
    apply_verdicts(result, {}, None)
    assert result.status == "slow"


@pytest.mark.parametrize(
    ("code", "os_name", "expected"),
    [
        (-11, "posix", ("SIGSEGV", "killed by SIGSEGV")),
        (-6, "posix", ("SIGABRT", "killed by SIGABRT")),
        (3, "posix", (None, "exited with status 3")),
        (3221225477, "nt", ("0xC0000005", "died with 0xC0000005 STATUS_ACCESS_VIOLATION (access violation)")),
        (-1073741819, "nt", ("0xC0000005", "died with 0xC0000005 STATUS_ACCESS_VIOLATION (access violation)")),
        (0xC0000409, "nt", ("0xC0000409", "died with 0xC0000409 STATUS_STACK_BUFFER_OVERRUN (fail-fast / abort)")),
        (1, "nt", (None, "exited with status 1")),
    ],
)
def test_exit_codes_name_the_signal_or_the_windows_ntstatus(code: int, os_name: str, expected: tuple) -> None:
    assert describe_exit(code, os_name) == expected


def _run_with(result: TestResult) -> BenchRun:
    run = BenchRun(level="quick", device="cuda", python="/venv/bin/python",
                   info={"name": "AMD Radeon RX 9070 XT", "gcn_arch": "gfx1201"})
    run.tests[result.name] = result
    return run


def test_bench_facts_flatten_results_for_rule_paths() -> None:
    result = TestResult(name="gemm", status="slow", reason="low", metrics={"bf16_tflops": 50.0, "bf16_n": 4096})
    result.figures = [Figure("gemm", "bf16_tflops", 50.0, "TFLOP/s", 194.6, 50.0 / 194.6, "60%-75%", "slow")]
    facts = bench_facts(_run_with(result))
    assert facts.level.value == "quick" and facts.gfx.value == "gfx1201"
    flat = facts.results.value
    assert flat["gemm.status"] == "slow"
    assert flat["gemm.bf16_tflops"] == 50.0
    assert flat["gemm.bf16_tflops_fraction"] == pytest.approx(0.2569, abs=1e-4)
    assert facts.tests.value["gemm"]["figures"][0]["spec_peak"] == 194.6


def test_runtime_rules_fire_on_bench_facts() -> None:
    crash = TestResult(name="copy_integrity", status="crash", step="h2d_4KiB_pageable_sync", signal="0xC0000005",
                       reason="the worker died with 0xC0000005")
    facts = Facts(bench=bench_facts(_run_with(crash)))
    rules = [r for r in load_rules(use_env=False) if r.category == "runtime"]
    fired = {f.id for f in evaluate(rules, facts).findings}
    assert fired == {"RD604"}


def test_bench_facts_survive_a_facts_file_and_check_judges_them(tmp_path) -> None:
    import json
    import subprocess
    import sys

    zeros = TestResult(name="copy_integrity", status="wrong", step="d2h_64MiB_pinned_async",
                       reason="all bytes came back as zeros", metrics={"all_zeros": True, "mismatched": 67108000})
    facts = Facts(bench=bench_facts(_run_with(zeros)))
    assert Facts.from_json(facts.to_json()) == facts
    path = tmp_path / "facts.json"
    path.write_text(facts.to_json(), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rocm_doctor", "check", "--facts", str(path), "--json"],
                          capture_output=True, text=True, timeout=120)
    ids = [f["id"] for f in json.loads(done.stdout)["findings"]]
    assert "RD600" in ids and "RD601" not in ids
    assert done.returncode == 1


def test_the_bands_and_thresholds_name_their_source() -> None:
    from rocm_doctor.data import load_table

    table = load_table("gpu_peaks")
    assert table["gemm_bands"] and table["copy_bands"] and table["thresholds"]
    urls = list(table["bands_source"]) + list(table["thresholds_source"])
    assert urls and all(str(u).startswith("https://") for u in urls)


def test_a_gemm_figure_says_it_is_sustained_over_its_measurement_window() -> None:
    result = TestResult(name="gemm", status="ok",
                        metrics={"bf16_tflops": 95.0, "bf16_n": 8192, "bf16_window_seconds": 1.503, "bf16_trials": 41})
    (fig,) = figures_for(result, {}, lookup_peak("gfx1100", "AMD Radeon RX 7900 XTX"))
    assert fig.note == "sustained over 1.5 s (median of 41 timings)"


def test_on_a_cuda_device_the_device_name_is_not_reported_as_its_gfx() -> None:
    # torch's CUDA builds fill gcnArchName with the device name (seen on an H200).
    from types import SimpleNamespace

    from rocm_doctor.bench.worker import device_arch

    props = SimpleNamespace(name="NVIDIA H200", gcnArchName="NVIDIA H200", major=9, minor=0)
    cuda = SimpleNamespace(version=SimpleNamespace(hip=None, cuda="12.8"))
    assert device_arch(cuda, props) == {"compute_capability": "9.0"}
    rocm = SimpleNamespace(version=SimpleNamespace(hip="7.2.26015", cuda=None))
    mi300 = SimpleNamespace(name="AMD Instinct MI300X", gcnArchName="gfx942:sramecc+:xnack-", major=9, minor=4)
    assert device_arch(rocm, mi300) == {"gcn_arch": "gfx942"}
    assert device_arch(rocm, props) == {}  # a name where a gfx target belongs is left out, not passed on


def test_the_summary_names_a_cuda_device_by_its_compute_capability() -> None:
    from rich.console import Console

    from rocm_doctor.cli.bench_cmd import render_summary

    run = _run_with(TestResult(name="gemm", status="ok"))
    run.info = {"name": "NVIDIA H200", "device": "cuda", "torch": "2.13.0+cu130", "compute_capability": "9.0"}
    console = Console(record=True, width=160, color_system=None)
    render_summary(run, console)
    assert "Device: NVIDIA H200 (CUDA compute capability 9.0), torch 2.13.0+cu130" in console.export_text()
