"""The kernel command line a report keeps: only the parameters that bear on an AMD GPU.

The rest (root devices, LUKS and LVM names, network and host settings, ``BOOTIF`` MACs) say much
about the machine and nothing about ROCm. Kept: ``amdgpu.*`` and ``ttm.*`` module parameters,
``iommu``, ``amd_iommu``, ``intel_iommu`` and ``pci`` (the kernel treats ``-`` and ``_`` in a
parameter's name alike: Documentation/admin-guide/kernel-parameters.rst, v6.12).
"""

from __future__ import annotations

from typing import List, Tuple

KEPT_PREFIXES = ("amdgpu.", "ttm.")
KEPT_NAMES = frozenset({"iommu", "amd_iommu", "intel_iommu", "pci"})
KEPT_DESCRIPTION = "amdgpu.*, ttm.*, iommu, amd_iommu, intel_iommu and pci"


def parameters(cmdline: str) -> List[str]:
    """The parameters of a command line, split at blanks outside double quotes (``a="b c"`` is one)."""
    found: List[str] = []
    current: List[str] = []
    quoted = False
    for char in cmdline:
        if char == '"':
            quoted = not quoted
        if char.isspace() and not quoted:
            if current:
                found.append("".join(current))
                current = []
            continue
        current.append(char)
    if current:
        found.append("".join(current))
    return found


def is_kept(parameter: str) -> bool:
    name = parameter.split("=", 1)[0].replace("-", "_").lower()
    return name in KEPT_NAMES or name.startswith(KEPT_PREFIXES)


def kept_parameters(cmdline: str) -> Tuple[str, int]:
    """The kept parameters (joined by a blank) and how many others were dropped."""
    every = parameters(cmdline)
    kept = [p for p in every if is_kept(p)]
    return " ".join(kept), len(every) - len(kept)
