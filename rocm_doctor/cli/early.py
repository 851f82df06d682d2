"""Start the target interpreter's children before the CLI imports its heavy modules.

``import torch`` in the probe's child takes most of a ``check``; the doctor's own
imports (pydantic models, rules, rich) take a few hundred milliseconds more, and the
target interpreter's self-description (``python-info``) is a whole interpreter start-up
that ``check --no-torch`` used to wait for after them. When the command line asks for a
live gathering, both are started here, first (the probe only when torch is probed), and
gathering adopts each (``GatherOptions.started_early``) if it runs exactly the command
and timeout gathering would run; otherwise gathering cancels it and starts its own.
Reading argv here is only an optimisation: typer still parses and validates every option.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from rocm_doctor.system.base import Started

GATHERING_COMMANDS = frozenset({"check", "facts", "fix", "dockerfile", "docker-run", "report"})
"""Commands that gather the live machine (and run the torch probe) unless told otherwise."""

_NOT_LIVE = ("--machine", "--facts", "--from", "--help", "-h", "--record", "--pid")
"""``--pid``: the children run later, in the process's interpreter with the process's environment."""


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


def early_request(argv: Sequence[str]) -> Optional[Tuple[str, float, bool]]:
    """(python, timeout, torch) when this command line will gather the live machine, else None;
    ``torch``: whether it runs the live torch probe (not with ``--no-torch``)."""
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
    torch = not any(arg == "--no-torch" for arg in args[1:])
    return _value(args, "--python") or _default_target(), timeout, torch


def start_early(argv: Sequence[str]) -> List[Started]:
    """Start now what the command line's gathering will need from the target interpreter."""
    request = early_request(argv)
    if request is None:
        return []
    python, timeout, torch = request
    from rocm_doctor.facts.python_info_script import LABEL as INFO_LABEL, info_argv, info_timeout
    from rocm_doctor.system.base import DEFAULT_TIMEOUT
    from rocm_doctor.system.live import LiveSystem

    system = LiveSystem()
    started: List[Started] = []
    if torch:
        from rocm_doctor.facts.torch_probe_script import LABEL, probe_argv

        started.append(system.start(probe_argv(python), timeout=timeout, label=LABEL))
    started.append(system.start(info_argv(python), timeout=info_timeout(DEFAULT_TIMEOUT, timeout), label=INFO_LABEL))
    return started
