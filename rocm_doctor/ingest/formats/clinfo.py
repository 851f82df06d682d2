"""The GPU devices of ROCm's OpenCL runtime as ``clinfo`` (``/opt/rocm/bin/clinfo``, ``rocm-clinfo``) prints them.

Each GPU device shows its board name and, further down, its gfx target as the device name::

      Board name:                                    AMD Radeon AI PRO R9700
      ...
      Name:                                          gfx1201

(the two lines also come alone, from ``clinfo | grep -E 'Board|gfx'``). ROCm's OpenCL runs on the
same ROCr as HIP, so the gfx it prints is the one the runtime uses, after any
HSA_OVERRIDE_GFX_VERSION: ROCm/ROCm#5696 shows a Radeon 8060S printed as gfx1201 under an
override left in ~/.bashrc. Each board name is paired with the first gfx device name after it,
before the next board name.
"""

from __future__ import annotations

from typing import List, Optional

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import gfx_of, gpu_fields, make_piece
from rocm_doctor.ingest.model import GpuSighting, Piece
from rocm_doctor.lazy_regex import when_used

_BOARD = when_used(r"^\s{0,16}Board name:\s{0,64}(\S[^\t\n]{0,200}?)\s*$")
_GFX_NAME = when_used(r"^\s{0,16}Name:\s{0,64}(gfx[0-9a-f]{3,4}(?::[a-z+-]{1,32}){0,4})\s*$")


def parse(block: Block) -> List[Piece]:
    sightings: List[GpuSighting] = []
    used: List[Line] = []
    board: Optional[Line] = None
    name: Optional[str] = None
    for line in block.lines:
        match = _BOARD.match(line.text)
        if match:
            board, name = line, match.group(1)
            continue
        target = _GFX_NAME.match(line.text)
        if target and board is not None and name is not None:
            gfx = gfx_of(target.group(1))
            if gfx:
                sightings.append(GpuSighting("clinfo", len(sightings), board, gpu_fields(name=name, gfx=gfx, vendor="AMD")))
                used += [board, line]
            board = name = None
    if not sightings:
        return []
    return [make_piece("clinfo", used, [], sightings)]
