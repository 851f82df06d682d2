"""The Adrenalin release a Windows AMD display driver version names (``rules/data/adrenalin_releases.yaml``).

Windows shows an AMD display driver by its driver-store version (``32.0.12011.1036``: Device Manager,
dxdiag, WMI's DriverVersion) and AMD Software by its internal build (``24.20.11.01``, often followed by
``-240910a-...``); the rules name releases the way AMD's release notes do (``24.9.1``). A version the
table does not hold names no release. Internal builds are kept in the table but not read: only one report
seen so far names the driver that way.

Public API:

* :func:`release_of_windows_driver` -- the release of a driver-store version, or None;
* :class:`AdrenalinTable` -- the same over a parsed table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, Optional

from rocm_doctor.errors import InputError
from rocm_doctor.knowledge._tables import cached_view, need_mapping, need_source, where

TABLE = "adrenalin_releases"

_RELEASE = re.compile(r"\d{2}\.\d{1,2}\.\d{1,2}")
_STORE = re.compile(r"3\d\.0\.\d{5}\.\d{1,5}")


@dataclass(frozen=True)
class AdrenalinTable:
    by_store: Dict[str, str]

    @classmethod
    def from_data(cls, data: Any) -> "AdrenalinTable":
        table = need_mapping(data, TABLE, "")
        need_source(table, TABLE, "")
        rows = table.get("releases")
        if not isinstance(rows, list) or not rows:
            raise InputError(f"{where(TABLE, 'releases')} must be a non-empty list")
        by_store: Dict[str, str] = {}
        for index, row in enumerate(rows):
            need_mapping(row, TABLE, f"releases[{index}]")
            release, store = (str(row.get(key, "")) for key in ("release", "windows"))
            if not (_RELEASE.fullmatch(release) and _STORE.fullmatch(store)):
                raise InputError(f"{where(TABLE, f'releases[{index}]')} needs a release (24.9.1) and a windows store version (32.0.12011.1036)")
            if store in by_store:
                raise InputError(f"{where(TABLE, f'releases[{index}]')}: store version {store} is listed twice")
            by_store[store] = release
        return cls(by_store)


def _table(data: Optional[Any] = None) -> AdrenalinTable:
    return cached_view(TABLE, data, AdrenalinTable.from_data)


def release_of_windows_driver(version: str, data: Optional[Any] = None) -> Optional[str]:
    """``32.0.12011.1036`` -> ``24.9.1``; None for a version the table does not hold."""
    return _table(data).by_store.get(version.strip())
