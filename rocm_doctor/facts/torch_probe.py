"""The live torch probe: ``import torch`` in a child process of the target interpreter.

The child prints one JSON line per stage, flushed, before and after each step::

    {"stage": "import", "status": "start"}
    {"stage": "import", "status": "ok", "version": "2.5.1+rocm6.2", "seconds": 1.9, ...}

so when it hangs, aborts or crashes (torch can ``abort()`` with
``hipErrorNoBinaryForGpu``) the parent still knows the last stage that started.
The stages: ``import``, ``cuda_init`` (is_available, device_count), ``devices``
(properties), ``arch_list``, ``kernel`` (one tiny elementwise op on device 0,
where missing GPU code objects show up), ``done``.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from rocm_doctor.facts.common import json_objects
from rocm_doctor.system.base import CommandResult

from rocm_doctor.facts.torch_probe_script import LABEL, TORCH_PROBE_SCRIPT, probe_argv  # noqa: F401 - re-exported


_SIGNAL_WORDS = {"SIGABRT": "aborted", "SIGSEGV": "crashed", "SIGBUS": "crashed", "SIGILL": "crashed",
                 "SIGKILL": "was killed", "SIGTERM": "was terminated", "SIGFPE": "crashed"}
_WINDOWS_STATUS = {0xC0000005: "access violation", 0xC0000409: "fail-fast exception",
                   0xC000001D: "illegal instruction", 0xC0000135: "missing DLL"}


@dataclass
class ProbeOutcome:
    """What the probe child reported."""

    results: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    """Stage name -> its ``ok`` line."""
    last_started: Optional[str] = None
    error: Optional[str] = None
    """The Python exception the child reported for a stage."""
    finished: bool = False
    problem: Optional[str] = None
    """Why the probe failed, in one line; None when it finished."""


def parse_probe_lines(stdout: str) -> ProbeOutcome:
    """Collect the JSON stage lines; other lines (warnings, garbage) are ignored."""
    outcome = ProbeOutcome()
    for data in json_objects(stdout):
        if not isinstance(data.get("stage"), str):
            continue
        name, status = data["stage"], data.get("status")
        if status == "start":
            outcome.last_started = name
        elif status == "ok":
            if name == "done":
                outcome.finished = True
            outcome.results[name] = data
        elif status == "error":
            outcome.last_started = name
            outcome.error = str(data.get("error") or "unknown error")
    return outcome


def stderr_tail(text: str, lines: int = 3, limit: int = 400) -> str:
    """The last non-empty stderr lines, joined, for a reason string."""
    kept = [line.strip() for line in text.splitlines() if line.strip()][-lines:]
    joined = " | ".join(kept)
    return joined if len(joined) <= limit else "..." + joined[-limit:]


def describe_exit(returncode: int) -> str:
    """``aborted (SIGABRT)``, ``exited with status 1``, ``access violation (0xC0000005)``."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            return f"died of signal {-returncode}"
        return f"{_SIGNAL_WORDS.get(name, 'was stopped by')} ({name})"
    status = returncode & 0xFFFFFFFF
    if status in _WINDOWS_STATUS:
        return f"{_WINDOWS_STATUS[status]} (0x{status:08X})"
    return f"exited with status {returncode}"


def judge_probe(result: CommandResult, timeout: float) -> ProbeOutcome:
    """Parse the child's output and say, in one line, why it failed (if it did)."""
    outcome = parse_probe_lines(result.stdout)
    stage = outcome.last_started or "start"
    tail = stderr_tail(result.stderr)
    suffix = f": {tail}" if tail else ""
    if result.missing:
        outcome.problem = f"the target interpreter {result.argv[0]} was not found"
    elif result.error:
        outcome.problem = f"the target interpreter could not be started: {result.error}"
    elif result.timed_out:
        what = "torch import" if stage == "import" else "the torch probe"
        outcome.problem = f"{what} hung for {timeout:g} s in stage '{stage}'{suffix}"
    elif outcome.error is not None:
        outcome.problem = f"stage '{stage}' failed: {outcome.error}"
    elif result.returncode not in (0, None):
        outcome.problem = f"the torch probe {describe_exit(result.returncode)} in stage '{stage}'{suffix}"
    elif not outcome.finished:
        if not outcome.results and outcome.last_started is None:
            outcome.problem = f"the torch probe printed no result (unexpected output){suffix}"
        else:
            outcome.problem = f"the torch probe stopped after stage '{stage}' without finishing{suffix}"
    return outcome


def devices_from(stage_result: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The device dicts of the ``devices`` stage (malformed entries dropped)."""
    raw = stage_result.get("devices")
    return [d for d in raw if isinstance(d, dict) and isinstance(d.get("index"), int)] if isinstance(raw, list) else []
