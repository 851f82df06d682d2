"""Which GPU device nodes a container command gives the container.

``docker run``/``podman run`` (continued over ``\\`` lines, up to the image) and a compose file's
``devices:`` list. Two contexts come out.

``container_started_without_kfd``: the report's own command or compose service starts the container
without /dev/kfd - a complete ``docker``/``podman run`` whose options pass no /dev/kfd and nothing that
gives every device or a GPU another way (``--privileged``, ``-v /dev:/dev``, ``--gpus``, an NVIDIA
runtime, a CDI ``amd.com/gpu`` device, a variable or an elided ``...`` that may hold the flag), a compose
``devices:`` list with /dev/dri and no /dev/kfd, or a compose ``/dev/kfd`` item commented out. ROCm's
compute interface is /dev/kfd; inside a container without it the runtime finds no GPU
(rocm-install-on-linux docs/how-to/docker.rst). A command the line itself offers as advice or an
example ("you should run docker run ...", "e.g. docker run ...") is not the report's own. Reports:
robertrosenbusch/gfx803_rocm#6 (docker run without --device: no /dev/kfd inside, rocminfo "ROCk module
is NOT loaded"), ROCm/rccl-tests#16 (hipErrorInvalidDevice in a container until --device=/dev/kfd
--device=/dev/dri were added), hartmark/sd-rocm#4 (the compose file's /dev/kfd item commented out: no
GPU found until it was restored), truenas/apps#2145 (the app platform passed /dev/dri, not /dev/kfd),
linuxserver/docker-mods#630 (a Vega 56 container given /dev/dri only: OpenCL failed until /dev/kfd was added).

``container_given_one_render_node`` when the command passes
exactly one ``/dev/dri/renderD<N>`` and neither the whole ``/dev/dri`` nor ``--privileged`` (which
gives every device). libhsakmt skips a GPU node whose render node it cannot open ("A sysfs node is not
supported if corresponding drm render node is not available", topology_sysfs_check_node_supported,
https://github.com/ROCm/ROCT-Thunk-Interface/blob/rocm-6.2.4/src/topology.c), so inside such a container
ROCm sees that one GPU, as device 0, whatever its index on the host (ollama/ollama#5766).
"""

from __future__ import annotations

import re
from typing import List, Optional, Set, Tuple

from rocm_doctor.ingest.blocks import Block, Line, command_goes_on
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.formats.container_groups import docker_options
from rocm_doctor.ingest.model import TRUST_TEMPLATE, Observation, Piece
from rocm_doctor.lazy_regex import when_used

ONE_RENDER_NODE = "container_given_one_render_node"
WITHOUT_KFD = "container_started_without_kfd"

_RUN = when_used(r"\b(?:docker|podman)\s+(?:container\s+)?(?:run|create)\b")
_DEVICE = when_used(r"(?<![\w-])--device(?:=|\s{1,4})[\"']?(/dev/dri(?:/[\w-]{1,32})?)(?::[\w/-]{1,64}){0,2}[\"']?(?=[\s\\`]|$)")
_PRIVILEGED = when_used(r"(?<![\w-])--privileged\b(?!=false)")
_COMPOSE_HEAD = when_used(r"^[ \t]{0,40}devices:[ \t]{0,8}$")
_COMPOSE_ITEM = when_used(r"^[ \t]{0,40}-[ \t]{1,4}[\"']?(/dev/[\w/-]{1,64})(?::[\w/-]{1,64}){0,2}[\"']?[ \t]{0,8}(?:#[^\n]{0,200})?$")
_COMPOSE_PRIVILEGED = when_used(r"^[ \t]{0,40}privileged:[ \t]{0,8}true\b")
_RENDER = when_used(r"^/dev/dri/renderD\d{1,4}$")
_GPU_OTHERWISE = when_used(
    # the options give /dev/kfd, every device or a GPU another way, or may hold a flag not shown (an
    # elided "...", a template's "<local_dir>")
    r"/dev/kfd\b|(?<![\w-])--privileged\b(?!=false)|(?:-v|--volume|--mount)(?:=|\s{1,4})[\"']?(?:type=bind,\s?source=)?/dev(?::|,|[\"']?\s|$)"
    r"|(?<![\w-])--gpus\b|--runtime(?:=|\s{1,4})nvidia|amd\.com/gpu|--device-cgroup-rule|\.\.\.|\u2026|<\w{1,40}>",
    re.IGNORECASE,
)
_UNSHOWN_OR_NVIDIA = when_used(
    # an NVIDIA image, or a word that is a whole shell variable (``$DEVICES``, ``${GPU_ARGS}``): flags the line does not show
    r"(?:^|\s)[\"']?\$\{?\w{1,40}\}?[\"']?(?=\s|$)|\bnvidia\b|\bnvcr\.io\b|\bcuda\d|-cuda\b|\bcu\d{3}\b",
    re.IGNORECASE,
)
_AMD_GPU_MEANT = when_used(
    # anywhere in the command (an option's value too: -e HSA_OVERRIDE_GFX_VERSION=10.3.0): words only an AMD GPU job has
    r"rocm|\bhip|gfx|\bhsa_|rocr_|\bamd|radeon|rccl|miopen",
    re.IGNORECASE,
)
_GPU_WORKLOAD = when_used(
    # the image or the container's command (not an option's value) names a GPU workload, so a GPU was meant
    # to be in it: a side container of the same report (a web UI whose -e OLLAMA_BASE_URL points at an ollama
    # on the host, "ghcr.io/open-webui/open-webui:main"; a database) needs no /dev/kfd
    r"torch|tensorflow|\bjax\b|onnx|ollama|vllm|llama|comfy|diffusion|\bsd[-_]|whisper"
    r"|\bgpu|immich-machine-learning|machine-learning",
    re.IGNORECASE,
)
# a shell or Dockerfile comment (the raw line: a bare "# " is taken off as a root prompt): "# docker run ..."
# is a note, not the command that was run; a root prompt names its host ("root@box:~# docker run")
_COMMENTED_RUN = when_used(r"^[ \t>]{0,40}#")
_ADVICE = when_used(
    # words that offer the command rather than report it: "you should run", "try", "e.g.", "the docs say"
    r"\b(?:should|shall|could|would|try|can|recommend(?:ed|s)?|suggest(?:ed|s)?|instead|example|e\.g|i\.e|docs?|documentation|guide|readme|like\s{1,4}this|something\s{1,4}like)\b",
    re.IGNORECASE,
)
_COMMENTED_KFD = when_used(r"^[ \t`>]{0,40}#[ \t]{0,12}-[ \t]{1,4}[\"']?/dev/kfd(?::/dev/kfd(?::rwm)?)?[\"']?(?=[\s`#]|$)")


Passed = Tuple[Set[str], bool, Line]
"""The device paths a command passes, whether it runs privileged, and its first line."""


def _command_devices(block: Block) -> List[Passed]:
    """What each docker/podman run command of the block passes."""
    out: List[Passed] = []
    devices: Set[str] = set()
    privileged = False
    first: Optional[Line] = None
    in_command = expecting = False
    for index, line in enumerate(block.lines):
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
            if (at_image or not command_goes_on(block.lines, index, expecting)) and first is not None:
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


def _gpu_meant(command: str, image: str) -> bool:
    """The command (after ``run``) starts a GPU workload that is not NVIDIA's and shows all its flags:
    ``image`` (the image and the container's command) or an AMD-only word anywhere names it."""
    named = _AMD_GPU_MEANT.search(command) is not None or _GPU_WORKLOAD.search(image) is not None
    return named and _UNSHOWN_OR_NVIDIA.search(command) is None


def _offered_above(above: str) -> bool:
    """The line before introduces the command as advice ("Try this:", "You should run:")."""
    above = above.rstrip()
    return above.endswith(":") and _ADVICE.search(above) is not None


def _commands_without_kfd(block: Block) -> List[Line]:
    """First lines of the block's complete ``docker``/``podman run`` commands that start the container
    without /dev/kfd and without any other way to a GPU, where the line does not offer the command as advice.
    The command must give options before its image ("when I docker run the image" is a sentence)."""
    out: List[Line] = []
    options: List[str] = []
    whole: List[str] = []
    first: Optional[Line] = None
    in_command = expecting = False
    above = ""
    for index, line in enumerate(block.lines):
        text = line.text
        run = _RUN.search(text)
        if run is not None:
            in_command, expecting, options, whole = True, False, [], []
            offered = _ADVICE.search(text[: run.start()]) or _offered_above(above) or _COMMENTED_RUN.match(line.raw)
            first = None if offered else line
        above = text
        if in_command:
            start = run.end() if run is not None else 0
            part, expecting, at_image = docker_options(text, start, expecting)
            options.append(part)
            whole.append(text[start:])
            if at_image or not command_goes_on(block.lines, index, expecting):
                given = " ".join(options)
                image = text[start + len(part) :]
                if first is not None and at_image and "-" in given and not _GPU_OTHERWISE.search(given) and _gpu_meant(" ".join(whole), image):
                    out.append(first)
                in_command = False
    return out


def _compose_without_kfd(block: Block) -> List[Line]:
    """Compose ``devices:`` lists that give /dev/dri and not /dev/kfd in a block without
    ``privileged: true``, and commented-out compose ``/dev/kfd`` items."""
    out = [line for line in block.lines if "kfd" in line.text and _COMMENTED_KFD.match(line.text)]
    meant: Optional[bool] = None  # once per block: linear in its lines
    for devices, privileged, line in _compose_devices(block):
        if not privileged and "/dev/kfd" not in devices and any(d.startswith("/dev/dri") for d in devices):
            if meant is None:
                meant = _gpu_meant(block.text, block.text)
            if meant:
                out.append(line)
    return out


def parse(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    for devices, privileged, line in _command_devices(block) + _compose_devices(block):
        render = [d for d in devices if _RENDER.match(d)]
        if len(render) == 1 and "/dev/dri" not in devices and not privileged:
            pieces.append(make_piece(f"context:{ONE_RENDER_NODE}", [line], [Observation("symptoms.context", [ONE_RENDER_NODE], line, TRUST_TEMPLATE)]))
            break
    for line in (_commands_without_kfd(block) + _compose_without_kfd(block))[:1]:
        pieces.append(make_piece(f"context:{WITHOUT_KFD}", [line], [Observation("symptoms.context", [WITHOUT_KFD], line, TRUST_TEMPLATE)]))
    return pieces
