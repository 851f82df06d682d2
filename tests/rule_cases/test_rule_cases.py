"""Every shipped rule against its own cases: ``fires`` must fire, ``passes`` must not.

The cases live as data in ``tests/rule_cases/<ID>.yaml`` (format:
``rocm_doctor/judge/cases.py``), each a facts overlay on ``baseline.json``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import List

import pytest

from rocm_doctor.judge.cases import Case, load_baseline, load_cases, run_case
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.model.rules import Rule

HERE = Path(__file__).parent
BASELINE = HERE / "baseline.json"


@lru_cache(maxsize=None)
def shipped_rules() -> tuple:
    return tuple(load_rules(use_env=False))


def _all_cases() -> List[pytest.param]:
    params = []
    for rule in shipped_rules():
        path = HERE / f"{rule.id}.yaml"
        if path.is_file():
            for case in load_cases(path, rule.id):
                params.append(pytest.param(rule, case, id=f"{rule.id}-{case.kind}-{case.name}"))
    return params


@pytest.mark.parametrize(("rule", "case"), _all_cases())
def test_rule_behaves_as_its_case_says(rule: Rule, case: Case) -> None:
    problem = run_case(rule, case, load_baseline(BASELINE))
    assert problem is None, problem
