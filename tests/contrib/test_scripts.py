"""The shell scripts under contrib/ parse, and pass shellcheck where it is installed (Debian package shellcheck)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import List

import pytest

CONTRIB = Path(__file__).resolve().parents[2] / "contrib"


def shell_scripts() -> List[Path]:
    """Every file under contrib/ whose first line names sh or bash."""
    found = []
    for path in sorted(CONTRIB.rglob("*")):
        if path.is_file():
            with path.open("rb") as handle:
                first = handle.readline()
            if first.startswith(b"#!") and (b"bash" in first or first.rstrip().endswith(b"/sh")):
                found.append(path)
    return found


def test_there_are_scripts_to_check() -> None:
    names = {p.name for p in shell_scripts()}
    assert {"rocm-doctor-healthcheck", "rocm-doctor-check.sbatch", "prolog.sh", "epilog.sh", "rocm_doctor.fact"} <= names


@pytest.mark.parametrize("script", shell_scripts(), ids=lambda p: str(p.relative_to(CONTRIB)))
def test_script_parses_and_is_executable(script: Path) -> None:
    shell = "bash" if b"bash" in script.read_bytes().split(b"\n", 1)[0] else "sh"
    done = subprocess.run([shell, "-n", str(script)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert script.stat().st_mode & 0o111, f"{script} is not executable"


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (Debian package shellcheck)")
def test_shellcheck_finds_nothing() -> None:
    done = subprocess.run(["shellcheck", *map(str, shell_scripts())], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
