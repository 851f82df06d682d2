"""Helpers for the engine's tests: baseline facts, fixture rules, a CLI runner (fixtures in conftest)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List

import pytest

from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.cases import load_baseline, overlay

TESTS = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
BASELINE = TESTS / "rule_cases" / "baseline.json"


def fact(value: Any, source: str = "test") -> Dict[str, Any]:
    """A known fact as overlay data."""
    return {"status": "known", "value": value, "source": source}


@pytest.fixture
def make_facts() -> Callable[..., Facts]:
    """``make_facts({"torch": {"flavour": fact("cuda")}})``: the healthy baseline with an overlay."""
    base = load_baseline(BASELINE)

    def build(change: Dict[str, Any] = None) -> Facts:  # type: ignore[assignment]
        return Facts.from_dict(overlay(base, change or {}))

    return build


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


def write_facts(tmp_path: Path, facts: Facts, name: str = "facts.json") -> Path:
    path = tmp_path / name
    path.write_text(facts.to_json(), encoding="utf-8")
    return path


def two_gpu_overlay() -> Dict[str, Any]:
    """Two AMD GPUs: the baseline RX 7900 XTX and an RX 6700 XT (gfx1031) at KFD node 2."""
    second = {
        "index": 1,
        "source": "kfd",
        "name": fact("AMD Radeon RX 6700 XT"),
        "vendor": fact("AMD"),
        "vendor_id": fact("0x1002"),
        "gfx": fact("gfx1031"),
        "integrated": fact(False),
        "kfd_node": fact(2),
    }
    base = load_baseline(BASELINE)
    return {"gpus": {"agents": base["gpus"]["agents"] + [second]}}


FIXTURE_RULES: List[Path] = [FIXTURES / "engine_rules.yaml"]
