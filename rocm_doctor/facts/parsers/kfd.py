"""KFD topology files (``/sys/class/kfd/kfd/topology/nodes/<n>/...``).

``properties`` is one ``key value`` pair per line with decimal integer values
(ROCR-Runtime libhsakmt ``topology.c`` reads it with ``sscanf("%s %llu")``).
A CPU node has ``simd_count 0``; a GPU node has SIMDs and a non-zero ``gpu_id``
(a separate file). Memory banks are ``mem_banks/<m>/properties`` with
``heap_type`` (0 system, 1 frame buffer public, 2 frame buffer private) and
``size_in_bytes``.
"""

from __future__ import annotations

from typing import Dict, Iterable, Mapping, Optional

VRAM_HEAP_TYPES = (1, 2)
"""HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC and _PRIVATE: the GPU's own memory."""


def parse_properties(text: str) -> Dict[str, int]:
    """``key value`` lines -> dict; lines that are not ``name integer`` are skipped."""
    values: Dict[str, int] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 2:
            continue
        try:
            values[parts[0]] = int(parts[1])
        except ValueError:
            continue
    return values


def parse_int_file(text: str) -> Optional[int]:
    """A sysfs file holding one integer (``gpu_id``); None when it does not."""
    try:
        return int(text.strip())
    except ValueError:
        return None


def is_gpu_node(properties: Mapping[str, int], gpu_id: Optional[int] = None) -> bool:
    """A node with SIMDs (or a non-zero ``gpu_id``) is a GPU; CPU nodes have ``simd_count 0``."""
    if gpu_id is not None and gpu_id != 0:
        return True
    return properties.get("simd_count", 0) > 0


def compute_units(properties: Mapping[str, int]) -> Optional[int]:
    """CUs = ``simd_count / simd_per_cu`` (what rocminfo prints as ``Compute Unit``)."""
    simds = properties.get("simd_count")
    per_cu = properties.get("simd_per_cu")
    if not simds or not per_cu:
        return None
    return simds // per_cu


def pci_address(properties: Mapping[str, int]) -> Optional[str]:
    """``domain`` + ``location_id`` (bus << 8 | device << 3 | function) -> ``0000:03:00.0``."""
    location = properties.get("location_id")
    if location is None:
        return None
    domain = properties.get("domain", 0)
    bus, device, function = (location >> 8) & 0xFF, (location >> 3) & 0x1F, location & 0x7
    return f"{domain:04x}:{bus:02x}:{device:02x}.{function}"


def vram_bytes(banks: Iterable[Mapping[str, int]]) -> Optional[int]:
    """Sum of the frame-buffer heaps of a node's memory banks; None when it has none."""
    sizes = [bank.get("size_in_bytes", 0) for bank in banks if bank.get("heap_type") in VRAM_HEAP_TYPES]
    return sum(sizes) if sizes else None
