"""The budget: commands end by the deadline and nothing the run started outlives it."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import psutil

from rocm_doctor.facts.context import GatherOptions
from rocm_doctor.facts.gather import gather
from rocm_doctor.health.bounded import BudgetedSystem, gather_within
from rocm_doctor.system.live import StartedCommand
from rocm_doctor.system.recorded import RecordedSystem

MACHINES = Path(__file__).resolve().parent.parent / "machines"
SLEEP = [sys.executable, "-c", "import time; time.sleep(30)"]


class Processes:
    """Just enough of a System to start real child processes (the budget wraps it)."""

    def start(self, argv, timeout=10.0, label=None, env=None):
        return StartedCommand(argv, timeout=timeout, env=env)


def test_a_command_gets_no_more_than_what_is_left_of_the_budget() -> None:
    system = BudgetedSystem(Processes(), time.monotonic() + 1.0)
    start = time.monotonic()
    result = system.run(SLEEP, timeout=30)
    assert result.timed_out and time.monotonic() - start < 3


def test_closing_kills_what_still_runs_and_refuses_new_commands() -> None:
    system = BudgetedSystem(Processes(), time.monotonic() + 60)
    started = system.start(SLEEP, timeout=30)
    pid = started._child.proc.pid
    assert psutil.pid_exists(pid)
    system.close()
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    late = system.run(["true"])
    assert late.timed_out and late.duration == 0.0


def test_a_run_that_fits_gathers_exactly_what_gather_does() -> None:
    folder = MACHINES / "docker-2x7900xt-rocm62"
    options = GatherOptions(use_amdsmi=False)
    bounded = gather_within(RecordedSystem(folder), options, 30, "recorded")
    plain = gather(RecordedSystem(folder), options, origin="recorded")
    assert not bounded.incomplete
    assert bounded.facts.model_dump(exclude={"meta"}) == plain.model_dump(exclude={"meta"})
