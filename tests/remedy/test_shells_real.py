"""What check/fix print works when pasted: env lines run in the real shells, every command parses there,
generated Dockerfiles pass hadolint and compose services pass a compose-spec parser."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from rocm_doctor.facts.model import Facts
from rocm_doctor.model.fixes import make_fix
from rocm_doctor.remedy.decide import Context, decide

MACHINES = Path(__file__).resolve().parent.parent / "machines"
NAMES = sorted(p.name for p in MACHINES.iterdir() if (p / "machine.yaml").is_file())
VALUE = "it's a $HOME `x` \\ y"
RUN = {  # how to run a script of lines in each shell, and read a variable back
    "bash": (["bash", "-c"], 'printf %s "$A_B"'),
    "zsh": (["zsh", "-f", "-c"], 'printf %s "$A_B"'),
    "sh": (["sh", "-c"], 'printf %s "$A_B"'),
    "fish": (["fish", "--no-config", "-c"], 'printf %s "$A_B"'),
    "powershell": (["pwsh", "-NoProfile", "-Command"], "[Console]::Out.Write($env:A_B)"),
}
SYNTAX = {"bash": ["bash", "-n", "-c"], "zsh": ["zsh", "-n", "-c"], "sh": ["sh", "-n", "-c"], "fish": ["fish", "--no-execute", "-c"]}


def _need(program: str) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed (CI installs zsh and fish; pwsh where a registry has it)")


def _linux() -> Facts:
    return Facts.from_dict({"host": {"os": {"status": "known", "value": "linux", "source": "t"}}})


@pytest.mark.parametrize("shell", list(RUN))
def test_env_lines_set_and_unset_in_the_real_shell(shell: str) -> None:
    argv, read = RUN[shell]
    _need(argv[0])

    from fix.helpers import finding as make_finding

    plan = decide([make_finding("RD1", make_fix(kind="env", set={"A_B": VALUE}, unset=["C_D"]))], _linux(),
                  Context(shell=shell, is_read=lambda n: True)).plan
    lines = plan.steps[0].commands
    done = subprocess.run(argv + ["\n".join(lines + [read])], capture_output=True, text=True, timeout=60, env={"C_D": "1", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout == VALUE


@pytest.mark.parametrize("shell", list(SYNTAX))
@pytest.mark.parametrize("name", NAMES)
def test_every_command_check_prints_parses_in_the_real_shell(run_cli, name: str, shell: str) -> None:
    if name.startswith("win11"):
        pytest.skip("a Windows machine's commands are PowerShell's; this test parses them with POSIX shells and fish")
    _need(SYNTAX[shell][0])
    findings = json.loads(run_cli("check", "--machine", str(MACHINES / name), "--json", "--shell", shell).stdout)["findings"]
    commands = [c for f in findings for g in f["remedy"]["groups"] for o in g["options"] for s in o["steps"] for c in s["commands"]]
    for command in commands:
        done = subprocess.run(SYNTAX[shell] + [command], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, f"{shell} cannot parse {command!r}: {done.stderr}"


@pytest.mark.parametrize("name", ["docker-2x7900xt-rocm62", "ubuntu-7900xtx-igpu-norender", "ubuntu2204-6700xt", "linux-amd-cuda-wheel"])
def test_every_generated_dockerfile_passes_hadolint(run_cli, tmp_path: Path, name: str) -> None:
    _need("hadolint")
    result = run_cli("dockerfile", "--machine", str(MACHINES / name))
    assert result.exit_code == 0, result.stderr
    (tmp_path / "Dockerfile").write_text(result.stdout)
    done = subprocess.run(["hadolint", "--no-color", str(tmp_path / "Dockerfile")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("name", ["docker-2x7900xt-rocm62", "ubuntu-7900xtx-igpu-norender", "ubuntu2204-6700xt", "linux-amd-cuda-wheel"])
def test_every_compose_service_passes_the_compose_spec_parser(run_cli, name: str) -> None:
    # docker compose config is not available here; compose-spec (Rust compose_spec) parses the document strictly.
    compose_spec = pytest.importorskip("compose_spec")
    document = run_cli("docker-run", "--machine", str(MACHINES / name), "--compose", "-").stdout
    parsed = compose_spec.PyCompose.from_yaml(document)
    assert parsed.service_names() == ["pytorch"]
    assert yaml.safe_load(document)["services"]["pytorch"]["devices"][0] == "/dev/kfd:/dev/kfd"
