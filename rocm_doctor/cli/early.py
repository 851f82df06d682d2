"""Start the live torch probe before the CLI imports its heavy modules.

``import torch`` in the probe's child takes most of a ``check``; the doctor's own
imports (pydantic models, rules, rich) take a few hundred milliseconds more. When
the command line asks for a live gathering with torch, the probe is started here,
first, and gathering adopts it (``GatherOptions.started_probe``) if it runs
exactly the command gathering would run; otherwise gathering cancels it and
starts its own. Reading argv here is only an optimisation: typer still parses
and validates every option.
"""

from __future__ import annotations

from typing import List, Optional, Sequence

from rocm_doctor.system.base import Started

GATHERING_COMMANDS = frozenset({"check", "facts", "fix", "dockerfile", "docker-run", "report"})
"""Commands that gather the live machine (and run the torch probe) unless told otherwise."""

_NOT_LIVE = ("--no-torch", "--machine", "--facts", "--from", "--help", "-h", "--record", "--pid")
"""``--pid``: the probe runs later, in the process's interpreter with the process's environment."""


def _value(args: List[str], option: str) -> Optional[str]:
    """The value of ``--option VALUE`` or ``--option=VALUE`` (the last one wins, as in typer)."""
    found: Optional[str] = None
    for position, arg in enumerate(args):
        if arg == option and position + 1 < len(args):
            found = args[position + 1]
        elif arg.startswith(option + "="):
            found = arg[len(option) + 1 :]
    return found


def _default_target() -> str:
    """The interpreter gathering will target without --python (the active environment first)."""
    from rocm_doctor.facts.target import target_interpreter
    from rocm_doctor.system.live import LiveSystem

    return target_interpreter(LiveSystem())[0]


def early_probe_request(argv: Sequence[str]) -> Optional[tuple]:
    """(python, timeout) when this command line will run the live torch probe, else None."""
    args = [str(a) for a in argv]
    if not args or args[0] not in GATHERING_COMMANDS:
        return None
    if any(arg == flag or arg.startswith(flag + "=") for arg in args[1:] for flag in _NOT_LIVE):
        return None
    try:
        timeout = float(_value(args, "--timeout") or 60.0)
    except ValueError:
        return None  # typer will report the bad value
    if not timeout > 0:
        return None
    return _value(args, "--python") or _default_target(), timeout


def start_early_probe(argv: Sequence[str]) -> Optional[Started]:
    """Start the torch probe now if the command line will need it."""
    request = early_probe_request(argv)
    if request is None:
        return None
    python, timeout = request
    from rocm_doctor.facts.torch_probe_script import LABEL, probe_argv
    from rocm_doctor.system.live import LiveSystem

    return LiveSystem().start(probe_argv(python), timeout=timeout, label=LABEL)
