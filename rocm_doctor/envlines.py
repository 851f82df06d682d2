"""How one environment variable is set or unset in each shell and env-file format.

``dotenv`` (what ``docker run --env-file`` and python-dotenv read), ``bash``, ``zsh``, ``sh``, ``fish``,
``powershell`` and ``cmd``. ``check`` and ``fix`` print these lines and the env-file writer
(:mod:`rocm_doctor.fix.envfile`) writes them, so every output quotes a value the same way. Names
are checked as identifiers and values quoted for the shell (:mod:`rocm_doctor.quoting`).
"""

from __future__ import annotations

import re
from typing import Optional, Tuple

from rocm_doctor import quoting
from rocm_doctor.errors import InputError

# Unquoted dotenv values are read literally by `docker --env-file` but python-dotenv
# strips quotes, expands ${VAR} and cuts " #" comments: only this set reads the same in both.
_DOTENV_SAFE = re.compile(r"^[A-Za-z0-9_.,:;/+=@%^-]*$")


def _check_value(shell: str, name: str, value: str) -> None:
    if "\n" in value or "\r" in value or "\0" in value:
        raise InputError(f"{name}: a value with a line break or NUL cannot be written to an env file")
    if shell == "dotenv" and not _DOTENV_SAFE.match(value):
        raise InputError(
            f"{name}={value!r}: dotenv files are read differently by docker --env-file and python-dotenv "
            "when a value has spaces, quotes, '$', '#' or '\\'; write it with --shell bash instead"
        )
    if shell == "cmd" and ('"' in value or "!" in value):
        raise InputError(f"{name}={value!r}: cmd cannot carry '\"' or '!' safely in set \"NAME=value\"")


def line_and_note(shell: str, name: str, value: Optional[str]) -> Tuple[str, Optional[str]]:
    """One line that sets ``name`` to ``value`` (unsets it: None) in ``shell``, plus a note when the
    format cannot express it."""
    name = quoting.check_name(name)
    if value is None:
        if shell == "dotenv":
            return (
                f"# unset {name}: a dotenv file cannot unset a variable; remove it from the environment "
                "that starts the program",
                f"dotenv cannot unset {name}: remove it from the environment (or the other env files) yourself",
            )
        return {
            "bash": f"unset {name}",
            "zsh": f"unset {name}",
            "sh": f"unset {name}",
            "fish": f"set -e {name}",
            "powershell": f"Remove-Item Env:{name} -ErrorAction SilentlyContinue",
            "cmd": f'set "{name}="',
        }[shell], None
    _check_value(shell, name, value)
    return {
        "dotenv": f"{name}={value}",
        "bash": f"export {name}={quoting.posix(value)}",
        "zsh": f"export {name}={quoting.posix(value)}",
        "sh": f"export {name}={quoting.posix(value)}",
        # -gx: global and exported; a universal (-U) variable is not exported to programs
        # (InvokeAI#3967: set -U HSA_OVERRIDE_GFX_VERSION never reached the process).
        "fish": f"set -gx {name} {quoting.fish(value)}",
        "powershell": f"$env:{name} = {quoting.powershell(value)}",
        # Batch files expand %NAME%; a literal % is written %%.
        "cmd": f'set "{name}={value.replace("%", "%%")}"',
    }[shell], None


def env_line(shell: str, name: str, value: Optional[str]) -> str:
    """The one line that sets (or, ``value`` None, unsets) ``name`` in ``shell`` (``check``, ``fix`` and env files)."""
    return line_and_note(shell, name, value)[0]
