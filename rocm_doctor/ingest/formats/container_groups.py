"""The supplementary groups a container command gives the container's user.

``docker run``/``podman run --group-add NAME`` (also ``--group-add=NAME``, named in a sentence:
"only adds --group-add video") and a compose file's ``group_add:`` list. Two contexts come out:

* ``container_adds_video_not_render``: video is added and nothing that could grant the render group
  (the name render, a number, a variable or command that computes one, podman's keep-groups).
  /dev/dri/renderD* and, on current distributions, /dev/kfd belong to render on the host, so video
  alone leaves a non-root container user without them (ROCm/vllm#893, ROCm/ROCm-docker#116,
  ROCm/ROCm-docker#93).
* ``container_adds_render_group``: something that may grant it was added (another block of the same
  report may show the full command; a Kubernetes securityContext's ``supplementalGroups`` list counts).
* ``container_render_group_added_by_change``: a diff's added line (``+``) gives the container the render
  group: ``--group-add`` with a value that may grant it (the name render, a number, a command computing the
  host's gid, podman's keep-groups), or a ``group_add:``/``supplementalGroups:`` list (also a commented
  one) with such an item. The report's change is its fix, so the container ran before without the group
  its user needs for /dev/kfd and /dev/dri/renderD*: vllm-project/vllm#27881 (``+ --group-add $(getent
  group render | cut -d: -f3)`` in AMD CI), redhat-et/GKM#174 (``+ --group-add keep-groups`` and
  ``+ # supplementalGroups: [<render-gid-on-node>]`` for a non-root pod), lemonade-sdk/lemonade#2857
  (``+ --group-add video --group-add 992`` after the image's user stopped being root).
* ``container_user_not_root``: the command or compose service names a user that is not root
  (``-u 1000``, ``--user=1000:1000``, ``user: "1000"``), a Kubernetes securityContext does
  (``runAsUser: 1000``, ``runAsNonRoot: true``), or the report says the container runs as an
  unprivileged or non-root user (ROCm/k8s-device-plugin#39, ROCm/rocm-examples#171): groups decide
  what that user may open.
"""

from __future__ import annotations

import itertools
import re
from typing import List, Optional, Tuple

from rocm_doctor.ingest.blocks import Block, Line, command_goes_on
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import TRUST_TEMPLATE, Observation, Piece
from rocm_doctor.lazy_regex import when_used

VIDEO_ONLY = "container_adds_video_not_render"
RENDER_ADDED = "container_adds_render_group"
NOT_ROOT = "container_user_not_root"
ADDED_BY_CHANGE = "container_render_group_added_by_change"

_VALUE = r"[\"']?([\w.${}()|:/ -]{1,80}?)[\"']?(?=[\s\\,\]`]|$)"
_FLAG = when_used(r"(?<![\w-])--group-add(?:=|\s{1,4})" + _VALUE)
_COMPOSE_HEAD = when_used(r"^[ \t]{0,40}(?:-[ \t]{1,4})?(?:group_add|supplementalGroups):[ \t]{0,8}(?:\[(?P<inline>[^\]\n]{0,200})\])?[ \t]{0,8}(?:#[^\n]{0,200})?$")
_RUN = when_used(r"\b(?:docker|podman)\s+(?:container\s+)?(?:run|create)\b")
_ID_VALUE = r"(?:\$\(id\s{1,4}-u\)|\$\{?[A-Za-z_]{1,20}\}?|[\w.-]{1,32})"
"""A user or group: a name or number, a shell variable (``$UID``, ``${USER_ID}``) or the invoking
user's own id computed in place (``$(id -u)``, ``$(id -g)``)."""
_USER_FLAG = when_used(
    r"(?<![\w-])(?:-u|--user)(?:=|\s{1,4})[\"']?(" + _ID_VALUE + r")(?::(?:\$\(id\s{1,4}-g\)|\$\{?[A-Za-z_]{1,20}\}?|[\w.-]{1,32}))?[\"']?(?=\s|\\|$)"
)
_COMPOSE_USER = when_used(r"^[ \t]{2,40}user:[ \t]{0,8}[\"']?(" + _ID_VALUE + r")(?::(?:\$\{?[A-Za-z_]{1,20}\}?|[\w.-]{1,32}))?[\"']?[ \t]{0,8}(?:#[^\n]{0,200})?$")
_NON_ROOT_SAID = when_used(
    r"\b(?:unprivileged|unpriviledged|non-?root)\s{1,4}(?:container\s{1,4})?user\b"
    # h33b: the container run as non-root ("I tend to run my containers as non-root": ROCm/ROCm-docker#114;
    # "running the container as an unprivileged user"). The container must be the object: "the service is
    # started as non-root" is about a host process.
    r"|\b(?:run|runs|running|ran|start|starts|started|starting|launch|launched|launching)\s{1,4}(?:(?:my|the|our|this|these|a|an|every|all)\s{1,4}){0,2}(?:(?:docker|podman|rocm|dev)\s{1,4})?(?:containers?|images?)\s{1,4}(?:as|under)\s{1,4}(?:an?\s{1,4})?(?:non-?\s?root|unprivileged|unpriviledged)\b"
    r"|\brunAsUser:\s{0,4}[1-9]\d{0,9}\b|\brunAsNonRoot:\s{0,4}true\b",
    re.IGNORECASE,
)
_COMPOSE_ITEM = when_used(r"^[ \t]{0,40}-[ \t]{1,4}[\"']?([\w.${}()|:/-]{1,80})[\"']?[ \t]{0,8}(?:#[^\n]{0,200})?$")


_DIFF_ADDED = when_used(r"^\+(?!\+\+)")
"""A diff's added line (not the ``+++ b/file`` header)."""
_DIFF_GROUP_HEAD = when_used(
    r"^\+[ \t]{0,40}(?:#[ \t]{0,4})?(?:-[ \t]{1,4})?(?:group_add|supplementalGroups):[ \t]{0,8}(?:\[(?P<inline>[^\]\n]{0,200})\])?"
)
_DIFF_ITEM = when_used(r"^\+[ \t]{0,40}(?:#[ \t]{0,4})?-[ \t]{1,4}[\"']?([\w.${}()|:/<>-]{1,80}?)[\"']?[ \t]{0,8}(?:#[^\n]{0,200})?$")


_DIFF_MARK = when_used(r"^(?:@@ |diff --git |\+\+\+ |--- a/)", re.MULTILINE)
"""A unified diff's own header or hunk line. Without one, a ``+`` run is an added line only in a file's form, not a
Markdown list's or a trace's (review rev55h: "+ added --group-add render to the docs" is prose, not a change), so a
hunk whose fence was lost still reads (learn56f: redhat-et/GKM#174, vllm-project/vllm#27881 unfenced)."""
_GPU_NODES = when_used(r"/dev/kfd|/dev/dri|renderD\d|\brender\b|amd\.com/gpu", re.IGNORECASE)
"""The diff itself concerns the GPU's nodes: a bare number or variable added as a group is then the render gid
(lemonade-sdk/lemonade#2857 ``--group-add 992`` beside ``--device=/dev/kfd``), not any service's group (review
rev55h: a postgres service's ``group_add: ["999"]`` in an unrelated compose file)."""


_TRACE_OR_LIST = when_used(r"^\+[ \t]\S")
"""A ``+`` line in a shell trace's or a Markdown list's form: one blank, then a word."""


def _hunk_added(lines: Tuple[Line, ...], headed: bool = True) -> "set[int]":
    """The indices of ``+`` lines that sit among a diff's other lines: the unbroken run of ``+`` lines holding one
    has a context line (a leading space), a removed line or a header/hunk line right above it, or a removed or
    header/hunk line right below it. A shell trace (``set -x``: ``+ docker run ... --group-add render`` then its output,
    ``++ getent group render``) is the command that ran, not a change (review rev55h); its output may be indented (a
    traceback's ``  File "<string>", line 1``), so an indented line below a run is no diff's context (read55). So is a
    Markdown ``+`` list. Without a diff header (``headed`` false: a hunk pasted alone, fenced or with its fence lost), a
    run whose every line is ``+ `` and a word is a trace's commands or a Markdown list, never a hunk: a file's added
    line starts at its margin (``+docker run``, ``+- Podman``, ``+**AMD GPUs:**``) or indented as code
    (``+          --group-add``), and a trace's output indented above its next command is no context line (learn56f).
    Nor, there, is a ``- `` line and a word beside it a removed line: it is a Markdown list's item ("- same here" over
    "+1, --group-add render did not help").
    One pass over the lines."""

    def removed_or_header(raw: str) -> bool:
        # only a line next to a run is asked, never a ``+`` one (``+++ b/file`` belongs to the run); ``--- a/file`` is a "-" line
        return raw.startswith(("@@", "diff --git")) or raw[:1] == "-"

    def diff_line(raw: str) -> bool:
        return removed_or_header(raw) or raw[:1] in (" ", "\t")

    def in_file_form(raw: str) -> bool:
        # without a header, a context or removed line whose mark is followed by one blank and a word is a list's item
        # or a trace's indented output (the form _TRACE_OR_LIST reads, its mark taken for a "+")
        return headed or not _TRACE_OR_LIST.match("+" + raw[1:])

    out: "set[int]" = set()
    at = 0
    while at < len(lines):
        if not lines[at].raw.startswith("+"):
            at += 1
            continue
        end = at
        while end < len(lines) and lines[end].raw.startswith("+"):
            end += 1
        run = range(at, end)
        traced = any(lines[i].raw.startswith("++ ") for i in run) or (
            not headed and all(_TRACE_OR_LIST.match(lines[i].raw) for i in run)
        )
        above, below = (lines[at - 1].raw if at > 0 else None), (lines[end].raw if end < len(lines) else None)
        beside = (above is not None and diff_line(above) and in_file_form(above)) or (
            below is not None and removed_or_header(below) and in_file_form(below)
        )
        if beside and not traced:
            out.update(run)
        at = end
    return out


def _names_render(value: str) -> bool:
    low = value.strip().lower()
    return "render" in low or low == "keep-groups"


def _added_by_change(block: Block) -> List[Line]:
    """Added diff lines (``+``) that give the container a group that may be the render group."""
    out: List[Line] = []
    lines = block.lines
    about_gpu = _GPU_NODES.search(block.text) is not None
    grants = _grants_render if about_gpu else _names_render
    in_hunk = _hunk_added(lines, _DIFF_MARK.search(block.text) is not None)
    for index, line in enumerate(lines):
        if index not in in_hunk or not _DIFF_ADDED.match(line.raw):
            continue
        if any(grants(match.group(1).rstrip(".,;:")) for match in _FLAG.finditer(line.text)):
            out.append(line)
            continue
        head = _DIFF_GROUP_HEAD.match(line.raw)
        if head is None:
            continue
        if head.group("inline") is not None:
            if any(grants(item.strip().strip("\"'")) for item in head.group("inline").split(",") if item.strip()):
                out.append(line)
            continue
        for row in lines[index + 1 : index + 17]:
            item = _DIFF_ITEM.match(row.raw)
            if item is None:
                break
            if grants(item.group(1)):
                out.append(row)
                break
    return out


def _grants_render(value: str) -> bool:
    """``value`` may add the group that owns the render nodes: its name, a number (the host's gid), a
    shell or compose variable or command that computes one, or podman's keep-groups."""
    low = value.strip().lower()
    return "render" in low or low.isdigit() or "$" in low or low == "keep-groups"


def _values(block: Block) -> List[Tuple[str, Line]]:
    found: List[Tuple[str, Line]] = []
    lines = block.lines
    for index, line in enumerate(lines):
        for match in _FLAG.finditer(line.text):
            found.append((match.group(1).rstrip(".,;:"), line))  # "only adds --group-add video."
        head = _COMPOSE_HEAD.match(line.text)
        if head is None:
            continue
        if head.group("inline") is not None:
            found.extend((item.strip().strip("\"'"), line) for item in head.group("inline").split(",") if item.strip())
            continue
        for row in lines[index + 1 : index + 17]:
            item = _COMPOSE_ITEM.match(row.text)
            if item is None:
                break
            found.append((item.group(1), row))
    return found


_NO_VALUE = frozenset((
    "--rm", "--detach", "--interactive", "--tty", "--privileged", "--init", "--read-only", "--publish-all",
    "--no-healthcheck", "--oom-kill-disable", "--sig-proxy", "--quiet", "--help", "--disable-content-trust",
    "--replace", "--use-api-socket",
))
"""``docker run``/``podman run`` options that take no value (the BoolVar flags of
https://github.com/docker/cli/blob/143a7abee6cdbd8c18cc9f9c24192085c743d667/cli/command/container/opts.go
and of run.go beside it; podman's --replace): the word after one of them is the image, not the option's value."""
_SHORT_FLAGS = when_used(r"-[ditPq]{1,5}")
"""Short options that take no value, alone or clustered (``-it``, ``-dit``)."""
_TOKEN = when_used(r"\S+")
_ELIDED = when_used(r"\[?(?:\.{2,}|…)\]?")


def docker_options(text: str, start: int, expecting: bool) -> Tuple[str, bool, bool]:
    """The part of a ``docker run`` line from ``start`` that holds the command's own options, whether
    the line's last option waits for its value on the next line, and whether the image was reached:
    the words after the image (``rocm/pytorch python -u train.py``) are the container's command, whose
    flags (python's ``-u``, unbuffered) are not docker's."""
    for token in _TOKEN.finditer(text, start):
        word = token.group(0)
        if word == "\\" or _ELIDED.fullmatch(word):
            continue  # a continuation, or options the reporter left out ("docker run ... -u 1000 image")
        if expecting:
            expecting = False
            continue
        if not word.startswith("-"):
            return text[start : token.start()], False, True
        if "=" not in word and word not in _NO_VALUE and not _SHORT_FLAGS.fullmatch(word):
            expecting = True
    return text[start:], expecting, False


def _non_root_users(block: Block) -> List[Line]:
    """Lines of a ``docker``/``podman run`` command (continued over ``\\`` lines, up to its image) or a
    compose service that run the container as a named user other than root (0)."""
    out: List[Line] = []
    in_command = expecting = False
    for index, line in enumerate(block.lines):
        text = line.text
        run = _RUN.search(text)
        if run is not None:
            in_command, expecting = True, False
        if in_command:
            options, expecting, at_image = docker_options(text, run.end() if run is not None else 0, expecting)
            out.extend(line for match in _USER_FLAG.finditer(options) if match.group(1).lower() not in ("0", "root"))
            if at_image:
                in_command = False
        if not command_goes_on(block.lines, index, expecting):
            in_command = False
        user = _COMPOSE_USER.match(text)
        if user is not None and user.group(1).lower() not in ("0", "root"):
            out.append(line)
        elif any(_said_as_state(text, match) for match in itertools.islice(_NON_ROOT_SAID.finditer(text), _SAID_TRIED)):
            out.append(line)
    return out


_SENTENCE_END = when_used(r"[.!?](?=\s|$)")
_NOT_A_STATE_BEFORE = when_used(
    r"\b(?:how|can|could|should|would|if|whether|recommend\w*|suggest\w*|advis\w*|best\s{1,4}practices?|"
    r"possible|plan(?:s|ned|ning)?|instead\s{1,4}of)\b",
    re.IGNORECASE,
)


_SAID_TRIED = 16
"""Sayings of a non-root user tried in one line; with the windows below the check stays linear in the line."""
_WINDOW = 300
"""Characters before and after a saying searched for its sentence's start, end and words."""


def _said_as_state(text: str, match: "re.Match[str]") -> bool:
    """Whether the sentence holding ``match`` says how the container runs now: not a question ("How do I
    run the container as non-root?"), advice ("the docs recommend running containers as non-root"), nor a
    condition (r33a). "I want to run the container with an unprivileged user" is the reporter's attempt
    (ROCm/k8s-device-plugin#39) and is read."""
    window = max(0, match.start() - _WINDOW)
    start = max((end.end() for end in _SENTENCE_END.finditer(text, window, match.start())), default=window)
    after = _SENTENCE_END.search(text, match.end(), match.end() + _WINDOW)
    if after is not None and after.group(0) == "?":
        return False
    return _NOT_A_STATE_BEFORE.search(text, start, match.start()) is None


_DOCKERFILE_FROM = when_used(r"^[ \t]{0,8}FROM[ \t]{1,4}(?:--platform=\S{1,40}[ \t]{1,4})?[\w.${}/:@-]{1,200}(?:[ \t]{1,4}AS[ \t]{1,4}[\w.-]{1,40})?[ \t]{0,8}$", re.IGNORECASE)
_DOCKERFILE_USER = when_used(r"^[ \t]{0,8}USER[ \t]{1,4}[\"']?(" + _ID_VALUE + r")(?::\S{1,40})?[\"']?[ \t]{0,8}(?:#[^\n]{0,200})?$")
_DOCKERFILE_GROUPS = when_used(r"\b(?:usermod|adduser|gpasswd|addgroup|groupadd|useradd)\b[^\n]{0,200}\b(?:render|video)\b|\bgroup_add\b|\$\{?RENDER_GID\b")


def _dockerfile_user(block: Block) -> List[Line]:
    """The last ``USER`` line of a Dockerfile shown in the block (one with a ``FROM`` line), in its final
    stage (each ``FROM`` starts a stage as root), when it names a user other than root: the image's processes run as that user (ROCm/ROCm-docker#114, #36,
    ROCm/rocm-examples#171). Not when the Dockerfile puts a user into video or render itself
    (``usermod -aG video,render``, a ``RENDER_GID`` build argument): whether those ids are the host's,
    the file alone does not say."""
    if not any(_DOCKERFILE_FROM.match(line.text) for line in block.lines):
        return []
    last: Optional[Tuple[str, Line]] = None
    for line in block.lines:
        if _DOCKERFILE_FROM.match(line.text):
            last = None  # each stage starts as root: only the final stage's USER is the image's (r33a)
            continue
        user = _DOCKERFILE_USER.match(line.text)
        if user is not None:
            last = (user.group(1).lower(), line)
    if last is None or last[0] in ("0", "root") or _DOCKERFILE_GROUPS.search(block.text):
        return []
    return [last[1]]


PODMAN_BY_ROOT = "podman_run_by_root"
_ROOT_PROMPT = when_used(r"^[ \t]{0,8}(?:\([\w.-]{1,64}\) ?)?(?:root@[\w.-]{1,64}:[^$#\n]{0,256}#|\[root@[\w.-]{1,64}[^\]\n]{0,256}\]#)")
_PODMAN_RUN = when_used(r"\bpodman\s{1,4}(?:container\s{1,4})?(?:run|create)\b|\bpodman-compose\s{1,4}(?:up|run)\b")


def _podman_by_root(block: Block) -> List[Line]:
    """Lines that run ``podman run``/``create`` at root's shell prompt (``root@host:~#``, ``[root@host ~]#``):
    podman run by root is the rootful engine, whose containers keep the groups given to them (r33a; the
    signature podman_container_started cannot see the prompt, which the block reader strips)."""
    return [line for line in block.lines if line.command and _ROOT_PROMPT.match(line.raw) and _PODMAN_RUN.search(line.text)]


def parse(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    by_root = _podman_by_root(block) if "podman" in block.lower else []
    if by_root:
        pieces.append(make_piece(f"context:{PODMAN_BY_ROOT}", by_root[:1], [Observation("symptoms.context", [PODMAN_BY_ROOT], by_root[0], TRUST_TEMPLATE)]))
    users = _non_root_users(block) or _dockerfile_user(block)
    if users:
        pieces.append(make_piece(f"context:{NOT_ROOT}", users[:1], [Observation("symptoms.context", [NOT_ROOT], users[0], TRUST_TEMPLATE)]))
    added = _added_by_change(block) if "+" in block.text else []
    if added:
        pieces.append(make_piece(f"context:{ADDED_BY_CHANGE}", added[:1], [Observation("symptoms.context", [ADDED_BY_CHANGE], added[0], TRUST_TEMPLATE)]))
    return pieces + _groups(block)


def _groups(block: Block) -> List[Piece]:
    found = _values(block)
    if not found:
        return []
    granting = [line for value, line in found if _grants_render(value)]
    if granting:
        return [make_piece(f"context:{RENDER_ADDED}", granting[:1], [Observation("symptoms.context", [RENDER_ADDED], granting[0], TRUST_TEMPLATE)])]
    video = [line for value, line in found if value.strip().lower() == "video"]
    if not video:
        return []
    return [make_piece(f"context:{VIDEO_ONLY}", video[:1], [Observation("symptoms.context", [VIDEO_ONLY], video[0], TRUST_TEMPLATE)])]
