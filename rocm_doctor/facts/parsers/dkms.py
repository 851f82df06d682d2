"""``dkms status`` lines.

Two formats exist (dkms 2.x and 3.x):

* ``amdgpu, 2.4-25.el7, 3.10.0-957.el7.x86_64, x86_64: installed (original_module exists)``
* ``amdgpu/6.8.5-2009582.22.04, 6.8.0-45-generic, x86_64: installed``

A module that is only added has no kernel: ``amdgpu/6.8.5-2009582.24.04: added``.
Warning lines (``Error! ...``, ``WARNING: ...``) are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional


@dataclass(frozen=True)
class DkmsEntry:
    """One module line of ``dkms status``."""

    module: str
    version: str
    kernel: Optional[str]
    arch: Optional[str]
    status: str
    """``installed``, ``built``, ``added`` ..."""
    line: str


def _parse_line(line: str) -> Optional[DkmsEntry]:
    head, sep, status = line.rpartition(":")
    if not sep or not head:
        return None
    fields = [f.strip() for f in head.split(",")]
    first = fields[0]
    if "/" in first:
        module, version = first.split("/", 1)
        rest = fields[1:]
    elif len(fields) >= 2:
        module, version = first, fields[1]
        rest = fields[2:]
    else:
        return None
    if not module or " " in module or not version:
        return None
    kernel = rest[0] if len(rest) >= 1 else None
    arch = rest[1] if len(rest) >= 2 else None
    state = status.strip().split(" ", 1)[0].rstrip(",")
    if not state:
        return None
    return DkmsEntry(module=module, version=version, kernel=kernel, arch=arch, status=state, line=line.strip())


def parse_dkms_status(text: str) -> List[DkmsEntry]:
    """Every module line; anything else (warnings, blank lines) is skipped."""
    entries: List[DkmsEntry] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.lower().startswith(("error", "warning", "deprecated")):
            continue
        entry = _parse_line(line)
        if entry is not None:
            entries.append(entry)
    return entries
