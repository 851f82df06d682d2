"""The target interpreter: the active environment, not rocm-doctor's own (pipx / uvx installs)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from rocm_doctor.facts.target import target_interpreter
from rocm_doctor.system.base import PlatformInfo


class _System:
    def __init__(self, env, files=(), on_path=None):
        self.env, self.files, self.on_path = env, set(files), on_path or {}

    def environ(self):
        return self.env

    def exists(self, path):
        return path in self.files

    def which(self, name):
        return self.on_path.get(name)

    def platform(self):
        return PlatformInfo("Linux", "6.8", "", "x86_64")

    def current_python(self):
        return "/home/u/.local/share/pipx/venvs/rocm-doctor/bin/python"


def test_the_active_venv_wins_over_rocm_doctors_own_interpreter() -> None:
    system = _System({"VIRTUAL_ENV": "/home/u/proj/.venv"}, files={"/home/u/proj/.venv/bin/python3"})
    assert target_interpreter(system) == ("/home/u/proj/.venv/bin/python3", "the active virtual environment (VIRTUAL_ENV=/home/u/proj/.venv)")


def test_then_conda_then_the_first_python_on_path_then_our_own() -> None:
    conda = _System({"CONDA_PREFIX": "/opt/conda/envs/t"}, files={"/opt/conda/envs/t/bin/python"})
    assert target_interpreter(conda)[0] == "/opt/conda/envs/t/bin/python"
    path = _System({}, on_path={"python3": "/usr/bin/python3"})
    assert target_interpreter(path) == ("/usr/bin/python3", "the first python3 on PATH")
    assert target_interpreter(_System({}))[1].startswith("the interpreter running rocm-doctor")
    assert target_interpreter(path, "/x/python") == ("/x/python", "--python")


@pytest.mark.live_machine
def test_installed_in_its_own_venv_facts_inspects_the_active_venv(tmp_path: Path) -> None:
    active = tmp_path / "active"
    venv.create(active, with_pip=False)
    env = dict(os.environ, VIRTUAL_ENV=str(active), PATH=f"{active / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    # sys.executable plays the pipx venv that rocm-doctor is installed in.
    done = subprocess.run([sys.executable, "-m", "rocm_doctor", "facts", "--json", "--no-torch"], capture_output=True,
                          text=True, timeout=120, env=env)
    python = json.loads(done.stdout)["python"]
    assert python["prefix"]["value"] == str(active)
    assert "VIRTUAL_ENV" in python["selected_by"]["value"]
