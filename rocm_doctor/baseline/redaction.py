"""The one place baselines are redacted, so that a change of the project's redactor is made here once."""

from __future__ import annotations

from typing import Any

from rocm_doctor.facts.model import Facts
from rocm_doctor.redact import IdentifierRedactor, Redactor, ReportRedactor, homes_in, redacted_along, strings_in
from rocm_doctor.system import host_name


class _KeptFolders:
    """Folder names under a home stay as they are in a baseline. Reports number them in the order they
    appear (``<name-1>``), which would make two states of one machine differ where nothing changed;
    a baseline stays in the user's own data folder, where the user and host are still replaced."""

    def text(self, value: str) -> str:
        return value

    def data(self, value: Any) -> Any:
        return value


def redact_facts(facts: Facts) -> Facts:
    """``facts`` with secrets, user and host names, home folders and identifiers replaced, walked
    along the schema as reports are (:func:`rocm_doctor.redact.redacted_along`).

    Both sides of a comparison go through here, so a path redacted in a baseline equals the same
    path read again from the live machine.
    """
    data = facts.model_dump(mode="json", by_alias=True)
    user = facts.permissions.user.value if facts.permissions.user.is_known else None
    identity = Redactor.from_names([str(user or "")], [host_name.local_host_name()], homes_in(strings_in(data)))
    redactor = ReportRedactor(identity, IdentifierRedactor(), homes=_KeptFolders())  # type: ignore[arg-type]
    redactor.learn(data)
    return Facts.model_validate(redacted_along(facts, data, redactor.data))
