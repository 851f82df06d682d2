"""Test-wide guards: no test touches the real machine unless it says so."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

import rocm_doctor.system.live as live

MACHINES = Path(__file__).parent / "machines"
"""Recorded machines shipped as fixtures (one folder each)."""

_SCRUB_PREFIXES = ("HSA_", "HIP_", "ROCR_", "ROCM_", "PYTORCH_", "TORCH_", "AMD_", "MIOPEN_", "GPU_", "ROCM_DOCTOR_")


class YouForgotToUseARecordedMachine(AssertionError):
    """Raised when a test constructs LiveSystem without the live_machine marker."""


@pytest.fixture(autouse=True)
def _guard_live_system(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("live_machine") is not None:
        return

    def refuse(self: object) -> None:
        raise YouForgotToUseARecordedMachine(
            "this test reached the real machine through LiveSystem; use a RecordedSystem "
            "or mark the test @pytest.mark.live_machine"
        )

    monkeypatch.setattr(live.LiveSystem, "__init__", refuse)


@pytest.fixture(autouse=True)
def _scrub_rocm_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The developer's own ROCm variables must not leak into tests."""
    import os

    for name in list(os.environ):
        if name.startswith(_SCRUB_PREFIXES) or name in ("CUDA_VISIBLE_DEVICES",):
            monkeypatch.delenv(name, raising=False)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite tests/machines/*/facts.json from the current gatherers instead of comparing.",
    )


@dataclass
class CliResult:
    exit_code: int
    stdout: str
    stderr: str


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> Callable[..., CliResult]:
    """Run ``rocm-doctor ARGS`` through the real entry point (error boundary included)."""
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
