"""gpu.ollama_windows_rocm_lacks_gfx names the HIP SDK of the ollama release the report shows."""

from __future__ import annotations

import json
from typing import Any, Optional

import pytest

from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.cases import overlay
from rocm_doctor.judge.derived import DerivedValues

from tests.judge._derived_helpers import BASELINE, K, agent


def _lacks(gfx: str, versions: Optional[list]) -> Any:
    symptoms: dict = {"context": K(["ollama_named"])}
    if versions is not None:
        symptoms["ollama_versions"] = K(versions)
    change = {"host": {"os": K("windows")}, "symptoms": symptoms, "gpus": {"agents": [agent(0, gfx, False)]}}
    facts = Facts.from_dict(overlay(json.loads(BASELINE.read_text()), change))
    return DerivedValues(facts).gpu("gpu.ollama_windows_rocm_lacks_gfx", facts.gpus.agents[0])


@pytest.mark.parametrize(
    ("version", "sdk"),
    [("0.1.32", "HIP SDK 5.7"), ("0.3.13", "HIP SDK 6.1"), ("0.12.3", "HIP SDK 6.2")],
)
def test_a_shown_release_is_said_with_the_hip_sdk_it_was_built_with(version: str, sdk: str) -> None:
    fact = _lacks("gfx1032", [version])
    assert fact.is_known and f"ollama {version} for Windows ships ROCm libraries ({sdk}) without gfx1032" == fact.value


def test_no_release_shown_names_every_sdk_of_the_range() -> None:
    assert "(HIP SDK 5.7, 6.1, 6.2, by release)" in _lacks("gfx1201", None).value


def test_a_release_before_the_first_windows_rocm_build_is_not_judged() -> None:
    fact = _lacks("gfx1032", ["0.1.20"])
    assert not fact.is_known and fact.status == "unknown"


def test_a_target_the_windows_build_has_is_absent() -> None:
    assert _lacks("gfx1100", ["0.12.3"]).status == "absent"


@pytest.mark.parametrize(("gfx", "version"), [("gfx1103", "0.31.2"), ("gfx1010", "0.33.0"), ("gfx906", "0.30.0"),
                                              ("gfx1032", "0.30.5")])
def test_a_release_from_0_30_lacks_what_its_rocm7_list_lacks(gfx: str, version: str) -> None:
    fact = _lacks(gfx, [version])
    assert fact.is_known and fact.value == f"ollama {version} for Windows ships ROCm libraries (ROCm 7.1) without {gfx}"


@pytest.mark.parametrize(("gfx", "version"), [("gfx1201", "0.30.0"), ("gfx1103", "0.31.1"), ("gfx1150", "0.33.0")])
def test_a_release_from_0_30_whose_rocm7_list_has_the_target_is_absent(gfx: str, version: str) -> None:
    assert _lacks(gfx, [version]).status == "absent"


@pytest.mark.parametrize(("gfx", "versions"), [("gfx1150", ["0.12.3", "0.30.0"]), ("gfx1103", ["0.31.1", "0.31.2"])])
def test_releases_whose_windows_builds_differ_on_the_target_are_not_judged(gfx: str, versions: list) -> None:
    # the HIP SDK 6.2 build lacks gfx1150, the ROCm 7.1 one has it; 0.31.1 has gfx1103, 0.31.2 not
    fact = _lacks(gfx, versions)
    assert fact.status == "unknown" and "which one failed is not shown" in fact.reason
