"""Per-process files of Linux's /proc and the KFD sysfs tree, as the kernel documents them.

* ``/proc/<pid>/maps``: one mapping per line, ``address perms offset dev inode pathname``;
  the pathname is the file mapped (a library) and may hold spaces; `` (deleted)`` ends a
  path whose file was removed. Kernel: Documentation/filesystems/proc.rst, "/proc/<pid>/maps"
  (https://github.com/torvalds/linux/blob/v6.12/Documentation/filesystems/proc.rst).
* ``/proc/<pid>/fdinfo/<fd>`` of a DRM file: ``drm-<key>: <value>`` lines;
  ``drm-driver`` names the driver (``amdgpu``), ``drm-pdev`` the PCI address,
  ``drm-client-id`` the open file, ``drm-memory-<region>: <uint> [KiB|MiB]`` the memory the
  client holds, ``drm-engine-<name>: <uint> ns`` the busy time. Kernel:
  Documentation/gpu/drm-usage-stats.rst
  (https://github.com/torvalds/linux/blob/v6.12/Documentation/gpu/drm-usage-stats.rst).
* ``/sys/class/kfd/kfd/proc/<pid>/vram_<gpu_id>``: bytes of VRAM a process with a KFD
  (compute) context holds on the GPU whose topology ``gpu_id`` is ``<gpu_id>``; the folder
  exists while the process has ``/dev/kfd`` open. Kernel: drivers/gpu/drm/amd/amdkfd/kfd_process.c,
  ``kfd_procfs_add_sysfs_files``
  (https://github.com/torvalds/linux/blob/v6.12/drivers/gpu/drm/amd/amdkfd/kfd_process.c).

Every parser is linear in its input and skips lines it does not understand: these files
can be of any shape (a recorded machine is someone else's data).
"""

from __future__ import annotations

from typing import Dict, List, Optional

_UNITS = {"": 1, "B": 1, "KIB": 1024, "MIB": 1024 * 1024, "GIB": 1024 * 1024 * 1024}


def mapped_paths(maps: str) -> List[str]:
    """The distinct file paths a ``maps`` file names, in first-seen order (anonymous and
    ``[heap]``-style mappings are left out)."""
    seen: Dict[str, None] = {}
    for line in maps.splitlines():
        fields = line.split(None, 5)
        if len(fields) < 6:
            continue
        path = fields[5].strip()
        if path.endswith(" (deleted)"):
            path = path[: -len(" (deleted)")]
        if path.startswith("/") or (len(path) > 2 and path[1] == ":"):
            seen.setdefault(path, None)
    return list(seen)


def drm_keys(fdinfo: str) -> Dict[str, str]:
    """The ``drm-*`` key/value pairs of one fdinfo file (the first of a repeated key wins)."""
    values: Dict[str, str] = {}
    for line in fdinfo.splitlines():
        key, sep, value = line.partition(":")
        key = key.strip()
        if sep and key.startswith("drm-"):
            values.setdefault(key, value.strip())
    return values


def drm_bytes(value: str) -> Optional[int]:
    """``1234 KiB`` -> 1263616; None when it is not ``<uint> [unit]``."""
    parts = value.split()
    if not 1 <= len(parts) <= 2 or not parts[0].isdigit() or not parts[0].isascii():
        return None
    unit = _UNITS.get(parts[1].upper() if len(parts) == 2 else "")
    return int(parts[0]) * unit if unit is not None else None


def kfd_vram_gpu_id(name: str) -> Optional[int]:
    """``vram_12345`` -> 12345 (the topology gpu_id); None for another file name."""
    if not name.startswith("vram_"):
        return None
    digits = name[len("vram_"):]
    return int(digits) if digits.isdigit() and digits.isascii() else None


def uint_text(text: str) -> Optional[int]:
    """A sysfs file holding one unsigned integer; None when it does not."""
    stripped = text.strip()
    return int(stripped) if stripped.isdigit() and stripped.isascii() else None
