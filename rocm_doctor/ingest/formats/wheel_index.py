"""download.pytorch.org ROCm wheel indexes a report installs torch from: ``.../whl/rocm5.2``.

Every ROCm variant of a torch release has its own index (``/whl/rocmX.Y``, nightlies under
``/whl/nightly/rocmX.Y``, release candidates under ``/whl/test/rocmX.Y``), so the index names the
ROCm release the wheels were built with even where the report never prints torch's version
(pytorch/pytorch.github.io _get_started/previous-versions.md). Read wherever the URL stands: a
``pip install`` line, a launcher's ``TORCH_COMMAND``, a requirements file. Every variant named is
kept (``symptoms.wheel_indexes``: ``rocm5.2``, ``nightly/rocm5.5``): a report that names two
indexes does not say which one the torch in use came from, and the derived fact says so.

Reports: AUTOMATIC1111/stable-diffusion-webui#6032 and #7459 (TORCH_COMMAND with
``--extra-index-url .../whl/rocm5.2``), Comfy-Org/comfy-cli#289 and
AUTOMATIC1111/stable-diffusion-webui#10358 (``.../whl/rocm5.1.1``).
"""

from __future__ import annotations

import re
from typing import List

from rocm_doctor.ingest.blocks import Block
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.formats.install_scope import installed_here
from rocm_doctor.ingest.model import TRUST_SIGNATURE, Observation, Piece
from rocm_doctor.lazy_regex import when_used

_INDEX = when_used(r"download\.pytorch\.org/whl/(?P<channel>nightly/|test/)?rocm(?P<rocm>\d{1,2}(?:\.\d{1,2}){1,2})(?![\w.])", re.IGNORECASE)
MAX_LINE = 2000
"""Characters of a line searched: an index URL sits in a command, never past a long line's start."""


def parse(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    for line in block.lines:
        text = line.text[:MAX_LINE]
        # a question, advice, a past or another person's install names an index nobody installed from here
        found = [f"{(m.group('channel') or '').lower()}rocm{m.group('rocm')}" for m in _INDEX.finditer(text) if installed_here(text, m)]
        if found:
            pieces.append(make_piece("wheel-index", [line], [Observation("symptoms.wheel_indexes", found, line, TRUST_SIGNATURE)]))
    return pieces
