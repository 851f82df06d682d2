"""Linux system outputs: ``uname -a``, ``/etc/os-release``, ``dkms status``, ``lspci``,
``inxi -G``, ``modinfo -n amdgpu``.

* ``uname -a``: ``Linux host 6.8.0-45-generic #45-Ubuntu SMP ... x86_64 GNU/Linux``;
* os-release: ``ID=ubuntu`` / ``VERSION_ID="22.04"`` / ``PRETTY_NAME="Ubuntu 22.04.4 LTS"``;
* ``dkms status``: parsed by :mod:`rocm_doctor.facts.parsers.dkms`;
* lspci: ``03:00.0 VGA compatible controller [0300]: Advanced Micro Devices, Inc. [AMD/ATI]
  Navi 31 [Radeon RX 7900 XT/7900 XTX] [1002:744c] (rev c8)`` (ids only with ``-nn``);
* inxi: ``Device-1: AMD ... [Radeon RX 580] ... chip ID: 1002:67df``;
* ``modinfo -n amdgpu``: ``/lib/modules/<release>/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko``
  (modinfo looks in the running kernel's directory, so the path names its release).
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from rocm_doctor.facts.parsers.dkms import parse_dkms_status
from rocm_doctor.ingest.blocks import Block, Line, may_be_wrapped
from rocm_doctor.ingest.formats.common import gpu_fields, make_piece
from rocm_doctor.ingest.formats.platform_strings import kernel_observations
from rocm_doctor.ingest.model import TRUST_HINT, GpuSighting, Observation, Piece
from rocm_doctor.lazy_regex import when_used

# `uname -a` up to its build number; the architecture word is searched after it (one pattern ending in
# `#\S+.*?\b(x86_64...)` backtracked quadratically on a long word: 200 KB took two minutes).
_UNAME = when_used(r"^\s*Linux\s+\S+\s+(\d+\.\d\S*)\s+#\S")
_ARCH = when_used(r"\b(x86_64|aarch64|ppc64le)\b")
# /proc/version, and the first line of dmesg or `journalctl -k` (after a timestamp or "kernel:"):
# ``Linux version 5.15.0-133-generic (buildd@lcy02-amd64-040) (gcc ...) #144-Ubuntu SMP ...``.
_PROC_VERSION = when_used(r"^\s*(?:\[\s*\d+\.\d+\]\s*|.{0,64}?\bkernel:\s*)?Linux version (\d+\.\d+[^\s(]*)\s+\(")

_OS_RELEASE = when_used(r'^\s*(ID|VERSION_ID|PRETTY_NAME|NAME|ID_LIKE|VERSION)="?([^"]*)"?\s*$')
_PCI_CLASS = when_used(
    r"(?:^|\s)(?:(?:[0-9a-f]{4}:)?([0-9a-f]{2}:[0-9a-f]{2}\.\d)\s+)?(VGA compatible controller|Display controller|3D controller)"
    r"(?:\s*\[[0-9a-f]{4}\])?\s*:\s*(.*)$",
    re.IGNORECASE,
)
"""An lspci line, with or without its bus address (people paste ``lspci | grep VGA`` and quote lines in prose)."""
_PCI_IDS = when_used(r"\[(1002|10de|8086):([0-9a-f]{4})\]", re.IGNORECASE)
_PCI_UNNAMED_AMD = when_used(r"\[AMD/ATI\]\s{1,4}Device\s{1,4}([0-9a-f]{4})\b", re.IGNORECASE)
"""lspci without ``-nn`` names a device its pci.ids lacks by its hex id: ``[AMD/ATI] Device 150e`` (pciutils
lib/names.c at v3.14.0 formats a missing device name as "Device" and the id). An OS older than the GPU has such
a pci.ids: ``Device 150e`` (Strix Point, ollama/ollama#16690, hyprwm/aquamarine#81), ``Device 67df`` (RX 580 on
Ubuntu 16.04, ROCm/legacy-rocm-build#283)."""
_INXI_CHIP = when_used(r"chip[ -]ID:\s*(1002|10de|8086):([0-9a-f]{4})", re.IGNORECASE)
_INXI_DEVICE = when_used(r"Device-\d+:\s*(.*)$")
_MODINFO = when_used(r"^\s*(?:filename:\s*)?(?:/usr)?/lib/modules/([^/\s]+)/(kernel|updates)/\S*amdgpu\.ko(?:\.\w+)?\s*$")
"""``modinfo -n amdgpu`` or the ``filename:`` line of ``modinfo amdgpu``: modinfo looks the module up for
the running kernel (ROCm/legacy-rocm-build#5499 ``modinfo amdgpu -n``; ``modinfo amdgpu | grep filename``
and ``modinfo amdgpu | head -n 3`` as pasted in ROCm threads on DKMS and Ubuntu 25.10 kernels)."""
_MODINFO_FIELD = when_used(r"^\s*([a-z_]{2,20}):\s")
_MODINFO_VERSION = when_used(r"^\s*version:\s+(\d+\.\d+[\w.+-]{0,40})\s*$")
"""The ``version:`` field of ``modinfo amdgpu``, after its ``filename:`` line: the kernel's own amdgpu declares
no module version (amdgpu_drv.c has MODULE_AUTHOR, MODULE_DESCRIPTION and MODULE_LICENSE only), AMD's DKMS
driver does, the same value as /sys/module/amdgpu/version: "filename: /lib/modules/4.15.0-43-generic/updates/
dkms/amdgpu.ko" / "version: 19.10.0.418" (ROCm/legacy-rocm-build#667, #670), "5.0.19.20.14" (#796),
"5.11.14" (#1584)."""
_MODINFO_OTHER_KERNEL = when_used(r"(?:^|\s)(?:-k\s*\S|--set-version\b)")
"""``modinfo -k RELEASE`` / ``--set-version``: the module of another kernel than the running one (modinfo(8))."""
_VENDORS = {"1002": "AMD", "10de": "NVIDIA", "8086": "Intel"}
_DRM_AMDGPU_VERSION = when_used(r"\[drm\] amdgpu version: (\d+\.\d+\.\d+(?:\.\d+)?)\s*$")
"""The boot log of AMD's DKMS amdgpu names its version (the kernel's own amdgpu prints no such line):
"[drm] amdgpu version: 6.2.4" (ollama/ollama#2453), "5.6.19" (ROCm/legacy-rocm-build#1357),
"19.10.0.418" (an amdgpu-pro build, #640)."""


def _vendor(text: str) -> Optional[str]:
    lowered = text.lower()
    if "advanced micro devices" in lowered or "[amd/ati]" in lowered or lowered.startswith("amd"):
        return "AMD"
    if "nvidia" in lowered:
        return "NVIDIA"
    if "intel" in lowered:
        return "Intel"
    return None


def _bracket_name(text: str) -> Optional[str]:
    """The product lspci names: the last ``[...]`` (``Navi 31 [Radeon RX 7900 XT/7900 XTX]``), else the
    code name after the vendor (``[AMD/ATI] Barcelo (rev c1)``)."""
    text = _PCI_IDS.sub("", text)
    text = re.sub(r"\(rev [0-9a-f]+\)|\(prog-if [^)]*\)", "", text)
    names = [n for n in re.findall(r"\[([^\[\]]+)\]", text) if n.upper() not in ("AMD/ATI", "AMD")]
    if names:
        return names[-1].strip()
    for vendor in (r"\[AMD/ATI\]", r"Advanced Micro Devices, Inc\."):
        after = re.search(vendor + r"\s*([^\[\](]+)", text)
        if after and after.group(1).strip():
            # ``Device [1002:7550]`` (lspci -nn, a pci.ids older than the GPU): no name, only the id
            if re.fullmatch(r"Device(?:\s{1,4}[0-9a-f]{4})?", after.group(1).strip(), re.IGNORECASE):
                return None
            return after.group(1).strip()
    return None


def _uname(block: Block) -> List[Piece]:
    pieces = []
    for line in block.lines:
        match = _UNAME.match(line.text)
        arch = _ARCH.search(line.text, match.end()) if match else None
        if match and arch:
            observations = kernel_observations(match.group(1), line)
            if observations:
                observations.append(Observation("host.arch", arch.group(1), line))
                pieces.append(make_piece("uname", [line], observations))
    return pieces


def _proc_version(block: Block) -> List[Piece]:
    pieces = []
    for line in block.lines:
        if "Linux version" not in line.text:
            continue
        match = _PROC_VERSION.match(line.text)
        if match:
            observations = kernel_observations(match.group(1), line)
            if observations:
                pieces.append(make_piece("proc-version", [line], observations))
    return pieces


def _os_release(block: Block) -> List[Piece]:
    found: Dict[str, tuple] = {}
    used: List[Line] = []
    for line in block.lines:
        match = _OS_RELEASE.match(line.text)
        if match:
            found.setdefault(match.group(1), (match.group(2), line))
            used.append(line)
    if "ID" not in found or not ({"VERSION_ID", "PRETTY_NAME"} & set(found)):
        return []
    ident, line = found["ID"]
    out = [Observation("host.os", "linux", line), Observation("host.distro_id", ident.lower(), line)]
    if "VERSION_ID" in found:
        out.append(Observation("host.distro_version", found["VERSION_ID"][0], found["VERSION_ID"][1]))
    if "PRETTY_NAME" in found:
        out.append(Observation("host.distro_name", found["PRETTY_NAME"][0], found["PRETTY_NAME"][1]))
    return [make_piece("os-release", used, out)]


def _dkms(block: Block) -> List[Piece]:
    """Every amdgpu line of one ``dkms status`` output, kept together: one per kernel it was built for."""
    lines = []
    for line in block.lines:
        if "amdgpu" not in line.text or line.command:
            continue
        # "amdgpu, 1.9-307: added" names no kernel: the module was never built (a failed build)
        if any(e.module == "amdgpu" and (e.kernel or e.status == "added") for e in parse_dkms_status(line.text)):
            lines.append(line)
    pieces = []
    if lines:
        value = "\n".join(line.text.strip() for line in lines)
        pieces.append(make_piece("dkms-status", lines, [Observation("driver.dkms_amdgpu", value, lines[0])]))
    return pieces


_REV = when_used(r"\(rev [0-9a-f]{2}\)", re.IGNORECASE)


def _wrapped_rest(rest: str, text: str, following: Sequence[Line]) -> str:
    """The rest of an lspci line that a terminal or an editor wrapped onto the next lines: lspci ends
    every device line with ``(rev xx)``, so a line without it whose next lines bring it (and are no
    device lines themselves) is one device line. Empty when the line is whole."""
    if _REV.search(rest):
        return ""
    joined, previous = "", text
    for line in following:
        if not may_be_wrapped(previous, line.text.strip()) or _PCI_CLASS.search(line.text):
            return ""
        joined += " " + line.text.strip()
        if _REV.search(joined):
            return joined
        previous = line.text
    return ""


def _lspci(block: Block) -> List[Piece]:
    used: List[Line] = []
    sightings: List[GpuSighting] = []
    lines = block.lines
    for index, line in enumerate(lines):
        match = _PCI_CLASS.search(line.text)
        if match is None:
            continue
        rest = match.group(3) + _wrapped_rest(match.group(3), line.text, lines[index + 1 : index + 3])
        ids = _PCI_IDS.search(rest)
        vendor = _VENDORS[ids.group(1).lower()] if ids else _vendor(rest)
        if vendor is None:
            continue
        unnamed = _PCI_UNNAMED_AMD.search(rest) if ids is None and vendor == "AMD" else None
        if unnamed:
            fields = gpu_fields(name=None, device_id=unnamed.group(1).lower())
        else:
            fields = gpu_fields(name=_bracket_name(rest), device_id=ids.group(2) if ids and vendor == "AMD" else None)
        fields["vendor"] = vendor
        if match.group(1):
            fields["pci_bus"] = match.group(1) if len(match.group(1)) > 7 else f"0000:{match.group(1)}"
        if vendor != "AMD":
            fields = {k: v for k, v in fields.items() if k in ("vendor", "pci_bus", "name")}
        sightings.append(GpuSighting("pci", len(sightings), line, fields))
        used.append(line)
    return [make_piece("lspci", used, [], sightings)] if sightings else []


def _inxi(block: Block) -> List[Piece]:
    sightings: List[GpuSighting] = []
    used: List[Line] = []
    lines = block.lines
    for i, line in enumerate(lines):
        device = _INXI_DEVICE.search(line.text)
        if device is None:
            continue
        window = " ".join(l.text for l in lines[i : i + 3])
        chip = _INXI_CHIP.search(window)
        if chip is None:
            continue
        vendor = _VENDORS[chip.group(1).lower()]
        fields = gpu_fields(name=_bracket_name(device.group(1)), device_id=chip.group(2) if vendor == "AMD" else None)
        fields["vendor"] = vendor
        sightings.append(GpuSighting("pci", len(sightings), line, fields))
        used.append(line)
    return [make_piece("inxi", used, [], sightings)] if sightings else []


def _modinfo(block: Block) -> List[Piece]:
    """The running kernel from modinfo's answer. A path printed by another command (``find /lib/modules
    -name amdgpu.ko``, ``ls``) or by ``modinfo -k RELEASE`` is a module installed for some kernel, and
    without the command shown several such paths are a listing of installed kernels, not modinfo's one
    answer."""
    matches = [(line, _MODINFO.match(line.text)) for line in block.lines]
    bare = sum(1 for line, match in matches if match and not line.text.lstrip().startswith("filename:"))
    pieces = []
    command: Optional[str] = None
    for index, (line, match) in enumerate(matches):
        if line.command:
            command = line.text
            continue
        if not match:
            continue
        if command is not None and ("modinfo" not in command or _MODINFO_OTHER_KERNEL.search(command)):
            continue
        if command is None and bare > 1 and not line.text.lstrip().startswith("filename:"):
            continue
        observations = kernel_observations(match.group(1), line, TRUST_HINT)
        used = [line]
        if line.text.lstrip().startswith("filename:"):
            version = _modinfo_version(block.lines, index)
            if version is not None:
                used.append(version[0])
                observations = observations + [Observation("driver.amdgpu_version", version[1], version[0])]
        pieces.append(make_piece("modinfo", used, observations))
    return pieces


def _modinfo_version(lines: Sequence[Line], start: int) -> Optional[Tuple[Line, str]]:
    """The ``version:`` field among the fields that follow amdgpu's ``filename:`` line (``lines[start]``) in
    modinfo's answer: its field lines up to the next ``filename:``, the first line that is no ``name:`` field,
    or the 40th (modinfo prints version third; a bounded look keeps the reader linear)."""
    for line in lines[start + 1 : start + 40]:
        field = _MODINFO_FIELD.match(line.text)
        if field is None or field.group(1) == "filename":
            return None
        version = _MODINFO_VERSION.match(line.text)
        if version:
            return line, version.group(1)
    return None


def _drm_version(block: Block) -> List[Piece]:
    for line in block.lines:
        match = _DRM_AMDGPU_VERSION.search(line.text)
        if match:
            return [make_piece("dmesg-amdgpu", [line], [Observation("driver.amdgpu_version", match.group(1), line)])]
    return []


def parse(block: Block) -> List[Piece]:
    return _uname(block) + _proc_version(block) + _os_release(block) + _dkms(block) + _lspci(block) + _inxi(block) + _modinfo(block) + _drm_version(block)
