"""The one interface through which rocm-doctor touches a machine.

Gatherers receive a :class:`System`; tests hand them a recorded machine
(:class:`rocm_doctor.system.recorded.RecordedSystem`) instead of the live one.
Nothing outside ``rocm_doctor.system`` reads files, runs commands or looks at the
environment of the real machine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Protocol, Sequence

DEFAULT_TIMEOUT = 10.0
"""Seconds a command may run unless the caller says otherwise."""


@dataclass(frozen=True)
class CommandResult:
    """What a command did. A missing executable or a timeout is a result, not an exception."""

    argv: List[str]
    returncode: Optional[int] = None
    """Exit status; negative for death by signal (POSIX); None when it did not finish."""
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    missing: bool = False
    """The executable was not found."""
    error: Optional[str] = None
    """Could not start it for another reason (permission denied, exec format error)."""
    duration: float = 0.0

    @property
    def ok(self) -> bool:
        """Finished with exit status 0."""
        return self.returncode == 0 and not self.timed_out and not self.missing and self.error is None

    def failure_reason(self) -> str:
        """A one-line reason for a failed command, for a failed fact."""
        name = self.argv[0] if self.argv else "command"
        if self.missing:
            return f"{name} not found"
        if self.timed_out:
            return f"{name} did not finish within the timeout ({self.duration:.0f} s)"
        if self.error:
            return f"{name} could not be started: {self.error}"
        tail = (self.stderr or self.stdout).strip().splitlines()[-1:] or [""]
        detail = f": {tail[0][:200]}" if tail[0] else ""
        return f"{name} exited with status {self.returncode}{detail}"


@dataclass(frozen=True)
class PlatformInfo:
    """What Python's ``platform`` module says about the machine."""

    system: str
    """``Linux``, ``Windows`` or ``Darwin``."""
    release: str = ""
    version: str = ""
    machine: str = ""


@dataclass(frozen=True)
class Identity:
    """The user running the doctor."""

    user: str
    uid: Optional[int] = None
    groups: List[str] = field(default_factory=list)
    group_ids: Dict[str, int] = field(default_factory=dict)
    """Name -> gid for every group of the system that matters (render, video)."""


@dataclass(frozen=True)
class Resources:
    """CPU and memory, as psutil reports them."""

    cpu_model: Optional[str] = None
    cpu_vendor: Optional[str] = None
    logical_cores: Optional[int] = None
    physical_cores: Optional[int] = None
    memory_total: Optional[int] = None
    memory_available: Optional[int] = None


class Started(Protocol):
    """A command that was started; ``result()`` waits for it, ``cancel()`` kills it."""

    @property
    def argv(self) -> List[str]:
        """The command line that was started."""
        ...

    def result(self) -> CommandResult:
        """Wait (within the command's timeout) and return what it did."""
        ...

    def cancel(self) -> None:
        """Stop it if it is still running."""
        ...


@dataclass(frozen=True)
class Finished:
    """A :class:`Started` whose result is already known (recorded machines, failed starts)."""

    argv: List[str]
    done: CommandResult

    def result(self) -> CommandResult:
        return self.done

    def cancel(self) -> None:
        return None


class System(Protocol):
    """Machine access. Paths are strings in the machine's own style (POSIX or Windows)."""

    def read_text(self, path: str, max_bytes: int = 1 << 20) -> str:
        """Read a text file. Raises FileNotFoundError, PermissionError or OSError."""
        ...

    def list_dir(self, path: str) -> List[str]:
        """Names in a directory, sorted. Raises FileNotFoundError, PermissionError or OSError."""
        ...

    def exists(self, path: str) -> bool:
        """True if the path exists (file, directory or device)."""
        ...

    def is_dir(self, path: str) -> bool:
        """True if the path is a directory."""
        ...

    def access(self, path: str, write: bool = False) -> Optional[bool]:
        """Can the user read (and write, if asked) the path? None if it cannot be told."""
        ...

    def disk_size(self, path: str) -> Optional[int]:
        """Total bytes of the file system mounted at path, None if unknown."""
        ...

    def which(self, name: str) -> Optional[str]:
        """Full path of an executable on PATH, or None."""
        ...

    def run(
        self,
        argv: Sequence[str],
        timeout: float = DEFAULT_TIMEOUT,
        label: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
    ) -> CommandResult:
        """Run a command without a shell, with a timeout.

        ``label`` names a command whose argv varies between machines (the torch
        probe's script); recorded machines match it by label.
        """
        ...

    def start(
        self,
        argv: Sequence[str],
        timeout: float = DEFAULT_TIMEOUT,
        label: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
    ) -> "Started":
        """Start a command now and collect its result later (same rules as :meth:`run`)."""
        ...

    def environ(self) -> Mapping[str, str]:
        """The environment variables."""
        ...

    def platform(self) -> PlatformInfo:
        """Operating system facts."""
        ...

    def identity(self) -> Identity:
        """User and groups."""
        ...

    def resources(self) -> Resources:
        """CPU and memory."""
        ...

    def current_python(self) -> str:
        """Path of the interpreter running rocm-doctor (the last resort for the target)."""
        ...

    def parent_process(self) -> Optional[str]:
        """Name of the process that started rocm-doctor (the user's shell), None when unknown."""
        ...

    def processes(self, pids: Optional[Sequence[int]] = None) -> List["ProcessEntry"]:
        """The running processes (only ``pids`` when given; a pid that is gone is left out)."""
        ...

    def process_environ(self, pid: int) -> Dict[str, str]:
        """A process's environment. Raises PermissionError, or ProcessGone when it exited."""
        ...

    def process_modules(self, pid: int) -> List[str]:
        """Paths of the modules a process loaded, where no ``/proc/<pid>/maps`` exists (Windows).

        Raises PermissionError, or ProcessGone when it exited."""
        ...


@dataclass(frozen=True)
class ProcessEntry:
    """One running process, as the process table lists it (psutil on a live machine).

    A field that could not be read (another user's process without root) is None, and
    ``problem`` says why.
    """

    pid: int
    ppid: Optional[int] = None
    name: str = ""
    user: Optional[str] = None
    uid: Optional[int] = None
    exe: Optional[str] = None
    cmdline: List[str] = field(default_factory=list)
    age_seconds: Optional[float] = None
    """Seconds since the process started, when the listing was made."""
    problem: Optional[str] = None


class ProcessGone(LookupError):
    """The process exited (or never existed) while it was being read."""
