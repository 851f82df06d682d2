"""Gathering under a wall-clock budget: a hung probe costs its own section, never the run.

Every command already has a timeout; ``health`` adds one budget around the whole run:

* :class:`BudgetedSystem` caps each command's timeout at what is left of the budget and
  remembers what it started, so everything still running when the budget ends is killed;
* :func:`gather_within` runs the ordinary :func:`~rocm_doctor.facts.gather.gather` in a
  daemon thread and keeps each section as it arrives. When the budget ends first, the
  sections that did not finish (a read of a hung sysfs file, in-process amdsmi bindings
  that never return) become failed facts naming the budget, and the run goes on with them.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence

from pydantic import BaseModel

from rocm_doctor.facts.context import GatherOptions
from rocm_doctor.facts.gather import assemble, gather, section_types, unfinished_section
from rocm_doctor.facts.model import Facts
from rocm_doctor.health.verdict import Incomplete
from rocm_doctor.system.base import CommandResult, Finished, Started, System


class BudgetedSystem:
    """A :class:`System` whose commands end by the deadline (``time.monotonic()`` seconds)."""

    def __init__(self, system: System, deadline: float) -> None:
        self._system = system
        self._deadline = deadline
        self._lock = threading.Lock()
        self._started: List[Started] = []
        self._closed = False

    def __getattr__(self, name: str) -> Any:  # files, environment, identity: no budget needed
        return getattr(self._system, name)

    def remaining(self) -> float:
        return self._deadline - time.monotonic()

    def start(
        self,
        argv: Sequence[str],
        timeout: float = 10.0,
        label: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
    ) -> Started:
        left = self.remaining()
        with self._lock:
            if self._closed or left <= 0:
                gone = CommandResult(argv=[str(a) for a in argv], timed_out=True, duration=0.0)
                return Finished(argv=gone.argv, done=gone)
            started = self._system.start(argv, timeout=min(timeout, left), label=label, env=env)
            self._started.append(started)
            return started

    def run(
        self,
        argv: Sequence[str],
        timeout: float = 10.0,
        label: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
    ) -> CommandResult:
        return self.start(argv, timeout=timeout, label=label, env=env).result()

    def close(self) -> None:
        """Kill every command still running; later ones end at once as timed out."""
        with self._lock:
            self._closed = True
            started, self._started = self._started, []
        for command in started:
            command.cancel()


@dataclass(frozen=True)
class Bounded:
    """Facts gathered within the budget, and what did not make it."""

    facts: Facts
    incomplete: Incomplete


class _Collector:
    """Sections handed over by the gathering thread; nothing is accepted once the budget ended."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open = True
        self.sections: Dict[str, BaseModel] = {}
        self.crashed: List[str] = []
        self.running: Optional[str] = None
        """The section being gathered (the one that hangs, when the budget ends)."""

    def starting(self, name: str) -> None:
        with self._lock:
            if self._open:
                self.running = name

    def take(self, name: str, section: BaseModel, crash: Optional[str]) -> None:
        with self._lock:
            if self._open:
                self.sections[name] = section
                if crash is not None:
                    self.crashed.append(name)

    def close(self) -> Dict[str, BaseModel]:
        with self._lock:
            self._open = False
            return dict(self.sections)


def gather_within(
    system: System,
    options: GatherOptions,
    budget: float,
    origin: str,
    origin_detail: Optional[str] = None,
    stated: Optional[float] = None,
) -> Bounded:
    """Gather ``system`` in at most ``budget`` seconds (plus the time to kill what still runs); messages
    name the ``stated`` budget (the user's ``--budget``, of which this is what is left for gathering)."""
    start = time.monotonic()
    named = budget if stated is None else stated
    bounded = BudgetedSystem(system, start + budget)
    # The CLI's early torch probe is never adopted: this run starts its own, through the budget.
    options = dataclasses.replace(
        options,
        torch_timeout=min(options.torch_timeout, budget),
        command_timeout=min(options.command_timeout, budget),
        started_early=(),
    )
    collector = _Collector()
    done: Dict[str, Facts] = {}

    def work() -> None:
        done["facts"] = gather(
            bounded, options, origin=origin, origin_detail=origin_detail, progress=collector.starting, on_section=collector.take
        )

    thread = threading.Thread(target=work, name="rocm-doctor-gather", daemon=True)
    thread.start()
    thread.join(budget)
    bounded.close()
    sections = collector.close()
    crashed = list(collector.crashed)
    if "facts" in done:
        return Bounded(done["facts"], _incomplete(crashed, None, [], named))
    hung = collector.running if collector.running not in sections else None
    not_run = [name for name in section_types() if name not in sections and name != hung]
    for name, cls in section_types().items():
        if name == hung:
            sections[name] = unfinished_section(name, cls, f"did not finish within the {named:g} s budget")
        elif name in not_run:
            sections[name] = unfinished_section(name, cls, f"not gathered: the {hung or 'gathering'} gatherer used up the budget")
    facts = assemble(sections, origin, origin_detail, time.monotonic() - start)
    return Bounded(facts, _incomplete(crashed, hung, not_run, named))


def _incomplete(crashed: List[str], hung: Optional[str], not_run: List[str], budget: float) -> Incomplete:
    """``gpus did not finish within the 45 s budget; packages, torch not run; rocm crashed``."""
    notes = []
    if hung is not None:
        notes.append(f"{hung} did not finish within the {budget:g} s budget")
    if not_run:
        notes.append(f"{', '.join(not_run)} not run" if hung else f"{', '.join(not_run)} not gathered within the {budget:g} s budget")
    if crashed:
        notes.append(f"{', '.join(crashed)} gatherer crashed")
    return Incomplete(([hung] if hung else []) + not_run + crashed, "; ".join(notes))
