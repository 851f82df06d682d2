"""Short outputs recognised by the command line that printed them, or by their own shape.

* ``cat /opt/rocm/.info/version`` -> ``6.2.0-66`` (rocm.version, parsed by the shared parser);
* ``hipconfig --version`` -> ``6.2.41133-dd7f95766`` (rocm.hip_version);
* ``python --version`` / ``python3 -V`` -> ``Python 3.12.3`` (python.version);
* ``groups`` -> ``alice adm video render`` (permissions.groups);
* ``uname -r`` -> ``6.8.0-45-generic`` in any distribution's spelling (``6.12.100+deb13-amd64``,
  ``6.17.8-200.nobara.fc43.x86_64``) (host.kernel_release);
* ``id`` -> ``uid=1000(alice) gid=1000(alice) groups=1000(alice),44(video),109(render)``
  (user, root or not, groups), recognised by its shape alone;
* a shell prompt ``alice@host:~$`` / ``root@host:~#`` names the user who ran the commands
  (a hint: ``sudo`` inside the session is not seen).
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional

from rocm_doctor.facts.parsers.rocm_version import parse_hipconfig_version, parse_version_file
from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.formats.platform_strings import kernel_observations
from rocm_doctor.ingest.model import TRUST_HINT, Observation, Piece

_ID = re.compile(r"^\s*uid=(\d{1,18})\(([^)]+)\)\s+gid=\d+\([^)]*\)(?:\s+groups=(\S+))?")
_GROUP = re.compile(r"(?<!\d)\d+\(([^)]+)\)")
_PROMPT_USER = re.compile(r"^[ \t]{0,8}(?:\([\w.-]{1,64}\) ?)?([\w.-]{1,64})@[\w.-]{1,64}:[^$#\n]{0,256}[$#]")
_PYTHON_VERSION = re.compile(r"^\s*Python (\d+\.\d+\.\d+)\s*$")
_KERNEL_RELEASE = re.compile(r"^\s*(\d\.\d{1,2}(?:\.\d{1,3})?[-+.~\w]*)\s*$")


def _groups(names: List[str], line: Line) -> List[Observation]:
    return [
        Observation("permissions.groups", names, line),
        Observation("permissions.in_render_group", "render" in names, line),
        Observation("permissions.in_video_group", "video" in names, line),
    ]


def _rocm_version(text: str, line: Line) -> List[Observation]:
    version = parse_version_file(text)
    return [Observation("rocm.version", version, line)] if version else []


def _hip_version(text: str, line: Line) -> List[Observation]:
    version = parse_hipconfig_version(text) if re.match(r"^\s*\d+\.\d+\.\d+(?:-[0-9a-f]+)?\s*$", text) else None
    return [Observation("rocm.hip_version", version, line)] if version else []


def _python_version(text: str, line: Line) -> List[Observation]:
    match = _PYTHON_VERSION.match(text)
    return [Observation("python.version", match.group(1), line)] if match else []


def _kernel_release(text: str, line: Line) -> List[Observation]:
    match = _KERNEL_RELEASE.match(text)
    return kernel_observations(match.group(1), line) if match else []


def _group_list(text: str, line: Line) -> List[Observation]:
    names = text.split()
    if not names or not all(re.fullmatch(r"[a-z_][a-z0-9_.-]*\$?", n) for n in names):
        return []
    # root's groups always include root: a list without it is a normal user's (a hint, below `id`).
    return _groups(names, line) + [Observation("permissions.is_root", "root" in names, line, TRUST_HINT)]


_COMMANDS: Dict[str, Callable[[str, Line], List[Observation]]] = {
    r"cat\s+/opt/rocm(?:-[\d.]+)?/\.info/version(?:-\w+)?": _rocm_version,
    r"(?:\S*/)?hipconfig\s+(?:--version|-v)": _hip_version,
    r"(?:\S*/)?python[\d.]*(?:\.exe)?\s+(?:--version|-V)": _python_version,
    r"groups": _group_list,
    r"(?:sudo\s+)?uname\s+-r": _kernel_release,
}
_COMPILED = [(re.compile(r"^\s*" + pattern + r"\s*$"), parse) for pattern, parse in _COMMANDS.items()]


def _output_of(lines: List[Line], index: int) -> Optional[Line]:
    for line in lines[index + 1 : index + 3]:
        if line.text.strip():
            return None if line.command else line
    return None


def parse(block: Block) -> List[Piece]:
    lines = list(block.lines)
    pieces: List[Piece] = []
    for i, line in enumerate(lines):
        prompt = _PROMPT_USER.match(line.raw) if line.command else None
        if prompt:
            user = prompt.group(1)
            observations = [Observation("permissions.user", user, line, TRUST_HINT)]
            observations.append(Observation("permissions.is_root", user == "root", line, TRUST_HINT))
            pieces.append(make_piece("shell-prompt", [line], observations))
        match = _ID.match(line.text)
        if match:
            uid, user = int(match.group(1)), match.group(2)
            observations = [Observation("permissions.user", user, line), Observation("permissions.is_root", uid == 0, line)]
            if match.group(3):
                observations += _groups(_GROUP.findall(match.group(3)), line)
            pieces.append(make_piece("id", [line], observations))
            continue
        for pattern, parse_output in _COMPILED:
            if not pattern.match(line.text):
                continue
            output = _output_of(lines, i)
            observations = parse_output(output.text, output) if output is not None else []
            if observations and output is not None:
                pieces.append(make_piece(line.text.split()[0].rsplit("/", 1)[-1], [line, output], observations))
            break
    return pieces
