"""``fix --to BASELINE``: the pip commands back to the baseline's Python stack, checked like every plan."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any, Dict

import pytest

from rocm_doctor.baseline.capture import capture
from rocm_doctor.diff.restore import index_of, restore_plan
from rocm_doctor.baseline.store import save
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.knowledge import torch_wheels
from rocm_doctor.remedy.pip import Target

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "diff"))
from report_pairs import build_facts  # noqa: E402  (the before/after machine builder of the diff tests)

SOURCE = "https://github.com/ROCm/hipBLASLt/issues/1243"
MACHINES = Path(__file__).resolve().parents[1] / "machines"
LINUX_7900XTX = {"host.os": "linux", "host.shell": "/bin/bash", "gpus": [["gfx1100", "Radeon RX 7900 XTX"]]}


def _machine(packages: Dict[str, str], **more: Any):
    return build_facts({**LINUX_7900XTX, "packages.installed": packages, **more}, SOURCE)


GOOD = {"torch": "2.6.0.dev20241013+rocm6.2", "torchvision": "0.20.0.dev20241013+rocm6.2", "pytorch-triton-rocm": "3.1.0+cf34004b8a", "numpy": "1.26.4"}
BROKEN = {"torch": "2.6.0.dev20241015+rocm6.2", "torchvision": "0.20.0.dev20241015+rocm6.2", "pytorch-triton-rocm": "3.1.0+cf34004b8a", "numpy": "2.1.2", "triton": "3.1.0"}


def test_the_way_back_reinstalls_the_baseline_torch_set_from_the_nightly_index_that_carries_it() -> None:
    plan = restore_plan(_machine(GOOD), _machine(BROKEN), Target("/venv/bin/python"), load_rules(use_env=False))
    assert plan.refused == [] and plan.manual == []
    argvs = [c.argv for c in plan.commands]
    # only the CUDA triton installed since is removed first; pip replaces the rest in place
    assert argvs[0] == ("/venv/bin/python", "-m", "pip", "uninstall", "-y", "triton")
    install = argvs[1]
    assert install[:6] == ("/venv/bin/python", "-m", "pip", "install", "--index-url", torch_wheels.index_url("6.2", nightly=True))
    # the companions that were installed with this torch, exactly: a pair that belongs together
    assert install[6:] == ("torch==2.6.0.dev20241013+rocm6.2", "torchvision==0.20.0.dev20241013+rocm6.2", "pytorch-triton-rocm==3.1.0+cf34004b8a")
    assert argvs[2] == ("/venv/bin/python", "-m", "pip", "install", "numpy==1.26.4")
    assert any("nightly" in note for note in plan.notes)


def test_a_stable_pytorch_org_build_goes_back_with_its_tabled_companion() -> None:
    before = {"torch": "2.5.1+rocm6.2", "torchvision": "0.20.1+rocm6.2"}
    after = {"torch": "2.6.0+rocm6.2.4", "torchvision": "0.21.0+rocm6.2.4"}
    plan = restore_plan(_machine(before), _machine(after), Target("python"), load_rules(use_env=False))
    install = next(c.argv for c in plan.commands if "install" in c.argv and "uninstall" not in c.argv)
    assert install[install.index("--index-url") + 1] == torch_wheels.index_url("6.2")
    vision = next(a for a in install if a.startswith("torchvision=="))
    assert vision.split("==")[1].startswith(torch_wheels.wheels().companion("2.5.1", "torchvision") + ".")


def test_no_way_back_to_a_torch_a_published_regression_names_for_this_gpu() -> None:
    plan = restore_plan(_machine(BROKEN), _machine(GOOD), Target("python"), load_rules(use_env=False))
    assert plan.commands == [] or all("torch==" not in " ".join(c.argv) for c in plan.commands)
    assert any("torch-2.6-nightly-hipblaslt-unsupported-arch" in r for r in plan.refused)


def _recorded(machine: str, gfx: str, name: str, torch: str, rocm: str):
    """A recorded machine with its GPU swapped and its torch build replaced (as after a GPU upgrade)."""
    from rocm_doctor.facts.model import Facts

    data = Facts.from_json((MACHINES / machine / "facts.json").read_text(encoding="utf-8")).model_dump(mode="json")
    agent = data["gpus"]["agents"][0]
    agent["gfx"]["value"], agent["name"]["value"] = gfx, name
    agent["device_id"] = {"status": "known", "value": "0x7550", "source": "test"}
    data["torch"]["version"]["value"], data["torch"]["rocm_version"]["value"] = torch, rocm
    data["packages"]["installed"]["value"]["torch"] = torch
    return Facts.from_dict(data)


def test_no_way_back_to_a_torch_the_rules_find_broken_on_the_gpu_the_machine_has_now() -> None:
    # The baseline is from before an upgrade to an RX 9070 (gfx1201): torch 2.5 has no gfx1201 kernels.
    old = _recorded("ubuntu2204-6700xt", "gfx1201", "AMD Radeon RX 9070", "2.5.1+rocm6.2", "6.2")
    now = _recorded("ubuntu2204-6700xt", "gfx1201", "AMD Radeon RX 9070", "2.8.0+rocm6.4", "6.4")
    plan = restore_plan(old, now, Target("python"), load_rules(use_env=False))
    assert plan.commands == []
    assert any("RD200" in r for r in plan.refused), plan.refused


def test_a_build_from_an_index_rocm_doctor_does_not_know_becomes_a_manual_step() -> None:
    assert index_of("2.9.1+rocmsdk20260116") == (False, None)
    assert index_of("2.12.0+rocm7.14.0") == (False, None)  # AMD's multi-arch build, not a pytorch.org variant
    assert index_of("2.5.1") == (True, None)
    assert index_of("2.5.1+rocm6.2") == (True, torch_wheels.index_url("6.2"))
    plan = restore_plan(_machine({"torch": "2.9.1+rocmsdk20260116"}), _machine({"torch": "2.9.1+rocmsdk20260201"}), Target("python"), [])
    assert plan.commands == [] and "torch==2.9.1+rocmsdk20260116" in plan.manual[0]


def test_kernel_and_rocm_changes_are_manual_steps_with_the_version_to_return_to() -> None:
    old = _machine(GOOD, **{"host.kernel_release": "6.8.0-45-generic", "rocm.version": "6.2.1"})
    new = _machine(GOOD, **{"host.kernel_release": "6.8.0-52-generic", "rocm.version": "6.2.4"})
    plan = restore_plan(old, new, Target("python"), [])
    assert plan.commands == []
    assert plan.manual == [
        "kernel: go back from 6.8.0-52-generic to 6.8.0-45-generic (rocm-doctor never changes the kernel, drivers or ROCm)",
        "ROCm: go back from 6.2.4 to 6.2.1 (rocm-doctor never changes the kernel, drivers or ROCm)",
    ]


def test_fix_to_prints_the_commands_for_the_users_shell(run_cli, tmp_path: Path) -> None:
    save(capture("good", _machine(GOOD), [], "rules-x", "test"))
    now = tmp_path / "now.json"
    now.write_text(_machine(BROKEN, **{"python.executable": "/opt/my venv/bin/python"}).to_json(), encoding="utf-8")
    shown = run_cli("fix", "--to", "good", "--facts", str(now), "--pip")
    assert shown.exit_code == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert [shlex.split(line)[0] for line in lines] == ["/opt/my venv/bin/python"] * 3
    assert "'/opt/my venv/bin/python' -m pip install --index-url" in lines[1]
    windows = run_cli("fix", "--to", "good", "--facts", str(now), "--pip", "--shell", "powershell")
    assert windows.stdout.startswith("& '/opt/my venv/bin/python' -m pip uninstall -y triton")


def test_fix_to_apply_refuses_a_recorded_machine(run_cli, tmp_path: Path) -> None:
    save(capture("good", _machine(GOOD), [], "rules-x", "test"))
    now = tmp_path / "now.json"
    now.write_text(_machine(BROKEN).to_json(), encoding="utf-8")
    shown = run_cli("fix", "--to", "good", "--facts", str(now), "--apply", "--yes")
    assert shown.exit_code == 2 and "--apply changes this machine" in shown.stderr


def test_the_way_back_from_amds_rocm7_14_1_build_is_a_manual_step_with_the_exact_pins() -> None:
    from report_pairs import load_pairs

    pair = next(p for p in load_pairs() if p["id"] == "therock-7861-torch-rocm7.14.1-gfx1201")
    plan = restore_plan(pair["before_facts"], pair["after_facts"], Target("python"), load_rules(use_env=False))
    assert plan.commands == [] and plan.refused == []
    assert plan.manual == [
        "reinstall torch==2.12.0+rocm7.14.0 torchvision==0.27.0+rocm7.14.0 from the index you installed torch "
        "2.12.0+rocm7.14.0 from (rocm-doctor does not know which index carries that build)"
    ]


SYNTAX = {"bash": ["bash", "-n", "-c"], "zsh": ["zsh", "-n", "-c"], "sh": ["sh", "-n", "-c"], "fish": ["fish", "--no-execute", "-c"]}


@pytest.mark.parametrize("shell", list(SYNTAX))
def test_every_fix_to_command_parses_in_the_real_shell_and_keeps_a_hostile_path_one_word(run_cli, tmp_path: Path, shell: str) -> None:
    import shutil
    import subprocess

    if shutil.which(SYNTAX[shell][0]) is None:
        pytest.skip(f"{shell} is not installed (CI installs zsh and fish)")
    save(capture("good", _machine(GOOD), [], "rules-x", "test"))
    now = tmp_path / "now.json"
    hostile = "/home/x/it's a $HOME `x` venv/bin/python"
    now.write_text(_machine(BROKEN, **{"python.executable": hostile}).to_json(), encoding="utf-8")
    shown = run_cli("fix", "--to", "good", "--facts", str(now), "--pip", "--shell", shell)
    assert shown.exit_code == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert len(lines) == 3
    for line in lines:
        done = subprocess.run(SYNTAX[shell] + [line], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, f"{shell} cannot parse {line!r}: {done.stderr}"
        if shell in ("bash", "sh"):
            echoed = subprocess.run([shell, "-c", "printf '%s\\n' " + line], capture_output=True, text=True, timeout=30)
            assert echoed.stdout.splitlines()[0] == hostile
