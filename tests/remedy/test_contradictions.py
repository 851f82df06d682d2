"""Issue 12's contradictions, each pinned on the recorded machine where it was seen."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from rocm_doctor.fix.dockerrun import compose_problems

MACHINES = Path(__file__).resolve().parent.parent / "machines"


def box(name: str) -> str:
    return str(MACHINES / name)


def _plan(run_cli, name: str, *args: str) -> dict:
    result = run_cli("fix", "--machine", box(name), "--json", *args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def _findings(run_cli, name: str, *args: str) -> list:
    return json.loads(run_cli("check", "--machine", box(name), "--json", *args).stdout)["findings"]


@pytest.mark.parametrize("name", ["docker-2x7900xt-rocm62", "ubuntu-7900xtx-igpu-norender", "wsl2-7900xtx-pytorchorg"])
def test_the_torch_check_names_is_the_torch_fix_installs(run_cli, name: str) -> None:
    out = run_cli("check", "--machine", box(name)).stdout
    named = set(re.findall(r"torch (\d+\.\d+) \(rocm(\d+\.\d+(?:\.\d+)?)\)", out.replace("\n", " ")))
    plan = _plan(run_cli, name)
    if plan["torch"] is not None:
        assert named == {(plan["torch"]["torch"], plan["torch"]["rocm"])}
        assert any(plan["torch"]["index_url"] in c for s in plan["steps"] for c in s["commands"])
    else:  # WSL2: nothing fits RD160's need; check names the newest build, fix installs none
        assert named == {("2.7", "6.2.4")} and not [s for s in plan["steps"] if s["kind"] == "pip"]


def test_the_6700xt_gets_the_override_or_therock_never_both(run_cli) -> None:
    plan = _plan(run_cli, "ubuntu2204-6700xt")
    assert [s["kind"] for s in plan["steps"]] == ["env"] and plan["torch"] is None
    options = _findings(run_cli, "ubuntu2204-6700xt")[0]["remedy"]["groups"][0]["options"]
    assert [o["default"] for o in options] == [True, False]
    assert "HSA_OVERRIDE_GFX_VERSION" in options[0]["steps"][0]["env"] and options[0]["why"]


def test_hiding_the_igpu_makes_the_wheel_choice_for_the_discrete_gpu_and_docker_run_keeps_one_mask(run_cli) -> None:
    plan = _plan(run_cli, "ubuntu-7900xtx-igpu-norender")
    assert plan["torch"]["route"] == "pytorch.org" and "gfx1036" not in json.dumps(plan["torch"]["reasons"])
    assert {n: v for s in plan["steps"] for n, v in s["env"].items()} == {"ROCR_VISIBLE_DEVICES": "1"}
    run = run_cli("docker-run", "--machine", box("ubuntu-7900xtx-igpu-norender")).stdout
    assert "ROCR_VISIBLE_DEVICES=1" in run and "HIP_VISIBLE_DEVICES" not in run


@pytest.mark.parametrize("name", sorted(p.name for p in MACHINES.iterdir() if (p / "machine.yaml").is_file()))
def test_check_prints_commands_for_the_machines_shell_and_no_intent_names(run_cli, name: str) -> None:
    out = run_cli("check", "-v", "--machine", box(name)).stdout
    assert not re.search(r"pip: (install|remove|reinstall|pin)-", out)
    windows = name.startswith("win11")
    for line in out.splitlines():
        command = line.strip()[2:] if line.strip().startswith("$ ") else None
        if command is None:
            continue
        assert not command.startswith(("set ", "unset ")) or not windows, command
        if windows:
            assert not command.startswith(("export ", "unset ")), command
    assert ("commands for powershell" if windows else "commands for bash") in out


def test_check_json_carries_the_exact_pip_commands(run_cli) -> None:
    finding = next(f for f in _findings(run_cli, "linux-amd-cuda-wheel") if f["id"] == "RD100")
    step = finding["remedy"]["groups"][0]["options"][0]["steps"][0]
    assert step["kind"] == "pip" and step["commands"][1].startswith("/home/user/app/.venv/bin/python -m pip install --index-url")
    assert step["argv"][1][:4] == ["/home/user/app/.venv/bin/python", "-m", "pip", "install"]


@pytest.mark.parametrize(
    ("name", "why"),
    [("win11-9070xt-rocm72", "Windows host has no /dev/kfd"), ("wsl2-7900xtx-pytorchorg", "WSL2 has no /dev/kfd"),
     ("cpu-only", "no AMD GPU was found")],
)
@pytest.mark.parametrize("command", ["dockerfile", "docker-run"])
def test_no_linux_container_recipe_for_windows_wsl2_or_a_machine_without_gpu(run_cli, name: str, why: str, command: str) -> None:
    result = run_cli(command, "--machine", box(name))
    assert result.exit_code == 2 and why in result.stderr and "/dev/kfd" not in result.stdout


def test_in_a_container_host_steps_say_so_and_the_dockerfile_does_not_claim_them(run_cli) -> None:
    out = run_cli("check", "--machine", box("docker-2x7900xt-rocm62")).stdout
    assert "(on the host, outside this container)" in out.split("RD330")[1]
    dockerfile = run_cli("dockerfile", "--machine", box("docker-2x7900xt-rocm62")).stdout
    assert "RD330" not in dockerfile.splitlines()[0]
    assert "Not fixable in a Dockerfile (on the host, outside this container): RD330" in dockerfile


def test_in_a_container_the_image_and_wheel_respect_the_host_drivers_range(run_cli) -> None:
    # Host amdgpu 6.8.5 (ROCm 6.2 driver) supports user space up to ROCm 7.0 (rules/data/amdgpu_driver.yaml).
    dockerfile = run_cli("dockerfile", "--machine", box("docker-2x7900xt-rocm62")).stdout
    assert "FROM rocm/dev-ubuntu-22.04:7.0" in dockerfile and "whl/rocm7.0" in dockerfile
    assert _plan(run_cli, "docker-2x7900xt-rocm62")["torch"]["rocm"] == "7.0"
    run = run_cli("docker-run", "--machine", box("docker-2x7900xt-rocm62")).stdout
    assert "rocm/pytorch:latest" not in run
    compose = run_cli("docker-run", "--machine", box("docker-2x7900xt-rocm62"), "--compose", "-").stdout
    assert "rocm/pytorch:latest" not in compose
    assert compose_problems(yaml.safe_load(compose)) == ()


def test_wsl2_removes_the_bundled_runtime_and_never_reinstalls_torch_after_it(run_cli) -> None:
    plan = _plan(run_cli, "wsl2-7900xtx-pytorchorg")
    kinds = [s["kind"] for s in plan["steps"]]
    assert "pip" not in kinds
    removal = next(s for s in plan["steps"] if "RD351" in s["finding_ids"])
    assert removal["after_torch"] and "/home/user/venv/bin/python -c" in removal["commands"][0]
    forced = _plan(run_cli, "wsl2-7900xtx-pytorchorg", "--torch", "2.7")
    order = [s["kind"] + ("+after" if s["after_torch"] else "") for s in forced["steps"]]
    assert order.index("pip") < order.index("manual+after")


def test_info_findings_are_advice_and_never_written(run_cli, tmp_path) -> None:
    out = run_cli("check", "--machine", box("win11-9070xt-rocm72")).stdout
    assert "No problems found" in out
    env_file = tmp_path / "env.ps1"
    result = run_cli("fix", "--machine", box("win11-9070xt-rocm72"), "--write-env", "--env-file", str(env_file))
    assert "Nothing to fix" in result.stdout and "Advice" in result.stdout
    assert not env_file.exists()  # nothing to fix: nothing written (issue 19, item 14)


def test_a_torch_request_that_cannot_be_honoured_is_refused_with_reasons(run_cli) -> None:
    result = run_cli("fix", "--machine", box("ubuntu2204-6700xt"), "--torch", "2.13")
    assert result.exit_code == 2
    # with the plan's 10.3.0 override the wheel needs gfx1030 kernels; 2.13 is built for ROCm 7.1/7.2 only,
    # newer than this amdgpu driver (ROCm 6.2 release) supports
    assert "torch 2.13 cannot be installed" in result.stderr and "amdgpu kernel driver" in result.stderr
    assert "instead: torch 2.10 (ROCm 7.0)" in result.stderr


def test_nothing_to_fix_says_so_without_an_empty_plan(run_cli) -> None:
    out = run_cli("fix", "--machine", box("cpu-only")).stdout
    assert "Nothing to fix" in out and "resolves" not in out and "[]" not in out


@pytest.mark.parametrize("command", ["check", "fix", "dockerfile", "bench", "health"])
def test_help_is_plain_at_80_columns(command: str) -> None:
    import subprocess
    import sys

    env = {"COLUMNS": "80", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "rocm_doctor", command, "--help"], capture_output=True, text=True,
                         timeout=60, env=env).stdout
    options = [line for line in out.splitlines() if line.lstrip().startswith("-")]
    assert options and not [line for line in options if re.search(r"<(bool|str|int|float|path|list)", line)]
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "pow\n" not in out


@pytest.mark.parametrize("machine", sorted(p.name for p in (Path(__file__).resolve().parents[1] / "machines").iterdir() if p.is_dir()))
def test_fix_text_fits_80_columns_except_unbreakable_words(machine: str) -> None:
    from rocm_doctor.cli.inputs import FactsSource, load_facts
    from rocm_doctor.pipeline import evaluate
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.render.plan import plan_lines

    facts = load_facts(FactsSource(machine=Path(box(machine))))
    plan = evaluate(load_rules([], use_env=False), facts).plan
    # Text is wrapped; a rule's shell command (`$ ...`) is printed as written, so it pastes whole.
    text = [line for line in plan_lines(plan, 80) if not line.lstrip().startswith("$ ")]
    assert [line for line in text if len(line) > 80 and len(max(line.split(), key=len)) < 40] == []
