"""Run ``rocm-doctor ARGS`` in this process through the real entry point (error boundary included).

Shared by the test folders (``from cli_runner import run_cli`` in a conftest): ``tests/`` is on
``sys.path`` because ``tests/conftest.py`` lives there.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable

import pytest


@dataclass
class CliResult:
    exit_code: int
    stdout: str
    stderr: str


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> Callable[..., CliResult]:
    """``run_cli("check", "--machine", DIR)`` -> exit code, stdout and stderr."""
    import importlib

    # rocm_doctor.cli re-exports the Typer object as `app`, which shadows the module name.
    app_module = importlib.import_module("rocm_doctor.cli.app")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")

    def run(*args: str) -> CliResult:
        monkeypatch.setattr(sys, "argv", ["rocm-doctor", *args])
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_info:
            app_module.main()
        out = capsys.readouterr()
        return CliResult(int(exit_info.value.code or 0), out.out, out.err)

    return run
