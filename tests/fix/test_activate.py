"""``fix --activate``: the plan's settings live in the target environment's activation (issue 19 item 16).

Real venvs made in tmp folders, the real CLI gathering this machine with a test rule (loaded by the
real loader) that sets one variable and unsets another in any venv or conda environment; the hooked
scripts are then sourced by the real shells.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

from rocm_doctor.fix.activate import hook, unhook
from rocm_doctor.fix.envfile import begin_marker
from rocm_doctor.model.remedy import EnvChange

RULE = """\
rules:
  - id: TST991
    name: test-activation-setting
    severity: warning
    category: env
    area: test
    when: {fact: python.env_kind, in: [venv, conda]}
    title: Test rule - a setting for the activation hook
    message: "a test setting"
    explanation: Test rule for fix --activate.
    fixes:
      - kind: env
        set: {ROCM_DOCTOR_TEST_SETTING: "it's on"}
        unset: [ROCM_DOCTOR_TEST_GONE]
        text: Set the test setting.
    references:
      - url: https://github.com/Comfy-Org/comfy-cli/issues/289
"""
CHANGES = [EnvChange("ROCM_DOCTOR_TEST_SETTING", "it's on", ("TST991",)), EnvChange("ROCM_DOCTOR_TEST_GONE", None, ("TST991",))]


def _doctor(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "400"}
    env.pop("ROCM_DOCTOR_RULES", None)
    return subprocess.run(
        [sys.executable, "-m", "rocm_doctor", *args], capture_output=True, text=True, timeout=300, cwd=cwd, env=env
    )


def _venv(tmp_path: Path) -> Path:
    folder = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=300)
    (tmp_path / "rule.yaml").write_text(RULE, encoding="utf-8")
    return folder


def _activate(venv: Path, *extra: str) -> subprocess.CompletedProcess:
    return _doctor(
        "fix", "--python", str(venv / "bin" / "python"), "--no-torch", "--rules", "rule.yaml", *extra, cwd=venv.parent
    )


def _scripts(venv: Path) -> Dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((venv / "bin").iterdir()) if p.is_file() and not p.is_symlink()}


def _sourced(argv: List[str]) -> Dict[str, str]:
    env = {"PATH": os.environ["PATH"], "ROCM_DOCTOR_TEST_GONE": "still here", "HOME": os.environ.get("HOME", "/")}
    env.update({k: v for k, v in os.environ.items() if k == "LD_LIBRARY_PATH"})  # a shell installed outside /usr
    done = subprocess.run(argv, env=env, capture_output=True, timeout=60, check=True)
    pairs = [item.split(b"=", 1) for item in done.stdout.split(b"\0") if b"=" in item]
    return {k.decode(): v.decode() for k, v in pairs}


SHELLS = {
    "bash": lambda venv: ["bash", "-c", f'. "{venv}/bin/activate" && env -0'],
    "zsh": lambda venv: ["zsh", "-f", "-c", f'. "{venv}/bin/activate" && env -0'],
    "fish": lambda venv: ["fish", "--no-config", "-c", f'source "{venv}/bin/activate.fish"; and env -0'],
    "pwsh": lambda venv: [
        "pwsh", "-NoProfile", "-NonInteractive", "-Command",
        f"& {{ . '{venv}/bin/Activate.ps1'; Get-ChildItem Env: | ForEach-Object {{ [Console]::Out.Write($_.Name + '=' + $_.Value + [char]0) }} }}",
    ],
}


@pytest.mark.live_machine
@pytest.mark.parametrize("program", sorted(SHELLS))
def test_activating_a_hooked_venv_sets_and_unsets_the_plans_variables(tmp_path: Path, program: str) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed on this machine (CI installs zsh and fish)")
    venv = _venv(tmp_path)
    result = _activate(venv, "--activate")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Hooked into {venv / 'bin' / 'activate'} (bash)" in result.stdout
    seen = _sourced(SHELLS[program](venv))
    assert seen["ROCM_DOCTOR_TEST_SETTING"] == "it's on"
    assert "ROCM_DOCTOR_TEST_GONE" not in seen
    assert seen.get("VIRTUAL_ENV", "").rstrip("/").endswith("venv")  # the script still activates


@pytest.mark.live_machine
def test_activate_is_idempotent_and_undo_restores_every_script_byte_for_byte(tmp_path: Path) -> None:
    venv = _venv(tmp_path)
    before = _scripts(venv)
    assert _activate(venv, "--activate").returncode == 0
    hooked = {name: data for name, data in _scripts(venv).items() if not name.endswith(".rocm-doctor.bak")}
    assert all(begin_marker("bash").encode() in hooked[n] for n in ("activate", "activate.fish", "Activate.ps1"))
    again = _activate(venv, "--activate")
    assert again.returncode == 0 and "already sets these" in again.stdout
    assert {n: d for n, d in _scripts(venv).items() if not n.endswith(".rocm-doctor.bak")} == hooked
    undone = _activate(venv, "--undo-activate")
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert "Took rocm-doctor's block out of" in undone.stdout
    after = {n: d for n, d in _scripts(venv).items() if not n.endswith(".rocm-doctor.bak")}
    assert after == before
    seen = _sourced(SHELLS["bash"](venv))
    assert "ROCM_DOCTOR_TEST_SETTING" not in seen and seen["ROCM_DOCTOR_TEST_GONE"] == "still here"
    nothing = _activate(venv, "--undo-activate")
    assert nothing.returncode == 0 and "Nothing to undo" in nothing.stdout


@pytest.mark.live_machine
def test_activate_refuses_an_interpreter_outside_any_environment(tmp_path: Path) -> None:
    system = Path(getattr(sys, "_base_executable", "") or "")
    if not system.is_file() or (Path(system).parent.parent / "conda-meta").is_dir():
        pytest.skip("no interpreter outside a virtual or conda environment to point at")
    (tmp_path / "rule.yaml").write_text(RULE, encoding="utf-8")
    result = _doctor("fix", "--python", str(system), "--no-torch", "--rules", "rule.yaml", "--activate", cwd=tmp_path)
    assert result.returncode == 2
    assert "not in a virtual environment or a conda environment" in result.stderr.replace("\n", " ")


def test_activate_refuses_a_recorded_machine(tmp_path: Path) -> None:
    machine = Path(__file__).resolve().parent.parent / "machines" / "ubuntu2204-6700xt"
    result = _doctor("fix", "--machine", str(machine), "--activate", cwd=tmp_path)
    assert result.returncode == 2 and "--activate changes this machine" in result.stderr.replace("\n", " ")


def test_a_conda_environment_gets_activate_d_files_that_set_the_variables_and_undo_deletes_them(tmp_path: Path) -> None:
    prefix = tmp_path / "conda-env"
    (prefix / "conda-meta").mkdir(parents=True)
    done = hook(prefix, "conda", "linux", CHANGES)
    folder = prefix / "etc" / "conda" / "activate.d"
    assert sorted(p.name for p in folder.iterdir()) == ["rocm-doctor.fish", "rocm-doctor.sh"]
    assert all(item.changed for item in done)
    seen = _sourced(["bash", "-c", f'. "{folder}/rocm-doctor.sh" && env -0'])
    assert seen["ROCM_DOCTOR_TEST_SETTING"] == "it's on" and "ROCM_DOCTOR_TEST_GONE" not in seen
    assert not any(item.changed for item in hook(prefix, "conda", "linux", CHANGES))
    undone = unhook(prefix, "conda", "linux")
    assert all(item.removed for item in undone) and list(folder.iterdir()) == []


def test_a_signed_activate_ps1_gets_the_block_above_its_signature_and_undo_restores_it(tmp_path: Path) -> None:
    scripts = tmp_path / "venv" / "Scripts"
    scripts.mkdir(parents=True)
    signed = b"$Env:PATH = 'x'\r\n\r\n# SIG # Begin signature block\r\n# SIG # MIIv\r\n# SIG # End signature block\r\n"
    (scripts / "Activate.ps1").write_bytes(signed)
    hook(tmp_path / "venv", "venv", "windows", CHANGES)
    text = (scripts / "Activate.ps1").read_bytes()
    assert text.index(begin_marker("powershell").encode()) < text.index(b"# SIG # Begin signature block")
    assert text.endswith(b"# SIG # End signature block\r\n")
    unhook(tmp_path / "venv", "venv", "windows")
    assert (scripts / "Activate.ps1").read_bytes() == signed


def test_a_user_line_in_an_activation_script_is_kept_byte_for_byte(tmp_path: Path) -> None:
    folder = tmp_path / "venv" / "bin"
    folder.mkdir(parents=True)
    mine = b"# my activate\r\nexport MINE='\xff'\n"
    (folder / "activate").write_bytes(mine)
    hook(tmp_path / "venv", "venv", "linux", CHANGES)
    assert (folder / "activate").read_bytes().startswith(mine)
    unhook(tmp_path / "venv", "venv", "linux")
    assert (folder / "activate").read_bytes() == mine


@pytest.mark.live_machine
def test_activate_with_dry_run_names_the_scripts_and_changes_nothing(tmp_path: Path) -> None:
    venv = _venv(tmp_path)
    before = _scripts(venv)
    result = _activate(venv, "--activate", "--dry-run")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Would hook into {venv / 'bin' / 'activate'} (bash)" in result.stdout
    assert _scripts(venv) == before


def test_a_conda_dry_run_creates_no_folder(tmp_path: Path) -> None:
    prefix = tmp_path / "conda-env"
    (prefix / "conda-meta").mkdir(parents=True)
    done = hook(prefix, "conda", "linux", CHANGES, dry_run=True)
    assert [item.path.name for item in done] == ["rocm-doctor.sh", "rocm-doctor.fish"] and not (prefix / "etc").exists()
