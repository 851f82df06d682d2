"""Facts people type into issue templates and environment tables.

Only labelled values are read, never free prose:

* template sections: ``### Operating System`` / ``### GPU`` / ``### ROCm Version`` /
  ``### What GPU / hardware type are you using?`` followed by the value line;
* labelled lines: ``OS: Ubuntu 22.04``, ``GPU：...`` (full-width colon too), ``ROCm: 5.7``,
  ``kernel: 6.8.0-45-generic``, ``Python: 3.12``, several on one line separated by ``，`` or ``;``;
* markdown table rows: ``| OS | Windows 11 |``;
* a line that is only an operating system (``Ubuntu 24.04.1``, ``Windows 11``,
  ``WSL2 Ubuntu 22.04``) or only ``Kernel <release>``.

GPU values give a GPU when the name is in the GPU table or names a gfx target.
"""

from __future__ import annotations

import re
from typing import List, Optional

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import GFX_RE, gfx_of, gpu_fields, key_value, make_piece
from rocm_doctor.ingest.formats.platform_strings import distro_observations, kernel_observations
from rocm_doctor.facts.gpu_table import model_for_name
from rocm_doctor.ingest.model import TRUST_TEMPLATE, GpuSighting, Observation, Piece

_HEADING = re.compile(r"^\s*#{2,6}\s*(.+?)\s*#*\s*$")
_TABLE_ROW = re.compile(r"^\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*$")
_FIELDS = {
    "os": "os",
    "operating system": "os",
    "platform": "os",
    "gpu": "gpu",
    "graphics card": "gpu",
    "what gpu / hardware type are you using?": "gpu",
    "rocm": "rocm",
    "rocm version": "rocm",
    "kernel": "kernel",
    "kernel version": "kernel",
    "python": "python",
    "python version": "python",
}
_OS_ONLY = re.compile(r"^\s*(?:WSL2?\s+)?(?:Ubuntu|Debian|Fedora|CentOS(?: Stream)?|Rocky Linux|AlmaLinux|Linux Mint|openSUSE \w+|Arch Linux|RHEL|Windows)\s+\d+(?:\.\d+)*(?:\s+LTS)?\s*$", re.IGNORECASE)
_AMD_NAME = re.compile(r"\b(?:AMD|Radeon|Instinct)\b", re.IGNORECASE)
_KERNEL_ONLY = re.compile(r"^\s*Kernel\s+(\d+\.\d+\S*)\s*$", re.IGNORECASE)


def _clean_label(text: str) -> str:
    return re.sub(r"[*_`]", "", text).strip().lower()


def _os_value(value: str, line: Line) -> List[Observation]:
    out: List[Observation] = []
    wsl = re.match(r"^\s*WSL\s*(2)?\b[\s:-]*(.*)$", value, re.IGNORECASE)
    if wsl:
        out += [Observation("host.os", "linux", line, TRUST_TEMPLATE), Observation("host.wsl_version", 2, line, TRUST_TEMPLATE)]
        value = wsl.group(2)
    if value.upper().startswith("RHEL"):
        value = "Red Hat Enterprise Linux" + value[4:]
    return out + distro_observations(value, line, TRUST_TEMPLATE)


def _gpu_value(value: str, line: Line, position: int) -> List[GpuSighting]:
    targets = [gfx_of(m.group(0)) for m in GFX_RE.finditer(value)]
    targets = [t for t in targets if t]
    if len(targets) > 1:
        return [GpuSighting("report", position + i, line, gpu_fields(gfx=t)) for i, t in enumerate(targets)]
    name = re.split(r"[;(]", value, maxsplit=1)[0].strip()
    model = model_for_name(name) if name else None
    if model is None and not targets:
        # Not in the GPU table, but plainly an AMD GPU: the vendor is still a fact.
        return [GpuSighting("report", position, line, {"name": name, "vendor": "AMD"})] if _AMD_NAME.search(name) else []
    return [GpuSighting("report", position, line, gpu_fields(name=name or None, gfx=targets[0] if targets else None))]


def _field(kind: str, value: str, line: Line, gpus: List[GpuSighting]) -> List[Observation]:
    value = value.strip()
    if not value:
        return []
    if kind == "os":
        return _os_value(value, line)
    if kind == "kernel":
        return kernel_observations(value.split()[0], line, TRUST_TEMPLATE)
    if kind == "rocm":
        match = re.match(r"^(?:ROCm\s*)?v?(\d+\.\d+(?:\.\d+)?)\b", value, re.IGNORECASE)
        return [Observation("rocm.version", match.group(1), line, TRUST_TEMPLATE)] if match else []
    if kind == "python":
        match = re.match(r"^(?:Python\s*)?(\d+\.\d+(?:\.\d+)?)\b", value, re.IGNORECASE)
        return [Observation("python.version", match.group(1), line, TRUST_TEMPLATE)] if match else []
    if kind == "gpu":
        gpus += _gpu_value(value, line, len(gpus))
    return []


def _segments(text: str) -> List[str]:
    return [s for s in re.split(r"[，;]|,\s+(?=[A-Za-z ]{2,20}[:：])", text) if s.strip()]


def parse(block: Block) -> List[Piece]:
    out: List[Observation] = []
    gpus: List[GpuSighting] = []
    used: List[Line] = []
    lines = list(block.lines)
    pending: Optional[str] = None
    for line in lines:
        text = line.text
        if not text.strip():
            continue
        heading = _HEADING.match(text)
        if heading:
            pending = _FIELDS.get(_clean_label(heading.group(1)))
            continue
        before = (len(out), len(gpus))
        if pending is not None:
            out += _field(pending, text, line, gpus)
            pending = None
        else:
            row = _TABLE_ROW.match(text)
            pairs = [(row.group(1), row.group(2))] if row else [p for p in map(key_value, _segments(text)) if p]
            for label, value in pairs:
                kind = _FIELDS.get(_clean_label(label))
                if kind is not None:
                    out += _field(kind, value, line, gpus)
            if not pairs or all(_FIELDS.get(_clean_label(l)) is None for l, _ in pairs):
                if _OS_ONLY.match(text):
                    out += _os_value(text.strip(), line)
                kernel = _KERNEL_ONLY.match(text)
                if kernel:
                    out += kernel_observations(kernel.group(1), line, TRUST_TEMPLATE)
        if (len(out), len(gpus)) != before:
            used.append(line)
    return [make_piece("report-fields", used, out, gpus)] if used else []

