"""``check``'s lines about known regressions: an update since the last good state that walks into one,
and a torch or ROCm version in use that a published regression names for this GPU."""

from __future__ import annotations

from typing import List, Optional

from rocm_doctor.diff.compare import compare_facts, machine_gfx, packages_of, platform_of
from rocm_doctor.facts.model import Facts
from rocm_doctor.knowledge.regressions import regressions


def _versions(facts: Facts) -> List[tuple]:
    found = []
    packages = packages_of(facts) or {}
    torch = packages.get("torch") or (str(facts.torch.version.value) if facts.torch.version.is_known else None)
    if torch:
        found.append(("torch", torch))
    if facts.rocm.version.is_known:
        found.append(("rocm", str(facts.rocm.version.value)))
    return found


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
    gfx, platform = machine_gfx(facts), platform_of(facts)
    for component, version in _versions(facts):
        for row in regressions().matching_version(component, version, gfx, platform):
            if row.id not in seen:
                seen.add(row.id)
                lines.append(f"Known regression: {row.sentence(None, version)}")
    return lines
