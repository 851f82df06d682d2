"""``check`` keeps the last state without an error as ``last-good`` (unless switched off); ``fix --apply``
saves the state before it changes anything; ``check`` says when a version in use is a known regression."""

from __future__ import annotations

import datetime
import sys
from pathlib import Path

import pytest

from rocm_doctor.baseline.auto import LAST_GOOD_VAR, restore_point_name, save_restore_point
from rocm_doctor.diff.last_good import KEEP, save_last_good
from rocm_doctor.baseline.store import list_all, load
from rocm_doctor.diff.notes import regression_notes
from rocm_doctor.facts.model import Facts
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules

MACHINES = Path(__file__).resolve().parents[1] / "machines"
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "diff"))
from report_pairs import load_pairs  # noqa: E402


def _judged(machine: str):
    facts = Facts.from_json((MACHINES / machine / "facts.json").read_text(encoding="utf-8"))
    return facts, evaluate(load_rules(use_env=False), facts).findings


def test_a_state_without_an_error_is_saved_as_last_good() -> None:
    facts, findings = _judged("docker-2x7900xt-rocm62")
    assert not any(f.severity == "error" for f in findings)
    assert save_last_good(facts, findings, "rules-x") is not None
    assert load("last-good").reason == "check"


def test_a_state_with_an_error_is_never_saved_as_last_good() -> None:
    facts, findings = _judged("ubuntu2204-6700xt")
    assert any(f.severity == "error" for f in findings)
    assert save_last_good(facts, findings, "rules-x") is None and list_all() == ([], 0)


@pytest.mark.parametrize("value", ["off", "0", "no", "FALSE"])
def test_last_good_is_not_saved_when_the_setting_is_off(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(LAST_GOOD_VAR, value)
    facts, findings = _judged("docker-2x7900xt-rocm62")
    assert save_last_good(facts, findings, "rules-x") is None and list_all() == ([], 0)


def test_fix_apply_restore_point_is_a_baseline_named_by_its_time() -> None:
    moment = datetime.datetime(2026, 11, 28, 9, 5, 7, tzinfo=datetime.timezone.utc)
    assert restore_point_name(moment) == "before-fix-20261128T090507Z"
    facts, findings = _judged("docker-2x7900xt-rocm62")
    path = save_restore_point(facts, findings, "rules-x")
    assert load(path.stem).reason == "fix --apply"


@pytest.mark.live_machine
def test_check_on_this_machine_saves_last_good_and_the_setting_stops_it(run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data_folder: Path) -> None:
    monkeypatch.setenv(LAST_GOOD_VAR, "off")
    run_cli("check", "--python", sys.executable)
    assert not (data_folder / "baselines" / "last-good.json").exists()
    monkeypatch.delenv(LAST_GOOD_VAR)
    shown = run_cli("check", "--python", sys.executable, "--json")
    if shown.exit_code == 0:  # this machine has no error finding
        assert load("last-good").reason == "check"
    else:
        assert not (data_folder / "baselines" / "last-good.json").exists()


PAIRS = {p["id"]: p for p in load_pairs()}


def test_check_says_when_the_torch_in_use_is_a_known_regression_on_this_gpu(run_cli, tmp_path: Path) -> None:
    pair = PAIRS["therock-7861-torch-rocm7.14.1-gfx1201"]
    path = tmp_path / "after.json"
    path.write_text(pair["after_facts"].to_json(), encoding="utf-8")
    shown = run_cli("check", "--facts", str(path))
    assert "Known regression: torch 2.12.0+rocm7.14.1 matches the known regression torch-2.12-rocm7.14.1-gfx1201" in shown.stdout
    before = tmp_path / "before.json"
    before.write_text(pair["before_facts"].to_json(), encoding="utf-8")
    assert "Known regression" not in run_cli("check", "--facts", str(before)).stdout


def test_the_update_since_the_last_good_state_is_named_when_it_matches_a_regression() -> None:
    pair = PAIRS["therock-5763-rocm-nightly-gfx1151"]
    lines = regression_notes(pair["after_facts"], pair["before_facts"])
    assert lines == [
        "Known regression since the last good state: your update of rocm from 7.14.0a20260608 to 7.14.0a20260609 "
        "matches the known regression therock-7.14-nightly-initdma-segfault-strix: every HIP program segfaults in "
        "libhsa-runtime64 (GpuAgent::InitDma) while it initialises (https://github.com/ROCm/TheRock/issues/5763); "
        "fixed in 7.15.0a20260707; last good 7.14.0a20260608. Fix: go back to the 7.14.0a20260608 nightly, or use "
        "7.15.0a20260707 or later"
    ]


def test_a_state_that_matches_a_known_regression_is_never_saved_as_last_good() -> None:
    pair = PAIRS["therock-7861-torch-rocm7.14.1-gfx1201"]
    assert save_last_good(pair["before_facts"], [], "rules-x") is not None
    assert save_last_good(pair["after_facts"], [], "rules-x") is None  # no error finding, but a known regression
    assert load("last-good").facts.packages.installed.value["torch"] == "2.12.0+rocm7.14.0"


def test_a_changed_good_state_keeps_the_one_before_it_and_only_the_newest_few(monkeypatch: pytest.MonkeyPatch) -> None:
    import rocm_doctor.baseline.store as store

    facts, findings = _judged("docker-2x7900xt-rocm62")
    raw = facts.model_dump(mode="json")
    for day in range(1, KEEP + 3):
        monkeypatch.setattr(store, "now_iso", lambda day=day: f"2026-11-{day:02d}T08:00:00+00:00")
        import rocm_doctor.baseline.capture as capture_module

        monkeypatch.setattr(capture_module, "now_iso", store.now_iso)
        raw["packages"]["installed"]["value"]["numpy"] = f"1.26.{day}"
        save_last_good(Facts.from_dict(raw), findings, "rules-x")
    names = sorted(item.name for item in list_all()[0])
    assert names[-1] == "last-good" and len(names) == KEEP + 1
    assert names[0] == "good-20261102080000"  # the oldest beyond KEEP went
    assert load("last-good").facts.packages.installed.value["numpy"] == f"1.26.{KEEP + 2}"
    again = save_last_good(Facts.from_dict(raw), findings, "rules-x")  # the same state: nothing more is kept
    assert again is not None and len(list_all()[0]) == KEEP + 1


@pytest.mark.live_machine
def test_a_second_check_of_an_unchanged_machine_does_not_save_last_good_again(
    run_cli, monkeypatch: pytest.MonkeyPatch, data_folder: Path
) -> None:
    import rocm_doctor.diff.last_good as last_good

    first = run_cli("check", "--python", sys.executable)
    if first.exit_code != 0:
        pytest.skip("this machine has an error finding: no last-good state to keep")
    saved = data_folder / "baselines" / "last-good.json"
    assert saved.is_file()
    calls = []
    real = last_good.save_last_good
    monkeypatch.setattr(last_good, "save_last_good", lambda *a, **k: calls.append(a))
    run_cli("check", "--python", sys.executable)
    assert calls == []  # the same state: one fingerprint read, no redaction and no comparison
    saved.unlink()  # `baseline rm last-good`: the next check saves it again
    monkeypatch.setattr(last_good, "save_last_good", real)
    run_cli("check", "--python", sys.executable)
    assert saved.is_file()


@pytest.mark.live_machine
def test_a_check_that_did_not_look_at_torch_leaves_last_good_as_it_was(run_cli, data_folder: Path) -> None:
    saved = data_folder / "baselines" / "last-good.json"
    assert run_cli("check", "--no-torch", "--python", sys.executable).exit_code in (0, 1)
    assert not saved.exists()  # --no-torch alone never vouches for the stack
    if run_cli("check", "--python", sys.executable).exit_code != 0:
        pytest.skip("this machine has an error finding: no last-good state to keep")
    before = saved.read_bytes()
    run_cli("check", "--no-torch", "--python", sys.executable)
    assert saved.read_bytes() == before


def test_the_fingerprint_leaves_out_what_changes_between_runs_of_an_unchanged_machine() -> None:
    from rocm_doctor.baseline.fingerprint import fingerprint

    facts, findings = _judged("docker-2x7900xt-rocm62")
    raw = facts.model_dump(mode="json")
    whole = facts.model_dump(mode="json")
    first = fingerprint(raw, [f.id for f in findings], "rules-x")
    assert raw == whole  # the caller's facts are not changed
    raw["cpu"]["memory_available_bytes"] = {"status": "known", "value": 12345, "source": "test"}
    raw["torch"]["live"]["import_seconds"] = {"status": "known", "value": 9.5, "source": "test"}
    assert fingerprint(raw, [f.id for f in findings], "rules-x") == first
    raw["torch"]["live"]["device_count"] = {"status": "known", "value": 7, "source": "test"}
    assert fingerprint(raw, [f.id for f in findings], "rules-x") != first


def test_check_reads_the_last_good_state_only_when_a_version_in_use_is_a_known_regression(
    monkeypatch: pytest.MonkeyPatch, data_folder: Path
) -> None:
    import rocm_doctor.baseline.store as store
    from rocm_doctor.cli import check_cmd

    facts, findings = _judged("docker-2x7900xt-rocm62")
    assert save_last_good(facts, findings, "rules-x") is not None
    reads = []
    real = store.load
    monkeypatch.setattr(store, "load", lambda name: reads.append(name) or real(name))
    check_cmd._note_regressions(facts, live=True)  # nothing in use is a known regression
    assert reads == []
    check_cmd._note_regressions(PAIRS["therock-7861-torch-rocm7.14.1-gfx1201"]["after_facts"], live=True)
    assert reads == ["last-good"]
