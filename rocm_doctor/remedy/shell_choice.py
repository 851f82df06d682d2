"""Which shell a plan's lines are written for: decided once, from ``--shell`` or the facts.

The shell names and how a line is written in each live below every stage (:mod:`rocm_doctor.shells`);
choosing one for a machine reads its facts, so it is part of the decide stage.
"""

from __future__ import annotations

from typing import Optional, Tuple

from rocm_doctor.facts.model import Facts
from rocm_doctor.shells import shell_name


def detect(facts: Facts, requested: Optional[str] = None) -> Tuple[str, str]:
    """(shell, why): ``--shell``, else the shell the facts name (``host.shell``), else the platform's default.

    A pasted report's platform decides for ``check --from``: PowerShell for a Windows report, bash otherwise.
    """
    if requested:
        return requested, "--shell"
    windows = facts.host.os.is_known and facts.host.os.value == "windows"
    found = facts.host.shell
    if found.is_known and shell_name(str(found.value)):
        return str(shell_name(str(found.value))), f"detected from {found.source}"
    if facts.meta.origin == "paste":
        return ("powershell", "the report is from Windows") if windows else ("bash", "the report is not from Windows")
    return ("powershell", "the default on Windows") if windows else ("bash", "the default on Linux")
