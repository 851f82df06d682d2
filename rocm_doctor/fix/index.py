"""``--verify-index``: confirm a wheel exists before printing the command that needs it.

Reads the package's page of a PEP 503 (HTML) or PEP 691 (JSON) simple index with
requests and checks the file names (``packaging.utils.parse_wheel_filename``)
against the target's tags (``packaging.tags``) and the wanted version. A direct
wheel URL (AMD's Windows wheels) is checked by its file name and a HEAD request.
Offline, the answer is "not verified" with the reason, never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser
from typing import FrozenSet, Iterable, List, Optional, Tuple
from urllib.parse import unquote, urljoin, urlsplit

import requests
from packaging.tags import Tag, compatible_tags, cpython_tags
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

ACCEPT = "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.1"
TIMEOUT = 20.0


@dataclass(frozen=True)
class Verdict:
    """``found``, ``missing`` or ``not-verified``, with the wheel or the reason."""

    status: str
    name: str
    detail: str
    version: Optional[str] = None
    """The exact version found (``2.13.0+rocm7.2``), when found."""


def target_tags(python: str, os_name: str, machine: str = "x86_64") -> FrozenSet[Tag]:
    """Tags a CPython ``python`` (``3.12``) on ``linux``/``windows`` accepts."""
    major, minor = (int(x) for x in python.split(".")[:2])
    if os_name == "windows":
        platforms = ["win_amd64"]
    else:
        platforms = [f"manylinux_2_{n}_{machine}" for n in range(40, 16, -1)]
        platforms += [f"manylinux2014_{machine}", f"linux_{machine}"]
    tags = list(cpython_tags((major, minor), platforms=platforms))
    tags += list(compatible_tags((major, minor), f"cp{major}{minor}", platforms=platforms))
    return frozenset(tags)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: List[str] = []

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.hrefs.append(href)


def _filenames(response: requests.Response) -> List[str]:
    kind = response.headers.get("Content-Type", "").split(";")[0].strip()
    if kind == "application/vnd.pypi.simple.v1+json":
        return [str(f["filename"]) for f in response.json().get("files", [])]
    parser = _Links()
    parser.feed(response.text)
    return [unquote(urlsplit(href).path.rsplit("/", 1)[-1]) for href in parser.hrefs]


def _matches(version: Version, wanted: Optional[str]) -> bool:
    """``2.13`` matches any 2.13.x; ``2.13.0`` any local build of it; ``2.13.0+rocm7.2`` only itself."""
    if not wanted:
        return True
    if "+" in wanted:
        return str(version) == str(Version(wanted))
    parts = wanted.split(".")
    if len(parts) <= 2:
        return version.release[: len(parts)] == tuple(int(p) for p in parts)
    return version.public == str(Version(wanted)) or Version(version.public) == Version(wanted)


def _local_ok(version: Version, local_prefix: Optional[str]) -> bool:
    return local_prefix is None or (version.local or "").startswith(local_prefix)


def best_wheel(
    filenames: Iterable[str], name: str, wanted: Optional[str], tags: FrozenSet[Tag], local_prefix: Optional[str] = None
) -> Optional[Tuple[str, Version]]:
    """The newest wheel of ``name`` matching ``wanted`` whose tags fit, or None."""
    best: Optional[Tuple[str, Version]] = None
    for filename in filenames:
        try:
            dist, version, _build, file_tags = parse_wheel_filename(filename)
        except (InvalidWheelFilename, InvalidVersion):
            continue
        if dist != canonicalize_name(name) or not (file_tags & tags):
            continue
        if not _matches(version, wanted) or not _local_ok(version, local_prefix):
            continue
        if best is None or version > best[1]:
            best = (filename, version)
    return best


def verify_on_index(
    index_url: str,
    name: str,
    wanted: Optional[str],
    tags: FrozenSet[Tag],
    local_prefix: Optional[str] = None,
    session: Optional[requests.Session] = None,
) -> Verdict:
    """Look ``name`` up on the simple index at ``index_url``."""
    page = urljoin(index_url.rstrip("/") + "/", canonicalize_name(name) + "/")
    http = session or requests.Session()
    try:
        response = http.get(page, headers={"Accept": ACCEPT}, timeout=TIMEOUT)
    except requests.RequestException as exc:
        return Verdict("not-verified", name, f"could not reach {page}: {type(exc).__name__}")
    if response.status_code == 404:
        return Verdict("missing", name, f"{page} does not list {name} at all")
    if response.status_code != 200:
        return Verdict("not-verified", name, f"{page} answered HTTP {response.status_code}")
    best = best_wheel(_filenames(response), name, wanted, tags, local_prefix)
    what = f"{name} {wanted or '(any version)'}" + (f" +{local_prefix}*" if local_prefix else "")
    if best is None:
        return Verdict("missing", name, f"{page} has no wheel of {what} for this Python and platform")
    return Verdict("found", name, f"{best[0]} on {index_url}", str(best[1]))


def verify_url(url: str, name: str, tags: FrozenSet[Tag], session: Optional[requests.Session] = None) -> Verdict:
    """Check a direct wheel URL: its tags fit, and the server has the file."""
    filename = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
    if filename.endswith(".whl"):
        try:
            _dist, version, _build, file_tags = parse_wheel_filename(filename)
        except (InvalidWheelFilename, InvalidVersion):
            return Verdict("missing", name, f"{filename} is not a valid wheel file name")
        if not file_tags & tags:
            return Verdict("missing", name, f"{filename} does not fit this Python/platform")
    else:
        version = None
    http = session or requests.Session()
    try:
        response = http.head(url, allow_redirects=True, timeout=TIMEOUT)
    except requests.RequestException as exc:
        return Verdict("not-verified", name, f"could not reach {url}: {type(exc).__name__}")
    if response.status_code == 404:
        return Verdict("missing", name, f"{url} does not exist (HTTP 404)")
    if response.status_code >= 400:
        return Verdict("not-verified", name, f"{url} answered HTTP {response.status_code}")
    return Verdict("found", name, url, str(version) if version else None)
