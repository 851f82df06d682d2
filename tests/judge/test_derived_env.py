"""Derived facts about environment variables (rocm_doctor/judge/derived_facts/env.py)."""

from __future__ import annotations

from tests.judge._derived_helpers import K, agent, derived, env


def test_alloc_conf_precedence_prefers_generic_then_cuda_over_hip() -> None:
    change = env(PYTORCH_HIP_ALLOC_CONF="expandable_segments:True", PYTORCH_CUDA_ALLOC_CONF="max_split_size_mb:64")
    assert derived("derived.alloc_conf_variable", change).value == "PYTORCH_CUDA_ALLOC_CONF"
    assert derived("derived.alloc_conf_effective", change).value == "max_split_size_mb:64"
    assert derived("derived.hip_alloc_conf_shadowed", change).value is True
    assert derived("derived.expandable_segments_requested", change).value is False


def test_expandable_segments_requested_only_when_true() -> None:
    assert derived("derived.expandable_segments_requested", env(PYTORCH_HIP_ALLOC_CONF="expandable_segments:True")).value
    assert not derived("derived.expandable_segments_requested", env(PYTORCH_ALLOC_CONF="expandable_segments:False")).value


def test_expandable_segments_supported_by_torch_and_rocm_version() -> None:
    old = {"torch": {"version": K("2.5.1+rocm6.2"), "rocm_version": K("6.2")}}
    mid = {"torch": {"version": K("2.11.0+rocm7.1"), "rocm_version": K("7.1")}}
    assert derived("derived.expandable_segments_supported", old).value is False
    assert derived("derived.expandable_segments_supported", mid).status == "unknown"
    assert derived("derived.expandable_segments_supported", {}).value is True  # baseline 2.13.0+rocm7.2
    assert derived("derived.expandable_segments_supported", {"torch": {"flavour": K("cuda")}}).status == "absent"


def test_unread_env_vars_excludes_variables_with_their_own_rule() -> None:
    fact = derived("derived.unread_env_vars", env(HIP_DISABLE_IPC="1", ROCM_ALLOW_HIDDEN_KERNEL_FLAGS="1", HIP_VISIBLE_DEVICES="0"))
    assert fact.value == ["ROCM_ALLOW_HIDDEN_KERNEL_FLAGS"]
    assert derived("derived.unread_env_vars", env(HIP_DISABLE_IPC="1")).status == "absent"


def test_build_time_and_debug_variables_are_listed() -> None:
    assert derived("derived.build_time_env_vars", env(PYTORCH_ROCM_ARCH="gfx1100")).value == ["PYTORCH_ROCM_ARCH"]
    assert derived("derived.debug_env_vars", env(AMD_SERIALIZE_KERNEL="3", HIP_LAUNCH_BLOCKING="0")).value == ["AMD_SERIALIZE_KERNEL"]


def test_xnack_on_rdna3_but_not_on_cdna() -> None:
    rdna = env(HSA_XNACK="1")
    assert derived("derived.xnack_env_on_rdna", rdna).value is True
    assert derived("derived.xnack_unsupported_gpus", rdna).value == ["AMD Radeon RX 7900 XTX (gfx1100)"]
    cdna = {**env(HSA_XNACK="1"), "gpus": {"agents": [agent(0, "gfx942", False)]}}
    assert derived("derived.xnack_env_on_rdna", cdna).value is False
    unlisted = {**env(HSA_XNACK="1"), "gpus": {"agents": [agent(0, "gfx1201", False)]}}
    assert derived("derived.xnack_env_on_rdna", unlisted).status == "unknown"


def test_unread_environment_is_unknown_not_empty() -> None:
    change = {"env": {"vars": {"status": "unknown", "reason": "pasted report"}}}
    assert derived("derived.unread_env_vars", change).status == "unknown"
    assert derived("derived.xnack_env_on_rdna", change).status == "unknown"
