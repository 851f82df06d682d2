"""amd-smi (text and ``--json``) and rocm-smi output.

* ``amd-smi static`` / ``amd-smi list``: ``GPU: 0`` sections with ``MARKET_NAME``,
  ``DEVICE_ID``, ``TARGET_GRAPHICS_VERSION``, ``BDF`` keys (indented, upper case);
* ``amd-smi version``: ``AMDSMI Tool: ... | ROCm version: 6.2.1 | amdgpu version: 6.8.5``;
* ``amd-smi static --json``: a list of ``{"gpu": 0, "asic": {...}, "bus": {...}}`` objects
  (newer releases wrap it as ``{"gpu_data": [...]}``); ``amd-smi version --json``;
* ``rocm-smi --showproductname``: ``GPU[0] : Card series: ...`` / ``GFX Version: gfx1100``,
  ``rocm-smi --showdriverversion``: ``Driver version: 6.8.5``.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import gfx_of, gpu_fields, make_piece
from rocm_doctor.ingest.model import GpuSighting, Observation, Piece
from rocm_doctor.lazy_regex import when_used

_AMDSMI_GPU = when_used(r"^\s*GPU:\s*(\d{1,18})\s*$")
_AMDSMI_KEY = when_used(r"^\s+([A-Z][A-Z0-9_]+):\s*(.*?)\s*$")
_AMDSMI_VERSION = when_used(r"AMDSMI Tool:.*?\|")
_ROCMSMI = when_used(r"^\s*GPU\[(\d{1,18})\]\s*:\s*([^:]+?)\s*:\s*(.*?)\s*$")
_ROCMSMI_DRIVER = when_used(r"^\s*Driver version:\s*(\S+)\s*$")
_SILENT = {"", "n/a", "na", "none"}


def _clean(value: Any) -> Optional[str]:
    if value is None or isinstance(value, (dict, list)):
        return None
    text = str(value).strip()
    return None if text.lower() in _SILENT else text


def _sighting(layer: str, position: int, line: Line, info: Dict[str, Any]) -> GpuSighting:
    vendor = _clean(info.get("vendor_id"))
    fields = gpu_fields(
        name=_clean(info.get("market_name")),
        gfx=gfx_of(_clean(info.get("target_graphics_version")) or ""),
        device_id=_clean(info.get("device_id")),
        pci_bus=_clean(info.get("bdf")),
    )
    if vendor and vendor.lower() not in ("0x1002", "1002"):
        fields.pop("vendor", None)
    return GpuSighting(layer, position, line, fields)


def _amdsmi_text(block: Block) -> List[Piece]:
    used: List[Line] = []
    gpus: Dict[int, Dict[str, Any]] = {}
    first: Dict[int, Line] = {}
    observations: List[Observation] = []
    current: Optional[int] = None
    for line in block.lines:
        if _AMDSMI_VERSION.search(line.text):
            used.append(line)
            for part in line.text.split("|"):
                key, _, value = part.partition(":")
                key, value = key.strip().lower(), value.strip()
                if key == "rocm version" and re.match(r"^\d+\.\d+", value):
                    observations.append(Observation("rocm.version", value, line))
                elif key == "amdgpu version" and re.match(r"^\d+\.\d+", value):
                    observations.append(Observation("driver.amdgpu_version", value, line))
            continue
        match = _AMDSMI_GPU.match(line.text)
        if match:
            current = int(match.group(1))
            gpus.setdefault(current, {})
            first.setdefault(current, line)
            used.append(line)
            continue
        key = _AMDSMI_KEY.match(line.text)
        if current is not None and key:
            gpus[current].setdefault(key.group(1).lower(), key.group(2))
            used.append(line)
    real = {i: info for i, info in gpus.items() if set(info) & {"market_name", "device_id", "target_graphics_version", "bdf"}}
    if not real and not observations:
        return []
    sightings = [_sighting("amd-smi", i, first[i], info) for i, info in sorted(real.items())]
    return [make_piece("amd-smi", used, observations, sightings)]


def _rocmsmi(block: Block) -> List[Piece]:
    used: List[Line] = []
    gpus: Dict[int, Dict[str, Any]] = {}
    first: Dict[int, Line] = {}
    observations: List[Observation] = []
    for line in block.lines:
        match = _ROCMSMI.match(line.text)
        if match:
            index = int(match.group(1))
            gpus.setdefault(index, {})[match.group(2).strip().lower()] = match.group(3)
            first.setdefault(index, line)
            used.append(line)
            continue
        driver = _ROCMSMI_DRIVER.match(line.text)
        if driver and re.match(r"^\d+\.\d+", driver.group(1)):
            observations.append(Observation("driver.amdgpu_version", driver.group(1), line))
            used.append(line)
    if not used:
        return []
    sightings = []
    for index, info in sorted(gpus.items()):
        series = _clean(info.get("card series"))
        # "Navi 31 [Radeon RX 7900 XTX]" names the product in brackets; a cut-off line may lack the "]".
        bracketed = re.search(r"\[([^\]]+)\]?", series) if series else None
        name = bracketed.group(1).strip() if bracketed else series
        fields = gpu_fields(name=name, gfx=gfx_of(info.get("gfx version", "")))
        if fields.get("gfx") or name:
            sightings.append(GpuSighting("rocm-smi", index, first[index], fields))
    return [make_piece("rocm-smi", used, observations, sightings)]


def _json_gpus(data: Any) -> Optional[List[Dict[str, Any]]]:
    if isinstance(data, dict) and isinstance(data.get("gpu_data"), list):
        data = data["gpu_data"]
    if not isinstance(data, list) or not data or not all(isinstance(x, dict) and "gpu" in x for x in data):
        return None
    out = []
    for item in data:
        asic = item.get("asic") if isinstance(item.get("asic"), dict) else {}
        bus = item.get("bus") if isinstance(item.get("bus"), dict) else {}
        info = {k: asic.get(k) for k in ("market_name", "device_id", "vendor_id", "target_graphics_version")}
        info["bdf"] = bus.get("bdf") or item.get("bdf")
        out.append(info)
    return out


def parse_json(block: Block, data: Any) -> List[Piece]:
    """amd-smi ``--json`` documents (called by the JSON recogniser)."""
    lines = list(block.lines)
    if not lines:
        return []
    gpus = _json_gpus(data)
    if gpus is not None:
        sightings = [_sighting("amd-smi", i, lines[0], info) for i, info in enumerate(gpus)]
        return [make_piece("amd-smi", lines, [], sightings)]
    versions = data if isinstance(data, list) else [data]
    observations: List[Observation] = []
    for item in versions:
        if isinstance(item, dict) and ("amdsmi_library_version" in item or "tool" in item):
            rocm = _clean(item.get("rocm_version"))
            if rocm and re.match(r"^\d+\.\d+", rocm):
                observations.append(Observation("rocm.version", rocm, lines[0]))
            driver = _clean(item.get("amdgpu_version"))
            if driver and re.match(r"^\d+\.\d+", driver):
                observations.append(Observation("driver.amdgpu_version", driver, lines[0]))
    return [make_piece("amd-smi", lines, observations)] if observations else []


def parse(block: Block) -> List[Piece]:
    return _amdsmi_text(block) + _rocmsmi(block)
