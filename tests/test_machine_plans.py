"""Each recorded machine gets exactly the golden fix plan (``fix --json``), explained in one sentence.

``tests/machines/<name>/plan.yaml`` holds ``why`` (what a ROCm expert would do on that machine and
why the plan does it) and ``plan``, the ``rocm-doctor/fix/1`` document with every exact command.
After an intended change run ``pytest tests/test_machine_plans.py --update-golden``: it rewrites
``plan`` and keeps ``why``; a machine without one gets ``TODO explain`` and the test fails until a
person has explained it, so a change in what we advise shows up in review.
"""

from __future__ import annotations

from typing import Any, Dict

import pytest
import yaml

from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from test_machine_findings import MACHINES, NAMES, facts_of

GOLDEN = "plan.yaml"
TODO = "TODO explain"


def plan_of(name: str) -> Dict[str, Any]:
    result = evaluate(load_rules(use_env=False), facts_of(name))
    assert result.plan is not None, result.crashes
    return result.plan.to_document()


def _read(name: str) -> Dict[str, Any]:
    path = MACHINES / name / GOLDEN
    return yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}


@pytest.mark.parametrize("name", NAMES)
def test_recorded_machine_gets_exactly_the_golden_plan(name: str, request: pytest.FixtureRequest) -> None:
    actual = plan_of(name)
    path = MACHINES / name / GOLDEN
    if request.config.getoption("--update-golden"):
        why = _read(name).get("why") or TODO
        header = f"# Golden fix plan of {name} (rocm-doctor fix --json); `why` is written by a person.\n"
        body = yaml.safe_dump({"why": why, "plan": actual}, sort_keys=False, allow_unicode=True, width=110)
        path.write_text(header + body, encoding="utf-8")
    golden = _read(name)
    assert golden, f"no {GOLDEN} for {name}; run pytest {__file__} --update-golden and explain it"
    assert golden["plan"] == actual, f"{name}: the plan differs from {path}"
    assert str(golden.get("why") or TODO).strip() not in ("", TODO), f"{name}: explain the plan in {path} (why)"
