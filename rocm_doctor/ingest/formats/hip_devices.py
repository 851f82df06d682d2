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

* ollama's server log (key=value)::

      msg="inference compute" id=0 library=rocm variant="" compute=gfx1100 driver=6.8 name=1002:744c total="24.0 GiB"
      msg="amdgpu is supported" gpu=0 gpu_type=gfx1030
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import gfx_of, gpu_fields, make_piece
from rocm_doctor.ingest.model import GpuSighting, Observation, Piece
from rocm_doctor.lazy_regex import when_used

_HIPINFO_DEVICE = when_used(r"^\s*device#\s+(\d{1,18})\s*$")
_HIPINFO_KEY = when_used(r"^\s*(Name|gcnArchName|pciDeviceID|totalGlobalMem)\s*:\s*(.*?)\s*$")
_GGML_HEADER = when_used(r"ggml_(?:cuda|hip)_init: found (\d+) (?:ROCm|HIP|CUDA) devices")
_GGML_DEVICE = when_used(r"^\s*Device (\d{1,18}):\s*([^,]*),\s*(.*)$")


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
    """One piece per listing: a block that holds two runs (``llama-cli --version``, then ``llama-bench``, their
    fences stripped) would otherwise make one piece spanning what lies between them (a template's fields)."""
    pieces: List[Piece] = []
    used: List[Line] = []
    sightings: List[GpuSighting] = []
    in_listing = False
    for line in block.lines:
        if _GGML_HEADER.search(line.text):
            if sightings:
                pieces.append(make_piece("ggml-devices", used, [], sightings))
            used, sightings = [], []
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
    if sightings:
        pieces.append(make_piece("ggml-devices", used, [], sightings))
    return pieces




_OLLAMA_DEVICE = when_used(
    r'msg="(?:inference compute|amdgpu is supported|amdgpu is not supported[^"]*)"[^\n]*?\b(?:id|gpu)=(?P<index>\d{1,18})(?!\d)[^\n]*?\b(?:compute|gpu_type)=(?P<gfx>gfx[0-9a-f]+)'
    r'|msg="(?:inference compute|amdgpu is supported|amdgpu is not supported[^"]*)"[^\n]*?\b(?:compute|gpu_type)=(?P<gfx2>gfx[0-9a-f]+)(?:[^\n]*?\b(?:id|gpu)=(?P<index2>\d{1,18})(?!\d))?'
)
_OLLAMA_PCI = when_used(r"\bname=1002:([0-9a-f]{4})\b")
_OLLAMA_DRIVER = when_used(r'\blibrary=rocm\b[^\n]*\bdriver=(\d+\.\d+)\b')


_RECORD_START = when_used(r"^\s*(?:time=|\[GIN\]|\d{4}[-/]\d\d[-/]\d\d|level=)")
MAX_RECORD_LINES = 4
"""A record of ollama's device lines (about 250 characters) wrapped at 80 columns takes four lines; a later
line that starts no record is not taken into one beyond that."""


def _log_records(block: Block) -> List[Tuple[str, Line]]:
    """ollama's logfmt records, each with the line it starts on: a record hard-wrapped by a narrow
    terminal, an e-mail or an editor (``msg="inference`` / ``compute" id=0 ...``) is joined again with
    the lines after it up to the next record, a blank line or a few lines."""
    records: List[Tuple[str, Line]] = []
    parts: List[str] = []
    first: Optional[Line] = None
    for line in block.lines:
        starts = "msg=" in line.text or _RECORD_START.match(line.text) is not None
        if first is not None and not starts and line.text.strip() and len(parts) < MAX_RECORD_LINES:
            parts.append(line.text.strip())
            continue
        if first is not None:
            records.append((" ".join(parts), first))
        first, parts = (line, [line.text]) if starts else (None, [])
    if first is not None:
        records.append((" ".join(parts), first))
    return records


def _ollama(block: Block) -> List[Piece]:
    """GPUs as ollama's server log lists them (it reads KFD itself and applies ROCR_VISIBLE_DEVICES)."""
    if "msg=" not in block.text or "gfx" not in block.text:
        return []
    sightings: List[GpuSighting] = []
    observations: List[Observation] = []
    used: List[Line] = []
    seen = set()
    for text, line in _log_records(block):
        match = _OLLAMA_DEVICE.search(text)
        if match is None:
            continue
        index = int(match.group("index") or match.group("index2") or 0)
        gfx = gfx_of(match.group("gfx") or match.group("gfx2"))
        pci = _OLLAMA_PCI.search(text)
        if gfx is None or index in seen:
            continue
        seen.add(index)
        sightings.append(GpuSighting("app", index, line, gpu_fields(gfx=gfx, device_id=pci.group(1) if pci else None)))
        driver = _OLLAMA_DRIVER.search(text)
        # ollama prints driver=0.0 when /sys/module/amdgpu/version is missing (the in-kernel driver):
        # it says nothing about the version (https://github.com/ollama/ollama/blob/v0.5.7/discover/amd_linux.go).
        if driver and driver.group(1) != "0.0":
            observations.append(Observation("driver.amdgpu_version", driver.group(1), line))
        used.append(line)
    return [make_piece("ollama-devices", used, observations, sightings)] if sightings else []


def parse(block: Block) -> List[Piece]:
    return _hipinfo(block) + _ggml(block) + _ollama(block)
