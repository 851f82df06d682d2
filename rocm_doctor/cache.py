"""The shipped rule database, parsed and validated once per installed version, kept on disk.

Parsing the YAML rule files and data tables is most of what ``check --no-torch`` spends outside
its imports. What is built from them (validated rules, parsed tables) is kept in the user's cache
folder (``platformdirs.user_cache_dir("rocm-doctor")``; ``ROCM_DOCTOR_CACHE_DIR`` names another,
and an empty value turns the cache off), one file per entry, named by the entry and its key.

The key is a SHA-256 over the cache format, rocm-doctor's version, the Python that wrote it and
what the caller passes (the bytes of the files the entry was built from, the source of the
classes it holds): a changed file, another version or another interpreter is another key, so an
entry is never trusted across them. An entry is written to a temporary file in the same folder
and renamed over the old one (atomic: a concurrent reader sees the old entry or the new one,
never half of one; concurrent writers each write a whole entry). An entry that cannot be read,
is not this user's, is writable by others, or holds another key is rebuilt. User rule files
never come here: they are read fresh every time.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable, List, Optional, TypeVar, Union

from rocm_doctor import __version__

T = TypeVar("T")

CACHE_ENV = "ROCM_DOCTOR_CACHE_DIR"
FORMAT = "rocm-doctor-cache/1"
_MISS = object()


def cache_dir() -> Optional[Path]:
    """The folder entries live in; None when the cache is off (``ROCM_DOCTOR_CACHE_DIR=""``)."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        return Path(chosen) if chosen.strip() else None
    # Imported here for start-up speed only (a third-party module, needed only when an entry is read).
    import platformdirs

    return Path(platformdirs.user_cache_dir("rocm-doctor", appauthor=False))


def key_of(parts: Iterable[Union[bytes, str]]) -> str:
    """The key of an entry built from ``parts`` by this version of rocm-doctor on this Python."""
    digest = hashlib.sha256()
    for part in (FORMAT, __version__, sys.implementation.name, sys.version, *parts):
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def source_stamps(paths: Iterable[Path]) -> List[str]:
    """Name, size and modification time of every ``.py`` file in ``paths`` (folders searched recursively): part
    of the key of an entry whose value code builds or whose classes it pickles, so that a source checkout whose
    code changed under the same version never reuses what other code built."""
    stamps: List[str] = []
    for path in paths:
        sources = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for source in sources:
            try:
                info = source.stat()
            except OSError:  # an install that ships without this source: its absence is the stamp
                stamps.append(f"{source.as_posix()}:missing")
                continue
            stamps.append(f"{source.as_posix()}:{info.st_size}:{info.st_mtime_ns}")
    return stamps


KEEP_PER_ENTRY = 4
"""Entries of one name kept (the newest written): each upgrade or edited rule file writes another, and
two installs used in turn should not rebuild each other's every time."""


def entry_path(folder: Path, name: str, key: str) -> Path:
    return folder / f"{name}-{key[:32]}.pickle"


def _prune(folder: Path, name: str) -> None:
    """Remove all but the newest :data:`KEEP_PER_ENTRY` entries named ``name`` (best effort)."""
    shape = re.compile(re.escape(name) + r"-[0-9a-f]{32}\.pickle")
    try:
        found = [(entry.stat().st_mtime, entry) for entry in folder.iterdir() if shape.fullmatch(entry.name)]
    except OSError:
        return
    for _, entry in sorted(found, key=lambda item: item[0], reverse=True)[KEEP_PER_ENTRY:]:
        try:
            entry.unlink()
        except OSError:
            pass


def _read(path: Path, key: str) -> Any:
    """The value stored under ``key`` at ``path``, or ``_MISS`` (absent, unreadable, foreign, corrupt)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return _MISS
    try:
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            # pickle runs code from the file: only a file this user owns and no one else can write.
            if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
                return _MISS
            stored = pickle.loads(handle.read())
    except Exception:  # noqa: BLE001 - any damage (truncated, garbage, another format) means: rebuild
        return _MISS
    if not (isinstance(stored, tuple) and len(stored) == 3 and stored[0] == FORMAT and stored[1] == key):
        return _MISS
    return stored[2]


def _write(folder: Path, path: Path, key: str, value: Any) -> None:
    """Store ``value`` atomically; a folder that cannot be written leaves the cache off for this run."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        data = pickle.dumps((FORMAT, key, value), protocol=pickle.HIGHEST_PROTOCOL)
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except Exception:  # noqa: BLE001 - no cache is slower, not wrong
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return
    _prune(folder, path.name[: -len("-") - 32 - len(".pickle")])


def cached(name: str, key: str, build: Callable[[], T]) -> T:
    """The entry ``name`` under ``key``, built with ``build()`` and stored when missing or unusable.

    ``build`` raising (a malformed shipped file) stores nothing and propagates.
    """
    folder = cache_dir()
    if folder is None:
        return build()
    path = entry_path(folder, name, key)
    value = _read(path, key)
    if value is not _MISS:
        return value  # type: ignore[no-any-return]
    value = build()
    _write(folder, path, key, value)
    return value
