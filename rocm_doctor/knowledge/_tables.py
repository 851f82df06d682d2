"""Shared helpers for the knowledge modules: table access, row checks, version parsing."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, Dict, List, Optional, Tuple, TypeVar

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from rocm_doctor.data import load_table
from rocm_doctor.errors import InputError

T = TypeVar("T")

URL = re.compile(r"^https?://[^\s<>\"]+$")
"""A public source: an http(s) URL without spaces."""

_CACHE: Dict[Tuple[str, int], Tuple[Any, Any]] = {}


def cached_view(name: str, data: Optional[Any], build: Callable[[Any], T]) -> T:
    """``build(data)`` once per table object; ``data`` None means the shipped ``rules/data/<name>.yaml``.

    The table object is kept alive next to its view so that its ``id`` cannot be reused.
    """
    table = load_table(name) if data is None else data
    key = (name, id(table))
    hit = _CACHE.get(key)
    if hit is None or hit[0] is not table:
        hit = (table, build(table))
        _CACHE[key] = hit
    return hit[1]


def where(name: str, path: str) -> str:
    """``rules/data/<name>.yaml: <path>`` for error messages."""
    return f"rules/data/{name}.yaml: {path}"


def need_mapping(value: Any, name: str, path: str) -> Dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{where(name, path)} must be a mapping")
    return value


def source_urls(value: Any) -> Optional[Tuple[str, ...]]:
    """The URLs of a ``source`` field (one URL or a list of them); None when it is anything else."""
    urls = [value] if isinstance(value, str) else value
    if not isinstance(urls, list) or not urls:
        return None
    if not all(isinstance(u, str) and URL.match(u.strip()) for u in urls):
        return None
    return tuple(u.strip() for u in urls)


def need_source(row: Dict[str, Any], name: str, path: str, key: str = "source") -> str:
    """A row's ``source`` as text (URLs separated by spaces); an InputError unless it is URLs."""
    urls = source_urls(row.get(key))
    if urls is None:
        raise InputError(f"{where(name, path)}.{key} must be a public URL or a list of them")
    return " ".join(urls)


def need_rows(value: Any, name: str, path: str, source_key: str = "source") -> List[Dict[str, Any]]:
    """A list of mappings, each with a ``source`` (or ``source_key``) of public URLs."""
    if not isinstance(value, list):
        raise InputError(f"{where(name, path)} must be a list")
    for index, row in enumerate(value):
        need_mapping(row, name, f"{path}[{index}]")
        need_source(row, name, f"{path}[{index}]", source_key)
    return value


def str_list(row: Dict[str, Any], key: str, name: str, path: str) -> List[str]:
    value = row.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, (str, int, float)) for v in value):
        raise InputError(f"{where(name, path)}.{key} must be a list of strings")
    return [str(v) for v in value]


def specifier(text: Any, name: str, path: str) -> SpecifierSet:
    try:
        return SpecifierSet(str(text))
    except InvalidSpecifier:
        raise InputError(f"{where(name, path)}: '{text}' is not a version specifier") from None


def parse_version(text: Any) -> Optional[Version]:
    """A :class:`Version` or None when ``text`` is not a PEP 440 version."""
    if text is None:
        return None
    if type(text) is str and len(text) <= _CACHED_TEXT:
        return _parsed(text)
    return _parse(text)


def _parse(text: Any) -> Optional[Version]:
    try:
        return Version(str(text).strip())
    except ValueError:  # InvalidVersion, or a number part too long for int() (over 4,300 digits)
        return None


_CACHED_TEXT = 64
"""Version strings up to this long are parsed once per process (:func:`_parsed`): judging one report parsed the
tables' and the report's same few hundred strings again and again (a Version is immutable)."""
_parsed = lru_cache(maxsize=4096)(_parse)


def series(version: Any) -> Optional[str]:
    """``2.5.1+rocm6.2`` -> ``2.5``; ``6.2.4`` -> ``6.2``; None for a non-version."""
    parsed = parse_version(version)
    if parsed is None:
        return None
    release = parsed.release + (0,)
    return f"{release[0]}.{release[1]}"


def version_key(text: str) -> Version:
    """Sort key for version strings known to be valid (table values)."""
    return Version(text)
