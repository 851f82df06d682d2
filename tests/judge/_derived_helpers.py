"""Shared helpers for the derived-fact tests: the healthy baseline with an overlay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.cases import overlay
from rocm_doctor.judge.derived import DerivedValues

BASELINE = Path(__file__).parent.parent / "rule_cases" / "baseline.json"


def K(value: Any) -> Dict[str, Any]:
    return {"status": "known", "value": value, "source": "test"}


def derived(path: str, change: Dict[str, Any]) -> Any:
    """The derived fact ``path`` on the baseline with ``change`` overlaid."""
    facts = Facts.from_dict(overlay(json.loads(BASELINE.read_text()), change))
    return DerivedValues(facts).machine(path)


def env(**values: str) -> Dict[str, Any]:
    return {"env": {"vars": K(values)}}


def agent(index: int, gfx: str, integrated: bool) -> Dict[str, Any]:
    return {"index": index, "source": "test", "name": K(f"GPU {gfx}"), "vendor": K("AMD"),
            "gfx": K(gfx), "integrated": K(integrated)}
