"""Quoting for each shell rocm-doctor writes files or prints commands for, and the checks on pip arguments.

Whatever reaches a shell, from a rule file, a pasted report or the machine, goes
through here: variable names must be identifiers, values and paths are quoted for
the shell that reads them. Commands shown on Windows are written for PowerShell
(the shell ``fix --write-env`` writes there by default). What a rule hands to pip
must be a requirement specifier (PEP 508, parsed with ``packaging``), never an
option or a path, and an index must be an http(s) URL.
"""

from __future__ import annotations

import re
import shlex
from typing import Optional

from packaging.requirements import InvalidRequirement, Requirement

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


def powershell_word(value: str) -> str:
    """One argument for a PowerShell command line, quoted unless PowerShell passes it as written."""
    return value if value and _POWERSHELL_SAFE.match(value) else powershell(value)


_CMD_SAFE = re.compile(r"^[A-Za-z0-9_@+:./\\-]+$")
"""Arguments cmd.exe passes as written: no spaces, no ``& | < > ^ ( ) % ! , ; =`` or quotes."""
_CMD_META = re.compile(r'([()%!^"<>&|])')
"""What cmd.exe reads as syntax outside quotes; each is escaped with ``^`` in an argument."""


def _cmd_refusal(value: str) -> None:
    # cmd expands %NAME% before it reads carets or quotes, at the prompt and in a batch file alike, and
    # no escape works in both; a line break ends the command. Refused, as env values are for cmd.
    if "%" in value or any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise InputError(
            f"{value!r}: cmd.exe cannot be given '%' or a control character safely on a command line; "
            "use --shell powershell"
        )


def _crt_quoted(value: str) -> str:
    """``value`` double-quoted for the MS C runtime's argv parser (backslashes doubled before a quote)."""
    out, backslashes = [], 0
    for char in value:
        if char == "\\":
            backslashes += 1
            continue
        out.append("\\" * (2 * backslashes + 1) + '"' if char == '"' else "\\" * backslashes + char)
        backslashes = 0
    return '"' + "".join(out) + "\\" * (2 * backslashes) + '"'


def cmd_word(value: str) -> str:
    """One argument (not the program) for a cmd.exe command line.

    cmd.exe and the program read the line in turn: cmd toggles its quoting at every ``"`` and has no
    escape inside quotes, so ``"a\\"&calc&\\"b"`` leaves ``&calc&`` bare. The argument is quoted for the
    program's C runtime first, then every character cmd reads as syntax, quotes included, gets a ``^``:
    cmd never enters its quoted state, removes the carets and hands the program exactly the C runtime
    form (https://learn.microsoft.com/en-us/windows-server/administration/windows-commands/cmd, and
    https://learn.microsoft.com/en-us/cpp/c-language/parsing-c-command-line-arguments).
    """
    if value and _CMD_SAFE.match(value):
        return value
    _cmd_refusal(value)
    return _CMD_META.sub(r"^\1", _crt_quoted(value))


def cmd_program(value: str) -> str:
    """The program word of a cmd.exe command line: double-quoted when it needs it (cmd finds the program
    name before it reads carets, so it is quoted, not escaped); a path cannot hold ``"``."""
    if value and _CMD_SAFE.match(value):
        return value
    _cmd_refusal(value)
    if '"' in value:
        raise InputError(f"{value!r}: a program path with '\"' cannot be written for cmd.exe")
    return '"' + value + '"'


PIP_ARCHIVE_EXTENSIONS = (
    ".zip", ".whl", ".tar.bz2", ".tbz", ".tar.gz", ".tgz", ".tar", ".tar.xz", ".txz", ".tlz", ".tar.lz", ".tar.lzma",
)
"""File name endings pip takes for a local archive, not a package name: ``ARCHIVE_EXTENSIONS`` in
https://github.com/pypa/pip/blob/26.3/src/pip/_internal/utils/filetypes.py (checked against
pip 26.3). ``_get_url_from_path`` in ``src/pip/_internal/req/constructors.py`` turns such an
argument into a file link, so ``pip install evil.tar.gz`` builds the archive in the working
folder, running its ``setup.py``, and ``pip install x-1-py3-none-any.whl`` installs that wheel,
``.pth`` files and all."""


def requirement_problem(spec: str) -> Optional[str]:
    """Why ``spec`` may not be given to pip as a package (None when it is a requirement specifier).

    Options (``--index-url``, ``-e``), paths (``.``, ``./setup.py``), URLs other than https
    and names ending like an archive (``evil.tar.gz``, a valid PEP 508 name that pip reads
    as a file) are refused: pip would run a local build or fetch from anywhere.
    """
    try:
        requirement = Requirement(spec)
    except InvalidRequirement:
        return f"{spec!r} is not a requirement specifier (PEP 508, like torch==2.5.1 or numpy<2)"
    if requirement.url is not None and not requirement.url.startswith("https://"):
        return f"{spec!r}: a requirement URL must be https://"
    ending = next((e for e in PIP_ARCHIVE_EXTENSIONS if requirement.name.lower().endswith(e)), None)
    if ending is not None:
        return f"{spec!r}: a name ending in {ending} is a local archive file to pip, which would build or install it"
    return None


def index_problem(url: str) -> Optional[str]:
    """Why ``url`` may not be given to pip as an index (None when it is an http(s) URL)."""
    if re.match(r"^https?://[\x21-\x7e]+$", url) is None:  # printable ASCII: no spaces, no control characters
        return f"{url!r} is not an http(s) URL"
    return None
