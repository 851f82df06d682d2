"""Commands in the user's shell: which shell, and how a command or a setting is written in it.

Environment lines come from :func:`rocm_doctor.envlines.env_line`, so ``check``, ``fix`` and
``--write-env`` quote values the same way. Which shell a plan is for is decided in
:mod:`rocm_doctor.remedy.decide` (``shell_for``). Commands that are argv lists
(pip, python one-liners) are quoted for the shell. A rule's manual command is POSIX shell
syntax on Linux; where it uses shell syntax (``$VAR``, pipes, redirections, globs) a fish,
PowerShell or cmd user gets it wrapped in ``bash -c``, so that what is printed works when pasted.
"""

from __future__ import annotations

import re
import shlex
from typing import Optional, Sequence

from rocm_doctor import quoting

SHELLS = ("bash", "zsh", "sh", "fish", "powershell", "cmd")
"""Shells whose commands ``check`` and ``fix`` print (``--shell``)."""
POSIX = ("bash", "zsh", "sh")
_ALIASES = {"dash": "sh", "ash": "sh", "ksh": "sh", "pwsh": "powershell", "powershell": "powershell", "cmd": "cmd"}
_PLAIN = re.compile(r"^[A-Za-z0-9_@%+=:,./-]+$")
_POSIX_SYNTAX = set("|&;<>()$`*?[]{}~!\\")


def shell_name(raw: str) -> Optional[str]:
    """``/usr/bin/zsh``, ``pwsh.exe``, ``-bash`` -> a shell of :data:`SHELLS`, None when not one."""
    base = re.split(r"[\\/]", raw.strip())[-1].lower().lstrip("-")
    base = base[:-4] if base.endswith(".exe") else base
    if base in SHELLS:
        return base
    return _ALIASES.get(base)


def quote_word(shell: str, word: str) -> str:
    """One argument, quoted for ``shell`` only when it needs it."""
    if shell == "powershell":
        return quoting.powershell_word(word)
    if shell == "cmd":
        return quoting.cmd_word(word)
    if word and _PLAIN.match(word):
        return word
    if shell in POSIX:
        return shlex.quote(word)
    return quoting.fish(word)


def _quoted_words(shell: str, argv: Sequence[str]) -> list:
    """Each word quoted for ``shell``: PowerShell needs ``&`` before a quoted program, cmd quotes the program
    and escapes the arguments (see :func:`rocm_doctor.quoting.cmd_word`). A word cmd cannot carry is an
    InputError that says so."""
    if shell == "cmd":
        return [quoting.cmd_program(argv[0]), *(quoting.cmd_word(w) for w in argv[1:])] if argv else []
    words = [quote_word(shell, w) for w in argv]
    if shell == "powershell" and words and words[0].startswith("'"):
        words.insert(0, "&")
    return words


def quote_argv(shell: str, argv: Sequence[str]) -> str:
    """An argv list as one command line for ``shell``."""
    return " ".join(_quoted_words(shell, argv))


def uses_shell_syntax(command: str) -> bool:
    """The POSIX command uses more than quoted words: expansions, pipes, redirections, globs, assignments."""
    quote: Optional[str] = None
    for position, char in enumerate(command):
        if quote == "'":
            quote = None if char == "'" else quote
        elif quote == '"':
            if char in "$`\\":
                return True
            quote = None if char == '"' else quote
        elif char in "'\"":
            quote = char
        elif char in _POSIX_SYNTAX:
            return True
    try:
        words = shlex.split(command)
    except ValueError:
        return True
    return bool(words) and "=" in words[0] and not words[0].startswith("-")


def posix_command(shell: str, command: str) -> str:
    """A rule's POSIX command as it must be typed in ``shell``."""
    if shell in POSIX:
        return command
    if uses_shell_syntax(command):
        return quote_argv(shell, ["bash", "-c", command])
    return quote_argv(shell, shlex.split(command))


GROUP_ID_SUBSTITUTION = re.compile(r"^(--[a-z][a-z0-9-]{0,40}=)?\$\(getent group [a-z_][a-z0-9_-]{0,31} \| cut -d: -f3\)$")
"""The one command substitution a rule's ``docker run`` flag may hold: a host group's id by number
(the image has no group of the host's name). Nothing else is left unquoted: a flag may carry facts."""


def posix_run_word(word: str) -> str:
    """One ``docker run`` word for a POSIX shell: quoted, except :data:`GROUP_ID_SUBSTITUTION`, which is
    put in double quotes so that the shell still expands it."""
    match = GROUP_ID_SUBSTITUTION.match(word)
    if match is None:
        return quote_word("bash", word)
    prefix = match.group(1) or ""
    return f'{prefix}"{word[len(prefix):]}"'


def docker_run_line(shell: str, argv: Sequence[str]) -> str:
    """A ``docker run`` argv as typed in ``shell``: the POSIX line (see :func:`posix_run_word`), wrapped
    in ``bash -c`` for other shells when it keeps a substitution."""
    return posix_command(shell, " ".join(posix_run_word(word) for word in argv))


CONTINUATION = {"bash": " \\", "zsh": " \\", "sh": " \\", "fish": " \\", "powershell": " `", "cmd": " ^"}


def wrapped(shell: str, argv: Sequence[str], width: int, indent: str) -> list:
    """``quote_argv`` broken between arguments with the shell's line continuation, each line within
    ``width`` where the words allow (a single word longer than the width stays whole)."""
    words = _quoted_words(shell, argv)
    mark = CONTINUATION[shell]
    lines, current = [], ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if current and len(indent) + len(candidate) + len(mark) > width:
            lines.append(current + mark)
            current = "  " + word
        else:
            current = candidate
    lines.append(current)
    return lines
