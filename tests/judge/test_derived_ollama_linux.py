"""gpu.ollama_linux_rocm_lacks_gfx judges the GPU's target against the range of ollama releases whose Linux
ROCm build carried it (rules/data/ollama_rocm.yaml linux.ranges)."""

from __future__ import annotations

import json
from typing import Any, Optional

import pytest

from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.cases import overlay
from rocm_doctor.judge.derived import DerivedValues

from tests.judge._derived_helpers import BASELINE, K, agent


def _lacks(gfx: str, versions: Optional[list], os: Optional[str] = "linux") -> Any:
    symptoms: dict = {"context": K(["ollama_named"])}
    if versions is not None:
        symptoms["ollama_versions"] = K(versions)
    change: dict = {"symptoms": symptoms, "gpus": {"agents": [agent(0, gfx, False)]}}
    if os is not None:
        change["host"] = {"os": K(os)}
    facts = Facts.from_dict(overlay(json.loads(BASELINE.read_text()), change))
    return DerivedValues(facts).gpu("gpu.ollama_linux_rocm_lacks_gfx", facts.gpus.agents[0])


@pytest.mark.parametrize(("gfx", "version"), [("gfx1150", "0.17.7"), ("gfx1103", "0.12.3"), ("gfx1201", "0.6.2"),
                                              ("gfx1151", "0.5.13"), ("gfx1010", "0.31.2"), ("gfx1103", "0.33.0")])
def test_a_release_shown_outside_the_targets_range_lacks_it(gfx: str, version: str) -> None:
    fact = _lacks(gfx, [version])
    assert fact.is_known and fact.value.startswith(f"ollama {version}'s Linux ROCm build has no {gfx} kernels")


@pytest.mark.parametrize(("gfx", "version"), [("gfx1150", "0.18.0"), ("gfx1103", "0.31.1"), ("gfx1201", "0.6.4"),
                                              ("gfx1010", "0.12.3")])
def test_a_release_shown_inside_the_range_is_absent(gfx: str, version: str) -> None:
    assert _lacks(gfx, [version]).status == "absent"


def test_no_release_shown_names_the_releases_that_lack_it() -> None:
    assert _lacks("gfx1103", None).value == "ollama's Linux ROCm builds before 0.18.0 and from 0.31.2 on have no gfx1103 kernels"


def test_a_report_with_no_platform_is_judged_as_linux() -> None:
    assert _lacks("gfx1150", None, os=None).is_known


def test_windows_is_left_to_the_windows_table() -> None:
    assert _lacks("gfx1150", None, os="windows").status == "absent"


@pytest.mark.parametrize("gfx", ["gfx1100", "gfx1030", "gfx803", "gfx1152"])
def test_a_target_every_or_no_release_built_is_absent(gfx: str) -> None:
    assert _lacks(gfx, None).status == "absent"


def test_releases_on_both_sides_are_not_judged() -> None:
    assert _lacks("gfx1150", ["0.17.7", "0.18.0"]).status == "unknown"
