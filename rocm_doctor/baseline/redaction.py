"""The one place baselines are redacted, so that a change of the project's redactor is made here once."""

from __future__ import annotations

from rocm_doctor.facts.model import Facts
from rocm_doctor.redact import Redactor, ReportRedactor, homes_in, strings_in


def redact_facts(facts: Facts) -> Facts:
    """``facts`` with user and host names, home folders and identifiers replaced, as reports redact them.

    Both sides of a comparison go through here, so a path redacted in a baseline equals the same
    path read again from the live machine.
    """
    from rocm_doctor.system.record import local_host_name

    data = facts.model_dump(mode="json", by_alias=True)
    user = facts.permissions.user.value if facts.permissions.user.is_known else None
    identity = Redactor.from_names([str(user or "")], [local_host_name()], homes_in(strings_in(data)))
    return Facts.model_validate(ReportRedactor.create(identity).data(data))
