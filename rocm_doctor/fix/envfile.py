"""Write environment changes as a file for one shell, merged into what is there.

Formats: ``dotenv`` (what ``docker run --env-file`` and python-dotenv read),
``bash`` and ``zsh`` (POSIX ``export``, also sourced by dash), ``fish``,
``powershell`` and ``cmd``.

Merging never loses user data: our lines live in one delimited block
(``# >>> rocm-doctor >>>`` ... ``# <<< rocm-doctor <<<``); every line outside
it is kept byte for byte and in order. Lines end only at LF, CRLF or CR
(a form feed inside a line does not make a marker); the block must have exactly one
opening and one closing marker, in that order, or nothing is written. The file is
written by :func:`rocm_doctor.files.update_file` (backup, lock, atomic replace,
through links, in the file's own encoding), and writing the same changes twice
changes nothing the second time. Names are checked as identifiers and values
quoted for the shell (:mod:`rocm_doctor.quoting`), whether they come from the
shipped rules, a user's rule file or a pasted report.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from rocm_doctor.envlines import line_and_note
from rocm_doctor.errors import InputError
from rocm_doctor.files import update_file
from rocm_doctor.fix.envconflicts import Conflict, comment_prefix, find_conflicts
from rocm_doctor.limits import EDIT_LINES, LimitError
from rocm_doctor.model.remedy import EnvChange

SHELLS = ("dotenv", "bash", "zsh", "sh", "fish", "powershell", "cmd")

DEFAULT_FILENAMES: Dict[str, str] = {
    "dotenv": "rocm-doctor.env",
    "bash": "rocm-doctor.sh",
    "zsh": "rocm-doctor.zsh",
    "sh": "rocm-doctor.sh",
    "fish": "rocm-doctor.fish",
    "powershell": "rocm-doctor.ps1",
    "cmd": "rocm-doctor.cmd",
}

HOW_TO_LOAD: Dict[str, str] = {
    "dotenv": "docker run --env-file {path} ...   (or python-dotenv: load_dotenv('{path}'))",
    "bash": "source {path}",
    "zsh": "source {path}",
    "sh": ". {path}",
    "fish": "source {path}",
    "powershell": ". {path}",
    "cmd": "call {path}",
}

@dataclass(frozen=True)
class Rendered:
    """The block for one format, and what it could not express."""

    lines: Tuple[str, ...]
    notes: Tuple[str, ...]


def begin_marker(shell: str) -> str:
    return f"{_comment(shell)} >>> rocm-doctor >>>"


def end_marker(shell: str) -> str:
    return f"{_comment(shell)} <<< rocm-doctor <<<"


def _comment(shell: str) -> str:
    return "REM" if shell == "cmd" else "#"


def default_shell(os_name: Optional[str], login_shell: Optional[str]) -> str:
    """The format to write when ``--shell`` is not given.

    Windows -> PowerShell; elsewhere the user's login shell when it is one we write, else bash.
    """
    if os_name == "windows":
        return "powershell"
    name = Path(login_shell).name if login_shell else ""
    return name if name in ("bash", "zsh", "fish") else "bash"


def render_block(shell: str, changes: Sequence[EnvChange]) -> Rendered:
    """The managed block (markers included) for ``changes`` in ``shell``."""
    if shell not in SHELLS:
        raise InputError(f"--shell {shell}: choose one of {', '.join(SHELLS)}")
    comment = _comment(shell)
    lines: List[str] = [begin_marker(shell)]
    lines.append(f"{comment} Managed by rocm-doctor fix; edits inside this block are replaced on the next write.")
    notes: List[str] = []
    for change in changes:
        lines.append(f"{comment} resolves {', '.join(change.finding_ids)}")
        line, note = line_and_note(shell, change.name, change.value)
        lines.append(line)
        if note:
            notes.append(note)
    lines.append(end_marker(shell))
    return Rendered(tuple(lines), tuple(notes))


_LINE_END = re.compile(r"(?<=\n)|(?<=\r)(?!\n)")


def _split_lines(text: str) -> List[str]:
    """Lines with their terminators (LF, CRLF or CR only), so that joining them gives back ``text``."""
    return [line for line in _LINE_END.split(text) if line]


def split_lines(text: str) -> List[str]:
    """Lines with their terminators (LF, CRLF or CR only); joined they give back ``text``."""
    return _split_lines(text)


def _newline_of(text: str, shell: str) -> str:
    if "\r\n" in text:
        return "\r\n"
    if text:
        return "\n"
    return "\r\n" if shell == "cmd" else "\n"


def merge(existing: str, shell: str, block: Sequence[str]) -> str:
    """``existing`` with the managed block replaced (or appended); everything else untouched."""
    lines = _split_lines(existing)
    newline = _newline_of(existing, shell)
    begin, end = begin_marker(shell), end_marker(shell)
    starts = [i for i, line in enumerate(lines) if line.rstrip("\r\n") == begin]
    ends = [i for i, line in enumerate(lines) if line.rstrip("\r\n") == end]
    body = "".join(line + newline for line in block)
    if not starts and not ends:
        prefix = existing
        if prefix and not prefix.endswith(("\n", "\r")):
            prefix += newline
        return prefix + body
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise InputError(
            f"the managed block needs one {begin!r} line and after it one {end!r} line; found the first at "
            f"{_line_numbers(starts)} and the second at {_line_numbers(ends)}; fix them by hand so rocm-doctor "
            "knows which lines it owns (the file is unchanged)"
        )
    before = "".join(lines[: starts[0]])
    after = "".join(lines[ends[0] + 1 :])
    # The old end marker's own terminator stays as it was (a file may mix \n and \r\n),
    # so the bytes after the block are untouched and a second write is a no-op.
    old_end = lines[ends[0]]
    terminator = old_end[len(old_end.rstrip("\r\n")):]
    body = body[: -len(newline)] + (terminator or (newline if after else ""))
    return before + body + after


def _line_numbers(indexes: Sequence[int]) -> str:
    if not indexes:
        return "no line"
    return ("line " if len(indexes) == 1 else "lines ") + ", ".join(str(i + 1) for i in indexes)


def conflicts_in(text: str, shell: str, changes: Sequence[EnvChange]) -> List[Conflict]:
    """The user lines of a merged file that contradict ``changes`` (see :mod:`rocm_doctor.fix.envconflicts`)."""
    lines = [line.rstrip("\r\n") for line in _split_lines(text)]
    starts = [i for i, line in enumerate(lines) if line == begin_marker(shell)]
    ends = [i for i, line in enumerate(lines) if line == end_marker(shell)]
    block = (starts[0], ends[0]) if len(starts) == 1 and len(ends) == 1 else None
    return find_conflicts(lines, shell, changes, block)


def comment_out(text: str, shell: str, conflicts: Sequence[Conflict]) -> str:
    """``text`` with each conflicting line commented out behind a marker; every other byte kept."""
    numbers = {c.line for c in conflicts}
    prefix = comment_prefix(shell)
    return "".join(prefix + line if i + 1 in numbers else line for i, line in enumerate(_split_lines(text)))


@dataclass(frozen=True)
class WriteResult:
    """What a write did (or, with ``dry_run``, would do)."""

    path: Path
    changed: bool
    diff: str
    """The unified diff, for a dry run ("" otherwise)."""
    backup: Optional[Path]
    notes: Tuple[str, ...]
    conflicts: Tuple[Conflict, ...] = ()
    """User lines that still contradict the plan in the file as written."""
    commented_out: Tuple[Conflict, ...] = ()
    """User lines commented out because they contradicted the plan (``comment_out_conflicts``)."""


def write_env_file(
    path: Path,
    shell: str,
    changes: Sequence[EnvChange],
    dry_run: bool = False,
    force: bool = False,
    comment_out_conflicts: bool = False,
) -> WriteResult:
    """Merge ``changes`` into ``path`` for ``shell``; with ``dry_run`` only compute the diff.

    ``path`` may be a link (the file it points to is updated); ``force`` replaces a read-only file.
    User lines that contradict the plan are returned as ``conflicts``, or with
    ``comment_out_conflicts`` commented out (the previous file is backed up).
    """
    rendered = render_block(shell, changes)
    found: Dict[str, Tuple[Conflict, ...]] = {"conflicts": (), "commented": ()}

    def merged(old: str) -> str:
        lines = old.count("\n") + old.count("\r") - old.count("\r\n")
        if lines > EDIT_LINES.value:
            raise LimitError(str(path), f"{lines:,} lines", EDIT_LINES)
        try:
            new = merge(old, shell, rendered.lines)
        except InputError as exc:
            raise InputError(f"{path}: {exc}") from None
        conflicts = tuple(conflicts_in(new, shell, changes))
        if conflicts and comment_out_conflicts:
            found.update(conflicts=(), commented=conflicts)
            return comment_out(new, shell, conflicts)
        found.update(conflicts=conflicts, commented=())
        return new

    written = update_file(path, merged, force=force, dry_run=dry_run)
    if not written.changed:
        return WriteResult(written.path, False, "", None, rendered.notes, found["conflicts"], found["commented"])
    diff = "".join(
        difflib.unified_diff(
            _split_lines(written.old), _split_lines(written.new), fromfile=f"a/{path.name}", tofile=f"b/{path.name}"
        )
    ) if dry_run else ""
    return WriteResult(
        written.path, True, diff, written.backup, rendered.notes, found["conflicts"], found["commented"]
    )
