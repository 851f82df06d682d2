"""``check``'s ``last-good``: the latest state without an error finding and without a known regression.

When the state to save differs from the ``last-good`` already there (anything ``diff`` would name),
the older one is kept as ``good-<time it was saved>``, so an update that breaks a machine without
an error finding (most published regressions) cannot erase the state from before it; the newest
:data:`KEEP` of those are kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

from rocm_doctor.baseline.auto import last_good_enabled
from rocm_doctor.baseline.capture import capture
from rocm_doctor.baseline.model import LAST_GOOD
from rocm_doctor.baseline.store import list_all, load, path_of, remove, save
from rocm_doctor.diff.compare import compare_facts
from rocm_doctor.diff.notes import regression_notes
from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts
from rocm_doctor.model.rules import Finding

KEEP = 10
"""Earlier good states kept beside ``last-good``."""
EARLIER = "good-"


def _stamp(saved_at: str) -> str:
    return "".join(c for c in saved_at[:19] if c.isdigit())


def save_last_good(facts: Facts, findings: Sequence[Finding], rule_database: str) -> Optional[Path]:
    """Save ``facts`` as ``last-good`` unless switched off, an error was found or a known regression
    matches (the versions in use, or the update since the last good state); the path, or None."""
    if not last_good_enabled() or any(f.severity == "error" for f in findings):
        return None
    try:
        previous = load(LAST_GOOD) if path_of(LAST_GOOD).exists() else None
    except InputError:
        previous = None  # unreadable: replaced by a good one
    if regression_notes(facts, previous.facts if previous else None):
        return None
    new = capture(LAST_GOOD, facts, findings, rule_database, "check")
    if previous is not None and compare_facts(previous.facts, new.facts)[0]:
        save(previous.model_copy(update={"name": EARLIER + _stamp(previous.saved_at)}))
        _prune()
    return save(new)


def _prune() -> None:
    kept = [item.name for item in list_all()[0] if item.name.startswith(EARLIER)]
    for name in sorted(kept, reverse=True)[KEEP:]:
        remove(name)
