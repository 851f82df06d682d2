"""``fleet --baseline DIR``: each node against its own earlier record: which nodes changed and what changed."""

from __future__ import annotations

import json
from pathlib import Path

from fleet_gen import OTHER_TORCH, TORCH, write_fleet
from rocm_doctor.judge.loader import load_rules


def test_fleet_baseline_names_the_nodes_that_changed_since_and_what_changed(run_cli, tmp_path: Path) -> None:
    rules = load_rules(use_env=False)
    earlier = write_fleet(tmp_path / "monday", 6, rules)
    now = write_fleet(tmp_path / "tuesday", 6, rules, other_torch=[2, 4])
    shown = run_cli("fleet", str(now.folder), "--baseline", str(earlier.folder), "--json")
    assert "Traceback" not in shown.stderr
    since = json.loads(shown.stdout)["since_baseline"]
    assert [n["node"] for n in since["changed"]] == ["gpu00002", "gpu00004"]
    assert since["unchanged"] == 4 and since["new_nodes"] == [] and since["gone_nodes"] == []
    assert f"torch {TORCH} -> {OTHER_TORCH}" in since["changed"][0]["changes"]
    console = run_cli("fleet", str(now.folder), "--baseline", str(earlier.folder))
    assert f"Since {earlier.folder}: 2 of 6 nodes changed" in console.stdout


def test_fleet_baseline_of_the_same_run_finds_no_node_changed(run_cli, tmp_path: Path) -> None:
    fleet = write_fleet(tmp_path / "nodes", 5, load_rules(use_env=False))
    shown = json.loads(run_cli("fleet", str(fleet.folder), "--baseline", str(fleet.folder), "--json").stdout)
    assert shown["since_baseline"]["changed"] == [] and shown["since_baseline"]["unchanged"] == 5


def test_fleet_baseline_in_markdown_has_its_own_section(run_cli, tmp_path: Path) -> None:
    rules = load_rules(use_env=False)
    earlier = write_fleet(tmp_path / "monday", 5, rules)
    now = write_fleet(tmp_path / "tuesday", 5, rules, other_torch=[1])
    shown = run_cli("fleet", str(now.folder), "--baseline", str(earlier.folder), "--format", "markdown")
    assert f"\n## Since {earlier.folder}: 1 of 5 nodes changed\n\n- gpu00001: torch {TORCH} -> {OTHER_TORCH}" in shown.stdout
