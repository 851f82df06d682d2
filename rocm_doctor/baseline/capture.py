"""A baseline built from facts and the findings judged on them."""

from __future__ import annotations

from typing import Iterable, Optional

from rocm_doctor import __version__
from rocm_doctor.baseline.model import Baseline, BaselineFinding
from rocm_doctor.baseline.redaction import redact_facts
from rocm_doctor.baseline.store import checked_name, now_iso
from rocm_doctor.facts.model import Facts
from rocm_doctor.model.rules import Finding


def capture(
    name: str, facts: Facts, findings: Iterable[Finding], rule_database: str, reason: str,
    saved_at: Optional[str] = None,
) -> Baseline:
    """The baseline ``name`` of ``facts`` (redacted) and their findings."""
    kept = [
        BaselineFinding(id=f.id, severity=f.severity, action=f.action, title=f.title, gpu=f.gpu)
        for f in findings
    ]
    return Baseline(
        name=checked_name(name),
        saved_at=saved_at or now_iso(),
        reason=reason,
        tool_version=__version__,
        rule_database=rule_database,
        facts=redact_facts(facts),
        findings=kept,
    )
