"""Helpers for the engine's tests: baseline facts, fixture rules, a CLI runner (fixtures in conftest)."""

from __future__ import annotations

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
