"""Children are bounded and reaped: a deadline on every read, nothing they start survives, output is capped."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import List

import psutil
import pytest

from rocm_doctor.system.child import STDOUT, Child
from rocm_doctor.system.live import StartedCommand

pytestmark = pytest.mark.skipif(os.name != "posix" or not os.path.isdir("/proc"), reason="POSIX sessions and /proc")


def _sleeper(marker: str, detach: str = "setsid") -> str:
    """Shell text that starts a 300 s sleeper named by ``marker``, detached as asked, holding stdout."""
    sleeper = f"{sys.executable} -c 'import time; time.sleep(300)' {marker}"
    return {"setsid": f"setsid {sleeper} &", "setsid-no-env": f"setsid env -i {sleeper} &",
            "group": f"{sleeper} >/dev/null 2>&1 &",
            "daemon": f"setsid {sleeper} >/dev/null 2>&1 </dev/null &",
            "daemon-no-env": f"setsid env -i {sleeper} >/dev/null 2>&1 </dev/null &"}[detach]


def survivors(marker: str) -> List[int]:
    found = []
    for proc in psutil.process_iter(["pid", "cmdline", "status"]):
        try:
            if proc.info["status"] != psutil.STATUS_ZOMBIE and marker in (proc.info["cmdline"] or []):
                found.append(proc.pid)
        except psutil.Error:
            continue
    return found


def _settled(marker: str) -> List[int]:
    """Survivors once the doctor is done with the command: none may be left, not even one still dying."""
    return survivors(marker)


def _wait_until_running(marker: str, count: int = 1) -> None:
    """Wait (bounded) until ``count`` sleepers named by ``marker`` run: what is to be killed must exist first."""
    deadline = time.monotonic() + 60
    while len(survivors(marker)) < count:
        assert time.monotonic() < deadline, f"the {count} sleeper(s) never started"
        time.sleep(0.01)


@pytest.mark.parametrize("detach", ["setsid", "setsid-no-env"])
def test_a_grandchild_that_leaves_the_session_and_holds_the_pipe_cannot_hold_the_doctor(detach: str) -> None:
    marker = uuid.uuid4().hex
    started = time.monotonic()
    result = StartedCommand(["sh", "-c", f"{_sleeper(marker, detach)} echo hello"], timeout=10).result()
    assert time.monotonic() - started < 6
    assert (result.returncode, result.stdout.strip(), result.timed_out) == (0, "hello", False)
    assert _settled(marker) == []


def test_a_timeout_kills_a_grandchild_that_left_the_session() -> None:
    marker = uuid.uuid4().hex
    started = time.monotonic()
    result = StartedCommand(["sh", "-c", f"{_sleeper(marker)} echo partial; sleep 300"], timeout=1).result()
    assert time.monotonic() - started < 5
    assert result.timed_out and result.returncode is None and result.stdout.strip() == "partial"
    assert _settled(marker) == []


def test_what_a_command_left_running_in_its_group_is_killed_after_it_exits() -> None:
    marker = uuid.uuid4().hex
    result = StartedCommand(["sh", "-c", f"{_sleeper(marker, 'group')} echo done"], timeout=10).result()
    assert result.ok
    assert _settled(marker) == []


def test_a_daemon_that_left_the_session_and_the_pipe_is_killed_after_a_normal_exit(tmp_path: Path) -> None:
    # Neither in the process group nor holding the pipe: only the token finds it.
    marker = uuid.uuid4().hex
    ready = tmp_path / "ready"
    daemon = (f"setsid {sys.executable} -c 'import sys, time; open(sys.argv[2], \"w\").close(); time.sleep(300)' "
              f"{marker} {ready} >/dev/null 2>&1 </dev/null &")
    # The shell waits until the daemon runs (it left the group before it started); otherwise killing
    # the group would get it.
    wait = f"while [ ! -e {ready} ]; do sleep 0.01; done"
    result = StartedCommand(["sh", "-c", f"{daemon} {wait}; echo done"], timeout=60).result()
    assert (result.returncode, result.stdout.strip(), result.timed_out) == (0, "done", False)
    assert _settled(marker) == []


def test_a_daemon_that_left_the_session_the_pipe_and_its_environment_is_killed_after_a_normal_exit() -> None:
    # No group, no pipe, no token (env -i): found by the parentage recorded while the shell ran (issue 20).
    marker = uuid.uuid4().hex
    result = StartedCommand(["sh", "-c", f"{_sleeper(marker, 'daemon-no-env')} sleep 1; echo done"], timeout=10).result()
    assert (result.returncode, result.stdout.strip(), result.timed_out) == (0, "done", False)
    assert _settled(marker) == []


def test_cancel_kills_the_command_and_what_it_started() -> None:
    marker = uuid.uuid4().hex
    command = StartedCommand(["sh", "-c", f"{_sleeper(marker)} sleep 300"], timeout=60)
    _wait_until_running(marker)
    command.cancel()
    assert _settled(marker) == []


def test_close_returns_only_once_everything_it_killed_has_exited() -> None:
    # SIGKILL is only delivered when kill() returns; on a loaded machine a killed grandchild ran on
    # for a while (the bench's orphan check saw one): close() waits for their exits.
    marker = uuid.uuid4().hex
    sleepers = " ".join(_sleeper(marker, "group") for _ in range(12))
    for _ in range(3):
        child = Child(["sh", "-c", f"{sleepers} sleep 300"])
        _wait_until_running(marker, 12)
        child.close()
        assert survivors(marker) == []


def test_output_over_the_limit_is_dropped_with_a_note() -> None:
    child = Child([sys.executable, "-c", "import sys; sys.stdout.write('x' * 3_000_000)"], output_limit=1000)
    assert child.collect(time.monotonic() + 30)
    assert child.close() == 0
    text = child.text(STDOUT)
    assert text.startswith("x" * 1000 + "\n[rocm-doctor: 2,999,000 more bytes of output were dropped")
    assert "child.max_output_bytes" in text


def test_a_long_line_is_cut_and_the_next_line_still_arrives() -> None:
    child = Child([sys.executable, "-c", "print('y' * 100_000); print('next')"], line_limit=10)
    first = child.next_line(time.monotonic() + 30)
    second = child.next_line(time.monotonic() + 30)
    assert first[1].startswith("y" * 10 + " [rocm-doctor: line cut at 10 bytes")
    assert second == ("stdout", "next")
    assert child.next_line(time.monotonic() + 30) is None
    child.close()


def test_a_missing_program_is_a_result_not_an_exception(tmp_path: Path) -> None:
    assert StartedCommand([str(tmp_path / "nope")]).result().missing


@pytest.mark.live_machine
def test_check_with_a_python_whose_grandchild_holds_the_pipe_ends_quickly_and_leaves_nothing(tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    fake = tmp_path / "python"
    fake.write_text(f"#!/bin/sh\n{_sleeper(marker)}\necho garbage\n", encoding="utf-8")
    fake.chmod(0o755)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "rocm_doctor", "check", "--python", str(fake), "--timeout", "10"],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ, NO_COLOR="1"))
    assert time.monotonic() - started < 20
    assert done.returncode == 2 and "--python" in done.stderr
    assert _settled(marker) == []


def test_fix_apply_kills_what_a_timed_out_command_started() -> None:
    from rocm_doctor.fix.installer import run_command
    from rocm_doctor.remedy.pip import Command

    marker = uuid.uuid4().hex
    lines: List[str] = []
    command = Command(("sh", "-c", f"{_sleeper(marker)} echo installing; sleep 300"), "test")
    started = time.monotonic()
    assert run_command(command, lines.append, timeout=1) == "timed out after 1 s"
    assert time.monotonic() - started < 5 and lines == ["installing"]
    assert _settled(marker) == []


def test_fix_apply_does_not_wait_on_a_pipe_a_finished_command_left_open() -> None:
    from rocm_doctor.fix.installer import run_command
    from rocm_doctor.remedy.pip import Command

    marker = uuid.uuid4().hex
    command = Command(("sh", "-c", f"{_sleeper(marker)} echo installed"), "test")
    started = time.monotonic()
    assert run_command(command, lambda line: None, timeout=60) is None
    assert time.monotonic() - started < 10
    assert _settled(marker) == []


@pytest.mark.live_machine
def test_reading_a_fifo_planted_where_the_gatherers_read_fails_at_once(tmp_path: Path) -> None:
    from rocm_doctor.system.live import LiveSystem

    fifo = tmp_path / "METADATA"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(OSError, match="not a regular file"):
        LiveSystem().read_text(str(fifo))
    assert time.monotonic() - started < 2


@pytest.mark.parametrize("ending", ["normal exit", "timeout"])
def test_a_process_started_beside_the_child_is_never_killed(ending: str) -> None:
    # Started just before the command, in a session of its own and not by the command: the sweep after
    # the command looks only at processes started about then, and must kill none that it did not start
    # (a merge once made every such process a victim, the user's shell included).
    bystander = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                                 stdin=subprocess.PIPE, start_new_session=True)
    try:
        script = "sleep 30" if ending == "timeout" else "true"
        StartedCommand(["sh", "-c", script], timeout=1).result()
        assert bystander.poll() is None, "close() killed a process the command did not start"
    finally:
        bystander.stdin.close()  # type: ignore[union-attr]
        bystander.wait(timeout=30)
