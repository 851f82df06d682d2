"""Lines of a user's env file that contradict the plan's environment changes.

A file written by ``fix --write-env`` holds the user's own lines and rocm-doctor's managed
block. A user line contradicts the plan when it wins over the block for a variable the
block sets or unsets: in a shell script (bash, zsh, sh, fish, PowerShell, cmd) a line after
the block that sets the variable to another value or unsets one the block sets; in a dotenv
file (which cannot unset: ``docker run --env-file`` and python-dotenv both read every line)
any line that sets a variable the plan unsets, and a later line that sets another value.

Only plain assignments are read (``export NAME=value``, ``set -gx NAME value``,
``$env:NAME = 'value'``, ``set "NAME=value"`` and their unsets); a value with an expansion
is not the plan's literal value, so it counts as another value.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from rocm_doctor.model.remedy import EnvChange

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_DOTENV = re.compile(rf"^\s*(?:export\s+)?({_NAME})\s*=(.*)$")
_POSIX_SET = re.compile(rf"^\s*(?:export\s+|declare\s+-x\s+|typeset\s+-x\s+)?({_NAME})=(.*)$")
_POSIX_UNSET = re.compile(rf"^\s*unset\s+(?:-v\s+)?({_NAME}(?:\s+{_NAME})*)\s*(?:#.*)?$")
_FISH_SET = re.compile(r"^\s*set\s+(.*)$")
_PS_SET = re.compile(rf"^\s*\$env:({_NAME})\s*=(.*)$", re.IGNORECASE)
_PS_UNSET = re.compile(rf"^\s*Remove-Item\s+(?:-Path\s+)?Env:\\?({_NAME})\b", re.IGNORECASE)
_CMD_SET = re.compile(rf"^\s*set\s+(?:\"({_NAME})=(.*)\"|({_NAME})=(.*))\s*$", re.IGNORECASE)

_COMMENT = re.compile(r"\s#")

UNKNOWN = "\0unknown"
"""A value that cannot be read literally (an expansion, a quoting the reader does not follow)."""


@dataclass(frozen=True)
class Conflict:
    """One user line that contradicts the plan."""

    line: int
    """1-based line number in the file as it is (or would be) written."""
    text: str
    name: str
    wanted: Optional[str]
    """The plan's value; None when the plan unsets the variable."""
    found: Optional[str]
    """What the line sets; None when it unsets, :data:`UNKNOWN` when it cannot be read literally."""

    def describe(self, path: object) -> str:
        """``file:line: 'the line' sets NAME, which the plan unsets``."""
        if self.found is None:
            what = f"unsets {self.name}, which the plan sets to {self.wanted}, after the plan's block"
        elif self.wanted is None:
            what = f"sets {self.name}, which the plan unsets"
        else:
            what = f"sets {self.name} to another value than the plan's {self.wanted}, after the plan's block"
        return f"{path}:{self.line}: {self.text.strip()!r} {what}"


def _dotenv_value(raw: str) -> str:
    raw = raw.strip()
    if raw[:1] in ("'", '"'):
        end = raw.find(raw[0], 1)
        return raw[1:end] if end > 0 and "\\" not in raw[1:end] and "$" not in raw[1:end] else UNKNOWN
    comment = _COMMENT.search(raw)  # " #" starts a comment; one whitespace character, so the search stays linear
    value = (raw[: comment.start()] if comment else raw).strip()
    return UNKNOWN if "$" in value else value


def _posix_word(raw: str) -> Optional[str]:
    """The one word assigned, or None when the line is ``NAME=value command`` (not an assignment)."""
    if "$" in raw or "`" in raw:
        return UNKNOWN
    try:
        words = shlex.split(raw, comments=True)
    except ValueError:
        return UNKNOWN
    if len(words) > 1:
        return None
    return words[0] if words else ""


def assignment(shell: str, line: str) -> List[Tuple[str, Optional[str]]]:
    """The (name, value) pairs a line sets (value None: it unsets); [] for any other line."""
    if shell == "dotenv":
        match = _DOTENV.match(line)
        return [(match.group(1), _dotenv_value(match.group(2)))] if match else []
    if shell in ("bash", "zsh", "sh"):
        unset = _POSIX_UNSET.match(line)
        if unset:
            return [(name, None) for name in unset.group(1).split()]
        match = _POSIX_SET.match(line)
        if not match:
            return []
        value = _posix_word(match.group(2))
        return [] if value is None else [(match.group(1), value)]
    if shell == "fish":
        match = _FISH_SET.match(line)
        if not match:
            return []
        try:
            words = shlex.split(match.group(1), comments=True)
        except ValueError:
            return []
        flags = [w for w in words if w.startswith("-")]
        rest = [w for w in words if not w.startswith("-")]
        if not rest:
            return []
        if any(f in ("-e", "--erase") or (not f.startswith("--") and "e" in f) for f in flags):
            return [(name, None) for name in rest]
        value = " ".join(rest[1:])
        return [(rest[0], UNKNOWN if "$" in value else value)]
    if shell == "powershell":
        unset = _PS_UNSET.match(line)
        if unset:
            return [(unset.group(1), None)]
        match = _PS_SET.match(line)
        if not match:
            return []
        raw = match.group(2).strip()  # stripped here: a lazy group before \s*$ is quadratic on a long run of spaces
        if len(raw) >= 2 and raw[0] == raw[-1] == "'":
            return [(match.group(1), raw[1:-1].replace("''", "'"))]
        if len(raw) >= 2 and raw[0] == raw[-1] == '"' and not set(raw) & set("$`"):
            return [(match.group(1), raw[1:-1])]
        return [(match.group(1), UNKNOWN)]
    if shell == "cmd":
        match = _CMD_SET.match(line)
        if not match:
            return []
        name, value = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        value = value.replace("%%", "%") if "%" not in value.replace("%%", "") else UNKNOWN
        return [(name, value if value else None)]
    return []


def _key(shell: str, name: str) -> str:
    return name.upper() if shell in ("powershell", "cmd") else name  # Windows names ignore case


def find_conflicts(
    lines: Sequence[str], shell: str, changes: Sequence[EnvChange], block: Optional[Tuple[int, int]]
) -> List[Conflict]:
    """The lines (without terminators) outside ``block`` (first and last index of the managed block)
    that contradict ``changes``."""
    wanted: Dict[str, EnvChange] = {_key(shell, c.name): c for c in changes}
    found: List[Conflict] = []
    for index, text in enumerate(lines):
        if block is not None and block[0] <= index <= block[1]:
            continue
        after = block is not None and index > block[1]
        for name, value in assignment(shell, text):
            change = wanted.get(_key(shell, name))
            if change is None or value == change.value:
                continue
            wins = after or (shell == "dotenv" and change.value is None and value is not None)
            if wins:
                found.append(Conflict(index + 1, text, name, change.value, value))
    return found


def comment_prefix(shell: str) -> str:
    """What a commented-out conflicting line starts with (the original line follows, unchanged)."""
    return ("REM" if shell == "cmd" else "#") + " rocm-doctor: commented out, contradicts the plan: "
