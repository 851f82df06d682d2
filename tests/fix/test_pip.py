"""pip commands: uninstall first, pinned install from the right index, the choice explained."""

from __future__ import annotations

import pytest

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.model.fixes import make_fix
from rocm_doctor.wheels.choice import Machine, Needs, NoChoice, choose_torch
from rocm_doctor.remedy.decide import Context, decide

from .helpers import finding, machine_facts

REPLACE = finding("RD101", make_fix(kind="pip", intent="install-rocm-torch"), severity="error")


def _plan(facts, *findings, **kwargs):
    return decide(list(findings), facts, Context(is_read=lambda n: True, **kwargs)).plan


def _argv(plan):
    return [tuple(argv) for step in plan.of_kind("pip") for argv in step.argv]


def test_cuda_wheel_is_uninstalled_then_the_rocm_build_installed_from_pytorch_org() -> None:
    facts = machine_facts(installed={"torch": "2.5.1+cu124", "torchvision": "0.20.1+cu124", "triton": "3.1.0", "numpy": "2"})
    plan = _plan(facts, REPLACE)
    uninstall, install = _argv(plan)
    assert uninstall == ("/env/bin/python", "-m", "pip", "uninstall", "-y", "torch", "torchvision", "triton")
    assert install[:5] == ("/env/bin/python", "-m", "pip", "install", "--index-url")
    assert install[5].startswith("https://download.pytorch.org/whl/rocm")
    assert "torch==2.13.*" in install and "torchvision==0.28.*" in install
    assert plan.of_kind("pip")[0].finding_ids == ["RD101"]
    assert (plan.torch.torch, plan.torch.route) == ("2.13", "pytorch.org")
    assert any("torch 2.14" in r for r in plan.torch.ruled_out)


def test_uv_installer_targets_the_interpreter_with_python_flag() -> None:
    argv = _argv(_plan(machine_facts(installed={"torch": "2.5.1"}), REPLACE, installer="uv"))
    assert argv[0][:5] == ("uv", "pip", "uninstall", "--python", "/env/bin/python")
    assert argv[1][:5] == ("uv", "pip", "install", "--python", "/env/bin/python")


def test_driver_of_an_older_rocm_rules_out_rocm7_wheels_and_says_why() -> None:
    choice = choose_torch(Machine(False, False, False, "3.12", ("gfx1100",), "6.2.4"))
    assert (choice.torch, choice.rocm) == ("2.9", "6.4")
    assert any("needs a newer amdgpu driver than ROCm 6.2.4's" in r for r in choice.ruled_out)


def test_the_kernel_drivers_user_space_range_caps_the_wheels_rocm_in_a_container_too() -> None:
    machine = Machine(False, False, True, "3.10", ("gfx1100",), None, driver_rocm="6.2", userspace=("6.0", "6.1", "6.2", "6.3", "6.4", "7.0"))
    choice = choose_torch(machine)
    assert (choice.torch, choice.rocm) == ("2.10", "7.0")
    assert any("supports ROCm user space 6.0 to 7.0" in r for r in choice.ruled_out)


def test_a_fixs_rocm_specifier_rules_out_older_wheels() -> None:
    with pytest.raises(NoChoice):
        choose_torch(Machine(False, True, False, "3.12", ("gfx1100",), "6.2.3"), needs=Needs(rocm=">=6.3"))


def test_wsl_needs_the_wheel_of_the_system_rocm_release() -> None:
    choice = choose_torch(Machine(False, True, False, "3.12", ("gfx1100",), "7.1.0"))
    assert choice.rocm == "7.1"


def test_gfx_pytorch_org_never_builds_goes_to_therock_with_the_device_extra() -> None:
    facts = machine_facts(gfx=["gfx1031"], installed={"torch": "2.5.1+rocm6.2"})
    install = _argv(_plan(facts, REPLACE))[-1]
    assert "https://rocm.nightlies.amd.com/whl-multi-arch/" in install
    assert "torch[device-gfx1031]" in install


def test_windows_gets_amd_wheels_and_the_python_312_requirement() -> None:
    facts = machine_facts(os_name="windows", python="3.11.9", gfx=["gfx1151"], installed={"torch": "2.8.0a0+gitfc14c65"})
    plan = _plan(facts, REPLACE)
    assert plan.torch is not None and plan.torch.route == "amd-windows"
    assert any("Python 3.12" in n for n in plan.notes)
    urls = [a for argv in _argv(plan) for a in argv if a.startswith("https://repo.radeon.com/rocm/windows/")]
    assert any(u.endswith("rocm_sdk_core-7.2.0.dev0-py3-none-win_amd64.whl") for u in urls)
    assert any("torch-2.9.1+rocmsdk20260116-cp312-cp312-win_amd64.whl" in u for u in urls)
    assert plan.target.shell == "powershell"


def test_a_requested_torch_that_cannot_work_is_refused_with_alternatives() -> None:
    with pytest.raises(NoChoice) as refused:
        choose_torch(Machine(False, False, False, "3.10", ("gfx1100",), None), requested="2.0.1")
    assert "torch 2.0: its pytorch.org wheels have no kernels for gfx1100" in refused.value.ruled_out
    assert any(a.startswith("torch 2.13") for a in refused.value.alternatives)
    plan = _plan(machine_facts(python="3.10.12"), torch="2.0.1")
    assert plan.refusal is not None and plan.steps == []


def test_a_requested_torch_that_fits_is_honoured() -> None:
    choice = choose_torch(Machine(False, False, False, "3.12", ("gfx1100",), None), requested="2.7.1")
    assert (choice.torch, choice.rocm) == ("2.7.1", "6.3")


def test_cuda_triton_removal_restores_pytorch_triton_rocm() -> None:
    facts = machine_facts(installed={"triton": "3.1.0", "pytorch-triton-rocm": "3.1.0"}, torch_rocm="6.2")
    argv = _argv(_plan(facts, finding("RD120", make_fix(kind="pip", intent="remove-cuda-triton"))))
    assert argv[0][-2:] == ("-y", "triton")
    assert "pytorch-triton-rocm==3.1.0" in argv[1] and "https://download.pytorch.org/whl/rocm6.2" in argv[1]


def test_the_torch_replacement_supersedes_the_old_torchs_torchvision_fix() -> None:
    facts = machine_facts(installed={"torch": "2.5.1+rocm6.2", "torchvision": "0.19.0"}, torch_rocm="6.2")
    plan = _plan(facts, REPLACE, finding("RD130", make_fix(kind="pip", intent="reinstall-torchvision-matching")))
    installs = [argv for argv in _argv(plan) if "install" in argv and "uninstall" not in argv]
    assert len(installs) == 1 and "torchvision==0.28.*" in installs[0]


def test_a_mismatched_torchaudio_is_the_package_reinstalled_not_torchvision() -> None:
    facts = machine_facts(installed={"torch": "2.5.1+rocm6.2", "torchvision": "0.20.1+rocm6.2", "torchaudio": "2.5.1+cu124"}, torch_rocm="6.2")
    fix = make_fix(kind="pip", intent="reinstall-torchvision-matching", packages=["torchaudio"])
    uninstall, install = _argv(_plan(facts, finding("RD142", fix)))
    assert uninstall[-2:] == ("-y", "torchaudio")
    assert "torchaudio==2.5.*" in install and not any(a.startswith("torchvision") for a in install)
    assert "https://download.pytorch.org/whl/rocm6.2" in install


def test_a_fix_without_named_packages_reinstalls_torchvision() -> None:
    facts = machine_facts(installed={"torch": "2.5.1+rocm6.2", "torchvision": "0.19.0"}, torch_rocm="6.2")
    uninstall, install = _argv(_plan(facts, finding("RD130", make_fix(kind="pip", intent="reinstall-torchvision-matching"))))
    assert uninstall[-2:] == ("-y", "torchvision") and "torchvision==0.20.*" in install


@pytest.mark.parametrize("tag", ["cu118", "cpu"])
def test_a_cuda_or_cpu_torchs_companion_comes_from_the_index_of_its_build(tag: str) -> None:
    # rev47c: RD143/RD144 fire for any tagged build; PyPI's torchvision is another CUDA build than a +cu118 or +cpu torch
    facts = machine_facts(installed={"torch": f"2.5.1+{tag}", "torchvision": f"0.19.1+{tag}"})
    uninstall, install = _argv(_plan(facts, finding("RD143", make_fix(kind="pip", intent="reinstall-torchvision-matching"))))
    assert "torchvision==0.20.*" in install and f"https://download.pytorch.org/whl/{tag}" in install


def test_the_torchaudio_library_rule_reinstalls_torchaudio_not_torchvision() -> None:
    # rev48h: RD981 (libtorchaudio.pyd not found) named no package, so its commands reinstalled torchvision
    rule = next(r for r in load_rules() if r.id == "RD981")
    fix = next(f for f in rule.fixes if f.kind == "pip")
    facts = machine_facts(os_name="windows", installed={"torch": "2.5.1+cu124", "torchvision": "0.20.1+cu124", "torchaudio": "2.5.1"})
    uninstall, install = _argv(_plan(facts, finding("RD981", fix)))
    assert uninstall[-2:] == ("-y", "torchaudio")
    assert "torchaudio==2.5.*" in install and not any(a.startswith("torchvision") for a in install)
