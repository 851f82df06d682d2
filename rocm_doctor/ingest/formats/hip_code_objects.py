"""The HIP runtime's listing after "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!".

The runtime (hip_code_object.cpp, ROCm-Developer-Tools/hipamd rocm-4.5.0 to ROCm/clr rocm-6.2.2; every
wording in rules/data/no_gpu_code_messages.yaml) prints, under "Devices:", each device's target with
"[Found]" or "[Not Found]", and under "Bundled Code Objects:" every code object the failing binary holds
("hipv4-amdgcn-amd-amdhsa--gfx1030 - [Code object targetID is amdgcn-amd-amdhsa--gfx1030]"; up to ROCm 5.2
"[code object v4 is amdgcn-amd-amdhsa--gfx1030]"; the host entry "[Unsupported]"). A "[Not Found]" device is one the binary has no code for (symptoms.error_gfx);
the bundled targets are the binary's build targets (symptoms.build_targets), never devices. Reports:
ROCm/ROCm#2429 (gfx1100 "[Not Found]" against a wheel of gfx900/906/908/90a/1030; AMD: "we did not build
for gfx1100"), ROCm/ROCm#2418 and ROCm/rccl#876 (two gfx1100 "[Found]", the gfx1036 iGPU "[Not Found]"; AMD:
the executable has no code object for gfx1036).
"""

from __future__ import annotations

import re
from typing import List

from rocm_doctor.ingest.blocks import Block
from rocm_doctor.ingest.formats.common import gfx_of, make_piece
from rocm_doctor.ingest.model import TRUST_SIGNATURE, Observation, Piece
from rocm_doctor.lazy_regex import when_used

_TARGET = r"gfx[0-9a-f]{3,4}(?::(?:xnack|sramecc)[+-]){0,2}"
_DEVICES_HEADER = when_used(r"(?<![\w-])Devices:[ \t]{0,16}$", re.IGNORECASE)
_DEVICE = when_used(r"(?:^|\s)(?:amdgcn-amd-amdhsa--)?(?P<target>" + _TARGET + r")\s-\s\[(?P<state>Found|Not Found)\][ \t]{0,16}$", re.IGNORECASE)
_BUNDLED_HEADER = when_used(r"\bBundled Code Objects:[ \t]{0,16}$", re.IGNORECASE)
_BUNDLED_ENTRY = when_used(
    r"\s-\s\[(?:code object (?:targetID|v\d{1,2}) is\s(?:amdgcn-amd-amdhsa--)?(?P<target>" + _TARGET + r")|Unsupported)\][ \t]{0,16}$", re.IGNORECASE
)
BUNDLE_ENTRY_LINE = when_used(r"\s-\s\[(?:code object (?:targetID|v\d{1,2}) is\s|Unsupported\])", re.IGNORECASE)
"""A line of the "Bundled Code Objects:" list: the targets on it are the binary's, not a device's."""
MAX_ENTRIES = 64
"""Lines read after one header: a fat binary holds one code object per target (and the host's)."""
MAX_LINE = 2000


def _entries(block: Block, start: int, pattern: "re.Pattern[str]") -> List["re.Match[str]"]:
    """The matches of ``pattern`` on the lines after ``start``, up to the first line it does not match."""
    found: List["re.Match[str]"] = []
    for line in block.lines[start + 1 : start + 1 + MAX_ENTRIES]:
        match = pattern.search(line.text[:MAX_LINE])
        if match is None:
            break
        found.append(match)
    return found


def parse(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    for index, line in enumerate(block.lines):
        text = line.text[:MAX_LINE]
        if _DEVICES_HEADER.search(text):
            missing = [gfx_of(m.group("target").split(":")[0]) for m in _entries(block, index, _DEVICE) if m.group("state").lower() == "not found"]
            missing = [gfx for gfx in dict.fromkeys(missing) if gfx]
            if missing:
                pieces.append(make_piece("hip-code-objects", [line], [Observation("symptoms.error_gfx", missing, line, TRUST_SIGNATURE)]))
        elif _BUNDLED_HEADER.search(text):
            targets = [m.group("target").lower() for m in _entries(block, index, _BUNDLED_ENTRY) if m.group("target")]
            if targets:
                listed = ";".join(dict.fromkeys(targets))
                pieces.append(make_piece("hip-code-objects", [line], [Observation("symptoms.build_targets", [listed], line, TRUST_SIGNATURE)]))
    return pieces
