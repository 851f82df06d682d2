"""Run the benchmark worker as a child of the target interpreter and classify every test.

This is gathering code (it starts processes on the real machine), so only the CLI and
the live ``check --bench`` path call it. The worker (:mod:`rocm_doctor.bench.worker`)
runs as ``[python, "-I", worker.py, ...]`` in its own session / process group and
writes one JSON line per step. The runner:

* enforces a deadline per test (the first test's deadline includes ``import torch``
  and device init) and kills the worker and all it started when it expires (``hang``),
  also when the worker closed its output and went on running;
* turns a worker that dies on its own into ``crash`` with the signal name (POSIX) or the
  NTSTATUS (Windows, e.g. ``0xC0000005`` access violation) and the stderr tail;
* trusts only what happened: a result counts only with one of the worker's statuses and
  for the test that is running (a line naming another test, or an unknown status, is noise);
* starts a fresh worker for the tests that remain after a hang or crash;
* runs the worker as a :class:`~rocm_doctor.system.child.Child` (bounded lines and
  output, a deadline on every read, nothing it started survives).
"""

from __future__ import annotations

import collections
import json
import math
import os
import signal
import time
from pathlib import Path
from typing import Any, Callable, Deque, Dict, List, Mapping, Optional, Sequence, Tuple

from rocm_doctor import bounded_json
from rocm_doctor.bench import worker
from rocm_doctor.bench.results import (
    CRASH,
    ERROR,
    HANG,
    SKIPPED,
    BenchRun,
    SpecPeak,
    TestResult,
    apply_verdicts,
    lookup_peak,
)
from rocm_doctor.data import load_table
from rocm_doctor.limits import BENCH_NOISE_LINES
from rocm_doctor.system.child import DEADLINE, STDERR, Child

WORKER_PATH = str(Path(worker.__file__).resolve())
LEVELS = worker.LEVELS
LEVEL_TESTS = worker.LEVEL_TESTS
DEVICES = ("auto", "cuda", "cpu")
DEFAULT_DEADLINES = {"quick": 60.0, "standard": 120.0, "extended": 600.0}
"""Seconds per test, import and init included (hard timeouts)."""
STDERR_TAIL_LINES = 30
STDERR_LINE_CHARS = 1000
NOISE_CHARS = 200
MAX_STEPS = 1000
"""Step records kept per test (the latest ones); a worker cannot fill memory with steps."""
DONE_STATUSES = ("ok", "wrong", "error", "skipped")
"""The statuses the worker ends a test with; any other ``done`` line is noise."""
POLL_SECONDS = 0.5
"""How often the runner checks that the worker is still alive while it waits for a line."""
FLOOD_LINES = 1000
"""Lines that are not protocol records (blank ones included) since the worker's last record, at which a
test that reaches its deadline is a worker flooding its output, not a hang: the remaining tests are not
run (a fresh worker would flood the same way, each for a whole deadline)."""

Progress = Callable[[str, Optional[str], int, int], None]
"""``progress(test, step, finished_tests, total_tests)``, called on every protocol line."""

NTSTATUS = {
    0xC0000005: "STATUS_ACCESS_VIOLATION (access violation)",
    0xC000001D: "STATUS_ILLEGAL_INSTRUCTION (illegal instruction)",
    0xC0000094: "STATUS_INTEGER_DIVIDE_BY_ZERO",
    0xC00000FD: "STATUS_STACK_OVERFLOW (stack overflow)",
    0xC0000135: "STATUS_DLL_NOT_FOUND (a DLL was not found)",
    0xC0000139: "STATUS_ENTRYPOINT_NOT_FOUND (a DLL entry point was not found)",
    0xC000013A: "STATUS_CONTROL_C_EXIT (interrupted)",
    0xC0000374: "STATUS_HEAP_CORRUPTION (heap corruption)",
    0xC0000409: "STATUS_STACK_BUFFER_OVERRUN (fail-fast / abort)",
}
"""Windows process exit codes that mean the process died, not that it returned a status."""


def describe_exit(returncode: int, os_name: str = os.name) -> tuple:
    """``(signal_or_status, text)`` for a worker's exit code; ``signal_or_status`` is None for a plain exit."""
    if os_name == "nt":
        code = returncode & 0xFFFFFFFF
        if code >= 0xC0000000:
            name = NTSTATUS.get(code, "unknown NTSTATUS")
            return f"0x{code:08X}", f"died with 0x{code:08X} {name}"
        return None, f"exited with status {returncode}"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return name, f"killed by {name}"
    return None, f"exited with status {returncode}"


class _Session:
    """One worker process: protocol lines from its stdout, a tail of its stderr."""

    def __init__(self, argv: List[str], env: Mapping[str, str]) -> None:
        self.child = Child(argv, env=env)
        self.stderr: Deque[str] = collections.deque(maxlen=STDERR_TAIL_LINES)

    def next_line(self, until: float) -> object:
        """The next protocol line; None when the worker's stdout ended; DEADLINE when ``until`` passed first."""
        while True:
            item = self.child.next_line(until)
            if item is None or item is DEADLINE:
                return item
            stream, text = item  # type: ignore[misc]
            if stream != STDERR:
                return text
            self.stderr.append(text[:STDERR_LINE_CHARS])

    def drain(self, seconds: float = 0.5) -> List[str]:
        """Protocol lines the dead worker wrote last, read for at most ``seconds`` (a grandchild may hold the pipe)."""
        lines: List[str] = []
        until = time.monotonic() + seconds
        while True:
            line = self.next_line(until)
            if not isinstance(line, str):
                return lines
            lines.append(line)

    def stderr_tail(self) -> str:
        return "\n".join(self.stderr)

    def close(self) -> Optional[int]:
        """Kill the worker and whatever it started, reap it; its exit code (idempotent)."""
        return self.child.close()


def _parse(line: str) -> Optional[dict]:
    try:
        record = bounded_json.loads(line)
    except ValueError:  # not JSON, or over json.max_depth / number.max_digits
        return None
    if not isinstance(record, dict) or not all(isinstance(record.get(k), str) for k in ("test", "step", "status")):
        return None
    if record["step"] == "done" and record["status"] not in DONE_STATUSES:
        return None
    return record


class _Run:
    """State of one ``run_bench`` call across worker restarts."""

    def __init__(
        self, python: str, level: str, device: str, tests: Sequence[str], deadline: float,
        progress: Optional[Progress], env: Mapping[str, str], spec: Optional[SpecPeak], table: Optional[Mapping],
        first_deadline: Optional[float] = None,
    ) -> None:
        self.python, self.level, self.requested = python, level, device
        self.pending: List[str] = list(tests)
        self.total = len(self.pending)
        self.deadline = deadline
        self.first_deadline = deadline if first_deadline is None else first_deadline
        """Seconds for each worker's first test: its ``import torch`` and device init are part of it."""
        self.progress = progress
        self.env = env
        self.table = table if table is not None else load_table("gpu_peaks")
        self.spec_override = spec
        self.run = BenchRun(level=level, device=device, python=python, spec=spec)
        self.noise_since_record = 0
        """Non-protocol lines of the current worker since its last protocol record."""

    def _notify(self, test: str, step: Optional[str]) -> None:
        if self.progress is not None:
            self.progress(test, step, len(self.run.tests), self.total)

    def _finish(self, result: TestResult) -> None:
        apply_verdicts(result, self.run.info, self.run.spec, self.table)
        self.run.tests[result.name] = result
        if result.name in self.pending:
            self.pending.remove(result.name)
        self._notify(result.name, None)

    def _on_hello(self, record: dict) -> None:
        info, _ = typed_fields({k: v for k, v in record.items() if k not in ("test", "step", "status", "t")})
        self.run.info = info
        self.run.device = info.get("device", self.run.device)
        if self.spec_override is None:
            self.run.spec = lookup_peak(info.get("gcn_arch"), info.get("name"), info.get("compute_units"), self.table)

    def one_worker(self) -> None:
        """Start a worker for the pending tests and follow it until it ends, hangs or dies."""
        argv = [
            self.python, "-I", WORKER_PATH, "--device", self.requested, "--level", self.level,
            "--tests", ",".join(self.pending),
        ]
        session = _Session(argv, self.env)
        self.run.workers += 1
        self.noise_since_record = 0
        clock = time.monotonic()
        current: Optional[str] = None
        last_step: Optional[str] = None
        steps: Deque[dict] = collections.deque(maxlen=MAX_STEPS)
        setup_error: Optional[str] = None
        backlog: Deque[str] = collections.deque()
        deadline = self.first_deadline
        try:
            while self.pending:
                until = clock + deadline
                line = backlog.popleft() if backlog else session.next_line(min(until, time.monotonic() + POLL_SECONDS))
                if line is DEADLINE:
                    if session.child.exited():
                        # Dead, but a grandchild may hold the pipe open, so no EOF comes:
                        # take what it wrote last, then classify the death.
                        backlog.extend(session.drain())
                        if backlog:
                            continue
                        line = None
                    elif time.monotonic() < until:
                        continue
                if line is None and not _exits_by(session, until):
                    line = DEADLINE  # it closed its output but went on running: our kill is not its crash
                if line is DEADLINE and self.noise_since_record >= FLOOD_LINES:
                    reason = (f"the worker wrote {self.noise_since_record:,} lines that are not protocol records "
                              f"(blank or other) and no result within the {deadline:g} s deadline")
                    self._abandon(session, current, last_step, steps, clock, ERROR, reason)
                    for name in list(self.pending):
                        self._finish(TestResult(name=name, status=SKIPPED, reason=f"not run: {reason}"))
                    return
                if line is DEADLINE:
                    self._abandon(session, current, last_step, steps, clock, HANG,
                                  f"no result within the {deadline:g} s deadline; hung in step {last_step}")
                    return
                if line is None:
                    code = session.close()
                    self._died(session, code, current, last_step, steps, clock, setup_error)
                    return
                assert isinstance(line, str)
                record = _parse(line)
                if record is None:
                    self._noise(line)
                    continue
                self.noise_since_record = 0
                test, step, status = record["test"], record["step"], record["status"]
                if test == "_worker":
                    if step == "hello":
                        self._on_hello(record)
                    elif status == "error":
                        setup_error = _text(record.get("error")) or "the worker reported an error"
                    continue
                if test in ("setup", "init") and current is None and step in ("import_torch", "device_init"):
                    last_step = step
                    if status == "error":
                        setup_error = _text(record.get("error")) or f"{step} failed"
                    if test == "init":
                        current = test
                        steps.append(record)
                    self._notify(test, step)
                    continue
                if test != self.pending[0]:
                    self._noise(line)  # the worker runs the tests in order: another test's line is not true
                    continue
                if current != test:
                    current, last_step = test, None
                    steps.clear()
                if step == "done":
                    if status in ("ok", "wrong") and not steps:
                        self._noise(line)  # a result for a test that has not started
                        continue
                    self._finish(self._from_done(record, list(steps), time.monotonic() - clock))
                    clock, current, last_step = time.monotonic(), None, None
                    deadline = self.deadline
                    steps.clear()
                    continue
                steps.append(record)
                if status == "start":
                    last_step = step
                self._notify(test, step)
        finally:
            session.close()

    def _noise(self, line: str) -> None:
        """Keep a line that is not a trusted protocol record, up to ``bench.max_noise_lines``."""
        self.noise_since_record += 1
        if not line.strip():
            return
        if len(self.run.noise) < BENCH_NOISE_LINES.value:
            self.run.noise.append(line[:NOISE_CHARS])
        else:
            self.run.noise_dropped += 1

    def _from_done(self, record: dict, steps: List[dict], seconds: float) -> TestResult:
        status = record["status"]
        failing = next((s for s in reversed(steps) if s["status"] in ("mismatch", "error")), None)
        reason = _text(record.get("detail") or record.get("error") or record.get("reason"))
        metrics, unread = typed_fields(record.get("metrics") if isinstance(record.get("metrics"), dict) else {})
        if unread:
            note = "metrics left unknown: " + "; ".join(unread)
            reason = f"{reason}; {note}" if reason else note
        return TestResult(
            name=record["test"], status=status, step=failing["step"] if failing else None, reason=reason,
            metrics=metrics, steps=steps, seconds=seconds,
        )

    def _attribute(self, current: Optional[str]) -> str:
        return current if current is not None else self.pending[0]

    def _abandon(self, session: _Session, current, last_step, steps, clock, status: str, reason: str) -> None:
        session.close()
        name = self._attribute(current)
        self._finish(TestResult(
            name=name, status=status, step=last_step, reason=reason, steps=list(steps),
            seconds=time.monotonic() - clock, stderr_tail=session.stderr_tail() or None,
        ))
        self._skip_rest_if_setup(current, last_step, reason)

    def _died(self, session: _Session, code: Optional[int], current, last_step, steps, clock, setup_error) -> None:
        name = self._attribute(current)
        tail = session.stderr_tail()
        sig, text = describe_exit(code if code is not None else -9)
        lines = tail.strip().splitlines()
        if setup_error is not None or (sig is None and code not in (0, None) and "Traceback" in tail):
            status = ERROR
            reason = setup_error or (lines[-1] if lines else f"the worker {text}")
        else:
            status = CRASH
            where = f" in step {last_step}" if last_step else ""
            reason = f"the worker {text}{where}"
        self._finish(TestResult(
            name=name, status=status, step=last_step, reason=reason, steps=list(steps), seconds=time.monotonic() - clock,
            signal=sig, exit_code=code, stderr_tail=tail or None,
        ))
        self._skip_rest_if_setup(current, last_step, reason)

    def _skip_rest_if_setup(self, current: Optional[str], last_step: Optional[str], reason: str) -> None:
        """A worker that cannot import torch or start the device would fail every test the same way."""
        if last_step in ("import_torch", "device_init") and current in (None, "init"):
            for name in list(self.pending):
                self._finish(TestResult(name=name, status=SKIPPED, reason=f"not run: worker setup failed ({reason})"))


def typed_fields(raw: Mapping[str, Any]) -> Tuple[Dict[str, Any], List[str]]:
    """The fields of a worker's record that are plain values, and why each other one was left out.

    The worker runs in a target interpreter that anything may have replaced: a number that is not finite
    (``1e999`` reads as infinity, ``NaN``) or is negative (no figure the worker measures is) is dropped
    with its reason, never the record; so is a list or mapping with a number that is not finite inside."""
    kept: Dict[str, Any] = {}
    unread: List[str] = []
    for key, value in raw.items():
        if isinstance(value, bool) or value is None:
            kept[key] = value
        elif isinstance(value, (int, float)):
            if not math.isfinite(value) or value < 0:
                unread.append(f"{key} ({value!r} is not a finite, non-negative number)")
            else:
                kept[key] = value
        elif isinstance(value, str):
            kept[key] = value[:STDERR_LINE_CHARS]
        elif _all_finite(value):
            kept[key] = value
        else:
            unread.append(f"{key} (holds a number that is not finite)")
    return kept, unread


def _all_finite(value: Any) -> bool:
    """Every number inside ``value`` is finite (bounded_json already bounds its depth)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return False
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return True


def _text(value: object) -> Optional[str]:
    """A reason from the worker as text (it may have sent any JSON value), cut to a readable length."""
    if value is None or value == "":
        return None
    return (value if isinstance(value, str) else json.dumps(value, default=str))[:STDERR_LINE_CHARS]


def _exits_by(session: _Session, until: float) -> bool:
    """Whether the worker, whose output has ended, exits before the monotonic ``until``."""
    while not session.child.exited():
        if time.monotonic() >= until:
            return False
        time.sleep(0.05)
    return True


def run_bench(
    python: str,
    level: str,
    device: str,
    deadline: Optional[float],
    progress: Optional[Progress] = None,
    *,
    tests: Optional[Sequence[str]] = None,
    env: Optional[Mapping[str, str]] = None,
    spec: Optional[SpecPeak] = None,
    table: Optional[Mapping] = None,
    first_deadline: Optional[float] = None,
) -> BenchRun:
    """Run the ``level`` tests (or ``tests``) on ``device`` in the interpreter ``python``.

    ``deadline`` is seconds per test (None: the level's default). ``env`` replaces the
    child's environment (default: this process's). ``spec`` overrides the peak looked up
    from ``gpu_peaks.yaml``; ``table`` replaces that table (tests). ``first_deadline`` is the
    deadline of each worker's first test, which includes ``import torch`` and device init (None:
    ``deadline``); the tests use it to wait seconds, not a whole import's allowance, for a hang.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if device not in DEVICES:
        raise ValueError(f"unknown device {device!r}")
    state = _Run(
        python, level, device, list(tests or LEVEL_TESTS[level]),
        deadline if deadline is not None else DEFAULT_DEADLINES[level],
        progress, os.environ if env is None else env, spec, table, first_deadline,
    )
    started = time.monotonic()
    while state.pending:
        state.one_worker()
    state.run.seconds = time.monotonic() - started
    return state.run
