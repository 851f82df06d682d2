"""Quoting for each shell rocm-doctor writes files or prints commands for.

Whatever reaches a shell, from a rule file, a pasted report or the machine, goes
through here: variable names must be identifiers, values and paths are quoted for
the shell that reads them. Commands shown on Windows are written for PowerShell
(the shell ``fix --write-env`` writes there by default).
"""

from __future__ import annotations

import re
import shlex
from typing import Sequence

from rocm_doctor.errors import InputError

IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
"""An environment variable name every shell accepts."""
_POWERSHELL_SAFE = re.compile(r"^[A-Za-z0-9_./:\\=+-]+$")
"""Arguments PowerShell passes to a program as written (no quotes, commas, braces, $, `, ;, @...)."""


def check_name(name: str) -> str:
    """``name`` when it is an identifier, else an InputError (a name is never quoted, only checked)."""
    if not IDENTIFIER.match(name):
        raise InputError(f"environment variable name {name!r} is not a valid identifier")
    return name


def posix(value: str) -> str:
    """Single quotes for sh, bash, dash and zsh (always quoted, so the file reads the same everywhere)."""
    return "'" + value.replace("'", "'\\''") + "'"


def fish(value: str) -> str:
    """Single quotes for fish, where ``\\`` and ``'`` are escaped inside them."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def powershell(value: str) -> str:
    """Single quotes for PowerShell, where ``'`` is doubled."""
    return "'" + value.replace("'", "''") + "'"


def posix_word(value: str) -> str:
    """One word for a POSIX shell command line, quoted only when it has to be."""
    return shlex.quote(value)


def command_line(argv: Sequence[str], windows: bool = False) -> str:
    """``argv`` as one line to paste into a POSIX shell, or into PowerShell on Windows."""
    if not windows:
        return shlex.join(argv)
    words = [word if _POWERSHELL_SAFE.match(word) else powershell(word) for word in argv]
    if words and (words[0] != argv[0] or argv[0].startswith("-")):
        # A quoted program name is a string to PowerShell; the call operator runs it.
        return "& " + " ".join([powershell(argv[0])] + words[1:])
    return " ".join(words)
