"""Small helpers every gatherer shares: the target OS, path joining, reading a file into a fact.

Convention for facts that do not apply to the machine's operating system (a
Windows build number on Linux, ``/dev/kfd`` on Windows): they stay ``unknown``
with the reason ``not applicable on <OS>``. Nobody looked, because there is
nothing to look at; rules treat them as unknown and never as false.
"""

from __future__ import annotations

import ntpath
import posixpath
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, Optional

from rocm_doctor import bounded_json
from rocm_doctor.facts.value import Fact, absent, failed, known, unknown
from rocm_doctor.system.base import System

_OS_NAMES = {"linux": "linux", "windows": "windows", "darwin": "macos"}
_OS_LABELS = {"linux": "Linux", "windows": "Windows", "macos": "macOS"}


def os_kind(system: System) -> Optional[str]:
    """``linux``, ``windows``, ``macos`` or None for anything else."""
    return _OS_NAMES.get(system.platform().system.strip().lower())


def not_applicable(kind: Optional[str]) -> Fact[Any]:
    """The fact for something that does not exist on this operating system."""
    return unknown(f"not applicable on {_OS_LABELS.get(kind or '', kind or 'this OS')}")


def is_windows_path(path: str) -> bool:
    """True for ``C:\\...`` and ``\\\\server\\share`` style paths."""
    return (len(path) > 1 and path[1] == ":") or path.startswith("\\\\") or ("\\" in path and "/" not in path)


def join_path(base: str, *parts: str) -> str:
    """Join in the style of ``base`` (a target machine path, not necessarily this machine's)."""
    return (ntpath if is_windows_path(base) else posixpath).join(base, *parts)


@dataclass(frozen=True)
class ReadResult:
    """A file read: text when it worked, else the fact that says why not."""

    text: Optional[str]
    problem: Optional[Fact[Any]] = None


def read_file(system: System, path: str, max_bytes: int = 1 << 20) -> ReadResult:
    """Read a file; a missing file is an absent fact, an unreadable one a failed fact."""
    try:
        return ReadResult(system.read_text(path, max_bytes=max_bytes))
    except FileNotFoundError:
        return ReadResult(None, absent(path, f"{path} does not exist"))
    except PermissionError:
        return ReadResult(None, failed(path, f"permission denied reading {path}"))
    except OSError as exc:
        return ReadResult(None, failed(path, f"cannot read {path}: {exc.strerror or exc}"))


def file_fact(system: System, path: str, parse: Callable[[str], Any], max_bytes: int = 1 << 20) -> Fact[Any]:
    """Read a file and parse it; a parser that returns None or raises ValueError is a failed fact."""
    result = read_file(system, path, max_bytes)
    if result.text is None:
        assert result.problem is not None
        return result.problem
    try:
        value = parse(result.text)
    except ValueError as exc:
        return failed(path, f"cannot parse {path}: {exc}")
    if value is None:
        return failed(path, f"cannot parse {path}: unexpected content")
    return known(value, path)


def json_objects(text: str) -> Iterator[Dict[str, Any]]:
    """The JSON objects printed one per line in a child's output; other lines (warnings, garbage) are skipped."""
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            data = bounded_json.loads(line)
        except ValueError:  # not JSON, or over a limit
            continue
        if isinstance(data, dict):
            yield data
