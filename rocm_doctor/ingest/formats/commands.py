"""Short outputs recognised by the command line that printed them, or by their own shape.

* ``cat /opt/rocm/.info/version`` -> ``6.2.0-66`` (rocm.version, parsed by the shared parser);
* ``hipconfig --version`` -> ``6.2.41133-dd7f95766`` (rocm.hip_version);
* ``python --version`` / ``python3 -V`` -> ``Python 3.12.3`` (python.version);
* ``groups`` -> ``alice adm video render`` (permissions.groups);
* ``uname -r`` -> ``6.8.0-45-generic`` in any distribution's spelling (``6.12.100+deb13-amd64``,
  ``6.17.8-200.nobara.fc43.x86_64``) (host.kernel_release);
* ``id`` -> ``uid=1000(alice) gid=1000(alice) groups=1000(alice),44(video),109(render)``
  (user, root or not, groups), recognised by its shape alone;
* ``groups NAME`` -> ``NAME : NAME adm video`` and ``id NAME``: an account's groups in the group
  database, not the session's (see :func:`_account_groups`); root's say nothing of the user;
* ``usermod -aG render ...`` before a bare ``groups``/``id`` without render in the same transcript:
  the group was added to the account after this session started (context
  :data:`GROUP_ADDED_NOT_IN_SESSION`);
* a shell prompt ``alice@host:~$`` / ``root@host:~#`` names the user who ran the commands
  (a hint: ``sudo`` inside the session is not seen).
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional, Tuple

from rocm_doctor.facts.parsers.rocm_version import parse_hipconfig_version, parse_version_file
from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.formats.platform_strings import kernel_observations
from rocm_doctor.ingest.formats.rocminfo import ran_in_container
from rocm_doctor.ingest.model import TRUST_HINT, TRUST_TOOL, Observation, Piece
from rocm_doctor.lazy_regex import when_used

GROUPS_IN_CONTAINER = "groups_printed_in_container"
"""Context id: a bare ``groups``/``id`` ran inside a container (a container's prompt, after ``docker run
-it``/``exec``, under "inside the container"): the groups are the container user's, whose names are the
image's, not the host user's (RD613 judges a container's user)."""

GROUP_ADDED_NOT_IN_SESSION = "gpu_group_added_not_in_session"
"""Context id: the transcript adds the user to render (or video) with usermod/gpasswd, and a later bare
``groups``/``id`` of the same transcript, which prints the session's groups, still lacks it."""

_ID = when_used(r"^\s*uid=(\d{1,18})\(([^)]+)\)\s+gid=\d+\([^)]*\)(?:\s+groups=(\S+))?")
_GROUP = when_used(r"(?<!\d)\d+\(([^)]+)\)")
_PROMPT_USER = when_used(r"^[ \t]{0,8}(?:\([\w.-]{1,64}\) ?)?([\w.-]{1,64})@[\w.-]{1,64}:[^$#\n]{0,256}[$#]")
_ACCOUNT_COMMAND = when_used(r"^\s*(?:sudo\s+)?(?:id|groups)(?:\s+-\w+)*\s+([a-z_][\w.-]{0,31}\$?)\s*$")
_ACCOUNT_GROUPS = when_used(r"^\s*([a-z_][\w.-]{0,31}\$?)\s+:\s+([a-z_][\w.\s$-]{0,2000})$")
_BARE_GROUPS = when_used(r"^\s*groups\s*$")
"""``groups`` without a name: the running session's groups."""
_ID_OR_GROUPS = when_used(r"^\s*(?:sudo\s+)?(?:id|groups)\b")
_SELF = r"(?:\$USER|\$\{USER\}|\$LOGNAME|\$\{LOGNAME\}|\$\(whoami\)|`whoami`|\$\(id\s+-un\))"
_PYTHON_VERSION = when_used(r"^\s*Python (\d+\.\d+\.\d+)\s*$")
_KERNEL_RELEASE = when_used(r"^\s*(\d\.\d{1,2}(?:\.\d{1,3})?[-+.~\w]*)\s*$")
_GROUP_ADDS = (
    # usermod -aG render,video $USER / usermod -a -G video,render alice
    when_used(r"^\s*(?:sudo\s+)?usermod\s+(?:-\w+\s+)*-a?G\s*([\w,]+)\s+(?:-\w+\s+)*(\S+)\s*$"),
    # gpasswd -a $USER render / adduser $USER render (user first, then the group)
    when_used(r"^\s*(?:sudo\s+)?(?:gpasswd\s+-a|adduser)\s+(\S+)\s+(render|video)\s*$"),
)


_ADVICE_ABOVE = when_used(
    r"\b(?:guide|docs?|documentation|readme|instructions?|wiki|tutorial|manual|says?|suggests?|recommends?|should"
    r"|need\s{1,4}to|have\s{1,4}to|supposed\s{1,4}to|tells?\s{1,4}(?:me|you|us)\s{1,4}to)\b[^\n]{0,120}:\s*$",
    re.IGNORECASE,
)
"""A prose line that introduces a command as what a guide says or advises ("The install guide says:"): the
command below it is quoted, not shown to have run."""
_NEW_LOGIN = when_used(
    r"\b(?:reboot(?:ed|ing)?|restart(?:ed|ing)?\s{1,4}(?:the\s{1,4}|my\s{1,4})?(?:pc|computer|machine|system|session)"
    r"|log(?:ged|ging)?\s{0,2}(?:out|off)|re-?log(?:ged|ging)?(?:\s{0,2}in)?|logged\s{1,4}(?:back\s{1,4})?in|newgrp)\b",
    re.IGNORECASE,
)
"""A reboot, logout or new login between the usermod and the list: the list is of a session started after
the change, so a group it lacks is not explained by the session's age."""


def _quoted_advice(lines: List[Line], index: int) -> bool:
    """The command at ``index`` sits under a prose line that introduces it as a guide's or advice's."""
    for line in reversed(lines[max(0, index - 2) : index]):
        if line.text.strip():
            return not line.command and bool(_ADVICE_ABOVE.search(line.text))
    return False


def _group_added(text: str) -> Optional[Tuple[str, List[str]]]:
    """(user, GPU groups) a usermod/gpasswd/adduser command line adds; anchored, so linear in the line."""
    usermod, other = (pattern.match(text) for pattern in _GROUP_ADDS)
    if usermod:
        groups, user = usermod.group(1).split(","), usermod.group(2)
    elif other:
        user, groups = other.group(1), [other.group(2)]
    else:
        return None
    wanted = [group for group in groups if group in ("render", "video")]
    return (user, wanted) if wanted else None


_PRIMARY_GID = when_used(r"\bgid=(\d{1,10})\(")
_LISTED_GID = when_used(r"(\d{1,10})(?:\([^)]*\))?")


def _group_ids(text: str, listed: str) -> Tuple[List[int], List[int]]:
    """The numbers of an ``id`` line's group and ``groups=`` list, in order, each once, and those of them shown
    without a name. A group without a name where ``id`` ran shows as a bare number
    (``groups=1000(developer),44(video),109(render),110``: a host's gid given with --group-add,
    ROCm/rocm-examples#172); each comma-separated item is read on its own, so the scan stays linear."""
    ids: List[int] = []
    unnamed: List[int] = []
    primary = _PRIMARY_GID.search(text)
    for item in ([primary.group(1) + "()"] if primary else []) + listed.split(","):
        number = _LISTED_GID.fullmatch(item)
        if number is None or int(number.group(1)) in ids:
            continue
        ids.append(int(number.group(1)))
        if "(" not in item:
            unnamed.append(int(number.group(1)))
    return ids, unnamed


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
_COMPILED = [(when_used(r"^\s*" + pattern + r"\s*$"), parse) for pattern, parse in _COMMANDS.items()]


def _output_of(lines: List[Line], index: int) -> Optional[Line]:
    for line in lines[index + 1 : index + 3]:
        if line.text.strip():
            return None if line.command else line
    return None


def _command_before(lines: List[Line], index: int) -> Optional[Line]:
    """The command line right above the output line at ``index`` (blank lines between), if any."""
    for line in reversed(lines[max(0, index - 3) : index]):
        if line.text.strip():
            return line if line.command or _ACCOUNT_COMMAND.match(line.text) or _ID_OR_GROUPS.match(line.text) else None
    return None


def _account_groups(user: str, names: List[str], line: Line) -> List[Observation]:
    """``groups NAME`` / ``id NAME``: the account's groups in the group database, which a process
    gets only at its next login (initgroups), so a group listed here may be missing from the running
    session (metal3-io/metal3-dev-env#1317: ``id`` without libvirt, ``id ubuntu`` with it; moby/moby#1614).
    What the account lacks, the session lacks too: only the missing groups are read. Root's groups
    say nothing of the user who ran the program, and are not read."""
    if user == "root":
        return []
    observations = [
        Observation("permissions.user", user, line, TRUST_HINT),
        Observation("permissions.is_root", False, line, TRUST_HINT),
        Observation("permissions.groups", names, line, TRUST_HINT),
    ]
    if "render" not in names:
        observations.append(Observation("permissions.in_render_group", False, line, TRUST_HINT))
    if "video" not in names:
        observations.append(Observation("permissions.in_video_group", False, line, TRUST_HINT))
    return observations


def _added_not_in_session(lines: List[Line]) -> Optional[Piece]:
    """A usermod (gpasswd, adduser) adding the running user to render or video, then a bare ``groups``
    or ``id`` of the same transcript whose output (the session's groups) lacks that group: the session
    started before the change, or the change went to another account."""
    added: Dict[str, Line] = {}
    for i, line in enumerate(lines):
        add = _group_added(line.text)
        if add is not None and re.fullmatch(_SELF, add[0]):
            if not _quoted_advice(lines, i):
                for group in add[1]:
                    added.setdefault(group, line)
            continue
        if not added:
            continue
        if _NEW_LOGIN.search(line.text):
            added = {}  # the session listed below started after the change
            continue
        names: Optional[List[str]] = None
        match = _ID.match(line.text)
        command = _command_before(lines, i)
        if match and match.group(3) and not (command is not None and _ACCOUNT_COMMAND.match(command.text)):
            names = _GROUP.findall(match.group(3)) if int(match.group(1)) != 0 else None
        elif _BARE_GROUPS.match(line.text):
            output = _output_of(lines, i)
            names = output.text.split() if output is not None else None
            line = output if output is not None else line
        if names is None:
            continue
        missing = [group for group in added if group not in names]
        if missing:
            return make_piece(f"context:{GROUP_ADDED_NOT_IN_SESSION}", [added[missing[0]], line],
                              [Observation("symptoms.context", [GROUP_ADDED_NOT_IN_SESSION], line, TRUST_TOOL)])
    return None


def _account_has_what_session_lacks(lines: List[Line]) -> Optional[Piece]:
    """``id NAME`` (or ``groups NAME``) lists render or video for the account that a bare ``id`` of the
    same transcript, run by that user, lacks: the database has the group, the session does not yet
    (metal3-io/metal3-dev-env#1317 prints both)."""
    session: Optional[Tuple[str, List[str], Line]] = None
    account: Dict[str, Tuple[List[str], Line]] = {}
    for i, line in enumerate(lines):
        match = _ID.match(line.text)
        command = _command_before(lines, i)
        named = _ACCOUNT_COMMAND.match(command.text) if command is not None else None
        if match and match.group(3) and int(match.group(1)) != 0:
            names = _GROUP.findall(match.group(3))
            if named:
                account[match.group(2)] = (names, line)
            elif session is None:
                session = (match.group(2), names, line)
            continue
        listed = _ACCOUNT_GROUPS.match(line.text)
        if listed and named:
            account[listed.group(1)] = (listed.group(2).split(), line)
    if session is None or session[0] not in account:
        return None
    names, line = account[session[0]]
    if any(group in names and group not in session[1] for group in ("render", "video")):
        return make_piece(f"context:{GROUP_ADDED_NOT_IN_SESSION}", [session[2], line],
                          [Observation("symptoms.context", [GROUP_ADDED_NOT_IN_SESSION], session[2], TRUST_TOOL)])
    return None


def _session_groups_in_container(block: Block, lines: List[Line]) -> Optional[Piece]:
    """The first bare ``groups``/``id`` output of the block that ran inside a container."""
    for i, line in enumerate(lines):
        output: Optional[Line] = None
        if _ID.match(line.text):
            command = _command_before(lines, i)
            output = line if command is None or not _ACCOUNT_COMMAND.match(command.text) else None
        elif _BARE_GROUPS.match(line.text):
            output = _output_of(lines, i)
        if output is not None and ran_in_container(block, output):
            return make_piece(f"context:{GROUPS_IN_CONTAINER}", [output], [Observation("symptoms.context", [GROUPS_IN_CONTAINER], output, TRUST_TOOL)])
    return None


def parse(block: Block) -> List[Piece]:
    lines = list(block.lines)
    pieces: List[Piece] = []
    relogin = _added_not_in_session(lines) or _account_has_what_session_lacks(lines)
    if relogin is not None:
        pieces.append(relogin)
    inside = _session_groups_in_container(block, lines)
    if inside is not None:
        pieces.append(inside)
    for i, line in enumerate(lines):
        prompt = _PROMPT_USER.match(line.raw) if line.command else None
        if prompt:
            user = prompt.group(1)
            observations = [Observation("permissions.user", user, line, TRUST_HINT)]
            observations.append(Observation("permissions.is_root", user == "root", line, TRUST_HINT))
            pieces.append(make_piece("shell-prompt", [line], observations))
        account = _ACCOUNT_COMMAND.match(line.text)
        if account:
            output = _output_of(lines, i)
            listed = _ACCOUNT_GROUPS.match(output.text) if output is not None else None
            if output is not None and listed and listed.group(1) == account.group(1):
                observations = _account_groups(account.group(1), listed.group(2).split(), output)
                if observations:
                    pieces.append(make_piece("groups-of-account", [line, output], observations))
            continue
        match = _ID.match(line.text)
        if match:
            uid, user = int(match.group(1)), match.group(2)
            command = _command_before(lines, i)
            named = _ACCOUNT_COMMAND.match(command.text) if command is not None else None
            if named:
                # `id NAME`: that account's groups in the database, not this session's.
                names = _GROUP.findall(match.group(3)) if match.group(3) else []
                observations = _account_groups(user, names, line) if uid != 0 and match.group(3) else []
                if observations:
                    pieces.append(make_piece("id-of-account", [command, line], observations))
                continue
            observations = [Observation("permissions.user", user, line), Observation("permissions.is_root", uid == 0, line)]
            if match.group(3):
                observations += _groups(_GROUP.findall(match.group(3)), line)
                ids, unnamed = _group_ids(line.text, match.group(3))
                if ids:
                    observations.append(Observation("permissions.group_ids", ids, line))
                    observations.append(Observation("permissions.unnamed_group_ids", unnamed, line))
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
