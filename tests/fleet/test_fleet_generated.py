"""``rocm-doctor fleet`` on a generated fleet of 64 nodes names exactly the nodes that were made odd."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fleet_gen import DRIVER, OLD_DRIVER, OTHER_TORCH, write_fleet
from rocm_doctor.judge.loader import load_rules


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("fleet") / "nodes"
    return write_fleet(folder, 64, load_rules(use_env=False), old_driver=[3, 17, 42], other_torch=[20], slow={55: 0.4})


def test_the_json_names_exactly_the_odd_nodes_and_why(run_cli, fleet) -> None:
    result = run_cli("fleet", str(fleet.folder), "--json")
    document = json.loads(result.stdout)
    odd = {item["node"]: item["reasons"] for item in document["odd_nodes"]}
    assert set(odd) == fleet.old_driver | fleet.other_torch | set(fleet.slow)
    assert odd["gpu00003"] == [f"driver {OLD_DRIVER} (fleet: {DRIVER})"]
    assert odd["gpu00020"] == [f"torch {OTHER_TORCH} (fleet: 2.13.0+rocm7.2)"]
    assert all("of its 63 peers' median" in why for why in odd["gpu00055"])
    assert document["schema"] == "rocm-doctor/fleet/1" and document["nodes"] == 64 and document["skipped"] == []


def test_drift_is_counted_per_stack_dimension(run_cli, fleet) -> None:
    document = json.loads(run_cli("fleet", str(fleet.folder), "--json").stdout)
    driver = next(d for d in document["stack"] if d["dimension"] == "driver")
    assert driver["majority"] == DRIVER
    assert driver["values"] == [
        {"value": DRIVER, "count": 61},
        {"value": OLD_DRIVER, "count": 3, "nodes": ["gpu00003", "gpu00017", "gpu00042"]},
    ]
    rocm = next(d for d in document["stack"] if d["dimension"] == "rocm")
    assert rocm["values"] == [{"value": "7.2.0", "count": 64}]


def test_the_slow_gpu_is_the_only_outlier_at_40_percent_of_its_peers(run_cli, fleet) -> None:
    document = json.loads(run_cli("fleet", str(fleet.folder), "--json").stdout)
    outliers = document["outliers"]
    assert {o["node"] for o in outliers} == {"gpu00055"}
    assert {o["metric"] for o in outliers} == {"d2d", "h2d_pinned", "d2h_pinned"}
    assert all(o["ratio"] == pytest.approx(0.4, abs=0.02) and o["peers"] == 64 for o in outliers)
    assert all(o["model"] == "AMD Radeon RX 7900 XTX" for o in outliers)


def test_findings_are_grouped_by_rule_with_their_nodes(run_cli, fleet) -> None:
    document = json.loads(run_cli("fleet", str(fleet.folder), "--json").stdout)
    by_rule = {f["id"]: f for f in document["findings"]}
    assert by_rule["RD384"]["nodes"] == sorted(fleet.old_driver) and by_rule["RD384"]["action"] == "config"
    holders = {node for f in document["findings"] for node in f["nodes"]}
    assert holders <= fleet.old_driver | fleet.other_torch


def test_exit_code_is_the_worst_class_a_slow_gpu_needs_a_person(run_cli, fleet) -> None:
    result = run_cli("fleet", str(fleet.folder))
    assert result.exit_code == 13  # triage: the bandwidth outlier
    assert "3 of 64 nodes run driver 6.8.5; 61 run 6.16.13: gpu00003, gpu00017, gpu00042" in result.stdout
    assert "1 of 64 nodes run torch 2.12.0+rocm7.1; 63 run 2.13.0+rocm7.2: gpu00020" in result.stdout
    assert run_cli("fleet", str(fleet.folder), "--fail-on", "isolate").exit_code == 0


def test_markdown_has_the_same_sections(run_cli, fleet) -> None:
    text = run_cli("fleet", str(fleet.folder), "--format", "markdown").stdout
    assert text.startswith("# rocm-doctor fleet report\n")
    for heading in ("## Odd nodes out", "## Stack", "## Findings, most severe first", "## Benchmark outliers"):
        assert heading in text
    assert "gpu00055: AMD Radeon RX 7900 XTX bandwidth d2d" in text


def test_a_uniform_healthy_fleet_has_nothing_to_say(run_cli, tmp_path: Path) -> None:
    fleet = write_fleet(tmp_path / "nodes", 12, load_rules(use_env=False))
    result = run_cli("fleet", str(fleet.folder), "--json")
    document = json.loads(result.stdout)
    assert result.exit_code == 0 and document["verdict"] == "ok"
    assert document["odd_nodes"] == [] and document["findings"] == [] and document["outliers"] == []
