"""Baselines in the user's data folder: ``<data folder>/baselines/<name>.json``.

Names are short words (letters, digits, ``.``, ``_``, ``-``; no path separator), so a name can
never point outside the folder. A baseline is written to a temporary file beside its place and
renamed over it, so a reader sees the old file or the new one, never half of one. Reading one
back is held to ``baseline.max_bytes`` and validated; anything else is an InputError.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Tuple

from pydantic import ValidationError

from rocm_doctor import bounded_json
from rocm_doctor.baseline.model import Baseline
from rocm_doctor.dbstore import data_dir
from rocm_doctor.errors import InputError
from rocm_doctor.files import read_limited
from rocm_doctor.limits import BASELINE_BYTES, BASELINE_COUNT

FOLDER = "baselines"
SUFFIX = ".json"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def baselines_dir() -> Path:
    """``<data folder>/baselines`` (not created here)."""
    return data_dir() / FOLDER


def name_problem(name: str) -> Optional[str]:
    """Why ``name`` cannot name a baseline; None when it can."""
    if not _NAME.fullmatch(name) or name.endswith(SUFFIX) or ".." in name:
        return (
            f"{name!r} is not a baseline name: use up to 64 letters, digits, '.', '_' or '-', starting with a "
            "letter or digit (no path separator, no .json)"
        )
    return None


def checked_name(name: str) -> str:
    problem = name_problem(name)
    if problem is not None:
        raise InputError(problem)
    return name


def path_of(name: str) -> Path:
    return baselines_dir() / f"{checked_name(name)}{SUFFIX}"


def now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def save(baseline: Baseline) -> Path:
    """Write ``baseline`` under its name, replacing one of that name atomically."""
    path = path_of(baseline.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = baseline.model_dump_json(by_alias=True, indent=1)
    fd, temporary = tempfile.mkstemp(prefix=f".{baseline.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return path


def read_file(path: Path) -> Baseline:
    """A baseline file (a stored one or one copied elsewhere); InputError when it is not one."""
    try:
        raw = read_limited(path, BASELINE_BYTES)
    except FileNotFoundError:
        raise InputError(f"{path}: no such baseline file") from None
    try:
        data = bounded_json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a baseline (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not a baseline (not JSON: {exc.msg})") from None
    except bounded_json.JsonLimitError as exc:
        raise InputError(f"{path}: {exc}") from None
    if not isinstance(data, dict) or data.get("schema") != "rocm-doctor/baseline/1":
        raise InputError(f"{path}: not a rocm-doctor baseline (its schema is not rocm-doctor/baseline/1)")
    from rocm_doctor.facts.model import raw_over_limit

    too_big = raw_over_limit(data.get("facts"))
    if too_big is not None:
        raise InputError(f"{path}: {too_big}")
    try:
        return Baseline.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(f"{path}: invalid baseline at {where}: {first['msg']}") from None


def load(name: str) -> Baseline:
    """The stored baseline ``name``; InputError naming ``baseline list`` when there is none."""
    path = path_of(name)
    if not path.exists():
        raise InputError(f"no baseline named {name!r}; `rocm-doctor baseline list` shows the saved ones")
    return read_file(path)


def remove(name: str) -> None:
    path = path_of(name)
    try:
        path.unlink()
    except FileNotFoundError:
        raise InputError(f"no baseline named {name!r}; `rocm-doctor baseline list` shows the saved ones") from None


@dataclass(frozen=True)
class Listed:
    """One stored baseline, or why it cannot be read."""

    name: str
    baseline: Optional[Baseline] = None
    problem: Optional[str] = None


def list_all() -> Tuple[List[Listed], int]:
    """Stored baselines, newest first (at most ``baseline.max_count``), and how many more were not read."""
    folder = baselines_dir()
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(SUFFIX) and not e.name.startswith(".")]
    except FileNotFoundError:
        return [], 0
    except OSError as exc:
        raise InputError(f"{folder}: cannot list ({exc.strerror or exc})") from None
    entries.sort(key=lambda e: _mtime(e), reverse=True)
    left = max(0, len(entries) - BASELINE_COUNT.value)
    found: List[Listed] = []
    for entry in entries[: BASELINE_COUNT.value]:
        name = entry.name[: -len(SUFFIX)]
        if name_problem(name) is not None:
            continue
        try:
            found.append(Listed(name, read_file(Path(entry.path))))
        except InputError as exc:
            found.append(Listed(name, problem=str(exc)))
    found.sort(key=lambda item: item.baseline.saved_at if item.baseline else "", reverse=True)
    return found, left


def _mtime(entry: "os.DirEntry[str]") -> float:
    try:
        return entry.stat().st_mtime
    except OSError:
        return 0.0
