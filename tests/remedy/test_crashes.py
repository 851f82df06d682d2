"""A crash is a result: a gatherer, derived fact or rule that raises is a crashed row and check exits non-zero."""

from __future__ import annotations

from pathlib import Path

import pytest

from rocm_doctor.facts import gather as gather_module
from rocm_doctor.facts.context import GatherOptions
from rocm_doctor.facts.gather import gather, section_types
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.system.recorded import RecordedSystem

MACHINE = Path(__file__).resolve().parent.parent / "machines" / "ubuntu2204-6700xt"


def _crashing(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test hook: the named gatherer raises."""
    original = gather_module._gatherers

    def boom(ctx):
        raise RuntimeError(f"injected crash in {name}")

    monkeypatch.setattr(gather_module, "_gatherers", lambda: [(n, c, boom if n == name else g) for n, c, g in original()])


@pytest.mark.parametrize("name", list(section_types()))
def test_a_crash_injected_into_any_gatherer_is_a_crashed_row_with_its_log(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _crashing(name, monkeypatch)
    facts = gather(RecordedSystem(MACHINE), GatherOptions(use_amdsmi=False), origin="recorded")
    result = evaluate(load_rules(use_env=False), facts)
    crash = next(c for c in result.crashes if c.what == f"gatherer {name}")
    assert "injected crash" in crash.reason and crash.log and Path(crash.log).is_file()
    assert "injected crash" in Path(crash.log).read_text()


def test_check_with_a_crashed_gatherer_exits_non_zero_and_says_so(run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    _crashing("gpus", monkeypatch)
    result = run_cli("check", "--machine", str(MACHINE))
    assert result.exit_code == 3
    assert "gatherer gpus crashed: RuntimeError: injected crash in gpus" in result.stdout
    assert "No problems found" not in result.stdout


def test_a_rule_that_raises_is_a_crashed_row(monkeypatch: pytest.MonkeyPatch) -> None:
    from rocm_doctor.judge import engine

    facts = gather(RecordedSystem(MACHINE), GatherOptions(use_amdsmi=False), origin="recorded")
    rules = load_rules(use_env=False)
    real = engine._judge

    def judge(rule, scope):
        if rule.id == "RD201":
            raise ValueError("broken rule")
        return real(rule, scope)

    monkeypatch.setattr(engine, "_judge", judge)
    result = evaluate(rules, facts)
    assert [c.what for c in result.crashes] == ["rule RD201"]
