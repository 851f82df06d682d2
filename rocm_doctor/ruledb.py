"""The rule database's identity printed in reports: a content hash and the date it was checked.

``rules-<12 hex digits>`` is the SHA-256 over every ``*.yaml`` file under the rule
database (``rules/`` in the repository, ``rocm_doctor/_rules`` in the wheel), taken in
sorted relative-path order, each as ``<relative path>\\0<bytes>\\0``. It changes whenever a
rule or a data table changes and never needs bumping by hand; two reports with the
same version were judged by the same rules and tables.

Every data table (``rules/data/*.yaml``) says when its rows were last checked against
their sources (top-level ``checked: YYYY-MM-DD``) and against what (``against:``, a list
of public URLs). The database's date is the oldest of those dates: every table was
checked on that day or later.
"""

from __future__ import annotations

import copy
import datetime
import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from rocm_doctor.data import read_yaml, rules_dir
from rocm_doctor.dbage import release_date
from rocm_doctor.dbstore import active_update, read_release
from rocm_doctor.errors import InputError

PREFIX = "rules-"
DIGITS = 12


def rule_database_version(directory: Optional[Path] = None) -> str:
    """``rules-<hash>`` of the rule database in ``directory`` (default: the shipped one)."""
    root = Path(directory) if directory is not None else rules_dir()
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.yaml"), key=lambda p: p.relative_to(root).as_posix()):
        digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return PREFIX + digest.hexdigest()[:DIGITS]


@dataclass(frozen=True)
class TableCheck:
    """When one data table was last checked, and against which public sources."""

    name: str
    checked: datetime.date
    against: Tuple[str, ...]


def _checked_date(value: Any, where: str) -> datetime.date:
    if isinstance(value, datetime.date):
        return value
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        raise InputError(f"{where}: checked must be a date (YYYY-MM-DD), not {value!r}") from None


def table_check(path: Path) -> TableCheck:
    """The ``checked``/``against`` header of one data table; an InputError names a missing or bad one."""
    where = f"rules/data/{path.name}"
    data = read_yaml(path)
    if not isinstance(data, dict) or "checked" not in data:
        raise InputError(f"{where}: needs a top-level 'checked: YYYY-MM-DD'")
    against = data.get("against")
    if not isinstance(against, list) or not against or not all(isinstance(a, str) and a.strip() for a in against):
        raise InputError(f"{where}: needs a top-level 'against:' list of the sources it was checked against")
    return TableCheck(path.stem, _checked_date(data["checked"], where), tuple(a.strip() for a in against))


def table_checks(directory: Optional[Path] = None) -> List[TableCheck]:
    """Every data table's check header, by table name."""
    root = Path(directory) if directory is not None else rules_dir()
    return [table_check(p) for p in sorted((root / "data").glob("*.yaml"))]


def _iso(day: Optional[datetime.date]) -> Optional[str]:
    return day.isoformat() if day is not None else None


def rule_database_info(directory: Optional[Path] = None) -> Dict[str, Any]:
    """``{"version", "checked", "tables", "release", "released", "origin"}`` of the database in
    ``directory`` (default: the one in use): the content hash, the oldest table check date, each
    table's check, its release and release date, and ``shipped`` or ``updated`` (by ``rules update``).

    The database in use is read once per process (per folder): every ``--json`` document and report
    carries it, and parsing the fifteen tables again each time cost a quarter of a second."""
    return copy.deepcopy(_info_of(Path(directory) if directory is not None else rules_dir()))


@functools.lru_cache(maxsize=4)
def _info_of(root: Path) -> Dict[str, Any]:
    checks = table_checks(root)
    update = active_update()
    release = read_release(root)
    updated = update is not None and update.rules == root
    return {
        "version": rule_database_version(root),
        "checked": min(c.checked for c in checks).isoformat() if checks else None,
        "tables": {c.name: {"checked": c.checked.isoformat(), "against": list(c.against)} for c in checks},
        "release": release,
        "released": _iso(release_date((update.released if updated and update is not None else None) or release)),
        "origin": "updated" if updated else "shipped",
    }


def database_label(info: Dict[str, Any]) -> str:
    """``rules-0123abcd4567 (release 2026.11.28, shipped)`` for headers and reports."""
    release = info.get("release") or "unknown release"
    return f"{info['version']} (release {release}, {info.get('origin', 'shipped')})"
