"""Run the benchmark worker as a child of the target interpreter and classify every test.

This is gathering code (it starts processes on the real machine), so only the CLI and
the live ``check --bench`` path call it. The worker (:mod:`rocm_doctor.bench.worker`)
runs as ``[python, "-I", worker.py, ...]`` in its own session / process group and
writes one JSON line per step. The runner:

* enforces a deadline per test (the first test's deadline includes ``import torch``
  and device init) and kills the whole process group when it expires (``hang``);
* turns a worker that dies into ``crash`` with the signal name (POSIX) or the NTSTATUS
  (Windows, e.g. ``0xC0000005`` access violation) and the stderr tail;
* starts a fresh worker for the tests that remain after a hang or crash;
* kills the process group after every worker, so no grandchild survives.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Callable, Deque, List, Mapping, Optional, Sequence

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

WORKER_PATH = str(Path(worker.__file__).resolve())
LEVELS = worker.LEVELS
LEVEL_TESTS = worker.LEVEL_TESTS
DEVICES = ("auto", "cuda", "cpu")
DEFAULT_DEADLINES = {"quick": 60.0, "standard": 120.0, "extended": 600.0}
"""Seconds per test, import and init included (hard timeouts)."""
STDERR_TAIL_LINES = 30
_DEADLINE = object()
"""Marker: the current test's deadline passed with no line."""
POLL_SECONDS = 0.5
"""How often the runner checks that the worker is still alive while it waits for a line."""

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


def _popen_group_kwargs() -> dict:
    if os.name == "posix":
        return {"start_new_session": True}
    return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}  # pragma: no cover - Windows


def kill_group(proc: "subprocess.Popen[bytes]") -> None:
    """Kill the worker and everything in its process group (psutil tree walk on Windows)."""
    if os.name == "posix":
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
        return
    import psutil  # pragma: no cover - Windows

    try:  # pragma: no cover - Windows
        for child in psutil.Process(proc.pid).children(recursive=True):
            child.kill()
    except psutil.Error:  # pragma: no cover - Windows
        pass
    proc.kill()  # pragma: no cover - Windows


class _Session:
    """One worker process: its protocol lines arrive on a queue, stderr is kept as a tail."""

    def __init__(self, argv: List[str], env: Mapping[str, str]) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(env),
            **_popen_group_kwargs(),
        )
        self.lines: "queue.Queue[object]" = queue.Queue()
        self.stderr: Deque[str] = collections.deque(maxlen=STDERR_TAIL_LINES)
        self._closed = False
        self._threads = [
            threading.Thread(target=self._pump_stdout, daemon=True),
            threading.Thread(target=self._pump_stderr, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _pump_stdout(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def _pump_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            self.stderr.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def drain(self) -> None:
        """Wait briefly for the reader threads to pass on what the dead worker wrote last."""
        for thread in self._threads:
            thread.join(timeout=0.5)

    def stderr_tail(self) -> str:
        return "\n".join(self.stderr)

    def close(self) -> Optional[int]:
        """Kill the group (anything left), reap the worker, join the pipe readers; the exit code.

        Idempotent: the group is killed only while its leader is unreaped, so its id cannot
        have been reused by an unrelated process group.
        """
        if self._closed:
            return self.proc.returncode
        self._closed = True
        kill_group(self.proc)
        try:
            code = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not take 10 s
            code = None
        for thread in self._threads:
            thread.join(timeout=5)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        return code


def _parse(line: str) -> Optional[dict]:
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or not all(isinstance(record.get(k), str) for k in ("test", "step", "status")):
        return None
    return record


class _Run:
    """State of one ``run_bench`` call across worker restarts."""

    def __init__(
        self, python: str, level: str, device: str, tests: Sequence[str], deadline: float,
        progress: Optional[Progress], env: Mapping[str, str], spec: Optional[SpecPeak], table: Optional[Mapping],
    ) -> None:
        self.python, self.level, self.requested = python, level, device
        self.pending: List[str] = list(tests)
        self.total = len(self.pending)
        self.deadline = deadline
        self.progress = progress
        self.env = env
        self.table = table if table is not None else load_table("gpu_peaks")
        self.spec_override = spec
        self.run = BenchRun(level=level, device=device, python=python, spec=spec)

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
        info = {k: v for k, v in record.items() if k not in ("test", "step", "status", "t")}
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
        clock = time.monotonic()
        current: Optional[str] = None
        last_step: Optional[str] = None
        steps: List[dict] = []
        setup_error: Optional[str] = None
        try:
            while self.pending:
                remaining = self.deadline - (time.monotonic() - clock)
                try:
                    line = session.lines.get(timeout=min(max(remaining, 0.0), POLL_SECONDS))
                except queue.Empty:
                    if session.proc.poll() is not None:
                        # Dead, but a grandchild may hold the pipe open, so no EOF comes:
                        # take what it wrote last, then classify the death.
                        session.drain()
                        if not session.lines.empty():
                            continue
                        line = None
                    elif remaining > POLL_SECONDS:
                        continue
                    else:
                        line = _DEADLINE
                if line is _DEADLINE:
                    self._abandon(session, current, last_step, steps, clock, HANG,
                                  f"no result within the {self.deadline:g} s deadline; hung in step {last_step}")
                    return
                if line is None:
                    code = session.close()
                    self._died(session, code, current, last_step, steps, clock, setup_error)
                    return
                record = _parse(line)
                if record is None:
                    if line.strip():
                        self.run.noise.append(line[:200])
                    continue
                test, step, status = record["test"], record["step"], record["status"]
                if test == "_worker":
                    if step == "hello":
                        self._on_hello(record)
                    elif status == "error":
                        setup_error = record.get("error")
                    continue
                if test in ("setup", "init") and current is None and step in ("import_torch", "device_init"):
                    last_step = step
                    if status == "error":
                        setup_error = record.get("error")
                    if test == "init":
                        current = test
                        steps.append(record)
                    self._notify(test, step)
                    continue
                if test not in self.pending:
                    self.run.noise.append(line[:200])
                    continue
                if current != test:
                    current, steps, last_step = test, [], None
                if step == "done":
                    self._finish(self._from_done(record, steps, time.monotonic() - clock))
                    clock, current, steps, last_step = time.monotonic(), None, [], None
                    continue
                steps.append(record)
                if status == "start":
                    last_step = step
                self._notify(test, step)
        finally:
            session.close()

    def _from_done(self, record: dict, steps: List[dict], seconds: float) -> TestResult:
        status = record["status"]
        failing = next((s for s in reversed(steps) if s["status"] in ("mismatch", "error")), None)
        reason = record.get("detail") or record.get("error") or record.get("reason")
        metrics = record.get("metrics") if isinstance(record.get("metrics"), dict) else {}
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
            name=name, status=status, step=last_step, reason=reason, steps=steps,
            seconds=time.monotonic() - clock, stderr_tail=session.stderr_tail() or None,
        ))
        self._skip_rest_if_setup(current, last_step, reason)

    def _died(self, session: _Session, code: Optional[int], current, last_step, steps, clock, setup_error) -> None:
        name = self._attribute(current)
        tail = session.stderr_tail()
        sig, text = describe_exit(code if code is not None else -9)
        if setup_error is not None or (sig is None and code not in (0, None) and "Traceback" in tail):
            status = ERROR
            reason = setup_error or tail.strip().splitlines()[-1]
        else:
            status = CRASH
            where = f" in step {last_step}" if last_step else ""
            reason = f"the worker {text}{where}"
        self._finish(TestResult(
            name=name, status=status, step=last_step, reason=reason, steps=steps, seconds=time.monotonic() - clock,
            signal=sig, exit_code=code, stderr_tail=tail or None,
        ))
        self._skip_rest_if_setup(current, last_step, reason)

    def _skip_rest_if_setup(self, current: Optional[str], last_step: Optional[str], reason: str) -> None:
        """A worker that cannot import torch or start the device would fail every test the same way."""
        if last_step in ("import_torch", "device_init") and current in (None, "init"):
            for name in list(self.pending):
                self._finish(TestResult(name=name, status=SKIPPED, reason=f"not run: worker setup failed ({reason})"))


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
) -> BenchRun:
    """Run the ``level`` tests (or ``tests``) on ``device`` in the interpreter ``python``.

    ``deadline`` is seconds per test (None: the level's default). ``env`` replaces the
    child's environment (default: this process's). ``spec`` overrides the peak looked up
    from ``gpu_peaks.yaml``; ``table`` replaces that table (tests).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if device not in DEVICES:
        raise ValueError(f"unknown device {device!r}")
    state = _Run(
        python, level, device, list(tests or LEVEL_TESTS[level]),
        deadline if deadline is not None else DEFAULT_DEADLINES[level],
        progress, os.environ if env is None else env, spec, table,
    )
    started = time.monotonic()
    while state.pending:
        state.one_worker()
    state.run.seconds = time.monotonic() - started
    return state.run
