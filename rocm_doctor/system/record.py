"""Record a machine: a System wrapper that remembers every answer and writes a recorded-machine folder.

``rocm-doctor facts --record DIR`` gathers through :class:`RecordingSystem`; the
folder it writes (see :mod:`rocm_doctor.system.recorded`) replays to the same
facts. Only what the gatherers asked for is kept: the files they read, the
names in the directories they listed, the commands they ran, and the
environment variables rocm-doctor looks at. Everything passes through a
redactor first (``facts --record`` uses a :class:`rocm_doctor.redact.ReportRedactor`:
names, then IP and MAC addresses, UUIDs and serial numbers).
"""

from __future__ import annotations

import ntpath
import os
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Set, Union

import yaml

from rocm_doctor.redact import Redactor, ReportRedactor
from rocm_doctor.system.base import (
    DEFAULT_TIMEOUT,
    CommandResult,
    Finished,
    Identity,
    PlatformInfo,
    ProcessEntry,
    ProcessGone,
    Resources,
    System,
)
from rocm_doctor.system.host_name import local_host_name
from rocm_doctor.system.recorded import tree_parts

class _Dumper(yaml.SafeDumper):
    """Multi-line strings as block literals, so recorded output stays readable."""


def _str_representer(dumper: yaml.SafeDumper, value: str) -> Any:
    style = "|" if "\n" in value and all(c.isprintable() or c == "\n" for c in value) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_representer)


class RecordingSystem:
    """Answers from ``inner`` and remembers each answer for :meth:`write`."""

    def __init__(self, inner: System, redactor: Union[Redactor, ReportRedactor] = Redactor(),
                 keep_env: Callable[[str], bool] = lambda name: True) -> None:
        self.inner = inner
        self.redactor = redactor
        self.keep_env = keep_env
        self.files: Dict[str, str] = {}
        self.dirs: Dict[str, List[str]] = {}
        self.paths: Dict[str, bool] = {}
        """Path -> is a directory, for paths that exist (exists/is_dir/which answers)."""
        self.unreadable: Set[str] = set()
        self.access_modes: Dict[str, str] = {}
        self.disks: Dict[str, int] = {}
        self.commands: List[Dict[str, Any]] = []
        self._environ: Optional[Mapping[str, str]] = None
        self._answers: Dict[str, Any] = {}
        self.processes_seen: Dict[int, Dict[str, Any]] = {}
        """pid -> its machine.yaml ``processes`` item (what the gatherers asked about it)."""

    # -- files -----------------------------------------------------------------
    def read_text(self, path: str, max_bytes: int = 1 << 20) -> str:
        try:
            text = self.inner.read_text(path, max_bytes=max_bytes)
        except PermissionError:
            self.unreadable.add(path)
            self.paths[path] = False
            raise
        self.files[path] = text
        return text

    def list_dir(self, path: str) -> List[str]:
        try:
            names = self.inner.list_dir(path)
        except PermissionError:
            self.unreadable.add(path)
            self.paths[path] = True
            raise
        self.dirs[path] = names
        return names

    def exists(self, path: str) -> bool:
        found = self.inner.exists(path)
        if found:
            self.paths.setdefault(path, self.inner.is_dir(path))
        return found

    def is_dir(self, path: str) -> bool:
        answer = self.inner.is_dir(path)
        if answer or self.inner.exists(path):
            self.paths.setdefault(path, answer)
        return answer

    def access(self, path: str, write: bool = False) -> Optional[bool]:
        answer = self.inner.access(path, write=write)
        if answer is not None:
            readable = answer if not write else bool(self.inner.access(path))
            writable = answer if write else bool(self.inner.access(path, write=True))
            self.access_modes[path] = ("r" if readable else "") + ("w" if writable else "") or "-"
            self.paths.setdefault(path, self.inner.is_dir(path))
        return answer

    def disk_size(self, path: str) -> Optional[int]:
        size = self.inner.disk_size(path)
        if size is not None:
            self.disks[path] = size
        return size

    def which(self, name: str) -> Optional[str]:
        found = self.inner.which(name)
        if found is not None:
            self.paths.setdefault(found, False)
        return found

    # -- commands --------------------------------------------------------------
    def run(self, argv: Sequence[str], timeout: float = DEFAULT_TIMEOUT, label: Optional[str] = None,
            env: Optional[Mapping[str, str]] = None) -> CommandResult:
        return self._note(argv, label, self.inner.run(argv, timeout=timeout, label=label, env=env))

    def start(self, argv: Sequence[str], timeout: float = DEFAULT_TIMEOUT, label: Optional[str] = None,
              env: Optional[Mapping[str, str]] = None) -> Finished:
        # Recording waits for the command: the recording needs its output.
        result = self.inner.start(argv, timeout=timeout, label=label, env=env).result()
        return Finished(argv=list(result.argv), done=self._note(argv, label, result))

    def _note(self, argv: Sequence[str], label: Optional[str], result: CommandResult) -> CommandResult:
        """Remember a command's result for commands.yaml."""
        entry: Dict[str, Any] = {}
        if label is not None:
            entry["label"] = label
        entry["argv"] = [str(a) for a in argv] if label is None else [str(argv[0])] if argv else []
        if result.missing:
            entry["missing"] = True
        elif result.error:
            entry["error"] = result.error
        elif result.timed_out:
            entry["timeout"] = True
        else:
            entry["returncode"] = result.returncode
        if result.stdout:
            entry["stdout"] = result.stdout
        if result.stderr:
            entry["stderr"] = result.stderr
        self.commands.append(entry)
        return result

    # -- environment -----------------------------------------------------------
    def environ(self) -> Mapping[str, str]:
        if self._environ is None:
            self._environ = self.inner.environ()
        return self._environ

    def platform(self) -> PlatformInfo:
        return self._once("platform", self.inner.platform)

    def identity(self) -> Identity:
        return self._once("identity", self.inner.identity)

    def resources(self) -> Resources:
        return self._once("resources", self.inner.resources)

    def current_python(self) -> str:
        return self._once("python", self.inner.current_python)

    def parent_process(self) -> Optional[str]:
        return self._once("shell", self.inner.parent_process)

    # -- processes ---------------------------------------------------------------
    def processes(self, pids: Optional[Sequence[int]] = None) -> List[ProcessEntry]:
        found = self.inner.processes(pids)
        for entry in found:
            item = {k: v for k, v in asdict(entry).items() if v is not None and v != []}
            self.processes_seen.setdefault(entry.pid, {}).update(item)
        return found

    def process_environ(self, pid: int) -> Dict[str, str]:
        return self._process_answer(pid, "environ", lambda: self.inner.process_environ(pid),
                                    lambda env: {k: v for k, v in sorted(env.items()) if self.keep_env(k)})

    def process_modules(self, pid: int) -> List[str]:
        return self._process_answer(pid, "modules", lambda: self.inner.process_modules(pid), list)

    def _process_answer(self, pid: int, key: str, ask: Callable[[], Any], keep: Callable[[Any], Any]) -> Any:
        """Ask ``inner`` and remember the answer (or ``permission`` / ``gone``) in the pid's item."""
        item = self.processes_seen.setdefault(pid, {"pid": pid})
        try:
            answer = ask()
        except PermissionError:
            item[f"{key}_error"] = "permission"
            raise
        except ProcessGone:
            item[f"{key}_error"] = "gone"
            raise
        item[key] = keep(answer)
        return answer

    def _once(self, key: str, ask: Callable[[], Any]) -> Any:
        """The first answer, kept: the recording must hold what the gatherers saw."""
        if key not in self._answers:
            self._answers[key] = ask()
        return self._answers[key]

    # -- output ----------------------------------------------------------------
    def machine_yaml(self) -> Dict[str, Any]:
        """The machine.yaml document (redacted)."""
        ident = self.identity()
        env = {k: v for k, v in sorted(self.environ().items()) if self.keep_env(k)}
        data: Dict[str, Any] = {
            "platform": asdict(self.platform()),
            "identity": {"user": ident.user, "uid": ident.uid, "groups": list(ident.groups),
                         "group_ids": dict(ident.group_ids)},
            "resources": asdict(self.resources()),
            "python": self.current_python(),
            "shell": self.parent_process(),
            "env": env,
        }
        if self.access_modes:
            data["access"] = dict(sorted(self.access_modes.items()))
        if self.disks:
            data["disks"] = dict(sorted(self.disks.items()))
        if self.unreadable:
            data["unreadable"] = sorted(self.unreadable)
        if self.processes_seen:
            data["processes"] = [self.processes_seen[pid] for pid in sorted(self.processes_seen)]
        return self.redactor.data(data)

    def write(self, folder: Path | str) -> Path:
        """Write machine.yaml, commands.yaml and files/ into ``folder`` (created; must be empty or new)."""
        folder = Path(folder)
        if folder.exists() and any(folder.iterdir()):
            raise FileExistsError(f"{folder} is not empty")
        folder.mkdir(parents=True, exist_ok=True)
        windows = self.platform().system.lower() == "windows"
        learn = getattr(self.redactor, "learn", None)
        if learn is not None:  # a secret found in one file is removed, in pieces too, from every other
            learn([self.files, self.commands, dict(self.environ())])
        tree = folder / "files"
        tree.mkdir()
        red = self.redactor.text
        for path, is_dir in self.paths.items():
            target = _tree_path(tree, red(path), windows)
            if is_dir:
                target.mkdir(parents=True, exist_ok=True)
            elif not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.touch()
        for path, names in self.dirs.items():
            base = _tree_path(tree, red(path), windows)
            base.mkdir(parents=True, exist_ok=True)
            for name in names:
                child = base / red(name)
                full = _join(path, name, windows)
                if child.exists():
                    continue
                if self.paths.get(full) or full in self.dirs or self.inner.is_dir(full):
                    child.mkdir(parents=True, exist_ok=True)
                else:
                    child.touch()
        for path, text in self.files.items():
            target = _tree_path(tree, red(path), windows)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(self.redactor.file(path, text), encoding="utf-8")
        _write_yaml(folder / "machine.yaml", self.machine_yaml())
        _write_yaml(folder / "commands.yaml", self.redactor.data(self.commands))
        return folder


def _join(path: str, name: str, windows: bool) -> str:
    return ntpath.join(path, name) if windows else path.rstrip("/") + "/" + name


def _tree_path(tree: Path, path: str, windows: bool) -> Path:
    """Where a machine path lives under files/ (the rule RecordedSystem replays)."""
    parts = tree_parts(path, windows)
    if any(p == ".." for p in parts):
        raise ValueError(f"refusing to record a path with '..': {path}")
    return tree.joinpath(*parts)


def _write_yaml(path: Path, data: Any) -> None:
    """Write atomically: a temporary file in the same folder, then rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        yaml.dump(data, handle, Dumper=_Dumper, sort_keys=False, allow_unicode=True)
    os.replace(tmp, path)


HOST_NAME_FILES = ("/etc/hostname", "/proc/sys/kernel/hostname")


def redactor_for(system: System) -> Redactor:
    """A redactor for the users, host names and home directories of ``system``, read from ``system`` itself.

    A recorded machine is another machine: its names come from its own identity,
    environment and host name files, not only from the machine rocm-doctor runs on
    (whose user home and host name are added as well).
    """
    env = system.environ()
    users = [system.identity().user] + [env.get(name, "") for name in ("USER", "LOGNAME", "USERNAME")]
    homes = [env.get(name, "") for name in ("HOME", "USERPROFILE")] + [os.path.expanduser("~")]
    hosts = [local_host_name()] + [env.get(name, "") for name in ("HOSTNAME", "COMPUTERNAME")]
    for path in HOST_NAME_FILES:
        try:
            hosts += system.read_text(path, max_bytes=256).splitlines()[:1]
        except OSError:
            continue
    return Redactor.from_names(users, hosts, homes)
