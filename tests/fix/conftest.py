"""Fixtures for the fix tests: ``doctor`` runs the real CLI from a folder, in this process."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def doctor(run_cli, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Ran]:
    """``rocm-doctor ARGS`` run from the folder ``cwd``, in this process through the real entry point (a child
    process per run cost 0.7 s of CPU for starting Python and importing the CLI, not for what is tested)."""
    monkeypatch.setenv("COLUMNS", "400")
    monkeypatch.delenv("ROCM_DOCTOR_RULES", raising=False)

    def run(*args: str, cwd: Path) -> Ran:
        monkeypatch.chdir(cwd)
        result = run_cli(*args)
        return Ran(result.exit_code, result.stdout, result.stderr)

    return run
