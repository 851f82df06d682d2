"""How old the rule database in use is, and the one line that says so when it is old.

Read from the release alone (the shipped ``RELEASE`` file or the installed manifest), so that a
plain ``check`` pays two small file reads for it, not a parse of every table.
"""

from __future__ import annotations

import datetime
from typing import Optional

from rocm_doctor.dbstore import active_update, shipped_release

STALE_AFTER_DAYS = 90
"""A rule database released longer ago than this gets a one-line note on how to update it."""


def today() -> datetime.date:
    """The date the note is judged on (tests pin it)."""
    return datetime.date.today()


def release_date(release: Optional[str]) -> Optional[datetime.date]:
    """``2026.11.28`` (or ``2026-11-28``) -> that day; a release is named after the day it was built."""
    parts = (release or "").replace("-", ".").split(".")
    try:
        return datetime.date(int(parts[0]), int(parts[1]), int(parts[2]))
    except (IndexError, ValueError):
        return None


def released_in_use() -> Optional[datetime.date]:
    """The day the database in use was released."""
    update = active_update()
    if update is not None:
        return release_date(update.released) or release_date(str(update.release))
    shipped = shipped_release()
    return release_date(str(shipped)) if shipped is not None else None


def stale_note(released: Optional[datetime.date] = None) -> Optional[str]:
    """One line when the database (default: the one in use) is older than STALE_AFTER_DAYS."""
    released = released_in_use() if released is None else released
    if released is None:
        return None
    age = (today() - released).days
    if age <= STALE_AFTER_DAYS:
        return None
    return (
        f"The rule database in use was released {age} days ago ({released.isoformat()}); "
        "`rocm-doctor rules update` fetches the newest signed one."
    )
