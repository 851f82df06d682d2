"""Device listings printed through the HIP runtime: ``hipInfo`` and llama.cpp / ggml.

A HIP-level listing shows the devices a HIP program sees, in HIP's order, after
``HIP_VISIBLE_DEVICES`` / ``ROCR_VISIBLE_DEVICES`` filtering; an integrated GPU
in it is visible to applications.

* hipInfo (Windows HIP SDK and Linux)::

      device#                           0
      Name:                             AMD Radeon RX 7900 XTX
      gcnArchName:                      gfx1100

* ggml (llama.cpp, ollama)::

      ggml_cuda_init: found 2 ROCm devices:
        Device 0: AMD Radeon(TM) Graphics, gfx1036 (0x1036), VMM: no, Wave Size: 32
"""

from __future__ import annotations

import re
from typing import List, Optional

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import gfx_of, gpu_fields, make_piece
from rocm_doctor.ingest.model import GpuSighting, Piece

_HIPINFO_DEVICE = re.compile(r"^\s*device#\s+(\d+)\s*$")
_HIPINFO_KEY = re.compile(r"^\s*(Name|gcnArchName|pciDeviceID|totalGlobalMem)\s*:\s*(.*?)\s*$")
_GGML_HEADER = re.compile(r"ggml_(?:cuda|hip)_init: found (\d+) (?:ROCm|HIP|CUDA) devices")
_GGML_DEVICE = re.compile(r"^\s*Device (\d+):\s*([^,]*),\s*(.*)$")


def _hipinfo(block: Block) -> List[Piece]:
    used: List[Line] = []
    sightings: List[GpuSighting] = []
    current: Optional[dict] = None

    def close() -> None:
        if current is not None and (current.get("Name") or current.get("gcnArchName")):
            sightings.append(
                GpuSighting(
                    "hip",
                    current["index"],
                    current["line"],
                    gpu_fields(name=current.get("Name"), gfx=gfx_of(current.get("gcnArchName", ""))),
                )
            )

    for line in block.lines:
        match = _HIPINFO_DEVICE.match(line.text)
        if match:
            close()
            current = {"index": int(match.group(1)), "line": line}
            used.append(line)
            continue
        key = _HIPINFO_KEY.match(line.text)
        if current is not None and key:
            current.setdefault(key.group(1), key.group(2))
            used.append(line)
    close()
    return [make_piece("hipinfo", used, [], sightings)] if sightings else []


def _ggml(block: Block) -> List[Piece]:
    used: List[Line] = []
    sightings: List[GpuSighting] = []
    in_listing = False
    for line in block.lines:
        if _GGML_HEADER.search(line.text):
            in_listing = True
            used.append(line)
            continue
        match = _GGML_DEVICE.match(line.text) if in_listing else None
        if match is None:
            in_listing = in_listing and bool(line.text.startswith((" ", "\t")))
            continue
        name = match.group(2).strip() or None
        sightings.append(GpuSighting("hip", int(match.group(1)), line, gpu_fields(name=name, gfx=gfx_of(match.group(3)))))
        used.append(line)
    return [make_piece("ggml-devices", used, [], sightings)] if sightings else []


def parse(block: Block) -> List[Piece]:
    return _hipinfo(block) + _ggml(block)
