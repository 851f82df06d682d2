"""Child processes that cannot outlive their deadline, flood memory or leave anything behind.

Every command rocm-doctor runs (gathering commands, the torch probe, the benchmark
worker, pip under ``fix --apply``) is a :class:`Child`:

* it starts in its own session (its own process group on Windows) and carries a
  token, ``ROCM_DOCTOR_CHILD_TOKEN``, in its environment;
* its pipes are read without blocking, with a deadline on every read, so a
  grandchild that calls ``setsid`` and keeps the pipe open cannot hold the doctor;
* output is kept up to ``child.max_output_bytes`` per stream and lines up to
  ``child.max_line_bytes``; the rest is counted and dropped;
* while it runs, its descendants are recorded (by parent links, every
  ``_WATCH_SECONDS`` while its output is read), so one that calls ``setsid``, clears its
  environment and outlives its parent is still known;
* :meth:`Child.close` kills its process group, then every process started since the
  child that is a recorded descendant (same pid and start time), a child of one, in the
  session or process group of one or of the child, or that carries its token, and, when
  the pipe outlived the child or a deadline passed, every process that holds its pipe;
  then it reaps it.
"""

from __future__ import annotations

import collections
import os
import select
import signal
import subprocess
import time
import uuid
from typing import Any, Deque, Dict, List, Mapping, Optional, Sequence, Set, Tuple, Union

from rocm_doctor.limits import CHILD_EXIT_GRACE, CHILD_LINE_BYTES, CHILD_OUTPUT_BYTES

TOKEN_VAR = "ROCM_DOCTOR_CHILD_TOKEN"
_WATCH_SECONDS = 0.2
"""How often the descendants of a running child are recorded while its output is read (a walk of the
process table: a few milliseconds on a node running 1,500 processes)."""
STDOUT, STDERR = "stdout", "stderr"
_CHUNK = 1 << 16


class _Deadline:
    """Marker returned by :meth:`Child.next_line` when its deadline passed with no line."""

    def __repr__(self) -> str:
        return "DEADLINE"


DEADLINE = _Deadline()
Line = Tuple[str, str]
"""``(stream, text)``: one line of output, without its newline."""


def dropped_note(count: int) -> str:
    """The note that replaces output over ``child.max_output_bytes``."""
    return f"[rocm-doctor: {count:,} more bytes of output were dropped (limit {CHILD_OUTPUT_BYTES})]"


class Child:
    """A command started now, in its own session, with bounded reads and a complete kill."""

    def __init__(
        self,
        argv: Sequence[str],
        env: Optional[Mapping[str, str]] = None,
        merge_stderr: bool = False,
        output_limit: int = CHILD_OUTPUT_BYTES.value,
        line_limit: int = CHILD_LINE_BYTES.value,
    ) -> None:
        """Start ``argv``; FileNotFoundError and OSError from the start reach the caller."""
        self.argv: List[str] = [str(a) for a in argv]
        self.token = uuid.uuid4().hex
        environment = dict(os.environ if env is None else env)
        environment[TOKEN_VAR] = self.token
        self._started_at = time.time()
        kwargs: dict = {}
        if os.name == "posix":
            kwargs["start_new_session"] = True
        else:  # pragma: no cover - Windows only
            kwargs["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        self.proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
            env=environment,
            **kwargs,
        )
        self.output_limit = output_limit
        self.line_limit = line_limit
        self.kept: Dict[str, bytearray] = {STDOUT: bytearray(), STDERR: bytearray()}
        self.dropped: Dict[str, int] = {STDOUT: 0, STDERR: 0}
        self.escaped = False
        """Something may have left the process group: a deadline passed or the pipe outlived the child."""
        self._streams: Dict[str, object] = {STDOUT: self.proc.stdout}
        if not merge_stderr:
            self._streams[STDERR] = self.proc.stderr
        self._partial: Dict[str, bytearray] = {name: bytearray() for name in self._streams}
        self._skipping: Set[str] = set()
        self._lines: Deque[Line] = collections.deque()
        self._exited_at: Optional[float] = None
        self._closed = False
        self._reader = _SelectReader(self._streams) if os.name == "posix" else _ThreadReader(self._streams)
        self._seen: Dict[int, float] = {}
        """Descendants recorded while the child ran: pid -> start time (a reused pid has another)."""
        self._watched_at = 0.0

    # -- reading -------------------------------------------------------------
    @property
    def open_streams(self) -> bool:
        return self._reader.open

    def exited(self) -> bool:
        """True once the child itself has ended (it is not reaped yet, so its group id stays its own)."""
        if self._exited_at is None and _has_exited(self.proc):
            self._exited_at = time.monotonic()
        return self._exited_at is not None

    def _take(self, name: str, data: bytes, keep_lines: bool) -> None:
        if keep_lines:
            self._split(name, data)
            return
        room = self.output_limit - len(self.kept[name])
        self.kept[name] += data[:max(room, 0)]
        self.dropped[name] += max(len(data) - max(room, 0), 0)

    def _split(self, name: str, data: bytes) -> None:
        """Complete lines onto the queue; a line over ``line_limit`` is cut and the rest of it skipped."""
        partial = self._partial[name]
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            if name not in self._skipping:
                room = self.line_limit - len(partial)
                partial += piece[:max(room, 0)]
                if len(piece) > room:
                    self._skipping.add(name)
            if end < 0:
                return
            self._emit(name, bytes(partial), cut=name in self._skipping)
            partial.clear()
            self._skipping.discard(name)
            start = end + 1

    def _emit(self, name: str, raw: bytes, cut: bool) -> None:
        text = raw.decode("utf-8", "replace").rstrip("\r")
        if cut:
            text += f" [rocm-doctor: line cut at {self.line_limit:,} bytes (limit {CHILD_LINE_BYTES})]"
        self._lines.append((name, text))

    def _watch(self) -> None:
        """Record the child's descendants now (at most every ``_WATCH_SECONDS``), while parent links lead to them."""
        now = time.monotonic()
        if now - self._watched_at < _WATCH_SECONDS or self.exited():
            return
        self._watched_at = now
        self._seen.update(_descendants_started(self.proc.pid))

    def _pump(self, until: float, keep_lines: bool) -> None:
        """Read what arrives until ``until`` or until a stream has something; never blocks past ``until``."""
        self._watch()
        timeout = max(0.0, until - time.monotonic())
        for name, data in self._reader.read(timeout):
            if data:
                self._take(name, data, keep_lines)
            elif keep_lines and self._partial[name]:
                self._emit(name, bytes(self._partial.pop(name)), cut=name in self._skipping)

    def _ended(self) -> bool:
        """Both streams ended, or the child exited ``child.exit_grace_seconds`` ago while a pipe stays open.

        A pipe still open that long after the child exited is held by something it started.
        """
        if not self.open_streams:
            return True
        if self.exited() and time.monotonic() - (self._exited_at or 0.0) > CHILD_EXIT_GRACE.value:
            self.escaped = True
            return True
        return False

    def collect(self, deadline: float) -> bool:
        """Read everything until the output ends (see ``_ended``) or the monotonic ``deadline``; True when in time."""
        while not self._ended():
            if time.monotonic() >= deadline:
                self.escaped = True
                return False
            self._pump(min(deadline, time.monotonic() + 0.1), keep_lines=False)
        return True

    def next_line(self, until: float) -> Union[Line, None, _Deadline]:
        """The next line of either stream; None when the output ended (see ``_ended``); DEADLINE when ``until`` passed."""
        while not self._lines:
            if self._ended():
                return None
            if time.monotonic() >= until:
                return DEADLINE
            self._pump(min(until, time.monotonic() + 0.1), keep_lines=True)
        return self._lines.popleft()

    def text(self, name: str) -> str:
        """What ``collect`` kept of a stream, with a note when output was dropped."""
        text = self.kept[name].decode("utf-8", "replace")
        if self.dropped[name]:
            text += "\n" + dropped_note(self.dropped[name])
        return text

    # -- ending ----------------------------------------------------------------
    def close(self) -> Optional[int]:
        """Kill whatever is left of the child and what it started, reap it; its exit code (None if unknown).

        Idempotent. The process group is killed before the child is reaped, so its id
        cannot have been reused by an unrelated group.
        """
        if self._closed:
            return self.proc.returncode
        self._closed = True
        if not self.exited() or self._pipe_held():
            self.escaped = True
        holders = self._reader.pipe_ids()
        # Windows has no process groups to kill: the tree is walked every time.
        walk = (self.escaped or os.name != "posix") and not self.exited()
        survivors = _descendants(self.proc.pid) if walk else []
        if not self.exited():
            self._seen.update(_descendants_started(self.proc.pid))
        _kill_group(self.proc)
        # Always: what left the group without holding the pipe is found by what was recorded of it.
        killed = _kill_escaped(self.token, holders if self.escaped else set(), survivors, self._started_at,
                               self._seen, self.proc.pid)
        # One bound for the child and what it started: a process stuck in the kernel (a hung GPU
        # driver call) dies only when that call returns.
        until = time.monotonic() + _KILLED_EXIT_SECONDS
        try:
            code: Optional[int] = self.proc.wait(timeout=_KILLED_EXIT_SECONDS)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not take 10 s
            code = None
        # SIGKILL is delivered, not yet acted on, when kill() returns: on a loaded machine a killed
        # grandchild can still run for a while. Return only once nothing we killed is running.
        _await_exit(killed, until)
        self._reader.close()
        return code


    def _pipe_held(self) -> bool:
        """Whether a pipe is still open at its other end, read past what is waiting in it (discarded)."""
        for _ in range(64):
            if not self._reader.open or not self._reader.read(0):
                break
        return self._reader.open


def _has_exited(proc: "subprocess.Popen[bytes]") -> bool:
    """Whether ``proc`` ended, without reaping it where the platform allows (waitid WNOWAIT)."""
    if proc.returncode is not None:
        return True
    waitid = getattr(os, "waitid", None)
    if waitid is None:  # pragma: no cover - Windows, macOS
        return proc.poll() is not None
    try:
        return waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # already reaped by someone else
        return proc.poll() is not None


def _kill_group(proc: "subprocess.Popen[bytes]") -> None:
    if os.name == "posix":
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
        return
    try:  # pragma: no cover - Windows
        proc.kill()
    except OSError:  # pragma: no cover - Windows
        pass


def _descendants(pid: int) -> List[int]:
    """Every live descendant of ``pid``, by parent links (finds those that left the group)."""
    import psutil

    try:
        return [child.pid for child in psutil.Process(pid).children(recursive=True)]
    except psutil.Error:
        return []


def _descendants_started(pid: int) -> Dict[int, float]:
    """Every live descendant of ``pid`` with its start time."""
    import psutil

    found: Dict[int, float] = {}
    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return found
    for child in children:
        try:
            found[child.pid] = child.create_time()
        except psutil.Error:
            continue
    return found


def _groups_of(pid: int) -> Tuple[Optional[int], Optional[int]]:
    """(session id, process group id) of ``pid``; None where the platform or the process does not say."""
    try:
        return os.getsid(pid), os.getpgid(pid)
    except (AttributeError, OSError):
        return None, None


def _kill_escaped(
    token: str, pipes: Set[str], known: List[int], since: float, seen: Mapping[int, float], root: int
) -> List[Any]:
    """Kill ``known`` and every process started after ``since`` that is one of ``seen`` (same start time), a
    child of one, in the session or process group of one or of ``root``, carries ``token`` or holds one of
    ``pipes``.

    Every process is visited, but only those started since the child are looked at closer
    (psutil caches start times): about 40 microseconds a process, 60 ms on a node running
    1,500 processes, after each command."""
    import psutil

    me = os.getpid()
    victims = set(known)
    lineage = {root, *seen}
    recent: Dict[int, int] = {}
    """pid -> parent pid of every process started since the child that is not a victim yet."""
    for proc in psutil.process_iter():
        if proc.pid == me or proc.pid in victims:
            continue
        try:
            started = proc.create_time()
            if started < since - 2.0:  # boot time is whole seconds and start times clock ticks: slack
                continue
            if proc.pid in seen and abs(seen[proc.pid] - started) < 0.01:
                victims.add(proc.pid)
                continue
            session, group = _groups_of(proc.pid)
            if session in lineage or group in lineage:
                victims.add(proc.pid)
                continue
            if proc.environ().get(TOKEN_VAR) == token or (pipes and _holds(proc.pid, pipes)):
                victims.add(proc.pid)
                continue
            recent[proc.pid] = proc.ppid()
        except (psutil.Error, OSError):
            continue
    grew = True
    while grew:  # the children of victims, and theirs
        grew = False
        for pid, parent in list(recent.items()):
            if parent in victims:
                victims.add(pid)
                del recent[pid]
                grew = True
    killed = []
    for pid in victims:
        try:
            process = psutil.Process(pid)
            process.kill()
        except psutil.Error:
            continue
        killed.append(process)
    return killed


_KILLED_EXIT_SECONDS = 10.0
"""How long :meth:`Child.close` waits, in all, for the child and the processes it killed to exit
(SIGKILL takes milliseconds)."""


def _await_exit(processes: Sequence[Any], until: float) -> None:
    """Return once every one of ``processes`` (psutil) has exited, or at the monotonic time ``until``.

    Exited means dead or a zombie: these are not our children (the child itself is reaped by
    ``wait``), so only their new parent can reap them, and a container's first process may never do.
    Linux: the exit is awaited on a pidfd; elsewhere the status is polled.
    """
    import psutil

    pidfd_open = getattr(os, "pidfd_open", None)
    for process in processes:
        fd = None
        try:
            if pidfd_open is not None:
                try:
                    fd = pidfd_open(process.pid)
                except OSError:
                    fd = None
            while process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                left = until - time.monotonic()
                if left <= 0:
                    break
                if fd is not None:
                    select.select([fd], [], [], left)  # readable once the process has exited
                else:  # pragma: no cover - no pidfd (macOS, Linux before 5.3)
                    time.sleep(min(left, 0.01))
        except psutil.Error:
            pass
        finally:
            if fd is not None:
                os.close(fd)


def _holds(pid: int, pipes: Set[str]) -> bool:
    """Whether process ``pid`` has one of ``pipes`` (``pipe:[inode]`` names) open (Linux /proc)."""
    folder = f"/proc/{pid}/fd"
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    for name in names:
        try:
            if os.readlink(f"{folder}/{name}") in pipes:
                return True
        except OSError:
            continue
    return False


class _SelectReader:
    """Non-blocking reads of the child's pipes with ``selectors`` (POSIX)."""

    def __init__(self, streams: Mapping[str, object]) -> None:
        import selectors

        self._selector = selectors.DefaultSelector()
        self._names: Dict[int, str] = {}
        self._files = list(streams.values())
        for name, stream in streams.items():
            fd = stream.fileno()  # type: ignore[attr-defined]
            os.set_blocking(fd, False)
            self._selector.register(fd, selectors.EVENT_READ)
            self._names[fd] = name

    @property
    def open(self) -> bool:
        return bool(self._names)

    def read(self, timeout: float) -> List[Tuple[str, bytes]]:
        """What is readable within ``timeout``: ``(stream, bytes)``, with ``b""`` for a stream that ended."""
        if not self._names:
            return []
        got: List[Tuple[str, bytes]] = []
        for key, _ in self._selector.select(timeout):
            fd = key.fd
            try:
                data = os.read(fd, _CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                self._selector.unregister(fd)
            got.append((self._names[fd], data))
            if not data:
                del self._names[fd]
        return got

    def pipe_ids(self) -> Set[str]:
        """``pipe:[inode]`` of the pipes still open, as /proc names them."""
        found = set()
        for fd in self._names:
            try:
                found.add(f"pipe:[{os.fstat(fd).st_ino}]")
            except OSError:
                continue
        return found

    def close(self) -> None:
        self._selector.close()
        self._names.clear()
        for stream in self._files:
            try:
                stream.close()  # type: ignore[attr-defined]
            except OSError:
                pass


class _ThreadReader:  # pragma: no cover - Windows, where pipes cannot be selected
    """Reader threads feeding a queue; a thread blocked on a held pipe is left behind, never joined."""

    def __init__(self, streams: Mapping[str, object]) -> None:
        import queue
        import threading

        self._queue: "queue.Queue[Tuple[str, bytes]]" = queue.Queue()
        self._live = set(streams)
        for name, stream in streams.items():
            threading.Thread(target=self._pump, args=(name, stream), daemon=True).start()

    def _pump(self, name: str, stream: object) -> None:
        while True:
            try:
                data = stream.read1(_CHUNK)  # type: ignore[attr-defined]
            except (OSError, ValueError):
                data = b""
            self._queue.put((name, data))
            if not data:
                return

    @property
    def open(self) -> bool:
        return bool(self._live)

    def read(self, timeout: float) -> List[Tuple[str, bytes]]:
        import queue

        try:
            item = self._queue.get(timeout=timeout)
        except queue.Empty:
            return []
        if not item[1]:
            self._live.discard(item[0])
        return [item]

    def pipe_ids(self) -> Set[str]:
        return set()

    def close(self) -> None:
        self._live.clear()
