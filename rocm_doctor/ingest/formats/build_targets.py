"""The gfx targets a build was configured for: ``-DAMDGPU_TARGETS=gfx1100``, ``GPU_TARGETS=...``,
``PYTORCH_ROCM_ARCH=gfx90a``, ``CMAKE_HIP_ARCHITECTURES=...``.

A program compiled from source (llama.cpp, ollama, PyTorch, an extension, a Dockerfile's build
argument) carries kernels only for the targets in that list; a GPU outside it and its family fails
with 'invalid device function' or 'no kernel image'. Each distinct list the report names is kept
(``symptoms.build_targets``); a report that tries several lists does not say which one ran, and the
derived fact says so. Reports: hyprstream/hyprstream#228 (PYTORCH_ROCM_ARCH=gfx90a on a gfx1151),
ollama/ollama#7187 (AMDGPU_TARGETS="gfx906:xnack+"), ggml-org/llama.cpp#8618 (several -DAMDGPU_TARGETS
lists tried), vllm-project/vllm#31062 (a Dockerfile's PYTORCH_ROCM_ARCH
without gfx1103).

TensorFlow's ROCm build prints the list it was compiled for when it skips a GPU ("... with AMDGPU
version : gfx1100. The supported AMDGPU versions are gfx1030, gfx900, ...", gpu_device.cc and XLA's
platform_util.cc); that list is read here too, also where a report quotes only the tail of the line
(ROCm/tensorflow-upstream#3169 retells it without the head; #2118 and #1956, evshiron/rocm_lab#16 and
ROCm/legacy-rocm-build#2945 print it whole). tensorflow-rocm 2.14.0.600 runs two targets together
("gfx1030gfx1100", a comma missing): both are kept as listed.
"""

from __future__ import annotations

import re
from typing import List, Optional

from rocm_doctor.ingest.blocks import Block
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import TRUST_SIGNATURE, Observation, Piece
from rocm_doctor.lazy_regex import when_used

_TARGET = r"gfx[0-9a-f]{3,4}(?::(?:xnack|sramecc)[+-]){0,2}"
_LIST = when_used(
    r"(?<![\w$-])(?:-D\s?)?(?:AMDGPU_TARGETS|GPU_TARGETS|PYTORCH_ROCM_ARCH|CMAKE_HIP_ARCHITECTURES|HIP_ARCHITECTURES)"
    r"\s{0,2}=\s{0,2}[\"']?(?P<list>" + _TARGET + r"(?:\s{0,2}[;,]\s{0,2}" + _TARGET + r"){0,40})(?![\w:])"
    r"(?!\s{0,2}[;,]\s{0,2}gfx)",
    re.IGNORECASE,
)
"""A list read whole or not at all: one that goes on with a target of another shape (a generic target,
``-DGPU_TARGETS="gfx1100;gfx11-generic"``, whose code runs on every gfx11 GPU) is not read as its first part,
which would leave out the GPUs the rest covers (review rev50b)."""
_TF_LIST = when_used(r"The supported AMDGPU versions are\s{1,4}(?P<list>gfx[0-9a-f]{3,4}(?:[\s,]{0,4}gfx[0-9a-f]{3,4}){0,40})", re.IGNORECASE)
_LIST_GOES_ON = when_used(r"\s{0,4},\s*$")
"""A list that ends its line with a comma is wrapped onto the next line, where it goes on."""
_LIST_GOES_ON_HERE = when_used(r"[ \t>]{0,12}(?P<list>gfx[0-9a-f]{3,4}(?:[\s,]{0,4}gfx[0-9a-f]{3,4}){0,40})", re.IGNORECASE)
"""The rest of a wrapped list at the start of the next line."""
_WRAPPED_LINES = 4
_TF_TARGET = when_used(r"gfx[0-9a-f]{3,4}(?=gfx|[^0-9a-z]|$)")
MAX_LINE = 2000


def parse(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    for index, line in enumerate(block.lines):
        found = []
        for match in _LIST.finditer(line.text[:MAX_LINE]):
            targets = [t.strip().lower() for t in re.split(r"[;,]", match.group("list")) if t.strip()]
            found.append(";".join(targets))
        for match in _TF_LIST.finditer(line.text[:MAX_LINE]):
            listed = _wrapped_list(block, index, match)
            if listed is None:
                continue  # a wrapped list whose end is not shown is not read in part: the GPU's target may be in it
            targets = list(dict.fromkeys(_TF_TARGET.findall(listed.lower())))
            if targets:
                found.append(";".join(targets))
        if found:
            pieces.append(make_piece("build-targets", [line], [Observation("symptoms.build_targets", found, line, TRUST_SIGNATURE)]))
    return pieces


def _wrapped_list(block: Block, index: int, match: "re.Match[str]") -> Optional[str]:
    """The list ``match`` starts on line ``index``, with its rest from the lines it is wrapped onto (a line that ends
    with a comma goes on at the start of the next one); None when the list ends with a comma on the last line read."""
    listed, end, text = match.group("list"), match.end(), block.lines[index].text[:MAX_LINE]
    for after in block.lines[index + 1 : index + 1 + _WRAPPED_LINES]:
        if not _LIST_GOES_ON.match(text, end):
            return listed
        more = _LIST_GOES_ON_HERE.match(after.text[:MAX_LINE])
        if more is None:
            return None
        listed, end, text = listed + ", " + more.group("list"), more.end(), after.text[:MAX_LINE]
    return None if _LIST_GOES_ON.match(text, end) else listed
