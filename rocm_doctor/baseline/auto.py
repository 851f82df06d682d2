"""Baselines saved without being asked: ``fix --apply``'s restore point, and the setting that lets ``check``
keep the last good state (which ``rocm_doctor.diff.last_good`` decides, as it compares states)."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Optional, Sequence

from rocm_doctor.baseline.capture import capture
from rocm_doctor.baseline.fingerprint import LAST_GOOD_VAR, last_good_enabled  # noqa: F401 - re-exported
from rocm_doctor.baseline.store import save
from rocm_doctor.facts.model import Facts
from rocm_doctor.model.rules import Finding

def restore_point_name(now: Optional[_dt.datetime] = None) -> str:
    moment = now or _dt.datetime.now(_dt.timezone.utc)
    return "before-fix-" + moment.strftime("%Y%m%dT%H%M%SZ")


def save_restore_point(facts: Facts, findings: Sequence[Finding], rule_database: str) -> Path:
    """Save the state before ``fix --apply`` changes anything (``fix --to`` returns to it)."""
    return save(capture(restore_point_name(), facts, findings, rule_database, "fix --apply"))
