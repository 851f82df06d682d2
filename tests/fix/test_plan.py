"""The fix plan: grouping, order, finding ids, conflicts, and variables the runtime ignores."""

from __future__ import annotations

from rocm_doctor.fix.plan import build_plan
from rocm_doctor.judge.model import Fix

from .helpers import finding, machine_facts

LINUX = machine_facts()


def test_groups_keep_application_order_and_finding_ids() -> None:
    findings = [
        finding("RD9", Fix(kind="code", text="use num_workers=0")),
        finding("RD1", Fix(kind="env", set={"TORCH_BLAS_PREFER_HIPBLASLT": "0"}), severity="error"),
        finding("RD2", Fix(kind="manual", text="join render", commands=["sudo usermod -aG render $USER"], needs_root=True)),
        finding("RD3", Fix(kind="pip", intent="install-rocm-torch")),
    ]
    plan = build_plan(findings, LINUX, is_read=lambda name: True)
    assert [s.finding_ids for s in plan.manual] == [("RD2",)]
    assert plan.manual[0].needs_root
    assert [p.intent for p in plan.pip] == ["install-rocm-torch"]
    assert [(c.name, c.value, c.finding_ids) for c in plan.env] == [("TORCH_BLAS_PREFER_HIPBLASLT", "0", ("RD1",))]
    assert [s.text for s in plan.code] == ["use num_workers=0"]
    assert plan.finding_ids[0] == "RD1"  # errors first


def test_two_values_for_one_variable_are_a_conflict_not_a_merge() -> None:
    findings = [
        finding("RD1", Fix(kind="env", set={"HSA_OVERRIDE_GFX_VERSION": "10.3.0"})),
        finding("RD2", Fix(kind="env", set={"HSA_OVERRIDE_GFX_VERSION": "11.0.0"})),
        finding("RD3", Fix(kind="env", set={"TORCH_BLAS_PREFER_HIPBLASLT": "0"})),
    ]
    plan = build_plan(findings, LINUX, is_read=lambda name: True)
    assert [c.name for c in plan.env] == ["TORCH_BLAS_PREFER_HIPBLASLT"]
    assert len(plan.conflicts) == 1
    described = plan.conflicts[0].describe()
    assert "HSA_OVERRIDE_GFX_VERSION=10.3.0 (from RD1)" in described and "=11.0.0 (from RD2)" in described


def test_set_versus_unset_is_a_conflict() -> None:
    findings = [
        finding("RD1", Fix(kind="env", set={"HSA_XNACK": "1"})),
        finding("RD2", Fix(kind="env", unset=["HSA_XNACK"])),
    ]
    plan = build_plan(findings, LINUX, is_read=lambda name: True)
    assert plan.env == ()
    assert "unset HSA_XNACK (from RD2)" in plan.conflicts[0].describe()


def test_the_same_value_from_two_findings_is_one_change_citing_both() -> None:
    findings = [finding(i, Fix(kind="env", set={"HSA_OVERRIDE_GFX_VERSION": "10.3.0"})) for i in ("RD1", "RD2")]
    plan = build_plan(findings, LINUX, is_read=lambda name: True)
    assert plan.conflicts == ()
    assert plan.env[0].finding_ids == ("RD1", "RD2")


def test_two_torch_builds_are_a_conflict() -> None:
    findings = [
        finding("RD1", Fix(kind="pip", intent="install-amd-windows-torch")),
        finding("RD2", Fix(kind="pip", intent="install-therock-torch")),
    ]
    plan = build_plan(findings, machine_facts(os_name="windows"), is_read=lambda name: True)
    assert plan.conflicts[0].subject == "torch build"


def test_a_variable_the_runtime_does_not_read_is_never_set_but_may_be_unset() -> None:
    findings = [
        finding("RD1", Fix(kind="env", set={"HIP_DISABLE_IPC": "1", "HSA_OVERRIDE_GFX_VERSION": "10.3.0"})),
        finding("RD2", Fix(kind="env", unset=["HIP_DISABLE_IPC"])),
    ]
    plan = build_plan(findings, LINUX)  # the shipped env-var table
    assert ("HIP_DISABLE_IPC", "1") not in [(c.name, c.value) for c in plan.env]
    assert ("HIP_DISABLE_IPC", None) in [(c.name, c.value) for c in plan.env]
    assert any("does not read HIP_DISABLE_IPC" in n.text for n in plan.notes)


def test_fixes_for_another_platform_are_left_out() -> None:
    findings = [
        finding("RD1", Fix(kind="code", text="windows only", platforms=["windows"])),
        finding("RD2", Fix(kind="code", text="everywhere")),
    ]
    assert [s.text for s in build_plan(findings, LINUX).code] == ["everywhere"]
    assert len(build_plan(findings, machine_facts(os_name="windows")).code) == 2


def test_keep_torch_fixes_are_alternatives_unless_the_user_keeps_torch() -> None:
    findings = [
        finding("RD160", Fix(kind="pip", intent="install-rocm-torch"),
                Fix(kind="env", set={"TORCH_BLAS_PREFER_HIPBLASLT": "0"}, keep_torch=True)),
    ]
    upgrading = build_plan(findings, LINUX, is_read=lambda name: True)
    assert [p.intent for p in upgrading.pip] == ["install-rocm-torch"]
    assert upgrading.env == ()
    assert [(fix.set, ids) for fix, ids in upgrading.alternatives] == [({"TORCH_BLAS_PREFER_HIPBLASLT": "0"}, ("RD160",))]

    staying = build_plan(findings, LINUX, is_read=lambda name: True, keep_torch=True)
    assert staying.pip == () and staying.alternatives == ()
    assert [(c.name, c.value) for c in staying.env] == [("TORCH_BLAS_PREFER_HIPBLASLT", "0")]
    assert [n.text for n in staying.notes] == ["keeping the installed torch: not running 'install-rocm-torch'"]


def test_the_same_alternative_from_two_gpus_is_listed_once_with_both_findings() -> None:
    alternative = Fix(kind="env", set={"DISABLE_ADDMM_CUDA_LT": "1"}, keep_torch=True)
    plan = build_plan([finding("RD160", alternative), finding("RD161", alternative)], LINUX, is_read=lambda n: True)
    assert [ids for _, ids in plan.alternatives] == [("RD160", "RD161")]
