"""rocminfo output (whole, or the fragment people paste), via the shared rocminfo parser.

Besides the agents: ``ROCk module is loaded`` / ``ROCk module version 6.8.5 is loaded``
/ ``ROCk module is NOT loaded`` say whether the amdgpu kernel driver is there, and
``WSL environment detected.`` is printed by the WSL build of rocminfo. A fragment
without ``Agent N`` headers still names its GPU in ``ISA Info``
(``Name: amdgcn-amd-amdhsa--gfx90c:xnack-``).
"""

from __future__ import annotations

import re
from typing import List, Optional

from rocm_doctor.facts.parsers.rocminfo import parse_rocminfo
from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import gfx_of, gpu_fields, make_piece
from rocm_doctor.ingest.model import Absent, GpuSighting, Observation, Piece
from rocm_doctor.lazy_regex import when_used

_ROCK = when_used(r"^\s*ROCk module (?:version (\d+\.\d+[\w.-]*) )?is (NOT )?loaded", re.IGNORECASE)
"""rocminfo prints the version when /sys/module/amdgpu/version exists, i.e. AMD's DKMS build of amdgpu
(rocminfo.cc; ROCm/legacy-rocm-build#4043 "ROCk module version 6.7.0", #4382
"6.10.5", koboldcpp-rocm and vLLM reports "6.8.5", "6.12.12", "6.16.6")."""
NO_GPU_AGENT = "rocminfo_lists_no_gpu"
"""Context: a whole rocminfo run (its ``*** Done ***`` trailer shown) listed agents, none of them a GPU: the
HSA runtime reached no GPU through KFD (legacy-rocm-build#3897, a GPU KFD does not take; ROCm/rocminfo#20,
a powered-down PRIME GPU; ROCm/ROCT-Thunk-Interface#44). A paste cut before the trailer may have left the
GPU agents out, so it says nothing."""
IN_CONTAINER = "rocminfo_in_container"
"""Context: the report shows the rocminfo that printed "ROCk module is NOT loaded" running in a container
(RD962 speaks only then: a report naming docker elsewhere may show the host's rocminfo)."""
_CONTAINER_PROMPT = when_used(r"^\s*(?:\([^)\n]{1,64}\)\s*)?[\w.-]{1,32}@[0-9a-f]{12}:")
"""A prompt whose host name is 12 hex digits: docker's default host name, the container id (docker run(1))."""
_RUN_THERE = when_used(r"\b(?:(?:docker|podman)\s+(?:container\s+)?(?:run|exec)|kubectl\s+exec)\b[^\n]{0,300}\brocminfo\b")
_ENTER = when_used(r"\b(?:docker|podman)\s+(?:container\s+)?(?:run|exec)\b[^\n]{0,300}\s-(?:it|ti)\b|\b(?:distrobox|toolbox)\s+enter\b")
_LEAVE = when_used(r"^\s*(?:exit|logout)\s*$")
_SAID_INSIDE = when_used(r"(?<!not )(?<!n't be )\b(?:inside|in|within|from)\s+(?:the|a|my|this)\s+(?:docker\s+|podman\s+)?container\b", re.IGNORECASE)
_SAID_LINES = 3
_LOOK_BACK = 400
"""Lines above the message searched for the command that ran rocminfo (bounds the work per report)."""
"""Prose lines above the rocminfo command that may say where it ran ("Inside the container:")."""
_AGENT = when_used(r"^\s*Agent\s+(\d{1,18})\s*$")
_ISA = when_used(r"^\s*Name:\s*amdgcn-amd-amdhsa--(gfx[0-9a-f]+(?::[a-z+-]+)*)\s*$")
_AGENT_NAME = when_used(r"^\s*Name:\s*(gfx[0-9a-f]{3,4}(?::[a-z+-]+)*)\s*$")
_MARKETING = when_used(r"^\s*Marketing Name:\s*(.+?)\s*$")
_CLINFO_BOARD = when_used(r"^\s*Board name:")
"""clinfo's device header: a ``Name: gfx...`` after it, before any rocminfo agent line, is clinfo's."""
_MARKERS = when_used(r"HSA System Attributes|HSA Agents|^\s*Agent \d+\s*$|amdgcn-amd-amdhsa--gfx|Marketing Name:|WSL environment detected|ROCk module")


def _agent_line(block: Block, number: int) -> Optional[Line]:
    for line in block.lines:
        match = _AGENT.match(line.text)
        if match and int(match.group(1)) == number:
            return line
    return None


def _fragment_gpus(block: Block) -> List[GpuSighting]:
    """GPUs of a fragment without ``Agent N`` headers (``rocminfo | grep Name``, a cut paste).

    Agent names (``Name: gfx1100``, with the ``Marketing Name`` that follows) count first;
    ISA names only when there are none, since every agent lists its ISA too.
    """
    lines = list(block.lines)
    found: List[GpuSighting] = []
    in_clinfo = False
    for i, line in enumerate(lines):
        if _CLINFO_BOARD.match(line.text):
            in_clinfo = True  # clinfo's device: its "Name: gfx..." is read by the clinfo reader
        elif _AGENT.match(line.text) or _MARKETING.match(line.text):
            in_clinfo = False
        match = _AGENT_NAME.match(line.text)
        if match is None or in_clinfo:
            continue
        marketing = next((_MARKETING.match(l.text).group(1) for l in lines[i + 1 : i + 4] if _MARKETING.match(l.text)), None)
        found.append(GpuSighting("rocminfo", len(found), line, gpu_fields(name=marketing, gfx=gfx_of(match.group(1)))))
    if found:
        return found
    isa = [l for l in lines if _ISA.match(l.text)]
    return [GpuSighting("rocminfo", i, l, gpu_fields(gfx=gfx_of(l.text))) for i, l in enumerate(isa)]


def ran_in_container(block: Block, line: Line) -> bool:
    """The commands above ``line`` show the command that printed it (rocminfo; ``groups`` and ``id`` for
    :mod:`~rocm_doctor.ingest.formats.commands`) running in a container: run there
    (``docker exec NAME rocminfo``), at a container's prompt, after an interactive ``docker run -it`` or
    ``distrobox enter`` not left with ``exit``, or under a line saying "inside the container"."""
    index = block.position_of(line)
    nearest = True
    for position in range(index - 1, max(-1, index - 1 - _LOOK_BACK), -1):
        earlier = block.lines[position]
        if not earlier.command:
            if nearest and index - position <= _SAID_LINES + 1 and _SAID_INSIDE.search(earlier.text):
                return True
            continue
        if _LEAVE.match(earlier.text):
            return False
        if _RUN_THERE.search(earlier.text) or _ENTER.search(earlier.text):
            return True
        if nearest and _CONTAINER_PROMPT.match(earlier.raw):
            return True
        if nearest:
            # prose right above the command that ran rocminfo may say where it ran
            for above in block.lines[max(0, position - _SAID_LINES) : position]:
                if not above.command and _SAID_INSIDE.search(above.text):
                    return True
        nearest = False
    return False


_NOT_LOADED = when_used(r"^\s*ROCk module is NOT loaded", re.IGNORECASE)


def container_context(block: Block) -> List[Piece]:
    """``rocminfo_in_container`` when the block shows the rocminfo that printed "ROCk module is NOT loaded"
    running in a container (read on the whole block: the commands before rocminfo's own say where)."""
    line = next((line for line in block.lines if _NOT_LOADED.match(line.text)), None)
    if line is None or not ran_in_container(block, line):
        return []
    return [make_piece(f"context:{IN_CONTAINER}", [line], [Observation("symptoms.context", [IN_CONTAINER], line)])]


def parse(block: Block) -> List[Piece]:
    marked = [line for line in block.lines if _MARKERS.search(line.text)]
    if not marked:
        return []
    observations: List[Observation] = []
    for line in marked:
        rock = _ROCK.match(line.text)
        if rock:
            observations.append(Observation("driver.amdgpu_loaded", rock.group(2) is None, line))
            if rock.group(1) and rock.group(2) is None:
                observations.append(Observation("driver.amdgpu_version", rock.group(1), line))
            if rock.group(2) is None:
                # rocminfo checks the amdgpu (ROCk) module only outside WSL, where the kernel driver is local.
                observations.append(Observation("host.os", "linux", line))
                observations.append(Observation("host.wsl_version", Absent("rocminfo found the amdgpu kernel module, which WSL2 has none of"), line))
        if line.text.strip() == "WSL environment detected.":
            observations += [Observation("host.os", "linux", line), Observation("host.wsl_version", 2, line)]
    report = parse_rocminfo("\n".join(line.text for line in block.lines))
    sightings: List[GpuSighting] = []
    seen = set()
    for agent in report.gpus:
        if agent.number in seen:  # the same output pasted twice lists the same agents again
            continue
        seen.add(agent.number)
        position = len(sightings)
        line = _agent_line(block, agent.number) or marked[0]
        device = agent.get_int("Chip ID")
        vram = agent.vram_kb
        fields = gpu_fields(
            name=agent.get("Marketing Name"),
            gfx=gfx_of(agent.name or ""),
            device_id=f"{device:x}" if device else None,
            compute_units=agent.get_int("Compute Unit"),
            kfd_node=agent.get_int("Node"),
            vram_bytes=vram * 1024 if vram else None,
        )
        if agent.is_apu:
            fields["integrated"] = True
        sightings.append(GpuSighting("rocminfo", position, line, fields))
    if not report.agents:
        sightings = _fragment_gpus(block)
    elif report.complete and not report.gpus:
        done = next((line for line in block.lines if line.text.strip().startswith("*** Done ***")), marked[-1])
        observations.append(Observation("symptoms.context", [NO_GPU_AGENT], done))
    if not observations and not sightings and not report.hsa_agents_seen:
        return []
    return [make_piece("rocminfo", marked + [s.line for s in sightings], observations, sightings)]
