"""The same GPU tool run twice in one report, as the user and under sudo (or at a root prompt), with nothing said of it.

As the user ``rocminfo`` fails ("Unable to open /dev/kfd", HSA_STATUS_ERROR_OUT_OF_RESOURCES, "Call returned 4104") or
``clinfo`` lists no device; ``sudo rocminfo`` / ``sudo -u root clinfo --list`` / ``# rocminfo`` lists a gfx agent. The
pair says the user cannot open /dev/kfd or the render node while root can: context
:data:`GPU_REACHED_ONLY_UNDER_SUDO`, which RD517 reads beside the reporter's own words (signature
gpu_works_as_root_told). Reports of this output-only form: ROCm/legacy-rocm-build#1070 (and #1064, the same reporter's
output: ``$ /opt/rocm/bin/rocminfo`` with OUT_OF_RESOURCES, ``$ sudo /opt/rocm/bin/rocminfo`` listing the agents),
ROCm/legacy-rocm-build#1826 (``clinfo --list`` with no output, ``sudo -u root clinfo --list`` with ``Device #0:
gfx1033``), ROCm/ROCm-docker#36 (``rocminfo`` with "Call returned 4104", ``sudo /opt/rocm/bin/rocminfo`` with its
HSA System Attributes).

Read only in blocks the reporter wrote of this machine now (scope current), and only where both prompts name the same
host when both name one (``alice@test`` beside ``alice@other`` is two machines). Not when the user run of the same tool
lists a GPU too (then it is not the access that differs), nor when both fail, nor a sudo run alone, nor a tool named as
the argument of another program (``sudo apt install rocminfo``). Nor across a container's edge (review67b): root at a
prompt whose host is a container id, or any run after ``docker run``/``exec`` in the block, pairs only with a user run in
that container (the image has its own ROCm); nor a user run that found no /dev/kfd at all, one that names a gfx GPU, or
one whose tool lies in another named folder than the sudo run's (two installs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections import Counter
from typing import List, Optional

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import Observation, Piece
from rocm_doctor.lazy_regex import when_used

GPU_REACHED_ONLY_UNDER_SUDO = "gpu_reached_only_under_sudo"
"""Context id: a sudo (or root) run of rocminfo or clinfo lists a gfx GPU (rocminfo: or prints its HSA headings, the
runtime having opened /dev/kfd) where the same tool run as the user, on the same machine, failed or printed no device."""
CONTAINER_PREFIX = "container:"
"""The host key of a run in a container (its id as the prompt's host, or a run after docker run/exec in the block)."""

_TOOL_RUN = when_used(
    r"^\s{0,8}(?P<sudo>sudo(?:\s{1,4}-[A-Za-z]{1,4}(?:\s{1,4}root)?)*\s{1,4}|su\s{1,4}-c\s{1,4}['\"]?)?"
    r"(?P<folder>[\w./~-]{0,120}/)?(?P<tool>rocminfo|clinfo)(?:\s{1,4}-{1,2}[\w-]{1,20})*\s{0,4}['\"]?\s{0,4}$"
)
"""A command line that runs rocminfo or clinfo itself (a path before it, options after it), under sudo or not."""

_ROOT_PROMPT = when_used(r"(?:^|\s|\()root@[\w.-]{1,64}[:\s]|^\s{0,8}#\s?$|^\s{0,8}\[root@[^\]]{1,200}\]#\s?$")
"""The prompt (what the paste held before the command) is root's: ``root@host:~#``, ``[root@host ~]#``, a bare ``#``."""
_PROMPT_HOST = when_used(r"[\w.-]{1,64}@([\w.-]{1,64})[:\s]")

_GPU_LISTED = when_used(r"\bgfx\d{3,4}[a-z]?\b")
"""A gfx agent or device in the output (rocminfo's "Name: gfx1030", clinfo's "Device #0: gfx1033")."""
_RUNTIME_UP = when_used(r"^\s{0,8}HSA\s{1,4}(?:System\s{1,4}Attributes|Agents)\s{0,8}$", re.MULTILINE)
"""rocminfo's own headings, printed only once the HSA runtime started (it opened /dev/kfd): a report that cuts the rest
("(...)", ROCm/ROCm-docker#36) still shows that far."""
_NO_GPU = when_used(
    r"Unable\s{1,4}to\s{1,4}open\s{1,4}/dev/kfd|HSA_STATUS_ERROR_OUT_OF_RESOURCES|Call\s{1,4}returned\s{1,4}4104\b"
    r"|\bhsa\s{1,4}api\s{1,4}call\s{1,4}failure\b|Number\s{1,4}of\s{1,4}platforms:?\s{1,8}0\s{0,4}$"
    r"|Number\s{1,4}of\s{1,4}devices:?\s{1,8}0\s{0,4}$|\bPermission\s{1,4}denied\b",
    re.MULTILINE,
)
"""What a run that reached no GPU prints."""
_KFD_ABSENT = when_used(r"/dev/kfd[^\n]{0,60}No\s{1,4}such\s{1,4}file\s{1,4}or\s{1,4}directory")
"""A user run that found no /dev/kfd at all: sudo does not make the device appear, so a sudo run that lists the GPU was on
another machine, in a container or at another time (review67b)."""
_CONTAINER_HOST = when_used(r"[0-9a-f]{12}")
"""A prompt host that is a container's id (Docker names the container's host after its first 12 hex digits): root there
is the container's, with the image's own ROCm, not this machine's user with sudo (review67b)."""
_INTO_CONTAINER = when_used(
    r"^\s{0,8}(?:sudo\s{1,4})?(?:docker|podman|nerdctl)\s{1,4}(?:container\s{1,4})?(?:run|exec|start\s{1,4}-a)\b"
    r"|^\s{0,8}(?:distrobox|toolbox)\s{1,4}enter\b|^\s{0,8}(?:lxc|incus)\s{1,4}exec\b"
)
"""A command that opens a shell in a container: the runs after it in the block are the container's (review67b)."""


@dataclass(frozen=True)
class _Run:
    tool: str
    folder: str
    """The folder the command names the tool in ("/opt/rocm-5.4.0/bin/"), "" when it names none (or "./")."""
    privileged: bool
    host: str
    listed: bool
    """Its output names a gfx GPU (or, for rocminfo, shows the runtime started), and no failure."""
    failed: bool
    """Its output says the GPU was not reached (an error, no platform or device), or clinfo printed nothing at all."""
    line: Line


def _run(block: Block, at: int, container: Optional[str] = None) -> Optional[_Run]:
    """The run at line ``at``; ``container``: where the block's last command into a container above it stands."""
    line = block.lines[at]
    if not line.shell:
        return None
    match = _TOOL_RUN.match(line.text)
    if match is None:
        return None
    prompt = line.raw[: max(0, line.raw.rfind(line.text.strip()))] if line.text.strip() else line.raw
    host_match = _PROMPT_HOST.search(prompt)
    host = host_match.group(1) if host_match else ""
    if host and _CONTAINER_HOST.fullmatch(host):
        host = CONTAINER_PREFIX + host
    elif container is not None:
        # a prompt without a host (or the host's own name kept by --hostname) after docker run/exec: that container's
        host = f"{CONTAINER_PREFIX}{container}:{host}"
    output: List[Line] = []
    for after in block.lines[at + 1 :]:
        if after.shell:
            break
        output.append(after)
    text = "\n".join(o.text for o in output)
    failing = _NO_GPU.search(text) is not None
    gpu_named = _GPU_LISTED.search(text) is not None
    listed = not failing and (gpu_named or (match.group("tool") == "rocminfo" and _RUNTIME_UP.search(text) is not None))
    empty = not text.strip()
    # a run that names a gfx GPU reached it, whatever else it printed ("Permission denied" of another file), and one
    # that found no /dev/kfd is not what sudo mends (review67b)
    failed = not listed and not gpu_named and _KFD_ABSENT.search(text) is None and (
        failing or (empty and match.group("tool") == "clinfo" and block.kind == "fenced")
    )
    return _Run(
        tool=match.group("tool"), folder="" if (match.group("folder") or "./") == "./" else match.group("folder"),
        privileged=match.group("sudo") is not None or _ROOT_PROMPT.search(prompt) is not None,
        host=host, listed=listed, failed=failed, line=line,
    )


def gpu_reached_only_under_sudo(blocks: List[Block]) -> List[Piece]:
    """:data:`GPU_REACHED_ONLY_UNDER_SUDO` at the sudo run's line, once per report."""
    runs: List[_Run] = []
    for number, block in enumerate(blocks):
        if block.scope != "current" or not any(word in block.lower for word in ("rocminfo", "clinfo")):
            continue
        container: Optional[str] = None
        for at, line in enumerate(block.lines):
            if line.shell and _INTO_CONTAINER.match(line.text):
                container = f"{number}:{at}"
                continue
            run = _run(block, at, container)
            if run is not None:
                runs.append(run)
    # the user runs counted once per (tool, host, folder), (runs, failed), so that each privileged run is judged in constant
    # time: a paste of many runs stays linear
    user_runs: Counter = Counter()
    user_failed: Counter = Counter()
    for run in runs:
        if not run.privileged:
            # a user run in a container is that container's only: it is not the hostless user run of this machine
            hosts = (run.host,) if run.host.startswith(CONTAINER_PREFIX) else (None, run.host)
            # counted under any folder ("*") and under the folder it names: two named folders are two installs
            # ("/opt/rocm-5.4.0/bin/rocminfo" beside "sudo /opt/rocm-6.0.0/bin/rocminfo"), review67b
            for host in hosts:
                for key in ((run.tool, host, "*"), (run.tool, host, run.folder)):
                    user_runs[key] += 1
                    user_failed[key] += run.failed
    for root in runs:
        if not (root.privileged and root.listed):
            continue
        # the user runs of the same tool on the same machine: every one where either prompt names no host, else
        # those whose prompt names no host or the same host
        if root.host.startswith(CONTAINER_PREFIX):
            hosts = [root.host]  # root in a container pairs with a user run in the same container only
        elif root.host:
            hosts = ["", root.host]
        else:
            hosts = [None]
        folders = [root.folder, ""] if root.folder else ["*"]
        keys = [(root.tool, host, folder) for host in hosts for folder in folders]
        count = sum(user_runs[key] for key in keys)
        if count and sum(user_failed[key] for key in keys) == count:
            return [make_piece(f"context:{GPU_REACHED_ONLY_UNDER_SUDO}", [root.line], [Observation("symptoms.context", [GPU_REACHED_ONLY_UNDER_SUDO], root.line)])]
    return []
