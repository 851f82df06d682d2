"""Derived facts about gfx targets and HSA_OVERRIDE_GFX_VERSION (rocm_doctor/judge/derived_facts/gfx.py)."""

from __future__ import annotations

import json
from typing import Any, Dict

from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.cases import overlay
from rocm_doctor.judge.derived import DerivedValues
from tests.judge._derived_helpers import BASELINE, K, agent, derived, env

UNKNOWN = {"status": "unknown", "reason": "--no-torch"}
TORCH_251 = {"torch": {"version": K("2.5.1+rocm6.2"), "rocm_version": K("6.2"), "live": {"arch_list": UNKNOWN}}}
TORCH_28 = {"torch": {"version": K("2.8.0+rocm6.4"), "rocm_version": K("6.4"), "live": {"arch_list": UNKNOWN}}}


def gpu(path: str, change: Dict[str, Any], index: int = 0) -> Any:
    """Per-GPU derived fact ``path`` for agent ``index`` on the baseline with ``change``."""
    facts = Facts.from_dict(overlay(json.loads(BASELINE.read_text()), change))
    return DerivedValues(facts).gpu(path, facts.gpus.agents[index])


def with_gfx(gfx: str, *parts: Dict[str, Any]) -> Dict[str, Any]:
    change: Dict[str, Any] = {"gpus": {"agents": {0: {"gfx": K(gfx)}}}}
    for part in parts:
        change = overlay(change, part)
    return change


def test_in_wheel_prefers_the_live_arch_list_then_the_table() -> None:
    assert gpu("gpu.in_wheel", {}).value is True
    live_without = {"torch": {"live": {"arch_list": K(["gfx900", "gfx90a:xnack-"])}}}
    assert gpu("gpu.in_wheel", live_without).value is False
    assert gpu("gpu.in_wheel", with_gfx("gfx1101", TORCH_251)).value is False
    assert gpu("gpu.in_wheel", with_gfx("gfx1101", TORCH_251)).source == "rules/data/torch_wheels.yaml"


def test_an_empty_live_arch_list_falls_back_to_the_table() -> None:
    # torch.cuda.get_arch_list() is [] when no GPU is visible; it says nothing about the wheel.
    assert gpu("gpu.in_wheel", {"torch": {"live": {"arch_list": K([])}}}).value is True


def test_in_wheel_is_unknown_for_amd_wheels_without_a_probe_and_absent_for_cuda() -> None:
    amd = {"torch": {"version": K("2.8.0a0+gitfc14c65"), "distributor": K("amd"), "live": {"arch_list": UNKNOWN}}}
    assert gpu("gpu.in_wheel", amd).status == "unknown"
    assert gpu("gpu.in_wheel", {"torch": {"flavour": K("cuda")}}).status == "absent"


def test_override_facts_global_and_per_node() -> None:
    noop = env(HSA_OVERRIDE_GFX_VERSION="11.0.0")
    assert gpu("gpu.override", noop).value == "11.0.0"
    assert gpu("gpu.override_var", noop).value == "HSA_OVERRIDE_GFX_VERSION"
    assert gpu("gpu.override_is_noop", noop).value is True
    per_node = env(HSA_OVERRIDE_GFX_VERSION="10.3.0", HSA_OVERRIDE_GFX_VERSION_1="11.0.0")
    assert gpu("gpu.override_var", per_node).value == "HSA_OVERRIDE_GFX_VERSION_1"
    assert gpu("gpu.override_is_noop", per_node).value is True
    assert gpu("gpu.override", {}).status == "absent"
    no_node = overlay(env(HSA_OVERRIDE_GFX_VERSION_1="11.0.0"), {"gpus": {"agents": {0: {"kfd_node": {"status": "unknown"}}}}})
    assert gpu("gpu.override", no_node).status == "unknown"


def test_strix_halo_11_5_1_is_a_noop() -> None:
    assert gpu("gpu.override_is_noop", with_gfx("gfx1151", env(HSA_OVERRIDE_GFX_VERSION="11.5.1"))).value is True


def test_override_validity_target_family_and_wheel() -> None:
    bad = env(HSA_OVERRIDE_GFX_VERSION="gfx1100")
    assert gpu("gpu.override_valid", bad).value is False
    assert gpu("gpu.override_gfx", bad).status == "absent"
    assert gpu("gpu.effective_gfx", bad).status == "unknown"
    cross = with_gfx("gfx1151", env(HSA_OVERRIDE_GFX_VERSION="9.0.0"))
    assert gpu("gpu.override_cross_family", cross).value is True
    rdna2 = with_gfx("gfx1031", TORCH_251, env(HSA_OVERRIDE_GFX_VERSION="10.3.0"))
    assert gpu("gpu.override_cross_family", rdna2).value is False
    assert gpu("gpu.effective_gfx", rdna2).value == "gfx1030"
    assert gpu("gpu.effective_in_wheel", rdna2).value is True
    missing = with_gfx("gfx1150", TORCH_28, env(HSA_OVERRIDE_GFX_VERSION="11.5.1"))
    assert gpu("gpu.override_in_wheel", missing).value is False


def test_recommended_override_and_upgrade_facts() -> None:
    assert gpu("gpu.recommended_override", with_gfx("gfx1031", TORCH_251)).value == "10.3.0"
    assert gpu("gpu.recommended_override", with_gfx("gfx1102", TORCH_251)).value == "11.0.0"
    assert gpu("gpu.recommended_override", {}).status == "absent"
    assert gpu("gpu.recommended_override", with_gfx("gfx1151", TORCH_28)).status == "absent"
    assert gpu("gpu.first_torch_with_gfx", with_gfx("gfx1151")).value == "2.10"
    assert gpu("gpu.first_torch_with_gfx", with_gfx("gfx1031")).status == "absent"
    assert gpu("gpu.newest_torch_with_gfx", {}).value == "torch 2.13 (rocm7.2)"
    assert gpu("gpu.family", with_gfx("gfx1151")).value == "rdna3.5"
    assert gpu("gpu.override_group", with_gfx("gfx1036")).value == "gfx10.3"


def test_polaris_gfx803_has_a_family_but_no_override_group_or_recommended_override() -> None:
    polaris = with_gfx("gfx803", TORCH_251)
    assert gpu("gpu.family", polaris).value == "gcn4"
    assert gpu("gpu.override_group", polaris).status == "absent"
    assert gpu("gpu.recommended_override", polaris).status == "absent"
    # Retired from ROCm and HIP altogether (rules/data/rocm_support.yaml `retired`).
    assert gpu("gpu.windows_runtime_supported", polaris).value is False


def test_hipblaslt_support_needs_rocm_6_3_on_rdna3() -> None:
    assert gpu("gpu.hipblaslt_supported", TORCH_251).value is False
    assert gpu("gpu.hipblaslt_supported", {}).value is True
    assert gpu("gpu.hipblaslt_supported", with_gfx("gfx1030")).value is False
    assert gpu("gpu.hipblaslt_supported", with_gfx("gfx942", TORCH_251)).value is True
    noop = overlay(TORCH_251, env(HSA_OVERRIDE_GFX_VERSION="11.0.0"))
    assert gpu("gpu.hipblaslt_supported", noop).value is False


def test_windows_runtime_and_therock() -> None:
    # no runtime release shown: gfx1030 is supported up to HIP SDK 6.4.2 and dropped in 7.2, so the fact is unknown
    assert gpu("gpu.windows_runtime_supported", with_gfx("gfx1030")).status == "unknown"
    assert gpu("gpu.windows_runtime_supported", with_gfx("gfx1100")).value is True
    assert gpu("gpu.therock_status", with_gfx("gfx1031")).value == "release_ready"
    assert gpu("gpu.therock_status", with_gfx("gfx803")).status == "absent"


def test_machine_override_facts_and_distinct_targets() -> None:
    assert derived("derived.override_value", {}).status == "absent"
    assert derived("derived.override_valid", env(HSA_OVERRIDE_GFX_VERSION="11.0")).value is False
    assert derived("derived.override_gfx", env(HSA_OVERRIDE_GFX_VERSION="10.3.0")).value == "gfx1030"
    malformed = derived("derived.override_malformed", env(HSA_OVERRIDE_GFX_VERSION="gfx1100", HSA_OVERRIDE_GFX_VERSION_2="1.2"))
    # The only GPU is KFD node 1: it reads the global variable; nothing reads _2 (no GPU there).
    assert [m.split("=")[0] for m in malformed.value] == ["HSA_OVERRIDE_GFX_VERSION"]
    assert derived("derived.override_nodes_without_gpu", env(HSA_OVERRIDE_GFX_VERSION_2="1.2")).value == ["HSA_OVERRIDE_GFX_VERSION_2"]
    assert derived("derived.override_nodes_without_gpu", env(HSA_OVERRIDE_GFX_VERSION_1="11.0.0")).status == "absent"
    assert derived("derived.gpu_kfd_nodes", {}).value == ["1"]
    assert derived("derived.override_malformed", env(HSA_OVERRIDE_GFX_VERSION="11.0.0")).status == "absent"
    two = {"gpus": {"agents": [agent(0, "gfx1100", False), agent(1, "gfx1036", True)]}}
    assert derived("derived.distinct_amd_gfx_count", two).value == 2
    assert derived("derived.amd_gfx_targets", two).value == ["gfx1100", "gfx1036"]
    same = {"gpus": {"agents": [agent(0, "gfx1100", False), agent(1, "gfx1100:xnack-", False)]}}
    assert derived("derived.distinct_amd_gfx_count", same).value == 1


def test_windows_sdk_support_is_judged_by_the_hip_sdk_in_use() -> None:
    zluda = {"host": {"os": K("windows")}, "torch": {"flavour": K("cuda"), "rocm_version": {"status": "absent", "reason": "CUDA build"}}}
    sdk_64 = overlay(zluda, {"windows": {"hip_sdk_versions": K(["6.4"])}})
    assert gpu("gpu.windows_sdk_supported", with_gfx("gfx1103", sdk_64)).value is False  # not listed: unsupported
    assert gpu("gpu.windows_sdk_supported", with_gfx("gfx1100", sdk_64)).value is True
    # a runtime-only target has no HIP SDK libraries
    sdk_62 = overlay(zluda, {"windows": {"hip_sdk_versions": K(["6.2"])}})
    assert gpu("gpu.windows_sdk_supported", with_gfx("gfx1031", sdk_62)).value is False
    # no HIP SDK release shown, and not Windows: nothing said
    assert gpu("gpu.windows_sdk_supported", with_gfx("gfx1103", zluda)).status == "unknown"
    assert gpu("gpu.windows_sdk_supported", with_gfx("gfx1103")).status == "absent"


def test_recommended_override_is_absent_before_the_wheel_is_known_for_a_gpu_the_table_gives_none() -> None:
    # learn53i (legacy-rocm-build#6416, a W7900D): an AMD +git torch without a probe leaves the wheel's targets
    # unknown; gfx1100 and gfx1010 have no override in rules/data/gfx_overrides.yaml, so whatever the wheel,
    # none can be recommended (the paste verdict no longer asks to decide "set HSA_OVERRIDE_GFX_VERSION=10.3.0").
    amd = {"torch": {"version": K("2.9.1+gitff65f5b"), "distributor": K("amd"), "live": {"arch_list": UNKNOWN}}}
    assert gpu("gpu.recommended_override", with_gfx("gfx1100", amd)).status == "absent"
    assert gpu("gpu.recommended_override", with_gfx("gfx1010", amd)).status == "absent"
    assert gpu("gpu.recommended_override", with_gfx("gfx1100", {"torch": {"flavour": {"status": "unknown", "reason": "not shown"}}})).status == "absent"
    # a GPU the table does give an override for stays unknown until the wheel's targets are known
    assert gpu("gpu.recommended_override", with_gfx("gfx1031", amd)).status == "unknown"
    assert gpu("gpu.recommended_override", with_gfx("gfx1102", amd)).status == "unknown"


def _pasted_rocminfo(marketing: str) -> str:
    # a report with the override exported in the session and rocminfo's agent printed under it
    lines = ["I use `export HSA_OVERRIDE_GFX_VERSION=10.3.0` and the GPU is not used.", "", "```", "$ rocminfo", "*******", "Agent 2", "*******"]
    lines += ["  Name:                    gfx1030"] + ([f"  Marketing Name:          {marketing}"] if marketing else [])
    lines += ["  Vendor Name:             AMD", "  Device Type:             GPU", "```"]
    return "\n".join(lines)


def _pasted_gpu_fact(path: str, text: str) -> Any:
    from rocm_doctor.ingest import ingest_text

    facts = ingest_text(text).facts
    return DerivedValues(facts).gpu(path, facts.gpus.agents[0])


def test_a_pasted_runtime_listing_alone_cannot_tell_that_the_override_is_a_noop() -> None:
    # under HSA_OVERRIDE_GFX_VERSION=10.3.0 rocminfo prints gfx1030 for any RDNA2 GPU (an RX 6400 is gfx1034):
    # the listing's gfx is the override's target, not evidence that the GPU already is gfx1030
    noop = _pasted_gpu_fact("gpu.override_is_noop", _pasted_rocminfo(""))
    assert noop.status == "unknown" and "runtime listing" in (noop.reason or "")


def test_a_pasted_gpu_name_decides_whether_the_override_is_a_noop_beside_the_listing() -> None:
    assert _pasted_gpu_fact("gpu.override_is_noop", _pasted_rocminfo("AMD Radeon RX 6600")).value is False
    assert _pasted_gpu_fact("gpu.override_is_noop", _pasted_rocminfo("AMD Radeon RX 6800 XT")).value is True


def _pasted_rocminfo_with_torch(marketing: str) -> str:
    # the same listing beside a torch whose wheel has gfx1030 and gfx1100, not gfx1031 (pytorch.org 2.3.0+rocm6.0)
    return "torch 2.3.0+rocm6.0 on Ubuntu 22.04\n" + _pasted_rocminfo(marketing)


def test_the_gpus_own_target_beside_the_override_comes_from_its_name_not_the_listing() -> None:
    # under 10.3.0 rocminfo lists an RX 6700 XT (gfx1031) as gfx1030: the wheel lacks the GPU's own target, so the
    # override is what makes it run, and the facts that compare the wheel or the override with the GPU say so
    text = _pasted_rocminfo_with_torch("AMD Radeon RX 6700 XT")
    assert _pasted_gpu_fact("gpu.own_gfx", text).value == "gfx1031"
    assert _pasted_gpu_fact("gpu.in_wheel", text).value is False
    assert _pasted_gpu_fact("gpu.override_cross_family", text).value is False
    # an RX 7900 XTX listed as gfx1030 under 10.3.0 is an RDNA3 GPU told to be an RDNA2 one
    assert _pasted_gpu_fact("gpu.override_cross_family", _pasted_rocminfo_with_torch("AMD Radeon RX 7900 XTX")).value is True


def test_a_pasted_listing_alone_under_the_override_leaves_the_gpus_own_target_unknown() -> None:
    text = _pasted_rocminfo_with_torch("")
    assert _pasted_gpu_fact("gpu.own_gfx", text).status == "unknown"
    assert _pasted_gpu_fact("gpu.override_cross_family", text).status == "unknown"


def test_a_gpu_that_needs_the_override_is_not_told_it_is_unneeded_from_the_listing_under_it() -> None:
    from rocm_doctor.ingest import ingest_text
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    rules = load_rules([], use_env=False)
    needs = evaluate(rules, ingest_text(_pasted_rocminfo_with_torch("AMD Radeon RX 6700 XT")).facts).findings
    assert "RD216" not in [f.id for f in needs]
    crossed = evaluate(rules, ingest_text(_pasted_rocminfo_with_torch("AMD Radeon RX 7900 XTX")).facts).findings
    assert [f.id for f in crossed if f.severity == "error"][:1] == ["RD214"]
    # and names the GPU's own target, not the one rocminfo printed under the override
    rd214 = next(f for f in crossed if f.id == "RD214")
    assert "points gfx1100 at" in rd214.title and "(gfx1100, group gfx11)" in rd214.message
    assert "a wheel with gfx1100 kernels" in rd214.fixes[0].text


def test_a_listed_target_other_than_the_overrides_is_the_gpus_own() -> None:
    # a listing under the override prints its target; one that prints another target was printed without it
    # (rocminfo run plainly, the override scoped to the program), so it is the GPU's own
    text = _pasted_rocminfo("").replace("gfx1030", "gfx1031")
    assert _pasted_gpu_fact("gpu.own_gfx", text).value == "gfx1031"
    assert _pasted_gpu_fact("gpu.override_is_noop", text).value is False


def test_a_bare_grep_of_the_overrides_target_beside_a_named_gpu_is_no_second_gpu_nor_a_noop() -> None:
    # `rocminfo | grep gfx` under 10.3.0 prints gfx1030 for an RX 6700 XT (gfx1031): no "does nothing on gfx1030"
    # (RD212), no "one override for GPUs of different targets" (RD215)
    from rocm_doctor.ingest import ingest_text
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    text = (
        "GPU: RX 6700 XT, Ubuntu 22.04\n$ rocminfo | grep gfx\n  Name:                    gfx1030\n"
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ python app.py\nSegmentation fault (core dumped)\n"
    )
    ids = [f.id for f in evaluate(load_rules([], use_env=False), ingest_text(text).facts).findings]
    assert "RD212" not in ids and "RD215" not in ids


def test_a_fault_beside_a_listing_of_only_the_overrides_target_is_told_to_check_the_override() -> None:
    # rocminfo under 10.3.0 prints gfx1030 whatever the GPU: its family is the override's own, not the GPU's, so the
    # GPU's family is not known and RD921 says to check the value against it (it was silent, and nothing explained
    # the fault)
    from rocm_doctor.ingest import ingest_text
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    fault = "\nMemory access fault by GPU node-1 (Agent handle: 0x55d0c0a0) on address 0x7f1200000000. Reason: Page not present or supervisor privilege.\n"
    findings = evaluate(load_rules([], use_env=False), ingest_text(_pasted_rocminfo("") + fault).facts).findings
    assert "RD921" in [f.id for f in findings]
