"""``fix --apply``: run the planned pip commands, then check that the findings are gone.

Commands run as argv lists without a shell, one at a time, with pip's output
streamed line by line and a generous timeout (on every read, and everything a
command started dies with it); the first failure stops the run
with the reason. Nothing here runs ``sudo`` or touches system packages: manual
steps are printed for the user. Afterwards the torch, packages and python facts
are gathered again and only the rules whose findings were being fixed are judged
on them (the rest of the machine did not change).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Sequence

from rocm_doctor.facts.model import Facts
from rocm_doctor.remedy.pip import Command
from rocm_doctor.pipeline import evaluate
from rocm_doctor.model.rules import Finding, Rule
from rocm_doctor.system.child import DEADLINE, Child

DEFAULT_TIMEOUT = 3600.0
"""Seconds one pip command may take: torch ROCm wheels are several GB."""
REFRESHED_SECTIONS = ("python", "torch", "packages")
"""The facts a pip install can change."""
_FORBIDDEN = ("sudo", "doas", "su", "pkexec", "apt", "apt-get", "dnf", "yum", "zypper", "pacman")


@dataclass
class RunOutcome:
    """What running the commands did."""

    completed: List[Command] = field(default_factory=list)
    failed: Optional[Command] = None
    reason: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.failed is None


def _refuse_privileged(command: Command) -> Optional[str]:
    program = os.path.basename(command.argv[0]) if command.argv else ""
    if program in _FORBIDDEN:
        return f"refusing to run {program}: rocm-doctor never runs privileged or system-package commands"
    return None


def run_command(
    command: Command,
    on_line: Callable[[str], None],
    timeout: float = DEFAULT_TIMEOUT,
    env: Optional[Mapping[str, str]] = None,
) -> Optional[str]:
    """Run one command, streaming its output; None on success, else the reason it failed.

    The command is a :class:`~rocm_doctor.system.child.Child`: lines are cut at
    ``child.max_line_bytes``, every read has the deadline, and at the deadline or after
    it exits, whatever it started is killed with it.
    """
    refusal = _refuse_privileged(command)
    if refusal:
        return refusal
    try:
        child = Child(list(command.argv), env=env, merge_stderr=True)
    except OSError as exc:
        return f"could not start {command.argv[0]}: {exc.strerror or exc}"
    deadline = time.monotonic() + timeout
    tail: List[str] = []
    expired = False
    try:
        while True:
            item = child.next_line(deadline)
            if item is DEADLINE:
                expired = True
                break
            if item is None:
                break
            _, line = item  # type: ignore[misc]
            on_line(line)
            tail = (tail + [line.strip()])[-3:]
        while not expired and not child.exited():  # output closed early: the deadline still holds
            expired = time.monotonic() >= deadline
            time.sleep(0.05)
    finally:
        code = child.close()
    if expired:
        return f"timed out after {timeout:g} s"
    if code == 0:
        return None
    last = next((t for t in reversed(tail) if t), "")
    return f"exit code {code}" + (f": {last}" if last else "")


def run_commands(
    commands: Sequence[Command],
    on_line: Callable[[str], None],
    timeout: float = DEFAULT_TIMEOUT,
    env: Optional[Mapping[str, str]] = None,
) -> RunOutcome:
    """Run ``commands`` in order; stop at the first failure."""
    outcome = RunOutcome()
    for command in commands:
        reason = run_command(command, on_line, timeout, env)
        if reason is not None:
            outcome.failed = command
            outcome.reason = reason
            return outcome
        outcome.completed.append(command)
    return outcome


def refreshed(before: Facts, fresh: Facts) -> Facts:
    """``before`` with the sections a pip install can change taken from ``fresh``."""
    return before.model_copy(update={name: getattr(fresh, name) for name in REFRESHED_SECTIONS})


def recheck(rules: Iterable[Rule], facts: Facts, finding_ids: Iterable[str]) -> List[Finding]:
    """Findings of the rules ``finding_ids`` that still fire on ``facts``."""
    wanted = set(finding_ids)
    return list(evaluate([r for r in rules if r.id in wanted], facts).findings)


@dataclass
class ApplyReport:
    """The run, then which of the fixed findings are gone and which remain."""

    run: RunOutcome
    resolved: List[str] = field(default_factory=list)
    remaining: List[Finding] = field(default_factory=list)
    rechecked: bool = False


def apply_commands(
    commands: Sequence[Command],
    finding_ids: Sequence[str],
    before: Facts,
    regather: Callable[[], Facts],
    rules: Sequence[Rule],
    on_line: Callable[[str], None],
    timeout: float = DEFAULT_TIMEOUT,
    env: Optional[Dict[str, str]] = None,
) -> ApplyReport:
    """Run the commands; when they all succeed, gather again and re-judge the fixed findings."""
    outcome = run_commands(commands, on_line, timeout, env)
    report = ApplyReport(run=outcome)
    if not outcome.ok:
        return report
    after = refreshed(before, regather())
    report.remaining = recheck(rules, after, finding_ids)
    still = {f.id for f in report.remaining}
    report.resolved = [i for i in dict.fromkeys(finding_ids) if i not in still]
    report.rechecked = True
    return report
