"""The live process table, through psutil (Linux, Windows, macOS alike).

psutil's errors become the System's: ``AccessDenied`` is PermissionError (another user's
process without root), ``NoSuchProcess`` / ``ZombieProcess`` is
:class:`~rocm_doctor.system.base.ProcessGone`.
"""

from __future__ import annotations

import time
from typing import Any, Callable, List, Optional, Sequence, TypeVar

import psutil

from rocm_doctor.system.base import ProcessEntry, ProcessGone

T = TypeVar("T")

_ATTRS = ["pid", "ppid", "name", "username", "uids", "exe", "cmdline", "create_time"]


def _entry(info: dict, now: float) -> ProcessEntry:
    """A ProcessEntry from psutil's ``as_dict``/``process_iter`` info (None where access was denied)."""
    denied = [name for name in ("exe", "cmdline", "username") if info.get(name) is None]
    uids = info.get("uids")
    created = info.get("create_time")
    return ProcessEntry(
        pid=int(info["pid"]),
        ppid=info.get("ppid"),
        name=str(info.get("name") or ""),
        user=info.get("username"),
        uid=int(uids.real) if uids is not None else None,
        exe=info.get("exe") or None,
        cmdline=[str(a) for a in info.get("cmdline") or []],
        age_seconds=max(0.0, now - float(created)) if created else None,
        problem=f"{', '.join(denied)} not readable (access denied)" if denied else None,
    )


def list_processes(pids: Optional[Sequence[int]] = None) -> List[ProcessEntry]:
    """Every running process (or only ``pids``); one that exits meanwhile is left out."""
    now = time.time()
    if pids is None:
        return [_entry(p.info, now) for p in psutil.process_iter(_ATTRS, ad_value=None)]
    found: List[ProcessEntry] = []
    for pid in pids:
        try:
            info = psutil.Process(pid).as_dict(_ATTRS, ad_value=None)
        except (psutil.NoSuchProcess, psutil.ZombieProcess, ValueError):
            continue
        found.append(_entry(info, now))
    return found


def ask(pid: int, question: Callable[[Any], T]) -> T:
    """``question(psutil.Process(pid))`` with psutil's errors as the System's."""
    try:
        return question(psutil.Process(pid))
    except (psutil.NoSuchProcess, psutil.ZombieProcess, ValueError):
        raise ProcessGone(pid) from None
    except psutil.AccessDenied:
        raise PermissionError(13, "Permission denied", f"process {pid}") from None
