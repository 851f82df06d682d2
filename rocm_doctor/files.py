"""The one way rocm-doctor writes a user's file: atomically, and with a backup of what was there."""

from __future__ import annotations

import datetime as _dt
import os
import shutil
import tempfile
from pathlib import Path
from typing import Optional

from rocm_doctor.errors import InputError


def _backup(path: Path) -> Path:
    """Copy ``path`` to ``<name>.<timestamp>.rocm-doctor.bak`` beside it (never overwriting a backup)."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.name}.{stamp}.rocm-doctor.bak")
    counter = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.{stamp}-{counter}.rocm-doctor.bak")
        counter += 1
    shutil.copy2(path, candidate)
    return candidate


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file; a path that cannot be written is an InputError."""
    if path.is_dir():
        raise InputError(f"{path}: is a directory")
    directory = path.parent if str(path.parent) else Path(".")
    try:
        _replace_with(path, directory, text)
    except OSError as exc:  # a missing or read-only folder, /proc, /sys: the file is left as it was
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None


def _replace_with(path: Path, directory: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8", errors="surrogateescape"))
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_with_backup(path: Path, text: str) -> Optional[Path]:
    """Replace ``path`` with ``text`` atomically, first backing up a different existing file.

    Returns the backup's path (None when there was no file, or it already held ``text``).
    """
    if path.is_dir():
        raise InputError(f"{path}: is a directory")
    backup: Optional[Path] = None
    if path.exists():
        try:
            if path.read_bytes() == text.encode("utf-8", errors="surrogateescape"):
                return None
            backup = _backup(path)
        except OSError as exc:  # /proc, a read-only folder: no backup, so no write
            raise InputError(f"{path}: cannot write the backup ({exc.strerror or exc})") from None
    atomic_write(path, text)
    return backup
