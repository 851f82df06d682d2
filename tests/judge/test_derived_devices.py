"""Derived facts about visible devices (rocm_doctor/judge/derived_facts/devices.py)."""

from __future__ import annotations

from tests.judge._derived_helpers import agent, derived, env

IGPU_FIRST = {"gpus": {"agents": [agent(0, "gfx1036", True), agent(1, "gfx1100", False)]}}
TWO = {"gpus": {"agents": [agent(0, "gfx1100", False), agent(1, "gfx1100", False)]}}


def test_igpu_first_unless_a_visibility_variable_hides_it() -> None:
    assert derived("derived.igpu_enumerated_first", IGPU_FIRST).value is True
    assert derived("derived.igpu_enumerated_first", {**IGPU_FIRST, **env(ROCR_VISIBLE_DEVICES="1")}).value is False
    assert derived("derived.igpu_enumerated_first", {**IGPU_FIRST, **env(HIP_VISIBLE_DEVICES="GPU-abc")}).status == "unknown"
    assert derived("derived.discrete_gpu_indices", IGPU_FIRST).value == "1"


def test_visible_devices_invalid_counts_after_rocr_filtering() -> None:
    assert derived("derived.visible_devices_invalid", {**TWO, **env(HIP_VISIBLE_DEVICES="0,1")}).status == "absent"
    bad = derived("derived.visible_devices_invalid", {**TWO, **env(ROCR_VISIBLE_DEVICES="1", HIP_VISIBLE_DEVICES="0,1")})
    assert bad.value == ["HIP_VISIBLE_DEVICES=1 (only 1 device(s) to choose from)"]
    assert derived("derived.visible_devices_invalid", env(CUDA_VISIBLE_DEVICES="3")).value


def test_hip_and_cuda_visible_devices_conflict() -> None:
    assert derived("derived.visible_devices_conflict", env(HIP_VISIBLE_DEVICES="0", CUDA_VISIBLE_DEVICES="1")).value is True
    assert derived("derived.visible_devices_conflict", env(HIP_VISIBLE_DEVICES="0")).value is False


def test_a_visibility_list_starting_with_no_gpu_hides_every_gpu_whatever_the_gpu_list() -> None:
    # ROCm/clr rocdevice.cpp: the runtime stops at the first entry that names no GPU; "-1" keeps none
    for variables in ({"CUDA_VISIBLE_DEVICES": "-1"}, {"HIP_VISIBLE_DEVICES": "-1"}, {"HIP_VISIBLE_DEVICES": "none,0"}):
        hidden = derived("derived.visible_devices_invalid", env(**variables))
        assert hidden.status == "known" and "enumerates none" in hidden.value[0]


def test_a_non_empty_hip_list_wins_over_a_cuda_list_that_would_hide_every_gpu() -> None:
    both = derived("derived.visible_devices_invalid", {**TWO, **env(HIP_VISIBLE_DEVICES="0", CUDA_VISIBLE_DEVICES="-1")})
    assert both.status == "absent"
    assert derived("derived.visible_devices_invalid", {**TWO, **env(HIP_VISIBLE_DEVICES="GPU-abc")}).status != "known"


def test_a_visibility_value_shown_as_an_unexpanded_expression_is_unknown_not_a_list_that_hides_every_gpu() -> None:
    # a launcher's os.environ["CUDA_VISIBLE_DEVICES"] = str(rank) or a script's CUDA_VISIBLE_DEVICES=$LOCAL_RANK
    # shows no list: read as one, it "started with a word" and RD681 gave an error on a working machine
    for value in ("str(rank)", "$LOCAL_RANK", "${SLURM_LOCALID}", "%GPU_ID%", "`cat ids`"):
        fact = derived("derived.visible_devices_hide_every_gpu", env(CUDA_VISIBLE_DEVICES=value))
        assert fact.status == "unknown" and "unexpanded" in fact.reason, value
    assert derived("derived.visible_devices_hide_every_gpu", env(CUDA_VISIBLE_DEVICES="none")).status == "known"
