"""The plan decided once: grouping, order, finding ids, conflicts, alternatives, advice, shells."""

from __future__ import annotations

from rocm_doctor.model.fixes import make_fix
from rocm_doctor.remedy.decide import Context, decide

from .helpers import finding, machine_facts

LINUX = machine_facts()
READ_ALL = Context(is_read=lambda name: True)


def _plan(findings, facts=LINUX, context=READ_ALL):
    return decide(findings, facts, context).plan


def test_steps_keep_application_order_and_finding_ids() -> None:
    findings = [
        finding("RD9", make_fix(kind="code", text="use num_workers=0")),
        finding("RD1", make_fix(kind="env", set={"TORCH_BLAS_PREFER_HIPBLASLT": "0"}), severity="error"),
        finding("RD2", make_fix(kind="manual", text="join render", commands=["usermod -aG render $USER"], needs_root=True, runs_on="host")),
        finding("RD3", make_fix(kind="pip", intent="install-rocm-torch")),
    ]
    plan = _plan(findings)
    assert [s.kind for s in plan.steps] == ["manual", "pip", "env", "code"]
    manual = plan.steps[0]
    assert manual.finding_ids == ["RD2"] and manual.needs_root and manual.commands == ["sudo usermod -aG render $USER"]
    assert plan.steps[2].env == {"TORCH_BLAS_PREFER_HIPBLASLT": "0"}
    assert plan.steps[2].commands == ["export TORCH_BLAS_PREFER_HIPBLASLT='0'"]
    assert plan.finding_ids[0] == "RD2"


def test_two_values_for_one_variable_are_a_conflict_and_are_not_written() -> None:
    findings = [
        finding("RD1", make_fix(kind="env", set={"HSA_OVERRIDE_GFX_VERSION": "10.3.0"})),
        finding("RD2", make_fix(kind="env", set={"HSA_OVERRIDE_GFX_VERSION": "11.0.0"})),
        finding("RD3", make_fix(kind="env", set={"TORCH_BLAS_PREFER_HIPBLASLT": "0"})),
    ]
    plan = _plan(findings)
    assert list(plan.env_changes()) == ["TORCH_BLAS_PREFER_HIPBLASLT"]
    described = plan.conflicts[0].describe()
    assert "HSA_OVERRIDE_GFX_VERSION=10.3.0 (from RD1)" in described and "=11.0.0 (from RD2)" in described


def test_set_versus_unset_is_a_conflict() -> None:
    plan = _plan([finding("RD1", make_fix(kind="env", set={"HSA_XNACK": "1"})), finding("RD2", make_fix(kind="env", unset=["HSA_XNACK"]))])
    assert plan.env_changes() == {}
    assert "unset HSA_XNACK (from RD2)" in plan.conflicts[0].describe()


def test_the_same_value_from_two_findings_is_one_step_citing_both() -> None:
    plan = _plan([finding(i, make_fix(kind="env", set={"HSA_OVERRIDE_GFX_VERSION": "10.3.0"})) for i in ("RD1", "RD2")])
    assert plan.conflicts == [] and plan.of_kind("env")[0].finding_ids == ["RD1", "RD2"]


def test_a_variable_the_runtime_does_not_read_is_never_set_but_may_be_unset() -> None:
    findings = [
        finding("RD1", make_fix(kind="env", set={"HIP_DISABLE_IPC": "1", "HSA_OVERRIDE_GFX_VERSION": "10.3.0"})),
        finding("RD2", make_fix(kind="env", unset=["HIP_DISABLE_IPC"])),
    ]
    plan = _plan(findings, context=Context())  # the shipped env-var table
    assert plan.env_changes() == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0", "HIP_DISABLE_IPC": None}
    assert any("does not read HIP_DISABLE_IPC" in n for n in plan.notes)


def test_fixes_for_another_platform_are_left_out() -> None:
    findings = [finding("RD1", make_fix(kind="code", text="windows only", platforms=["windows"])), finding("RD2", make_fix(kind="code", text="everywhere"))]
    assert [s.text for s in _plan(findings).steps] == ["everywhere"]
    assert len(_plan(findings, machine_facts(os_name="windows")).steps) == 2


def _upgrade_or_keep():
    return finding(
        "RD160",
        make_fix(kind="pip", intent="install-rocm-torch", one_of="g", rocm=">=6.3"),
        make_fix(kind="env", set={"TORCH_BLAS_PREFER_HIPBLASLT": "0"}, one_of="g"),
    )


def test_one_of_takes_the_first_fix_that_applies_and_lists_the_other_as_an_alternative() -> None:
    decision = decide([_upgrade_or_keep()], LINUX, READ_ALL)
    assert [s.kind for s in decision.plan.steps] == ["pip"] and decision.plan.env_changes() == {}
    assert [a.text for a in decision.plan.alternatives] == ["set TORCH_BLAS_PREFER_HIPBLASLT=0"]
    options = decision.findings[0].remedy.groups[0].options
    assert [o.default for o in options] == [True, False] and options[0].why


def test_keep_torch_takes_the_alternative_that_keeps_torch() -> None:
    plan = decide([_upgrade_or_keep()], LINUX, Context(keep_torch=True, is_read=lambda n: True)).plan
    assert plan.torch is None and plan.env_changes() == {"TORCH_BLAS_PREFER_HIPBLASLT": "0"}


def test_a_fix_whose_torch_build_cannot_fit_falls_back_to_its_alternative_with_the_reason() -> None:
    wsl = machine_facts(rocm="6.2.3", python="3.10.12", wsl=True)
    decision = decide([_upgrade_or_keep()], wsl, READ_ALL)
    assert decision.plan.torch is None and decision.plan.env_changes() == {"TORCH_BLAS_PREFER_HIPBLASLT": "0"}
    upgrade = decision.findings[0].remedy.groups[0].options[0]
    assert not upgrade.available and "WSL2 uses the system ROCm 6.2.3 runtime" in upgrade.why


def test_info_findings_and_diagnostic_settings_stay_advice_and_are_never_written() -> None:
    findings = [
        finding("RD165", make_fix(kind="env", set={"TORCH_BLAS_PREFER_HIPBLASLT": "0"}), severity="info"),
        finding("RD600", make_fix(kind="env", set={"HSA_ENABLE_SDMA": "0"}, diagnostic=True), severity="error"),
    ]
    plan = _plan(findings)
    assert plan.steps == [] and plan.env_changes() == {} and plan.is_empty
    assert [s.kind for s in plan.advice] == ["advice", "advice"]


def test_hiding_the_igpu_makes_the_torch_choice_ignore_its_gfx() -> None:
    facts = machine_facts(gfx=["gfx1036", "gfx1100"], integrated=[True, False], installed={"torch": "2.5.1+rocm6.2"}, env={})
    findings = [
        finding("RD320", make_fix(kind="env", set={"ROCR_VISIBLE_DEVICES": "1"})),
        finding("RD160", make_fix(kind="pip", intent="install-rocm-torch")),
    ]
    plan = _plan(findings, facts)
    assert plan.torch is not None and plan.torch.route == "pytorch.org"


def test_visibility_settings_that_leave_no_gpu_are_a_conflict() -> None:
    facts = machine_facts(gfx=["gfx1036", "gfx1100"], integrated=[True, False], env={"HIP_VISIBLE_DEVICES": "1"})
    plan = _plan([finding("RD320", make_fix(kind="env", set={"ROCR_VISIBLE_DEVICES": "1"}))], facts)
    assert plan.env_changes() == {}
    assert plan.conflicts[0].subject == "GPU visibility"


def test_commands_are_written_for_the_shell() -> None:
    fixes = [finding("RD1", make_fix(kind="env", set={"A_B": "x y"}, unset=["C_D"]))]
    lines = {
        shell: decide(fixes, LINUX, Context(shell=shell, is_read=lambda n: True)).plan.steps[0].commands
        for shell in ("bash", "fish", "powershell", "cmd")
    }
    assert lines["bash"] == ["export A_B='x y'", "unset C_D"]
    assert lines["fish"] == ["set -gx A_B 'x y'", "set -e C_D"]
    assert lines["powershell"] == ["$env:A_B = 'x y'", "Remove-Item Env:C_D -ErrorAction SilentlyContinue"]
    assert lines["cmd"] == ['set "A_B=x y"', 'set "C_D="']
