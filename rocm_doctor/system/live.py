"""The real machine: files, commands (argv only, always with a timeout), environment."""

from __future__ import annotations

import os
import platform as _platform
import shutil
import sys
import time
from typing import Dict, List, Mapping, Optional, Sequence

from rocm_doctor.files import read_fact_file
from rocm_doctor.system.base import (
    DEFAULT_TIMEOUT,
    CommandResult,
    Identity,
    PlatformInfo,
    ProcessEntry,
    Resources,
)
from rocm_doctor.system.child import STDERR, STDOUT, Child

_RELEVANT_GROUPS = ("render", "video")


class StartedCommand:
    """A command started now whose result is collected later (``System.start``).

    It is a :class:`~rocm_doctor.system.child.Child`: its own session, a deadline on
    every read, output within ``child.max_output_bytes``; on timeout or ``cancel()``,
    and after it exits, whatever it started is killed too.
    """

    def __init__(
        self,
        argv: Sequence[str],
        timeout: float = DEFAULT_TIMEOUT,
        env: Optional[Mapping[str, str]] = None,
    ) -> None:
        self.argv: List[str] = [str(a) for a in argv]
        self.timeout = timeout
        self._start = time.monotonic()
        self._result: Optional[CommandResult] = None
        self._child: Optional[Child] = None
        try:
            self._child = Child(self.argv, env=env)
        except FileNotFoundError:
            self._result = CommandResult(argv=self.argv, missing=True, duration=self._elapsed())
        except OSError as exc:
            self._result = CommandResult(argv=self.argv, error=exc.strerror or str(exc), duration=self._elapsed())

    def _elapsed(self) -> float:
        return time.monotonic() - self._start

    def result(self) -> CommandResult:
        """Wait for the command (at most what is left of its timeout) and return what it did."""
        if self._result is not None:
            return self._result
        assert self._child is not None
        finished = self._child.collect(self._start + self.timeout)
        code = self._child.close()
        self._result = CommandResult(
            argv=self.argv,
            returncode=code if finished else None,
            stdout=self._child.text(STDOUT),
            stderr=self._child.text(STDERR),
            timed_out=not finished,
            duration=self._elapsed(),
        )
        return self._result

    def cancel(self) -> None:
        """Kill the command and what it started if it is still running (no-op once collected)."""
        if self._child is not None and self._result is None:
            self._child.close()


def run_command(
    argv: Sequence[str],
    timeout: float = DEFAULT_TIMEOUT,
    env: Optional[Mapping[str, str]] = None,
) -> CommandResult:
    """Run argv with a hard timeout; the whole process group dies on expiry."""
    return StartedCommand(argv, timeout=timeout, env=env).result()


class LiveSystem:
    """The machine rocm-doctor runs on. Only the CLI constructs one."""

    def read_text(self, path: str, max_bytes: int = 1 << 20) -> str:
        # Without blocking, and only a regular file (/proc and /sys files are): a FIFO planted in a
        # target environment's site-packages must not hold the gathering.
        return read_fact_file(path, max_bytes).decode("utf-8", "replace")

    def list_dir(self, path: str) -> List[str]:
        return sorted(os.listdir(path))

    def exists(self, path: str) -> bool:
        return os.path.lexists(path)

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(path)

    def access(self, path: str, write: bool = False) -> Optional[bool]:
        if not os.path.exists(path):
            return None
        mode = os.R_OK | (os.W_OK if write else 0)
        return os.access(path, mode)

    def disk_size(self, path: str) -> Optional[int]:
        try:
            return shutil.disk_usage(path).total
        except OSError:
            return None

    def which(self, name: str) -> Optional[str]:
        return shutil.which(name)

    def run(
        self,
        argv: Sequence[str],
        timeout: float = DEFAULT_TIMEOUT,
        label: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
    ) -> CommandResult:
        return run_command(argv, timeout=timeout, env=env)

    def start(
        self,
        argv: Sequence[str],
        timeout: float = DEFAULT_TIMEOUT,
        label: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
    ) -> StartedCommand:
        return StartedCommand(argv, timeout=timeout, env=env)

    def environ(self) -> Mapping[str, str]:
        return dict(os.environ)

    def platform(self) -> PlatformInfo:
        return PlatformInfo(
            system=_platform.system(),
            release=_platform.release(),
            version=_platform.version(),
            machine=_platform.machine(),
        )

    def identity(self) -> Identity:
        user = os.environ.get("USER") or os.environ.get("USERNAME") or ""
        uid: Optional[int] = None
        groups: List[str] = []
        group_ids: dict = {}
        if os.name == "posix":
            import grp
            import pwd

            uid = os.getuid()
            try:
                user = pwd.getpwuid(uid).pw_name
            except KeyError:
                pass
            for gid in os.getgroups():
                try:
                    groups.append(grp.getgrgid(gid).gr_name)
                except KeyError:
                    groups.append(str(gid))
            for name in _RELEVANT_GROUPS:
                try:
                    group_ids[name] = grp.getgrnam(name).gr_gid
                except KeyError:
                    pass
        return Identity(user=user, uid=uid, groups=sorted(set(groups)), group_ids=group_ids)

    def resources(self) -> Resources:
        import psutil

        memory = psutil.virtual_memory()
        return Resources(
            cpu_model=_cpu_model(self),
            cpu_vendor=_cpu_vendor(self),
            logical_cores=psutil.cpu_count(logical=True),
            physical_cores=psutil.cpu_count(logical=False),
            memory_total=int(memory.total),
            memory_available=int(memory.available),
        )

    def current_python(self) -> str:
        return sys.executable

    def parent_process(self) -> Optional[str]:
        try:
            import psutil

            parent = psutil.Process().parent()
            return parent.name() if parent is not None else None
        except Exception:  # noqa: BLE001 - psutil.Error, or no permission: the shell is then unknown
            return None

    def processes(self, pids: Optional[Sequence[int]] = None) -> List[ProcessEntry]:
        from rocm_doctor.system.live_processes import list_processes

        return list_processes(pids)

    def process_environ(self, pid: int) -> Dict[str, str]:
        from rocm_doctor.system.live_processes import ask

        return ask(pid, lambda process: dict(process.environ()))

    def process_modules(self, pid: int) -> List[str]:
        from rocm_doctor.system.live_processes import ask

        return ask(pid, lambda process: [m.path for m in process.memory_maps(grouped=True) if m.path])


def _cpuinfo_field(system: LiveSystem, key: str) -> Optional[str]:
    """The first ``key : value`` of /proc/cpuinfo (Linux); None elsewhere."""
    try:
        for line in system.read_text("/proc/cpuinfo", max_bytes=65536).splitlines():
            if line.startswith(key):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def _cpu_model(system: LiveSystem) -> Optional[str]:
    """The CPU model name: /proc/cpuinfo on Linux, platform.processor() elsewhere."""
    return _cpuinfo_field(system, "model name") or _platform.processor() or None


def _cpu_vendor(system: LiveSystem) -> Optional[str]:
    """The raw CPU vendor id (``AuthenticAMD``): /proc/cpuinfo on Linux, platform.processor() on Windows."""
    vendor = _cpuinfo_field(system, "vendor_id")
    if vendor:
        return vendor
    processor = _platform.processor()
    # Windows: "AMD64 Family 25 Model 116 Stepping 1, AuthenticAMD"
    if "," in processor:
        return processor.rsplit(",", 1)[1].strip() or None
    return None
