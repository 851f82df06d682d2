"""Every recorded machine under tests/machines replays to its golden facts.json.

Regenerate after an intended change with ``pytest tests/test_recorded_machines.py --update-golden``
and read the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

import pytest

from rocm_doctor.facts.context import GatherOptions
from rocm_doctor.facts.gather import gather
from rocm_doctor.system.recorded import RecordedSystem

MACHINES = Path(__file__).parent / "machines"
NAMES = sorted(p.name for p in MACHINES.iterdir() if (p / "machine.yaml").is_file())
_VOLATILE_META = ("gathered_at", "duration_seconds", "tool_version", "origin_detail")


def replay(folder: Path) -> Dict[str, Any]:
    """The facts of a recorded machine as a JSON document without the volatile meta fields."""
    facts = gather(RecordedSystem(folder), GatherOptions(use_amdsmi=False), origin="recorded")
    data = json.loads(facts.to_json())
    for key in _VOLATILE_META:
        data["meta"].pop(key, None)
    return data


def test_the_eight_machines_of_the_issue_are_recorded():
    assert len(NAMES) >= 8, NAMES


@pytest.mark.parametrize("name", NAMES)
def test_recorded_machine_matches_golden_facts(name: str, request: pytest.FixtureRequest) -> None:
    folder = MACHINES / name
    golden = folder / "facts.json"
    actual = replay(folder)
    if request.config.getoption("--update-golden"):
        golden.write_text(json.dumps(actual, indent=2, sort_keys=False) + "\n", encoding="utf-8")
        return
    assert golden.is_file(), f"{golden} missing; run pytest {__file__} --update-golden"
    expected = json.loads(golden.read_text(encoding="utf-8"))
    for section in expected:
        assert actual.get(section) == expected[section], f"{name}: section {section} differs from {golden}"
    assert set(actual) == set(expected)


@pytest.mark.parametrize("name", NAMES)
def test_recorded_machine_runs_both_python_probes_by_label(name: str) -> None:
    system = RecordedSystem(MACHINES / name)
    labels = [entry.get("label") for entry in system.commands]
    assert "python-info" in labels and "torch-probe" in labels
