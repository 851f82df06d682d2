"""``pip show torch [torchvision ...]``: one record per distribution, in pip's field order.

pip prints ``Name:``, ``Version:``, ``Summary:``, ``Home-page:``, ``Author:``, ``Author-email:``,
``License:``, ``Location:``, (``Editable project location:``), ``Requires:``, ``Required-by:``, and
``---`` between records (https://github.com/pypa/pip/blob/24.2/src/pip/_internal/commands/show.py).
A record is read only where ``Version:`` follows ``Name:`` on the next line, as pip prints it, so that
other ``Name:`` fields (rocminfo's agents) are not taken for one.

Only torch and its companions become facts: torch's version (and through it the build), the folder it
is imported from (``Location:``, which tells a user's own site-packages), and its ``Requires:``: a torch
that requires NVIDIA's runtime wheels (nvidia-cublas-cu12 ...) is a CUDA build whatever its version
says, since only pytorch's CUDA wheels declare them
(https://github.com/pytorch/pytorch/blob/v2.5.1/.github/scripts/generate_binary_build_matrix.py).
"""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.collect_env import companion_observations
from rocm_doctor.ingest.formats.common import make_piece, torch_version_observations
from rocm_doctor.ingest.formats.install_log import TRACKED
from rocm_doctor.ingest.formats.pip import canonical
from rocm_doctor.ingest.model import TRUST_TOOL, Observation, Piece
from rocm_doctor.knowledge.torch_identity import NVIDIA_RUNTIME_WHEEL
from rocm_doctor.knowledge.torch_static import local_tag
from rocm_doctor.lazy_regex import when_used

KIND = "pip-show"
_NAME = when_used(r"^\s*Name:\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*$")
_VERSION = when_used(r"^\s*Version:\s*(?P<version>\d\S*)\s*$")
_FIELD = when_used(r"^\s*(?P<field>Location|Requires|Editable project location):\s*(?P<value>.*?)\s*$")
_END = when_used(r"^\s*(?:---\s*$|Name:)")
_RECORD_LINES = 12
"""A record has eleven fields; a longer run without a separator is not pip's."""
NVIDIA_RUNTIME = when_used(rf"(?:^|[\s,]){NVIDIA_RUNTIME_WHEEL}\b", re.IGNORECASE)


def _record(lines: List[Line], start: int) -> Optional[Tuple[str, str, str, str, List[Line]]]:
    """(name, version, location, requires, lines) of the record whose ``Name:`` is at ``start``."""
    name = _NAME.match(lines[start].text)
    if name is None or start + 1 >= len(lines):
        return None
    version = _VERSION.match(lines[start + 1].text)
    if version is None:
        return None
    location = requires = ""
    used = [lines[start], lines[start + 1]]
    for line in lines[start + 2 : start + _RECORD_LINES]:
        if _END.match(line.text):
            break
        field = _FIELD.match(line.text)
        if field is None:
            continue
        used.append(line)
        if field.group("field") == "Location":
            location = field.group("value")
        elif field.group("field") == "Requires":
            requires = field.group("value")
    return canonical(name.group("name")), version.group("version"), location, requires, used


def parse(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    lines = block.lines
    for index in range(len(lines) - 1):
        found = _record(lines, index)
        if found is None:
            continue
        name, version, location, requires, used = found
        if name not in TRACKED:
            continue
        line = used[1]
        if name != "torch":
            observations = companion_observations(name, version, line)
        else:
            observations = torch_version_observations(version, line, TRUST_TOOL)
            if location:
                observations.append(Observation("torch.location", location, used[0], TRUST_TOOL))
            if local_tag(version) is None and NVIDIA_RUNTIME.search(requires):
                observations.append(Observation("torch.flavour", "cuda", line, TRUST_TOOL))
        if observations:
            pieces.append(make_piece(KIND, used, observations))
    return pieces
