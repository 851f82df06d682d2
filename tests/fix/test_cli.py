"""The fix / dockerfile / docker-run commands through the real CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
import yaml

from rocm_doctor.fix.dockerrun import compose_problems

from .localindex import build_wheel, serve, write_simple_index
from .test_seed_cases import machine


@pytest.fixture(scope="module")
def rocm_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("cli-index")
    wheels = root / "wheels"
    wheels.mkdir()
    build_wheel(wheels, "torch", "2.13.0+rocm7.2", {"torch/__init__.py": ""}, tag="cp312-cp312-manylinux_2_28_x86_64")
    write_simple_index(root, wheels)
    for base in serve(root):
        yield f"{base}/simple/"


def test_verify_index_accepts_an_existing_wheel(doctor, tmp_path: Path, rocm_index: str) -> None:
    box = machine("linux-amd-cuda-wheel")  # Python 3.12, gfx1100
    result = doctor("fix", "--machine", box, "--verify-index", "--index-url", rocm_index, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "verified: torch: torch-2.13.0+rocm7.2-cp312-cp312-manylinux_2_28_x86_64.whl" in result.stdout


def test_verify_index_refuses_a_missing_wheel(doctor, tmp_path: Path, rocm_index: str) -> None:
    box = machine("linux-amd-cuda-wheel")
    result = doctor("fix", "--machine", box, "--verify-index", "--index-url", rocm_index, "--torch", "2.12", cwd=tmp_path)
    assert result.returncode == 1
    assert "MISSING: torch:" in result.stdout


def test_requirements_constraints_pin_what_the_plan_installs_not_the_torch_it_removes(doctor, tmp_path: Path) -> None:
    # docker-2x7900xt-rocm62: the plan replaces torch 2.5.1+rocm6.2, so a constraint pinning 2.5.1 would undo it.
    box = machine("docker-2x7900xt-rocm62")
    (tmp_path / "requirements.txt").write_text("torch\ntorchvision\n")
    result = doctor("fix", "--machine", box, "--requirements", "requirements.txt", cwd=tmp_path)
    assert "not pinned to a ROCm build" in result.stdout
    assert "2.5.1+rocm6.2" not in result.stdout.split("Requirements file")[1]
    assert "write constraints.txt from the build it installed" in result.stdout
    assert "-c constraints.txt" in result.stdout


def test_requirements_constraints_pin_the_installed_build_when_the_plan_keeps_it(doctor, tmp_path: Path) -> None:
    box = machine("docker-2x7900xt-rocm62")
    (tmp_path / "requirements.txt").write_text("torch\n")
    result = doctor("fix", "--machine", box, "--keep-torch", "--requirements", "requirements.txt", cwd=tmp_path)
    assert "torch==2.5.1+rocm6.2" in result.stdout and "-c constraints.txt" in result.stdout


def test_the_constraints_command_pins_the_installed_torch_family(tmp_path: Path) -> None:
    from rocm_doctor.fix.requirements import constraints_command

    subprocess.run(constraints_command(sys.executable), cwd=tmp_path, check=True, timeout=60)
    pins = (tmp_path / "constraints.txt").read_text().splitlines()
    assert pins and all(line.split("==")[0].lower() in ("torch", "torchvision", "torchaudio") for line in pins)


def test_impossible_torch_request_exits_2_with_alternatives(doctor, tmp_path: Path) -> None:
    result = doctor("fix", "--machine", machine("linux-amd-cuda-wheel"), "--torch", "1.13", cwd=tmp_path)
    assert result.returncode == 2
    assert "instead: torch 2.13" in result.stderr.replace("\n", " ")


def test_apply_refuses_a_recorded_machine(doctor, tmp_path: Path) -> None:
    result = doctor("fix", "--machine", machine("linux-amd-cuda-wheel"), "--apply", "--yes", cwd=tmp_path)
    assert result.returncode == 2
    assert "--apply changes this machine" in result.stderr.replace("\n", " ")


def test_docker_run_prints_only_the_docker_run_line_on_stdout_and_notes_on_stderr(doctor, tmp_path: Path) -> None:
    result = doctor("docker-run", "--machine", machine("docker-2x7900xt-rocm62"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    (command,) = result.stdout.splitlines()
    assert command.startswith("docker run ") and "--device=/dev/kfd --device=/dev/dri --group-add video" in command
    assert "Note: render group id" in result.stderr


def test_docker_run_compose_dash_prints_the_compose_yaml_alone(doctor, tmp_path: Path) -> None:
    result = doctor("docker-run", "--machine", machine("docker-2x7900xt-rocm62"), "--compose", "-", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    compose = yaml.safe_load(result.stdout)  # the whole of stdout is one YAML document
    assert compose_problems(compose) == () and "docker run" not in result.stdout


def test_docker_run_compose_file_is_written_alone_and_replaced_with_a_backup(doctor, tmp_path: Path) -> None:
    box = machine("docker-2x7900xt-rocm62")
    (tmp_path / "compose.yaml").write_text("services: {}\n")
    result = doctor("docker-run", "--machine", box, "--compose", "compose.yaml", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("docker run ") and len(result.stdout.splitlines()) == 1
    written = yaml.safe_load((tmp_path / "compose.yaml").read_text())
    assert compose_problems(written) == () and list(written["services"]) == ["pytorch"]
    backups = list(tmp_path.glob("compose.yaml.*.rocm-doctor.bak"))
    assert [b.read_text() for b in backups] == ["services: {}\n"]
    assert "Wrote compose.yaml" in result.stderr


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_verify_index_with_no_route_to_the_index_is_an_unverified_plan_exit_1(doctor, tmp_path: Path) -> None:
    box = machine("linux-amd-cuda-wheel")
    index = f"http://127.0.0.1:{_closed_port()}/simple/"
    result = doctor("fix", "--machine", box, "--verify-index", "--index-url", index, cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "not verified: torch:" in result.stdout
    assert "The plan is unverified" in result.stdout and "--allow-unverified" in result.stdout


def test_verify_index_allow_unverified_accepts_an_unreachable_index_and_says_so(doctor, tmp_path: Path) -> None:
    box = machine("linux-amd-cuda-wheel")
    index = f"http://127.0.0.1:{_closed_port()}/simple/"
    result = doctor("fix", "--machine", box, "--verify-index", "--index-url", index, "--allow-unverified", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "The plan is unverified" in result.stdout and "going on because of --allow-unverified" in result.stdout


def test_write_env_with_nothing_to_fix_writes_no_file_and_says_so(doctor, tmp_path: Path) -> None:
    box = machine("win11-9070xt-rocm72")  # only advice: the plan changes no variable
    result = doctor("fix", "--machine", box, "--write-env", "--env-file", "env.ps1", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "env.ps1").exists()
    assert "Nothing to write: the plan changes no environment variable, so env.ps1 was not written." in result.stdout


def test_write_env_with_nothing_to_fix_leaves_an_existing_file_byte_for_byte(doctor, tmp_path: Path) -> None:
    box = machine("win11-9070xt-rocm72")
    mine = b"$env:MY_SETTING = 'x'\r\n# mine\n"
    (tmp_path / "env.ps1").write_bytes(mine)
    result = doctor("fix", "--machine", box, "--write-env", "--env-file", "env.ps1", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "env.ps1").read_bytes() == mine and list(tmp_path.iterdir()) == [tmp_path / "env.ps1"]
    assert "was not written (the file there is left as it is)" in result.stdout


@pytest.mark.parametrize("name", ["docker-2x7900xt-rocm62", "linux-amd-cuda-wheel"])
def test_the_dockerfile_installs_the_same_torch_companions_as_the_fix_plan(doctor, tmp_path: Path, name: str) -> None:
    """One decision: torchaudio goes into the image exactly when the plan installs it (the Dockerfile chose alone)."""
    import json

    box = machine(name)
    plan = json.loads(doctor("fix", "--machine", box, "--json", cwd=tmp_path).stdout)
    built = doctor("dockerfile", "--machine", box, cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    pip_line = next(line for line in built.stdout.splitlines() if line.startswith("RUN [") and '"pip"' in line)
    argv = json.loads(pip_line[len("RUN "):])
    specs = [w for w in argv[argv.index("install") + 1:] if not w.startswith("-") and "://" not in w]
    assert [s.split("==")[0] for s in specs] == [w["name"] for w in plan["torch"]["wheels"]]
    if plan["torch"]["index_url"] in argv:  # the image's build is the plan's build: the same pins
        assert specs == [w["spec"] for w in plan["torch"]["wheels"]]
