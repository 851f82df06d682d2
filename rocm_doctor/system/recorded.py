"""A recorded machine: a folder that replays files, command results, environment and platform.

Layout (written by ``rocm-doctor facts --record DIR``, read by ``--machine DIR``)::

    DIR/machine.yaml    platform, identity, resources, env, python, access, disks, notes
    DIR/commands.yaml   list of recorded commands: argv or label, returncode,
                        stdout, stderr, timeout: true, missing: true, error: "..."
    DIR/files/...       the file tree; ``/sys/x`` is ``files/sys/x`` and
                        ``C:\\Windows\\x`` is ``files/C/Windows/x``

A command that was not recorded behaves as a missing executable. The folder is data:
a link leading outside it, a FIFO, a device or a socket is refused when it opens.
"""

from __future__ import annotations

import ntpath
import posixpath
import stat
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence

from rocm_doctor.data import read_yaml
from rocm_doctor.errors import InputError
from rocm_doctor.files import NotPlainFile, kind_of, read_fact_file, resolved, walk_tree
from rocm_doctor.limits import MACHINE_ENTRIES, LimitError

from rocm_doctor.system.recorded_schema import MachineDocument, commands_problem, problem
from rocm_doctor.system.base import (
    DEFAULT_TIMEOUT,
    CommandResult,
    Finished,
    Identity,
    PlatformInfo,
    ProcessEntry,
    ProcessGone,
    Resources,
)


class RecordedMachineError(InputError):
    """A recorded machine folder that cannot be read, with a one-line reason."""


def _load_yaml(path: Path) -> Any:
    """A YAML file of the folder, or None when it does not exist."""
    try:
        return read_yaml(path, error=RecordedMachineError)
    except FileNotFoundError:
        return None


def _check(path: Path, found: Optional[str]) -> None:
    """Refuse a document whose shape is wrong (see ``recorded_schema``)."""
    if found is not None:
        raise RecordedMachineError(f"{path}: {found}")


def check_folder(folder: Path) -> None:
    """Refuse a folder that is not plain data: a link that leads outside it, a FIFO, device or socket,
    too many entries, folders nested too deep.

    A recorded machine comes from someone else; replaying it must not read this machine
    (``files/proc/cmdline`` linked to ``/proc/self/environ`` would put the doctor's own
    environment into a report) or wait on a FIFO forever.
    """
    root = resolved(folder)
    for count, (path, mode) in enumerate(walk_tree(folder), 1):
        if count > MACHINE_ENTRIES.value:
            raise LimitError(str(folder), "too many files and folders", MACHINE_ENTRIES)
        if stat.S_ISLNK(mode):
            try:
                target = resolved(path)
            except InputError as exc:
                raise RecordedMachineError(str(exc)) from None
            if target != root and root not in target.parents:
                raise RecordedMachineError(f"{path}: a link to {target}, outside the recorded machine folder")
        elif not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise RecordedMachineError(f"{path}: is {kind_of(mode)}; a recorded machine holds only files and folders")


def tree_parts(path: str, windows: bool) -> List[str]:
    """The parts of a machine path under ``files/``: ``C:\\Windows\\x`` -> ``C, Windows, x``."""
    if windows or (len(path) > 1 and path[1] == ":"):
        drive, rest = ntpath.splitdrive(path)
        return [drive.rstrip(":")] + [p for p in rest.replace("/", "\\").split("\\") if p]
    return [p for p in path.split("/") if p]


def _exe_key(name: str) -> str:
    base = ntpath.basename(posixpath.basename(name)).lower()
    return base[:-4] if base.endswith(".exe") else base


class RecordedSystem:
    """Replays a recorded machine folder."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise RecordedMachineError(f"{self.folder}: no such recorded machine folder")
        check_folder(self.folder)
        meta_path = self.folder / "machine.yaml"
        meta = _load_yaml(meta_path)
        if meta is None:
            raise RecordedMachineError(f"{meta_path}: {'empty' if meta_path.exists() else 'missing'}")
        if not isinstance(meta, dict):
            raise RecordedMachineError(f"{meta_path}: must be a mapping")
        _check(meta_path, problem(MachineDocument, meta))
        self.meta: Dict[str, Any] = meta
        commands = _load_yaml(self.folder / "commands.yaml") or []
        if not isinstance(commands, list):
            raise RecordedMachineError(f"{self.folder / 'commands.yaml'}: must be a list")
        _check(self.folder / "commands.yaml", commands_problem(commands))
        self.commands: List[Dict[str, Any]] = commands
        self.calls: List[List[str]] = []
        """Every argv this machine was asked to run (for tests)."""
        self._files = self.folder / "files"
        self._windows = str(self.platform().system).lower() == "windows"

    # -- paths -----------------------------------------------------------------
    def _host_path(self, path: str) -> Path:
        """Map a machine path to the file tree."""
        parts = tree_parts(path, self._windows)
        if any(p == ".." for p in parts):
            raise PermissionError(path)
        return self._files.joinpath(*parts) if parts else self._files

    def _check_readable(self, path: str) -> None:
        if path in (self.meta.get("unreadable") or []):
            raise PermissionError(13, "Permission denied", path)

    def read_text(self, path: str, max_bytes: int = 1 << 20) -> str:
        self._check_readable(path)
        target = self._host_path(path)
        if target.is_dir():
            raise IsADirectoryError(21, "Is a directory", path)
        try:
            return read_fact_file(str(target), max_bytes).decode("utf-8", "replace")
        except NotPlainFile as exc:  # the folder came from someone else: refuse it, as check_folder does
            raise RecordedMachineError(f"{target}: {exc.strerror}") from None

    def list_dir(self, path: str) -> List[str]:
        self._check_readable(path)
        target = self._host_path(path)
        if not target.exists():
            raise FileNotFoundError(2, "No such file or directory", path)
        if not target.is_dir():
            raise NotADirectoryError(20, "Not a directory", path)
        return sorted(p.name for p in target.iterdir())

    def exists(self, path: str) -> bool:
        return self._host_path(path).exists()

    def is_dir(self, path: str) -> bool:
        return self._host_path(path).is_dir()

    def access(self, path: str, write: bool = False) -> Optional[bool]:
        rules = self.meta.get("access") or {}
        if path in rules:
            mode = str(rules[path])
            return ("w" in mode and "r" in mode) if write else "r" in mode
        if not self.exists(path):
            return None
        return path not in (self.meta.get("unreadable") or [])

    def disk_size(self, path: str) -> Optional[int]:
        value = (self.meta.get("disks") or {}).get(path)
        return int(value) if value is not None else None

    def which(self, name: str) -> Optional[str]:
        env = self.environ()
        sep = ";" if self._windows else ":"
        join = ntpath.join if self._windows else posixpath.join
        candidates = [name, name + ".exe"] if self._windows else [name]
        for directory in env.get("PATH", env.get("Path", "")).split(sep):
            if not directory:
                continue
            for candidate in candidates:
                full = join(directory, candidate)
                try:
                    if self._host_path(full).is_file():
                        return full
                except OSError:  # a PATH entry that is no name here ('..', too long): not found there
                    continue
        return None

    # -- commands --------------------------------------------------------------
    def _find(self, argv: Sequence[str], label: Optional[str]) -> Optional[Dict[str, Any]]:
        if label is not None:
            for entry in self.commands:
                if entry.get("label") == label:
                    return entry
        wanted = [_exe_key(argv[0])] + [str(a) for a in argv[1:]] if argv else []
        for entry in self.commands:
            recorded = entry.get("argv")
            if not recorded:
                continue
            key = [_exe_key(str(recorded[0]))] + [str(a) for a in recorded[1:]]
            if key == wanted:
                return entry
        return None

    def run(
        self,
        argv: Sequence[str],
        timeout: float = DEFAULT_TIMEOUT,
        label: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
    ) -> CommandResult:
        args = [str(a) for a in argv]
        self.calls.append(args)
        entry = self._find(args, label)
        if entry is None:
            return CommandResult(argv=args, missing=True)
        if entry.get("missing"):
            return CommandResult(argv=args, missing=True)
        if entry.get("error"):
            return CommandResult(argv=args, error=str(entry["error"]))
        if entry.get("timeout"):
            return CommandResult(
                argv=args,
                stdout=str(entry.get("stdout") or ""),
                stderr=str(entry.get("stderr") or ""),
                timed_out=True,
                duration=float(timeout),
            )
        if "returncode" in entry and entry["returncode"] is None:
            # `returncode:` with no value: what the command did is not recorded (not a success).
            return CommandResult(argv=args, error="recorded without a return code (returncode is null)")
        return CommandResult(
            argv=args,
            returncode=int(entry.get("returncode", 0)),
            stdout=str(entry.get("stdout") or ""),
            stderr=str(entry.get("stderr") or ""),
            duration=float(entry.get("duration") or 0.0),
        )

    def start(
        self,
        argv: Sequence[str],
        timeout: float = DEFAULT_TIMEOUT,
        label: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
    ) -> Finished:
        result = self.run(argv, timeout=timeout, label=label, env=env)
        return Finished(argv=list(result.argv), done=result)

    # -- environment -----------------------------------------------------------
    def environ(self) -> Mapping[str, str]:
        return {str(k): str(v) for k, v in (self.meta.get("env") or {}).items()}

    def platform(self) -> PlatformInfo:
        data = self.meta.get("platform") or {}
        return PlatformInfo(
            system=str(data.get("system", "Linux")),
            release=str(data.get("release", "")),
            version=str(data.get("version", "")),
            machine=str(data.get("machine", "x86_64")),
        )

    def identity(self) -> Identity:
        data = self.meta.get("identity") or {}
        return Identity(
            user=str(data.get("user", "user")),
            uid=data.get("uid"),
            groups=[str(g) for g in data.get("groups") or []],
            group_ids={str(k): int(v) for k, v in (data.get("group_ids") or {}).items()},
        )

    def resources(self) -> Resources:
        data = self.meta.get("resources") or {}
        return Resources(
            cpu_model=data.get("cpu_model"),
            cpu_vendor=data.get("cpu_vendor"),
            logical_cores=data.get("logical_cores"),
            physical_cores=data.get("physical_cores"),
            memory_total=data.get("memory_total"),
            memory_available=data.get("memory_available"),
        )

    def current_python(self) -> str:
        return str(self.meta.get("python", "/usr/bin/python3"))

    def parent_process(self) -> Optional[str]:
        shell = self.meta.get("shell")
        return str(shell) if shell else None

    # -- processes (machine.yaml ``processes``) ---------------------------------
    def _process(self, pid: int) -> Dict[str, Any]:
        for item in self.meta.get("processes") or []:
            if item.get("pid") == pid:
                return item
        raise ProcessGone(pid)

    def processes(self, pids: Optional[Sequence[int]] = None) -> List[ProcessEntry]:
        wanted = None if pids is None else set(pids)
        return [
            ProcessEntry(
                pid=int(item["pid"]),
                ppid=item.get("ppid"),
                name=str(item.get("name") or ""),
                user=item.get("user"),
                uid=item.get("uid"),
                exe=item.get("exe"),
                cmdline=[str(a) for a in item.get("cmdline") or []],
                age_seconds=item.get("age_seconds"),
                problem=item.get("problem"),
            )
            for item in self.meta.get("processes") or []
            if wanted is None or item["pid"] in wanted
        ]

    def _answer(self, pid: int, key: str) -> Any:
        item = self._process(pid)
        error = item.get(f"{key}_error")
        if error == "permission":
            raise PermissionError(13, "Permission denied", f"process {pid}")
        if error is not None or key not in item:
            raise ProcessGone(pid)
        return item[key]

    def process_environ(self, pid: int) -> Dict[str, str]:
        return {str(k): str(v) for k, v in self._answer(pid, "environ").items()}

    def process_modules(self, pid: int) -> List[str]:
        return [str(m) for m in self._answer(pid, "modules")]
