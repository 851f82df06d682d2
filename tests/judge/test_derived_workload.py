"""Derived facts about the environment's workload (rocm_doctor/judge/derived_facts/workload.py)."""

from __future__ import annotations

from tests.judge._derived_helpers import K, derived


def test_training_packages_lists_the_installed_training_libraries_in_table_order() -> None:
    installed = {"packages": {"installed": K({"torch": "2.8.0", "peft": "0.17.1", "Accelerate": "1.10.1"})}}
    assert derived("derived.training_packages", installed).value == ["accelerate", "peft"]


def test_training_packages_is_absent_for_an_inference_only_environment() -> None:
    assert derived("derived.training_packages", {}).status == "absent"


def test_training_packages_is_unknown_when_the_packages_could_not_be_listed() -> None:
    failed = {"packages": {"installed": {"status": "failed", "source": "test", "reason": "unreadable"}}}
    assert derived("derived.training_packages", failed).status == "unknown"
