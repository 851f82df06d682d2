"""Which torch build a wheel's file name names (``torch-2.4.0-cp310-cp310-manylinux1_x86_64.whl``).

A local tag in the file name says the build itself (``+rocm6.1``, ``+cu121``, ``+cpu``); a final release
without one is PyPI's file, whose build depends on the platform tag: ``rules/data/torch_pypi_wheels.yaml``
says which build PyPI's file is on which platform, and on which it is not judged (macOS, aarch64, a
``linux_x86_64`` file PyPI would refuse). Pre-releases and ``+git`` tags (source builds, AMD's Windows
previews) decide nothing.

Public API: :class:`WheelBuild`, :func:`wheel_build` (a file name or URL), :func:`parse_platform`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple
from urllib.parse import unquote

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import InvalidWheelFilename, parse_wheel_filename
from packaging.version import Version

from rocm_doctor.errors import InputError
from rocm_doctor.knowledge._tables import cached_view, need_mapping, need_source, where
from rocm_doctor.knowledge.torch_static import flavour_from_tag

TABLE = "torch_pypi_wheels"

_MANYLINUX = re.compile(r"^(?:many|musl)linux(?:1|2010|2014|_\d+_\d+)_(?P<machine>x86_64|aarch64|ppc64le|s390x|i686)$")
_LINUX = re.compile(r"^linux_(?P<machine>\w+)$")
_MACOS = re.compile(r"^macosx_\d+_\d+_(?P<machine>\w+)$")
_WINDOWS = {"win_amd64": "amd64", "win32": "x86", "win_arm64": "arm64"}
_FILE = re.compile(r"^torch-\d[^/\\]*\.whl$")
"""A torch wheel's file name (the last segment of a path or URL)."""
_QUOTES = "'\"()[]<>`,;"


@dataclass(frozen=True)
class WheelBuild:
    """What a torch wheel's file name says: the build (``rocm``/``cuda``/``cpu``/``xpu``; None when the name
    does not say), whether the file is no ROCm build at all (``not_rocm``), and why."""

    version: str
    platform: str
    build: Optional[str]
    not_rocm: bool
    reason: str


@dataclass(frozen=True)
class _Row:
    os: str
    machine: str
    build: str
    releases: SpecifierSet
    source: str


def parse_platform(tag: str) -> Optional[Tuple[str, str, bool]]:
    """(os, machine, PyPI accepts this tag) of a wheel platform tag; None for one not known here."""
    match = _MANYLINUX.match(tag)
    if match:
        return "linux", match.group("machine"), True
    match = _LINUX.match(tag)
    if match:
        return "linux", match.group("machine"), False
    match = _MACOS.match(tag)
    if match:
        return "macos", match.group("machine"), True
    if tag in _WINDOWS:
        return "windows", _WINDOWS[tag], True
    return None


def _rows(table: Any) -> Dict[Tuple[str, str], _Row]:
    data = need_mapping(table, TABLE, "top level")
    rows = data.get("platforms")
    if not isinstance(rows, list) or not rows:
        raise InputError(f"{where(TABLE, 'platforms')} must be a non-empty list")
    out: Dict[Tuple[str, str], _Row] = {}
    for index, raw in enumerate(rows):
        path = f"platforms[{index}]"
        row = need_mapping(raw, TABLE, path)
        if row.get("build") not in ("cuda", "cpu", "xpu"):
            raise InputError(f"{where(TABLE, path)}: build must be cuda, cpu or xpu")
        try:
            releases = SpecifierSet(str(row.get("releases", "")))
        except InvalidSpecifier as error:
            raise InputError(f"{where(TABLE, path)}: releases: {error}") from None
        key = (str(row.get("os", "")), str(row.get("machine", "")))
        if not all(key) or key in out:
            raise InputError(f"{where(TABLE, path)}: os and machine must be given, once per pair")
        out[key] = _Row(key[0], key[1], row["build"], releases, need_source(row, TABLE, path))
    return out


def _file_name(text: str) -> Optional[str]:
    """The first torch wheel file name among the words of ``text``: a word's last path segment, quotes and
    pip's ``.metadata`` suffix (the metadata it fetches before the wheel) taken off. Word by word, so that
    it stays linear in a long line; a Windows folder with a space in it ends before the file's word."""
    for word in unquote(text).split():
        segment = re.split(r"[/\\]", word.strip(_QUOTES))[-1].strip(_QUOTES)
        if segment.endswith(".metadata"):
            segment = segment[: -len(".metadata")]
        if _FILE.match(segment):
            return segment
    return None


def wheel_build(name_or_url: str, table: Optional[Any] = None) -> Optional[WheelBuild]:
    """What a torch wheel's file name or URL says about its build; None when it names no torch wheel."""
    file_name = _file_name(name_or_url)
    if file_name is None:
        return None
    try:
        name, version, _build, tags = parse_wheel_filename(file_name)
    except InvalidWheelFilename:
        return None
    if name != "torch":
        return None
    platforms = sorted({tag.platform for tag in tags})
    platform = platforms[0] if platforms else ""
    text = str(version)
    if version.local is not None:
        flavour = flavour_from_tag(version.local)
        if flavour is None:
            return WheelBuild(text, platform, None, False, f"the local tag +{version.local} does not say the build")
        return WheelBuild(text, platform, flavour, flavour != "rocm", f"the local tag +{version.local}")
    if version.is_prerelease or version.is_devrelease:
        return WheelBuild(text, platform, None, False, "a pre-release without a local tag (a source build or a nightly)")
    parsed = parse_platform(platform)
    if parsed is None:
        return WheelBuild(text, platform, None, False, f"the platform tag {platform} is not judged")
    os_name, machine, on_pypi = parsed
    if not on_pypi:
        return WheelBuild(text, platform, None, False, f"PyPI refuses the platform tag {platform}: a local build")
    row = cached_view(TABLE, table, _rows).get((os_name, machine))
    if row is None:
        return WheelBuild(text, platform, None, False, f"PyPI's torch for {os_name} {machine} is not judged")
    if Version(text) in row.releases:
        return WheelBuild(text, platform, row.build, True, f"PyPI's torch for {os_name} {machine} is the {row.build} build ({row.source})")
    return WheelBuild(text, platform, None, True, f"PyPI's torch for {os_name} {machine} (release {text} not checked), no ROCm build")
