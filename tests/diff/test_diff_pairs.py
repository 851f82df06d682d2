"""``diff`` on machines before and after a real update that broke them: the breaking change comes first,
with the known regression it matches; a machine compared with itself has no change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rocm_doctor.diff.compare import diff
from rocm_doctor.facts.model import Facts

from report_pairs import load_pairs  # type: ignore[import-not-found]

PAIRS = load_pairs()
MACHINES = Path(__file__).resolve().parents[1] / "machines"


@pytest.mark.parametrize("pair", PAIRS, ids=[p["id"] for p in PAIRS])
def test_diff_names_the_breaking_change_of_a_real_report_first(pair) -> None:
    result = diff(pair["before_facts"], pair["after_facts"])
    assert result.changes, "the update must show"
    first = result.changes[0]
    assert first.what == pair["first"]
    assert [m.id for m in first.regressions] == ([pair["regression"]] if "regression" in pair else [])
    assert all(not c.regressions for c in result.changes[1:])


@pytest.mark.parametrize("pair", PAIRS, ids=[p["id"] for p in PAIRS])
def test_the_update_back_to_the_working_version_matches_no_regression(pair) -> None:
    result = diff(pair["after_facts"], pair["before_facts"])
    assert all(not c.regressions for c in result.changes)


@pytest.mark.parametrize("pair", PAIRS, ids=[p["id"] for p in PAIRS])
def test_a_report_machine_compared_with_itself_has_no_change(pair) -> None:
    for facts in (pair["before_facts"], pair["after_facts"]):
        result = diff(facts, facts)
        assert result.is_empty and result.verdict == "no change"


@pytest.mark.parametrize("machine", sorted(p.name for p in MACHINES.iterdir() if (p / "facts.json").is_file()))
def test_a_recorded_machine_compared_with_itself_has_no_change(machine: str) -> None:
    facts = Facts.from_json((MACHINES / machine / "facts.json").read_text(encoding="utf-8"))
    result = diff(facts, facts)
    assert result.is_empty and result.not_compared == []


def test_diff_cli_on_two_report_machines_prints_the_regression_and_exits_1(run_cli, tmp_path: Path) -> None:
    pair = next(p for p in PAIRS if "regression" in p)
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    before.write_text(pair["before_facts"].to_json(), encoding="utf-8")
    after.write_text(pair["after_facts"].to_json(), encoding="utf-8")
    shown = run_cli("diff", str(before), "--facts", str(after))
    assert shown.exit_code == 1, shown.stderr
    assert "Known regression:" in shown.stdout and pair["regression"] in shown.stdout
    assert shown.stdout.index(pair["regression"]) < shown.stdout.index("Changes, most likely cause first:")
    document = json.loads(run_cli("diff", str(before), str(after), "--json").stdout)
    assert document["schema"] == "rocm-doctor/diff/1" and document["verdict"] == "changed"
    assert document["changes"][0]["regressions"][0]["id"] == pair["regression"]
    same = run_cli("diff", str(after), str(after))
    assert same.exit_code == 0 and "no change" in same.stdout


def test_diff_reads_a_pasted_report_as_the_state_before(run_cli, tmp_path: Path) -> None:
    # The versions of https://github.com/ROCm/hipBLASLt/issues/1243 as `pip list` shows them, before and after.
    def paste(day: str) -> Path:
        path = tmp_path / f"{day}.txt"
        path.write_text(
            f"$ pip list | grep torch\ntorch                     2.6.0.dev202410{day}+rocm6.2\n"
            "$ rocminfo | grep gfx\n  Name:                    gfx1100\n",
            encoding="utf-8",
        )
        return path

    shown = run_cli("diff", str(paste("13")), "--from", str(paste("15")), "--json")
    assert shown.exit_code == 1, shown.stderr
    changes = json.loads(shown.stdout)["changes"]
    assert [(c["what"], c["before"], c["after"]) for c in changes] == [("torch", "2.6.0.dev20241013+rocm6.2", "2.6.0.dev20241015+rocm6.2")]
