"""gpu.own_code_lists_lack_gfx: the GPU against the gfx lists of libraries that build their own GPU code
(flash-attn's CK build, aiter's JIT and device table: rules/data/own_gpu_code_targets.yaml)."""

from __future__ import annotations

import json
from typing import Any, Dict

from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.cases import overlay
from rocm_doctor.judge.derived import DerivedValues
from tests.judge._derived_helpers import BASELINE, K

FACT = "gpu.own_code_lists_lack_gfx"


def lacks(gfx: str, signatures: list, source: str = "test") -> Any:
    change: Dict[str, Any] = {
        "gpus": {"agents": {0: {"gfx": K(gfx), "source": source}}},
        "symptoms": {"signatures": K(signatures)},
    }
    facts = Facts.from_dict(overlay(json.loads(BASELINE.read_text()), change))
    return DerivedValues(facts).gpu(FACT, facts.gpus.agents[0])


def test_a_target_no_flash_attn_release_lists_is_said_to_be_in_none() -> None:
    fact = lacks("gfx1103", ["flash_attn_build_refuses_gpu_arch"])
    assert fact.status == "known"
    assert "no release read lists gfx1103" in fact.value


def test_a_target_a_later_aiter_release_added_names_the_release_it_came_with() -> None:
    fact = lacks("gfx1151", ["aiter_unknown_gpu_arch"])
    assert fact.status == "known"
    assert "v0.1.7.post3" in fact.value  # the device table's first release with gfx1151


def test_both_aiter_lists_speak_for_the_one_message_they_share() -> None:
    fact = lacks("gfx1151", ["aiter_refuses_gpu_arch"])
    assert fact.status == "known"
    assert "v0.1.7.post3" in fact.value and "v0.1.19" in fact.value


def test_a_target_every_release_lists_is_not_the_one_refused() -> None:
    assert lacks("gfx90a", ["flash_attn_build_refuses_gpu_arch"]).status == "absent"


def test_no_refusal_in_the_report_leaves_the_fact_absent() -> None:
    assert lacks("gfx1103", ["rocblas_tensile_library_unloadable"]).status == "absent"


def test_a_gpu_inferred_from_a_cpu_model_is_never_judged() -> None:
    assert lacks("gfx1103", ["flash_attn_build_refuses_gpu_arch"], source="paste:cpu (Ryzen 7 7840HS)").status == "unknown"


def build_failed(gfx: str, contexts: list) -> Any:
    change: Dict[str, Any] = {
        "gpus": {"agents": {0: {"gfx": K(gfx), "source": "test"}}},
        "symptoms": {"context": K(contexts)},
    }
    facts = Facts.from_dict(overlay(json.loads(BASELINE.read_text()), change))
    return DerivedValues(facts).gpu("gpu.own_code_build_failed_lacks_gfx", facts.gpus.agents[0])


def test_a_failed_flash_attn_build_on_rdna3_names_the_only_sources_that_list_it() -> None:
    fact = build_failed("gfx1100", ["flash_attn_build_failed"])
    assert fact.status == "known"
    assert "5301a359" in fact.value and "2.8.0-2.8.3" in fact.value


def test_a_failed_build_on_a_target_every_release_lists_or_no_failed_build_says_nothing() -> None:
    assert build_failed("gfx942", ["flash_attn_build_failed"]).status == "absent"
    assert build_failed("gfx1100", ["training_workload"]).status == "absent"


def test_sgl_kernels_list_has_no_rdna_target_and_says_so_for_gfx1100() -> None:
    fact = lacks("gfx1100", ["sgl_kernel_refuses_gpu_arch"])
    assert fact.status == "known"
    assert "sgl-kernel" in fact.value and "no release read lists gfx1100" in fact.value


def test_sgl_kernels_refusal_says_nothing_of_an_mi300x_it_lists() -> None:
    assert lacks("gfx942", ["sgl_kernel_refuses_gpu_arch"]).status == "absent"
