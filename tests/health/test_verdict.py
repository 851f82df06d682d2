"""The verdict: the most severe action class, one line of at most 80 characters, the documented exit code."""

from __future__ import annotations

from typing import Optional

import pytest

from rocm_doctor.facts.model import Facts
from rocm_doctor.health.verdict import EXIT_CODES, MAX_LINE, Incomplete, verdict_of
from rocm_doctor.model.rules import ACTIONS, Finding
from rocm_doctor.judge.report import CheckResult


def finding(rule: str, action: str, severity: str = "error", title: str = "Something is wrong", gpu: Optional[int] = None) -> Finding:
    return Finding(id=rule, name=rule.lower(), severity=severity, category="runtime", action=action, area="test",
                   title=title, message="m", explanation="e", gpu=gpu)


def result(*findings: Finding) -> CheckResult:
    return CheckResult(tool_version="t", facts=Facts(), findings=list(findings), rules_evaluated=100)


def test_the_exit_codes_are_the_documented_ones_and_rise_with_severity() -> None:
    assert EXIT_CODES == {"ok": 0, "monitor": 10, "config": 11, "unknown": 12, "triage": 13, "isolate": 14, "reset": 15}


@pytest.mark.parametrize("action", ACTIONS)
def test_a_single_finding_gives_its_class_code_and_names_it(action: str) -> None:
    verdict = verdict_of(result(finding("RD900", action, title="A GPU is broken", gpu=3)))
    assert verdict.verdict == action
    assert verdict.exit_code() == EXIT_CODES[action]
    assert verdict.line == f"RD900 {action}: A GPU is broken [GPU 3]"


def test_the_most_severe_action_wins_over_severity_and_order() -> None:
    verdict = verdict_of(result(finding("RD100", "config"), finding("RD700", "reset", "warning"), finding("RD600", "isolate")))
    assert verdict.verdict == "reset"
    assert verdict.line.startswith("RD700 reset: ") and verdict.line.endswith("(+2 more)")
    assert [f.id for f in verdict.findings] == ["RD700", "RD600", "RD100"]


def test_no_finding_is_ok_and_exit_0() -> None:
    verdict = verdict_of(result())
    assert (verdict.verdict, verdict.exit_code(), verdict.line) == ("ok", 0, "ok: no findings (100 rules)")


def test_an_incomplete_run_is_unknown_unless_something_worse_was_found() -> None:
    late = Incomplete(["gpus", "torch"], "gpus, torch did not finish within the 45 s budget")
    assert verdict_of(result(finding("RD100", "config")), late).verdict == "unknown"
    assert verdict_of(result(), late).line == "unknown: gpus, torch did not finish within the 45 s budget"
    assert verdict_of(result(), late).exit_code() == 12
    assert verdict_of(result(finding("RD600", "isolate")), late).verdict == "isolate"


def test_fail_on_turns_milder_verdicts_into_exit_0() -> None:
    config = verdict_of(result(finding("RD100", "config")))
    assert config.exit_code("isolate") == 0 and config.exit_code("config") == 11
    assert verdict_of(result(finding("RD600", "isolate"))).exit_code("isolate") == 14


def test_lines_never_exceed_80_characters() -> None:
    long_title = "A very long title that goes on " * 6
    for gpu in (None, 12):
        for more in (0, 40):
            findings = [finding("RD123", "triage", title=long_title, gpu=gpu)] + [finding(f"RD{i}", "monitor") for i in range(more)]
            line = verdict_of(result(*findings)).line
            assert len(line) <= MAX_LINE and line.startswith("RD123 triage: A very long") and "…" in line
    late = Incomplete(["host", "env"], "host did not finish; " + "env not run " * 9)
    assert len(verdict_of(result(), late).line) <= MAX_LINE


def test_node_problem_detector_mode_reports_one_action_class() -> None:
    verdict = verdict_of(result(finding("RD600", "isolate", gpu=0), finding("RD100", "config")))
    assert verdict.npd("isolate") == (1, "RD600 isolate: Something is wrong [GPU 0]")
    code, message = verdict.npd("reset")
    assert code == 0 and len(message) <= MAX_LINE
    late = verdict_of(result(), Incomplete(["gpus"], "gpus did not finish within the 5 s budget"))
    assert late.npd("reset") == (2, "unknown: gpus did not finish within the 5 s budget")
