"""The derived-fact registry and the basic GPU derived facts."""

from __future__ import annotations

import pytest

from judge_helpers import fact, two_gpu_overlay
from rocm_doctor.facts.value import known
from rocm_doctor.judge import derived
from rocm_doctor.judge.derived import DerivedValues, Tables, compute_gpu, compute_machine, machine_fact, registered_names

NO_GPU = {
    "gpus": {
        "discovery": {"status": "absent", "source": "gpu discovery"},
        "attempts": [{"layer": "kfd", "status": "absent", "detail": "/sys/class/kfd missing"}],
        "agents": [],
    }
}


def test_basic_gpu_facts_are_registered() -> None:
    names = registered_names()
    for path in ("derived.amd_gpu_count", "derived.has_amd_gpu", "derived.has_nvidia_gpu",
                 "derived.amd_integrated_count", "derived.amd_discrete_count", "gpu.is_amd"):
        assert path in names
    assert registered_names("gpu") == [n for n in names if n.startswith("gpu.")]


def test_counts_on_a_two_gpu_machine_with_an_igpu(make_facts) -> None:
    change = two_gpu_overlay()
    change["gpus"]["agents"][1]["integrated"] = fact(True)
    values = compute_machine(make_facts(change))
    assert {k: v.value for k, v in values.items() if k in (
        "derived.amd_gpu_count", "derived.amd_integrated_count", "derived.amd_discrete_count", "derived.has_amd_gpu"
    )} == {"derived.amd_gpu_count": 2, "derived.amd_integrated_count": 1, "derived.amd_discrete_count": 1,
           "derived.has_amd_gpu": True}


def test_no_gpu_found_is_a_known_false(make_facts) -> None:
    values = compute_machine(make_facts(NO_GPU))
    assert values["derived.has_amd_gpu"].status == "known" and values["derived.has_amd_gpu"].value is False
    assert values["derived.amd_gpu_count"].value == 0


def test_failed_discovery_is_unknown_not_false(make_facts) -> None:
    change = {"gpus": {"discovery": {"status": "failed", "source": "kfd", "reason": "permission denied"},
                       "attempts": [{"layer": "kfd", "status": "failed", "detail": "permission denied"}],
                       "agents": []}}
    values = compute_machine(make_facts(change))
    assert values["derived.has_amd_gpu"].status == "unknown"


def test_is_amd_per_agent(make_facts) -> None:
    facts = make_facts(two_gpu_overlay())
    assert compute_gpu(facts, facts.gpus.agents[0])["gpu.is_amd"].value is True
    nvidia = facts.gpus.agents[1].model_copy(update={"vendor": known("NVIDIA", "t"), "vendor_id": known("0x10de", "t")})
    assert compute_gpu(facts, nvidia)["gpu.is_amd"].value is False


def test_a_crashing_derived_fact_becomes_a_failed_fact(make_facts, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(derived, "REGISTRY", dict(derived.REGISTRY))

    @machine_fact("test_boom", "A derived fact that raises, for this test.")
    def boom(facts, tables):
        raise KeyError("gfx9999")

    value = DerivedValues(make_facts()).machine("derived.test_boom")
    assert value.status == "failed" and "KeyError" in value.reason


def test_registration_rejects_bad_names_missing_docs_and_shadowing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(derived, "REGISTRY", dict(derived.REGISTRY))
    with pytest.raises(ValueError, match="snake_case"):
        machine_fact("Bad-Name", "doc")
    with pytest.raises(ValueError, match="needs a doc"):
        machine_fact("fine", " ")
    with pytest.raises(ValueError, match="shadow"):
        derived.gpu_fact("gfx", "would hide the agent field")


def test_tables_overrides_take_precedence() -> None:
    tables = Tables(overrides={"gfx": {"gfx1100": "RX 7900"}}, loader=lambda name: {"from": name})
    assert tables["gfx"] == {"gfx1100": "RX 7900"}
    assert tables["other"] == {"from": "other"}
