"""Baselines are stored under the data folder by validated names, atomically, and read back within limits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rocm_doctor.baseline.capture import capture
from rocm_doctor.baseline.store import baselines_dir, list_all, load, name_problem, read_file, remove, save
from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts
from rocm_doctor.limits import BASELINE_BYTES, LimitError

MACHINES = Path(__file__).resolve().parents[1] / "machines"


def _facts(machine: str = "ubuntu2204-6700xt") -> Facts:
    return Facts.from_json((MACHINES / machine / "facts.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["../x", "a/b", "a\\b", ".hidden", "", "x.json", "a..b", "x" * 65, "bad name"])
def test_a_baseline_name_that_could_leave_the_folder_or_is_not_a_word_is_refused(name: str) -> None:
    assert name_problem(name) is not None
    with pytest.raises(InputError):
        capture(name, _facts(), [], "rules-x", "test")


def test_a_saved_baseline_reads_back_equal_and_is_listed_and_removed(data_folder: Path) -> None:
    baseline = capture("good-1", _facts(), [], "rules-x", "test", saved_at="2026-11-28T08:00:00+00:00")
    path = save(baseline)
    assert path == data_folder / "baselines" / "good-1.json"
    assert load("good-1") == baseline
    assert [item.name for item in list_all()[0]] == ["good-1"]
    assert [p.name for p in baselines_dir().iterdir()] == ["good-1.json"]  # no temporary file left behind
    remove("good-1")
    assert list_all() == ([], 0)
    with pytest.raises(InputError, match="baseline list"):
        load("good-1")


def test_a_baseline_is_stored_redacted(data_folder: Path) -> None:
    facts = _facts()
    assert "/home/user/" in facts.to_json()  # the recorded machine's user is "user": a name the redactor keeps
    raw = facts.model_dump(mode="json")
    raw["python"]["executable"]["value"] = "/home/alice/sd/venv/bin/python"
    raw["permissions"]["user"] = {"status": "known", "value": "alice", "source": "test"}
    save(capture("mine", Facts.from_dict(raw), [], "rules-x", "test"))
    text = (data_folder / "baselines" / "mine.json").read_text(encoding="utf-8")
    assert "alice" not in text and "/home/<user>/sd/venv/bin/python" in text  # folder names kept: see redaction.py


def test_a_baseline_file_over_the_size_limit_is_refused_naming_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"schema": "rocm-doctor/baseline/1", "pad": "x" * 2048}), encoding="utf-8")
    import rocm_doctor.baseline.store as store
    from rocm_doctor.limits import Limit

    monkeypatch.setattr(store, "BASELINE_BYTES", Limit(BASELINE_BYTES.name, 1024, "bytes"))
    with pytest.raises(LimitError, match="baseline.max_bytes"):
        read_file(path)


@pytest.mark.parametrize("text", ["{", "[]", '{"schema": "rocm-doctor/facts/1"}', '{"schema": "rocm-doctor/baseline/1", "name": 3}'])
def test_a_file_that_is_not_a_baseline_is_refused_with_a_reason(tmp_path: Path, text: str) -> None:
    path = tmp_path / "b.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError):
        read_file(path)


def test_an_unreadable_baseline_is_listed_with_its_problem(data_folder: Path) -> None:
    (data_folder / "baselines").mkdir(parents=True)
    (data_folder / "baselines" / "broken.json").write_text("{", encoding="utf-8")
    listed, left = list_all()
    assert [(i.name, i.baseline is None, bool(i.problem)) for i in listed] == [("broken", True, True)] and left == 0
