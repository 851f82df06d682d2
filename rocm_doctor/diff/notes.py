"""``check``'s lines about known regressions: an update since the last good state that walks into one,
and a torch or ROCm version in use that a published regression names for this GPU."""

from __future__ import annotations

from typing import List, Optional

from rocm_doctor.diff.compare import compare_facts
from rocm_doctor.diff.versions import regressions_in_use
from rocm_doctor.facts.model import Facts


def regression_notes(facts: Facts, last_good: Optional[Facts] = None) -> List[str]:
    """One line per known regression: the update from ``last_good`` first, then versions in use."""
    lines: List[str] = []
    seen = set()
    if last_good is not None:
        changes, _ = compare_facts(last_good, facts)
        for change in changes:
            for match in change.regressions:
                seen.add(match.id)
                lines.append(f"Known regression since the last good state: {match.text}")
    for version, row in regressions_in_use(facts):
        if row.id not in seen:
            seen.add(row.id)
            lines.append(f"Known regression: {row.sentence(None, version)}")
    return lines
