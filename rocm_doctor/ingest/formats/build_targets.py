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
"""

from __future__ import annotations

import re
from typing import List

from rocm_doctor.ingest.blocks import Block
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import TRUST_SIGNATURE, Observation, Piece

_TARGET = r"gfx[0-9a-f]{3,4}(?::(?:xnack|sramecc)[+-]){0,2}"
_LIST = re.compile(
    r"(?<![\w$-])(?:-D\s?)?(?:AMDGPU_TARGETS|GPU_TARGETS|PYTORCH_ROCM_ARCH|CMAKE_HIP_ARCHITECTURES|HIP_ARCHITECTURES)"
    r"\s{0,2}=\s{0,2}[\"']?(?P<list>" + _TARGET + r"(?:\s{0,2}[;,]\s{0,2}" + _TARGET + r"){0,40})(?![\w:])",
    re.IGNORECASE,
)
MAX_LINE = 2000


def parse(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    for line in block.lines:
        found = []
        for match in _LIST.finditer(line.text[:MAX_LINE]):
            targets = [t.strip().lower() for t in re.split(r"[;,]", match.group("list")) if t.strip()]
            found.append(";".join(targets))
        if found:
            pieces.append(make_piece("build-targets", [line], [Observation("symptoms.build_targets", found, line, TRUST_SIGNATURE)]))
    return pieces
