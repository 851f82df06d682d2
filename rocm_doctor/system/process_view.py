"""The machine as one running process sees it (``--pid``): its environment, its interpreter, its parent.

Every gatherer then reads what the program really runs with: ``env`` its variables, the
target interpreter its own executable (so the torch probe and the static torch reading look
at the install it loaded), ``which`` its ``PATH``, and commands run with its environment.
Files, identity and the process table are the machine's (``inner``'s).
"""

from __future__ import annotations

import ntpath
import posixpath
from typing import Any, Dict, List, Mapping, Optional, Sequence

from rocm_doctor.system.base import DEFAULT_TIMEOUT, CommandResult, ProcessEntry, ProcessGone, Started, System


class ProcessUnreadable(Exception):
    """The process cannot be looked at (gone, or its environment is not readable); the message says why."""


class ProcessView:
    """``inner`` seen from process ``pid``; build it with :meth:`attach`."""

    def __init__(self, inner: System, entry: ProcessEntry, environ: Dict[str, str]) -> None:
        self.inner = inner
        self.entry = entry
        self._environ = environ

    @classmethod
    def attach(cls, inner: System, pid: int) -> "ProcessView":
        """The view of ``pid``; raises :class:`ProcessUnreadable` with the reason."""
        found = inner.processes([pid])
        if not found:
            raise ProcessUnreadable(f"no process {pid} is running")
        try:
            environ = dict(inner.process_environ(pid))
        except ProcessGone:
            raise ProcessUnreadable(f"process {pid} exited") from None
        except PermissionError:
            owner = found[0].user or found[0].uid
            raise ProcessUnreadable(
                f"the environment of process {pid} (user {owner}) is readable only by its owner or root; "
                "run rocm-doctor as that user or with sudo (`rocm-doctor ps` shows what can be read without)"
            ) from None
        return cls(inner, found[0], environ)

    def process_view(self) -> "ProcessView":
        """This view (a wrapper around it, such as health's budget, forwards the call)."""
        return self

    @property
    def pid(self) -> int:
        return self.entry.pid

    def python(self) -> Optional[str]:
        """The process's Python interpreter (the target to inspect), None when it is not Python.

        The command's own first word comes first: a virtual environment's ``bin/python`` is a link
        to the base interpreter, and the executable the kernel names (``/proc/<pid>/exe``) is the
        link's target, which does not see the environment's packages.
        """
        if not _is_python(self.entry.exe or "") and not _is_python(self.entry.name):
            return None
        first = self.entry.cmdline[0] if self.entry.cmdline else ""
        if _is_python(first):
            if "/" in first or "\\" in first:
                if first.startswith(("/", "\\")) or (len(first) > 1 and first[1] == ":"):
                    return first
            else:
                found = self.which(first)
                if found:
                    return found
        return self.entry.exe

    def shell_environ(self) -> Mapping[str, str]:
        """The environment rocm-doctor itself was started with (the user's shell)."""
        return self.inner.environ()

    # -- what the process sees ---------------------------------------------------
    def environ(self) -> Mapping[str, str]:
        return dict(self._environ)

    def current_python(self) -> str:
        return self.python() or self.inner.current_python()

    def parent_process(self) -> Optional[str]:
        parents = self.inner.processes([self.entry.ppid]) if self.entry.ppid else []
        return parents[0].name if parents else None

    def which(self, name: str) -> Optional[str]:
        windows = self.inner.platform().system.lower() == "windows"
        separator, join = (";", ntpath.join) if windows else (":", posixpath.join)
        path = self._environ.get("PATH", self._environ.get("Path", ""))
        names = [name, name + ".exe"] if windows else [name]
        for folder in path.split(separator):
            for candidate in (join(folder, n) for n in names if folder):
                if self.inner.exists(candidate) and not self.inner.is_dir(candidate):
                    return candidate
        return None

    def run(self, argv: Sequence[str], timeout: float = DEFAULT_TIMEOUT, label: Optional[str] = None,
            env: Optional[Mapping[str, str]] = None) -> CommandResult:
        return self.inner.run(argv, timeout=timeout, label=label, env=self._environ if env is None else env)

    def start(self, argv: Sequence[str], timeout: float = DEFAULT_TIMEOUT, label: Optional[str] = None,
              env: Optional[Mapping[str, str]] = None) -> Started:
        return self.inner.start(argv, timeout=timeout, label=label, env=self._environ if env is None else env)

    # -- the machine's --------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:  # files, platform, identity, resources, processes
        return getattr(self.inner, name)

    def processes(self, pids: Optional[Sequence[int]] = None) -> List[ProcessEntry]:
        return self.inner.processes(pids)


def _is_python(path: str) -> bool:
    base = (ntpath.basename(path) if "\\" in path else posixpath.basename(path)).lower()
    return base.startswith("python")


def process_view_of(system: Any) -> Optional[ProcessView]:
    """The :class:`ProcessView` that ``system`` is or wraps (``--pid``); None without one."""
    ask = getattr(system, "process_view", None)
    return ask() if callable(ask) else None
