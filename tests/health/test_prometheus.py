"""``health --prometheus FILE``: textfile-collector metrics that Prometheus' own parsers accept."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
from prometheus_client.parser import text_string_to_metric_families

from fleet_gen import zeros_facts_file

MACHINES = Path(__file__).resolve().parent.parent / "machines"


def samples(text: str) -> Dict[str, List[Tuple[dict, float]]]:
    """Metric name -> (labels, value) of every sample, through prometheus_client's parser."""
    out: Dict[str, List[Tuple[dict, float]]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out.setdefault(sample.name, []).append((sample.labels, sample.value))
    return out


@pytest.fixture
def zeros_metrics(run_cli, tmp_path: Path) -> str:
    path = tmp_path / "textfile" / "rocm_doctor.prom"
    path.parent.mkdir()
    result = run_cli("health", "--facts", str(zeros_facts_file(tmp_path)), "--prometheus", str(path))
    assert result.exit_code == 14
    assert [p.name for p in path.parent.iterdir()] == ["rocm_doctor.prom"]  # no temporary file left behind
    return path.read_text(encoding="utf-8")


def test_findings_verdict_stack_and_bench_figures_are_published(zeros_metrics: str) -> None:
    metrics = samples(zeros_metrics)
    verdicts = {labels["verdict"]: value for labels, value in metrics["rocm_doctor_health_verdict"]}
    assert verdicts["isolate"] == 1 and sum(verdicts.values()) == 1
    assert metrics["rocm_doctor_health_exit_code"] == [({}, 14.0)]
    assert ({"rule": "RD600", "name": "bench-copy-returns-zeros", "severity": "error", "action": "isolate"}, 1.0) in [
        ({k: v for k, v in labels.items() if k != "gpu"}, value) for labels, value in metrics["rocm_doctor_finding"]
    ]
    counts = {(l["severity"], l["action"]): v for l, v in metrics["rocm_doctor_findings"]}
    assert counts[("error", "isolate")] == 1 and counts[("warning", "reset")] == 0
    ((stack, one),) = metrics["rocm_doctor_stack_info"]
    assert one == 1 and stack["driver"] == "6.16.13" and stack["torch"] == "2.13.0+rocm7.2" and stack["rocm"] == "7.2.0"
    bandwidth = {l["kind"]: v for l, v in metrics["rocm_doctor_bench_bandwidth_bytes_per_second"]}
    assert bandwidth["d2d"] == pytest.approx(780e9)
    gemm = {l["dtype"]: v for l, v in metrics["rocm_doctor_bench_gemm_flops_per_second"]}
    assert gemm["bf16"] == pytest.approx(96e12)
    status = {l["test"]: l["status"] for l, _ in metrics["rocm_doctor_bench_test_status"]}
    assert status["copy_integrity"] == "wrong"


def test_nothing_device_metrics_exporter_publishes_is_duplicated(zeros_metrics: str) -> None:
    names = set(samples(zeros_metrics))
    assert not {n for n in names if any(w in n for w in ("temperature", "utilization", "power", "clock", "ecc"))}


def test_label_values_with_quotes_backslashes_and_newlines_are_escaped(run_cli, tmp_path: Path) -> None:
    folder = tmp_path / "machine"
    shutil.copytree(MACHINES / "docker-2x7900xt-rocm62", folder)
    machine = folder / "machine.yaml"
    machine.write_text(machine.read_text(encoding="utf-8").replace(
        "HIP_VISIBLE_DEVICES: 0,1", 'HIP_VISIBLE_DEVICES: "0,1"\n  HSA_TOOLS_LIB: "C:\\\\x \\"y\\"\\nz"'), encoding="utf-8")
    path = tmp_path / "m.prom"
    run_cli("health", "--machine", str(folder), "--prometheus", str(path))
    ((stack, _),) = samples(path.read_text(encoding="utf-8"))["rocm_doctor_stack_info"]
    assert 'HSA_TOOLS_LIB=C:\\x "y"\nz' in stack["env"]


@pytest.mark.skipif(shutil.which("promtool") is None, reason="promtool is not installed (Debian package prometheus)")
def test_promtool_check_metrics_accepts_the_file(zeros_metrics: str) -> None:
    done = subprocess.run(["promtool", "check", "metrics"], input=zeros_metrics, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_unwritable_metrics_path_is_bad_input_after_the_line(run_cli, tmp_path: Path) -> None:
    result = run_cli("health", "--machine", str(MACHINES / "cpu-only"), "--prometheus", str(tmp_path / "missing" / "x.prom"))
    assert result.exit_code == 2 and result.stdout.startswith("ok: ") and "does not exist" in result.stderr


def test_a_new_run_replaces_the_file_whole(run_cli, tmp_path: Path) -> None:
    path = tmp_path / "rocm_doctor.prom"
    path.write_text("stale\n", encoding="utf-8")
    os.chmod(path, 0o644)
    run_cli("health", "--machine", str(MACHINES / "cpu-only"), "--prometheus", str(path))
    text = path.read_text(encoding="utf-8")
    assert "stale" not in text and 'rocm_doctor_health_verdict{verdict="ok"} 1' in text
    assert oct(path.stat().st_mode & 0o777) == "0o644"
