"""Which GPU device nodes a container command gives the container.

``docker run``/``podman run`` (continued over ``\\`` lines, up to the image) and a compose file's
``devices:`` list. One context comes out: ``container_given_one_render_node`` when the command passes
exactly one ``/dev/dri/renderD<N>`` and neither the whole ``/dev/dri`` nor ``--privileged`` (which
gives every device). libhsakmt skips a GPU node whose render node it cannot open ("A sysfs node is not
supported if corresponding drm render node is not available", topology_sysfs_check_node_supported,
https://github.com/ROCm/ROCT-Thunk-Interface/blob/rocm-6.2.4/src/topology.c), so inside such a container
ROCm sees that one GPU, as device 0, whatever its index on the host (ollama/ollama#5766).
"""

from __future__ import annotations

from typing import List, Optional, Set, Tuple

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.formats.container_groups import docker_options
from rocm_doctor.ingest.model import TRUST_TEMPLATE, Observation, Piece
from rocm_doctor.lazy_regex import when_used

ONE_RENDER_NODE = "container_given_one_render_node"

_RUN = when_used(r"\b(?:docker|podman)\s+(?:container\s+)?(?:run|create)\b")
_DEVICE = when_used(r"(?<![\w-])--device(?:=|\s{1,4})[\"']?(/dev/dri(?:/[\w-]{1,32})?)(?::[\w/-]{1,64}){0,2}[\"']?(?=[\s\\`]|$)")
_PRIVILEGED = when_used(r"(?<![\w-])--privileged\b(?!=false)")
_COMPOSE_HEAD = when_used(r"^[ \t]{0,40}devices:[ \t]{0,8}$")
_COMPOSE_ITEM = when_used(r"^[ \t]{0,40}-[ \t]{1,4}[\"']?(/dev/[\w/-]{1,64})(?::[\w/-]{1,64}){0,2}[\"']?[ \t]{0,8}(?:#[^\n]{0,200})?$")
_COMPOSE_PRIVILEGED = when_used(r"^[ \t]{0,40}privileged:[ \t]{0,8}true\b")
_RENDER = when_used(r"^/dev/dri/renderD\d{1,4}$")


Passed = Tuple[Set[str], bool, Line]
"""The device paths a command passes, whether it runs privileged, and its first line."""


def _command_devices(block: Block) -> List[Passed]:
    """What each docker/podman run command of the block passes."""
    out: List[Passed] = []
    devices: Set[str] = set()
    privileged = False
    first: Optional[Line] = None
    in_command = expecting = False
    for line in block.lines:
        text = line.text
        run = _RUN.search(text)
        if run is not None:
            if in_command and first is not None:
                out.append((devices, privileged, first))
            in_command, expecting, devices, privileged, first = True, False, set(), False, line
        if in_command:
            options, expecting, at_image = docker_options(text, run.end() if run is not None else 0, expecting)
            devices.update(match.group(1) for match in _DEVICE.finditer(options))
            privileged = privileged or bool(_PRIVILEGED.search(options))
            if (at_image or not text.rstrip().endswith("\\")) and first is not None:
                out.append((devices, privileged, first))
                in_command = False
    if in_command and first is not None:
        out.append((devices, privileged, first))
    return out


def _compose_devices(block: Block) -> List[Passed]:
    """What each compose ``devices:`` list passes (a service with ``privileged: true`` gets every device)."""
    out: List[Passed] = []
    lines = block.lines
    if "devices:" not in block.text:
        return out
    privileged = any(_COMPOSE_PRIVILEGED.match(line.text) for line in lines)  # once per block: linear in its lines
    for index, line in enumerate(lines):
        if not _COMPOSE_HEAD.match(line.text):
            continue
        devices: Set[str] = set()
        for row in lines[index + 1 : index + 17]:
            item = _COMPOSE_ITEM.match(row.text)
            if item is None:
                break
            devices.add(item.group(1))
        out.append((devices, privileged, line))
    return out


def parse(block: Block) -> List[Piece]:
    for devices, privileged, line in _command_devices(block) + _compose_devices(block):
        render = [d for d in devices if _RENDER.match(d)]
        if len(render) == 1 and "/dev/dri" not in devices and not privileged:
            return [make_piece(f"context:{ONE_RENDER_NODE}", [line], [Observation("symptoms.context", [ONE_RENDER_NODE], line, TRUST_TEMPLATE)])]
    return []
