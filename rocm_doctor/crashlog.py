"""Crash logs: the traceback of something that raised, in a file whose path the output names."""

from __future__ import annotations

import os
import sys
import tempfile
import traceback

from rocm_doctor import __version__


def write_crash_log(what: str = "") -> str:
    """Write the exception being handled (with versions and argv) to a new temporary file; its path."""
    fd, path = tempfile.mkstemp(prefix="rocm-doctor-crash-", suffix=".log")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(f"rocm-doctor {__version__}\npython {sys.version}\nargv {sys.argv}\n")
        if what:
            handle.write(f"crashed: {what}\n")
        handle.write("\n" + traceback.format_exc())
    return path
