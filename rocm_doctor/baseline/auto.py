"""Baselines saved without being asked: ``check``'s last good state and ``fix --apply``'s restore point."""

from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path
from typing import Optional, Sequence

from rocm_doctor.baseline.capture import capture
from rocm_doctor.baseline.model import LAST_GOOD
from rocm_doctor.baseline.store import save
from rocm_doctor.facts.model import Facts
from rocm_doctor.model.rules import Finding

LAST_GOOD_VAR = "ROCM_DOCTOR_LAST_GOOD"
"""``off`` (or ``0``, ``no``, ``false``): ``check`` does not save the last good state."""
_OFF = ("0", "off", "no", "false")


def last_good_enabled() -> bool:
    return os.environ.get(LAST_GOOD_VAR, "").strip().lower() not in _OFF


def save_last_good(facts: Facts, findings: Sequence[Finding], rule_database: str) -> Optional[Path]:
    """Save ``facts`` as ``last-good`` when no finding is an error and the setting allows; the path, or None."""
    if not last_good_enabled() or any(f.severity == "error" for f in findings):
        return None
    return save(capture(LAST_GOOD, facts, findings, rule_database, "check"))


def restore_point_name(now: Optional[_dt.datetime] = None) -> str:
    moment = now or _dt.datetime.now(_dt.timezone.utc)
    return "before-fix-" + moment.strftime("%Y%m%dT%H%M%SZ")


def save_restore_point(facts: Facts, findings: Sequence[Finding], rule_database: str) -> Path:
    """Save the state before ``fix --apply`` changes anything (``fix --to`` returns to it)."""
    return save(capture(restore_point_name(), facts, findings, rule_database, "fix --apply"))
