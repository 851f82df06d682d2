"""Which Linux distributions AMD lists as supported per ROCm release (``rules/data/rocm_os.yaml``).

Public API: :func:`supported_os(rocm_version, distro_id, distro_version)` -> True / False, or
None when the table has no row for that ROCm release (it covers 6.0.0-7.2.3, the releases the matrix has columns for) or no list for
that distribution; :func:`listed_os(rocm_version)` -> 'Ubuntu 24.04, 22.04; RHEL ...'.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from rocm_doctor.errors import InputError
from rocm_doctor.knowledge._tables import cached_view, need_mapping, parse_version, where

TABLE = "rocm_os"
NAMES = {"ubuntu": "Ubuntu", "rhel": "RHEL", "sles": "SLES", "ol": "Oracle Linux", "debian": "Debian",
         "centos": "CentOS", "azurelinux": "Azure Linux", "rocky": "Rocky Linux"}


def _build(data: Any) -> Dict[str, Dict[str, List[str]]]:
    need_mapping(data, TABLE, "document")
    if not str(data.get("source", "")).startswith("https://"):
        raise InputError(f"{where(TABLE, 'source')} must be a URL")
    releases = need_mapping(data.get("releases"), TABLE, "releases")
    table: Dict[str, Dict[str, List[str]]] = {}
    for version, row in releases.items():
        if parse_version(version) is None:
            raise InputError(f"{where(TABLE, f'releases.{version}')}: not a version")
        need_mapping(row, TABLE, f"releases.{version}")
        table[str(version)] = {str(k): [str(v) for v in vs] for k, vs in row.items()}
    return table


def _rows(rocm_version: str, data: Optional[Any]) -> List[Dict[str, List[str]]]:
    """The row of the exact release; else every row of its major.minor series (a release the
    matrix does not list, such as the Radeon-only 6.2.3, is judged by its series when all of the
    series' rows agree)."""
    table = cached_view(TABLE, data, _build)
    parsed = parse_version(str(rocm_version).split("-")[0])
    if parsed is None:
        return []
    release = parsed.release + (0, 0)
    exact = table.get(f"{release[0]}.{release[1]}.{release[2]}")
    if exact is not None:
        return [exact]
    prefix = f"{release[0]}.{release[1]}."
    return [row for version, row in table.items() if version.startswith(prefix)]


def _row(rocm_version: str, data: Optional[Any]) -> Optional[Dict[str, List[str]]]:
    rows = _rows(rocm_version, data)
    return rows[0] if len(rows) == 1 else None


def _normalise(distro_id: str, version: str) -> str:
    if distro_id == "ubuntu":
        return ".".join(version.split(".")[:2])
    if distro_id == "centos":
        return version.split(".")[0]
    return version


def supported_os(rocm_version: str, distro_id: str, distro_version: str, data: Optional[Any] = None) -> Optional[bool]:
    """Whether AMD lists this distribution version for this ROCm release; None when not tabled
    (or when the release is not listed and its series' rows disagree)."""
    distro = distro_id.strip().lower()
    verdicts = {_listed(row, distro, distro_version) for row in _rows(rocm_version, data)}
    return verdicts.pop() if len(verdicts) == 1 else None


def _listed(row: Dict[str, List[str]], distro: str, distro_version: str) -> bool:
    if distro not in row:
        return False  # the release's list is complete: a distribution missing from it is not supported
    version = _normalise(distro, distro_version.strip())
    # the matrix lists some systems by major release only ("Oracle Linux 9"): it covers every 9.x
    return version in row[distro] or any("." not in listed and version.split(".")[0] == listed for listed in row[distro])


def listed_os(rocm_version: str, data: Optional[Any] = None) -> Optional[str]:
    """The distributions listed for a release, for messages; None when not tabled."""
    rows = _rows(rocm_version, data)
    if not rows:
        return None
    row = rows[0]
    return "; ".join(f"{NAMES.get(k, k)} {', '.join(v)}" for k, v in row.items())


def all_releases(data: Optional[Any] = None) -> Dict[str, Dict[str, List[str]]]:
    """Every ROCm release the table lists -> distribution id -> the versions AMD lists (for ``matrix``)."""
    return cached_view(TABLE, data, _build)
