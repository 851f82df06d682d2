"""Windows' list of display adapters: the device lines of a Windows report.

What PowerShell and cmd print for the video controllers (``(Get-WmiObject win32_VideoController).Name``,
``Get-CimInstance Win32_VideoController | Select-Object Name, DriverVersion``, ``wmic path
win32_VideoController get name``) names every display adapter, one per line, virtual ones
included. AMD's Ryzen integrated GPUs are listed under the generic name ``AMD Radeon(TM)
Graphics``, so such a line shows an integrated GPU that a CPU model could only imply. The order of
the list is Windows', not HIP's: the sightings name GPUs, they do not order them.

Sources: ROCm's Windows issue reports paste this listing (ROCm/ROCm#4390, ROCm/ROCm#5448) and
installers ask for it (unslothai/unsloth#6043, a maintainer's checklist); WMI's class is documented
at https://learn.microsoft.com/en-us/windows/win32/cimwin32prov/win32-videocontroller.
"""

from __future__ import annotations

import re
from typing import List, Optional

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import gpu_fields, make_piece
from rocm_doctor.ingest.model import GpuSighting, Piece
from rocm_doctor.lazy_regex import when_used

_COMMAND = when_used(r"win32_videocontroller", re.IGNORECASE)
_HEADER = when_used(r"^\s*(?:Name|-{3,})(?:\s{2,}\S.*)?\s*$", re.IGNORECASE)
_COLUMNS = when_used(r"\s{2,}")
_GENERIC_IGPU = when_used(r"^AMD Radeon(?:\s*\((?:TM|R)\))?\s+Graphics$", re.IGNORECASE)
"""The name Windows gives every Ryzen integrated GPU (Raphael, Granite Ridge, Rembrandt ...)."""
_VENDOR = when_used(r"^(AMD|Radeon|NVIDIA|Intel)\b", re.IGNORECASE)
MAX_ADAPTERS = 32
"""Lines read after the command: no machine has more display adapters than this."""


def _adapter(text: str) -> Optional[str]:
    """The adapter name of one output line (the first column of a table), or None when it is no AMD,
    NVIDIA or Intel adapter (virtual displays, remote-desktop adapters)."""
    name = _COLUMNS.split(text.strip(), 1)[0]
    return name if _VENDOR.match(name) else None


def _sighting(name: str, position: int, line: Line) -> GpuSighting:
    vendor = {"amd": "AMD", "radeon": "AMD", "nvidia": "NVIDIA", "intel": "Intel"}[_VENDOR.match(name).group(1).lower()]
    if vendor != "AMD":
        return GpuSighting("windows", position, line, {"vendor": vendor, "name": name})
    if _GENERIC_IGPU.match(name):
        return GpuSighting("windows", position, line, {"vendor": "AMD", "name": name, "integrated": True})
    fields = gpu_fields(name=name)
    fields["vendor"] = "AMD"
    return GpuSighting("windows", position, line, fields)


def parse(block: Block) -> List[Piece]:
    if "videocontroller" not in block.lower:
        return []
    pieces: List[Piece] = []
    lines = block.lines
    for index, line in enumerate(lines):
        if not _COMMAND.search(line.text):
            continue
        sightings: List[GpuSighting] = []
        started = False  # PowerShell prints a blank line before a table
        for after in lines[index + 1 : index + 1 + MAX_ADAPTERS]:
            text = after.text.strip()
            if not text and not started:
                continue
            if not text or after.command or _COMMAND.search(text):
                break
            started = True
            if _HEADER.match(text):
                continue
            name = _adapter(text)
            if name is not None:
                sightings.append(_sighting(name, len(sightings), after))
        if sightings:
            pieces.append(make_piece("windows-adapters", [line] + [s.line for s in sightings], [], sightings))
    return pieces
