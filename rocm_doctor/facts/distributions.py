"""Python distributions installed in the target environment, read from files (never imported).

A site-packages directory holds one ``<name>-<version>.dist-info`` (or
``.egg-info``) entry per distribution; its ``METADATA`` / ``PKG-INFO`` headers
carry ``Name:`` and ``Version:``. Like ``importlib.metadata``, the first
directory on the search path wins when a distribution appears twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Set

from packaging.utils import canonicalize_name

from rocm_doctor.facts.common import join_path
from rocm_doctor.facts.model import PythonFacts
from rocm_doctor.facts.value import Fact, failed
from rocm_doctor.system.base import System

_SUFFIXES = (".dist-info", ".egg-info")
_HEADER_BYTES = 8192
"""``Name`` and ``Version`` come first in core metadata; the long description after them is not read."""


@dataclass(frozen=True)
class Distribution:
    """One installed distribution."""

    name: str
    """Canonical name (``pytorch-triton-rocm``)."""
    version: str
    site_dir: str
    """The site-packages directory it is installed in."""
    info_path: str
    """Its ``.dist-info`` / ``.egg-info`` path."""


@dataclass
class DistributionScan:
    """Distributions found in a list of site directories, and what could not be read."""

    found: Dict[str, Distribution] = field(default_factory=dict)
    problems: List[str] = field(default_factory=list)
    """One line per directory or metadata file that could not be read."""
    readable_dirs: int = 0


def name_from_entry(entry: str) -> Optional[str]:
    """The canonical name encoded in a ``.dist-info`` / ``.egg-info`` entry name."""
    for suffix in _SUFFIXES:
        if entry.endswith(suffix):
            stem = entry[: -len(suffix)]
            return canonicalize_name(stem.split("-", 1)[0]) if stem else None
    return None


def parse_metadata_headers(text: str) -> Dict[str, str]:
    """The first ``Name:`` and ``Version:`` headers of a core-metadata file."""
    headers: Dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            break
        key, sep, value = line.partition(":")
        if sep and key in ("Name", "Version") and key not in headers:
            headers[key] = value.strip()
    return headers


def _read_metadata(system: System, info_path: str) -> str:
    for candidate in ("METADATA", "PKG-INFO"):
        try:
            return system.read_text(join_path(info_path, candidate), max_bytes=_HEADER_BYTES)
        except (FileNotFoundError, NotADirectoryError):
            continue
    if system.is_dir(info_path):
        return ""  # no metadata file: the entry name still carries name and version
    # An .egg-info may itself be the PKG-INFO file.
    return system.read_text(info_path, max_bytes=_HEADER_BYTES)


def _version_from_entry(entry: str) -> Optional[str]:
    stem = entry.rsplit(".", 1)[0]
    parts = stem.split("-")
    return parts[1] if len(parts) > 1 and parts[1] else None


def scan_distributions(system: System, site_dirs: Iterable[str], only: Optional[Set[str]] = None) -> DistributionScan:
    """Read every distribution (or just the canonical names in ``only``) from the site directories."""
    scan = DistributionScan()
    for site_dir in site_dirs:
        try:
            entries = system.list_dir(site_dir)
        except FileNotFoundError:
            continue
        except OSError as exc:
            scan.problems.append(f"cannot list {site_dir}: {exc.strerror or exc}")
            continue
        scan.readable_dirs += 1
        for entry in entries:
            guessed = name_from_entry(entry)
            if guessed is None or (only is not None and guessed not in only) or guessed in scan.found:
                continue
            info_path = join_path(site_dir, entry)
            try:
                headers = parse_metadata_headers(_read_metadata(system, info_path))
            except OSError as exc:
                scan.problems.append(f"cannot read the metadata of {info_path}: {exc.strerror or exc}")
                continue
            name = canonicalize_name(headers.get("Name") or guessed)
            version = headers.get("Version") or _version_from_entry(entry)
            if version is None:
                scan.problems.append(f"{info_path} has no version")
                continue
            if name not in scan.found:
                scan.found[name] = Distribution(name, version, site_dir, info_path)
    return scan


def record_lists(system: System, dist: Distribution, prefix: str) -> Optional[bool]:
    """Whether the distribution's ``RECORD`` lists a file under ``prefix``; None if there is no RECORD."""
    try:
        text = system.read_text(join_path(dist.info_path, "RECORD"), max_bytes=8 << 20)
    except OSError:
        return None
    return any(line.startswith(prefix) for line in text.splitlines())


def target_site_dirs(sections: Dict[str, object]) -> Fact[List[str]]:
    """The target interpreter's site directories, as the python gatherer found them."""
    python = sections.get("python")
    if not isinstance(python, PythonFacts):
        return failed("python", "the target interpreter was not inspected")
    fact = python.site_packages
    if not fact.is_known:
        return failed(fact.source or "python", f"the target interpreter could not be inspected: {fact.reason}")
    return fact
