"""Which interpreter rocm-doctor inspects and installs into, and why.

Without ``--python`` the target is the environment the user has activated, not the one
rocm-doctor runs in (installed with pipx or uvx, rocm-doctor lives in its own venv):
``VIRTUAL_ENV``, then ``CONDA_PREFIX``, then the first ``python3`` / ``python`` on ``PATH``,
and only then the interpreter running rocm-doctor.
"""

from __future__ import annotations

import ntpath
import posixpath
from typing import Optional, Tuple

from rocm_doctor.system.base import System
from rocm_doctor.system.process_view import process_view_of


def _in_env(system: System, prefix: str, windows: bool) -> Optional[str]:
    """The interpreter of the environment at ``prefix``: rocm-doctor's own when it lives there, else the file that exists."""
    join = ntpath.join if windows else posixpath.join
    candidates = [join(prefix, "Scripts", "python.exe"), join(prefix, "python.exe")] if windows else [
        join(prefix, "bin", "python3"), join(prefix, "bin", "python")]
    current = system.current_python()
    norm = ntpath.normcase if windows else (lambda p: p)
    if norm(current).startswith(norm(prefix.rstrip("/\\")) + ("\\" if windows else "/")):
        return current
    return next((c for c in candidates if system.exists(c)), None)


def target_interpreter(system: System, requested: Optional[str] = None) -> Tuple[str, str]:
    """(interpreter, why it is the target)."""
    if requested:
        return requested, "--python"
    view = process_view_of(system)
    if view is not None and view.python():
        return str(view.python()), f"the interpreter of process {view.pid} (--pid)"
    env = system.environ()
    windows = system.platform().system.lower().startswith("win")
    for variable, label in (("VIRTUAL_ENV", "the active virtual environment"), ("CONDA_PREFIX", "the active conda environment")):
        prefix = env.get(variable)
        if prefix:
            found = _in_env(system, prefix, windows)
            if found:
                return found, f"{label} ({variable}={prefix})"
    for name in ("python3", "python"):
        found = system.which(name)
        if found:
            return found, f"the first {name} on PATH"
    return system.current_python(), "the interpreter running rocm-doctor (no active environment, no python on PATH)"
