"""pip commands: uninstall first, pinned install from the right index, the choice explained."""

from __future__ import annotations

from rocm_doctor.remedy.choice import Machine, NoChoice, choose_torch
from rocm_doctor.remedy.pip import pip_plan
from rocm_doctor.fix.plan import build_plan
from rocm_doctor.judge.model import Fix

from .helpers import finding, machine_facts

import pytest

REPLACE = finding("RD101", Fix(kind="pip", intent="install-rocm-torch"), severity="error")


def _plan(facts, *findings, **kwargs):
    return pip_plan(build_plan(list(findings), facts, is_read=lambda n: True), facts, **kwargs)


def test_cuda_wheel_is_uninstalled_then_the_rocm_build_installed_from_pytorch_org() -> None:
    facts = machine_facts(installed={"torch": "2.5.1+cu124", "torchvision": "0.20.1+cu124", "triton": "3.1.0", "numpy": "2"})
    plan = _plan(facts, REPLACE)
    uninstall, install = plan.commands
    assert uninstall.argv == ("/env/bin/python", "-m", "pip", "uninstall", "-y", "torch", "torchvision", "triton")
    assert install.argv[:5] == ("/env/bin/python", "-m", "pip", "install", "--index-url")
    assert install.argv[5].startswith("https://download.pytorch.org/whl/rocm")
    assert "torch==2.13.*" in install.argv and "torchvision==0.28.*" in install.argv
    assert install.finding_ids == ("RD101",)
    assert any(n.startswith("torch 2.13 from pytorch.org") for n in plan.notes)
    assert any("ruled out: torch 2.14" in n for n in plan.notes)


def test_uv_installer_targets_the_interpreter_with_python_flag() -> None:
    plan = _plan(machine_facts(installed={"torch": "2.5.1"}), REPLACE, installer="uv")
    assert plan.commands[0].argv[:5] == ("uv", "pip", "uninstall", "--python", "/env/bin/python")
    assert plan.commands[1].argv[:5] == ("uv", "pip", "install", "--python", "/env/bin/python")


def test_driver_of_an_older_rocm_rules_out_rocm7_wheels_and_says_why() -> None:
    choice = choose_torch(Machine(False, False, False, "3.12", ("gfx1100",), "6.2.4"))
    assert (choice.torch, choice.rocm) == ("2.9", "6.4")
    assert any("needs a newer amdgpu driver than ROCm 6.2.4's" in r for r in choice.ruled_out)


def test_wsl_needs_the_wheel_of_the_system_rocm_release() -> None:
    choice = choose_torch(Machine(False, True, False, "3.12", ("gfx1100",), "7.1.0"))
    assert choice.rocm == "7.1"


def test_gfx_pytorch_org_never_builds_goes_to_therock_with_the_device_extra() -> None:
    facts = machine_facts(gfx=["gfx1031"], installed={"torch": "2.5.1+rocm6.2"})
    plan = _plan(facts, REPLACE)
    install = plan.commands[-1].argv
    assert "https://rocm.nightlies.amd.com/whl-multi-arch/" in install
    assert "torch[device-gfx1031]" in install


def test_windows_gets_amd_wheels_and_the_python_312_requirement() -> None:
    facts = machine_facts(os_name="windows", python="3.11.9", gfx=["gfx1151"], installed={"torch": "2.8.0a0+gitfc14c65"})
    plan = _plan(facts, REPLACE)
    assert plan.choice is not None and plan.choice.route == "amd-windows"
    assert any("Python 3.12" in n for n in plan.notes)
    urls = [a for c in plan.commands for a in c.argv if a.startswith("https://repo.radeon.com/rocm/windows/")]
    assert any(u.endswith("rocm_sdk_core-7.2.0.dev0-py3-none-win_amd64.whl") for u in urls)
    assert any("torch-2.9.1+rocmsdk20260116-cp312-cp312-win_amd64.whl" in u for u in urls)
    assert plan.windows


def test_a_requested_torch_that_cannot_work_is_refused_with_alternatives() -> None:
    with pytest.raises(NoChoice) as refused:
        choose_torch(Machine(False, False, False, "3.10", ("gfx1100",), None), requested="2.0.1")
    assert "torch 2.0: its pytorch.org wheels have no kernels for gfx1100" in refused.value.ruled_out
    assert any(a.startswith("torch 2.13") for a in refused.value.alternatives)


def test_a_requested_torch_that_fits_is_honoured() -> None:
    choice = choose_torch(Machine(False, False, False, "3.12", ("gfx1100",), None), requested="2.7.1")
    assert (choice.torch, choice.rocm) == ("2.7.1", "6.3")


def test_cuda_triton_removal_restores_pytorch_triton_rocm() -> None:
    facts = machine_facts(installed={"triton": "3.1.0", "pytorch-triton-rocm": "3.1.0"}, torch_rocm="6.2")
    plan = _plan(facts, finding("RD120", Fix(kind="pip", intent="remove-cuda-triton")))
    assert plan.commands[0].argv[-2:] == ("-y", "triton")
    assert "pytorch-triton-rocm==3.1.0" in plan.commands[1].argv
    assert "https://download.pytorch.org/whl/rocm6.2" in plan.commands[1].argv


def test_unknown_intent_becomes_a_note_not_a_command() -> None:
    plan = _plan(machine_facts(), finding("RD7", Fix(kind="pip", intent="do-magic", text="magic")))
    assert plan.commands == []
    assert any("no command for pip intent 'do-magic'" in n for n in plan.notes)
