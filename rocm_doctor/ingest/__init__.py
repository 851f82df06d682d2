"""Read a pasted bug report (``check --from FILE``) into facts.

Pipeline: :func:`~rocm_doctor.ingest.blocks.split_blocks` cuts the text into
blocks; every format parser in :data:`PARSERS` and the signature matcher look at
every block and return the pieces they recognise, each with partial facts and
the lines they came from; :func:`~rocm_doctor.ingest.assemble.assemble` weighs
them into one :class:`~rocm_doctor.facts.model.Facts`. Unrecognised text is
ignored; facts the text does not give stay unknown. Nothing here raises on any
input text: a parser that fails on a block is skipped for that block.

Public API: :func:`ingest_text`, :func:`ingest_report_file` (an
:class:`IngestResult` with ``facts`` and ``pieces``), :func:`facts_from_report_file`
(what ``--from`` calls) and :func:`render_pieces` (the "recognised" lines
``check --from`` prints).
"""

from __future__ import annotations

import bisect
import gc
import os
import select
import stat
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Set, Tuple

from rocm_doctor.crashlog import write_crash_log
from rocm_doctor.errors import InputError
from rocm_doctor.files import read_limited
from rocm_doctor.limits import PASTE_BYTES, PASTE_LINES, PASTE_WAIT, LimitError
from rocm_doctor.facts.model import Crash, Facts
from rocm_doctor.ingest.assemble import Conflict, assemble
from rocm_doctor.ingest.blocks import Block, command_runs, expected_lines, output_end, split_blocks, without_repeats
from rocm_doctor.ingest.formats import (
    build_targets,
    clinfo,
    collect_env,
    fields,
    commands,
    container_device_gids,
    container_devices,
    container_groups,
    env_settings,
    extension_cuda_import,
    hip_code_objects,
    hip_devices,
    install_log,
    json_docs,
    link_libraries,
    loaded_libraries,
    loader_libraries,
    mentions,
    nvidia_smi,
    ollama_version,
    therock_family,
    packages,
    pip,
    pip_show,
    python_session,
    release_archives,
    resolutions,
    rocminfo,
    smi,
    sudo_runs,
    system,
    wheel_index,
    windows_adapters,
)
from rocm_doctor.ingest.model import TRUST_PROSE, ConflictInfo, IngestResult, Observation, Piece, PieceInfo
from rocm_doctor.ingest.signatures import match_block, name_context_rows, statement_kinds

__all__ = [
    "IngestResult",
    "PieceInfo",
    "REPORT_MARKER",
    "facts_from_report_file",
    "ingest_report_file",
    "ingest_text",
    "read_report",
    "render_conflicts",
    "render_pieces",
]

REPORT_MARKER = "<!-- rocm-doctor report"
"""First line of a report written by ``rocm-doctor report``: its facts JSON is used alone."""
MAX_REPORT_BYTES = PASTE_BYTES.value

Parser = Callable[[Block], List[Piece]]
Gate = Callable[[Block], bool]


def _has(*words: str) -> Gate:
    """A gate that opens when the block's lower-cased text contains any of ``words``."""
    return lambda block: any(word in block.lower for word in words)


def _always(block: Block) -> bool:
    return True


EVERY_LINE, SAMPLE = True, False

PARSERS: List[Tuple[Parser, Gate, bool]] = [
    (json_docs.parse, lambda block: "{" in block.text or "[" in block.text, EVERY_LINE),
    (collect_env.parse, _has("pytorch version", "is cuda available", "rocm used to build", "[pip3]", "[conda]"), SAMPLE),
    (rocminfo.parse, _has("agent", "marketing name", "rock module", "wsl environment", "amdgcn-amd-amdhsa", "name:"), EVERY_LINE),
    (rocminfo.container_context, _has("rock module is not loaded"), SAMPLE),
    (smi.parse, _has("smi", "gpu[", "gpu:", "market_name", "card series", "driver version"), EVERY_LINE),
    (clinfo.parse, _has("board name:"), EVERY_LINE),
    (hip_devices.parse, _has("device#", "ggml_", "msg="), EVERY_LINE),
    (packages.parse, _always, SAMPLE),
    (pip.parse, lambda block: "==" in block.text or " @ " in block.text or "package" in block.lower or "torch" in block.lower or "triton" in block.lower, SAMPLE),
    (pip_show.parse, _has("version:"), SAMPLE),
    (install_log.parse, _has("successfully installed", "found existing installation", "requirement already satisfied", "uninstall", "installed ", "collecting torch", "torch-", "- torch=="), SAMPLE),
    (wheel_index.parse, _has("download.pytorch.org"), SAMPLE),
    (ollama_version.parse, _has("ollama", "(version "), SAMPLE),
    (therock_family.parse, _has("/v2/", "/v2-staging/", "sdk-libraries", "sdk_libraries"), SAMPLE),
    (build_targets.parse, _has("targets", "rocm_arch", "architectures", "amdgpu versions"), SAMPLE),
    (release_archives.parse, _has("-bin-win-"), SAMPLE),
    (hip_code_objects.parse, _has("devices:", "bundled code objects:"), EVERY_LINE),
    (system.parse, _has("linux", "id=", "amdgpu", "controller", "device-", "version_id"), EVERY_LINE),
    (windows_adapters.parse, _has("videocontroller"), EVERY_LINE),
    (nvidia_smi.parse, _has("nvidia-smi"), EVERY_LINE),
    (commands.parse, lambda block: any(line.command for line in block.lines) or "uid=" in block.text, SAMPLE),
    (python_session.parse, _has("torch"), SAMPLE),
    (fields.parse, _always, SAMPLE),
    (mentions.parse, _always, SAMPLE),
    (resolutions.parse, _always, SAMPLE),
    (loader_libraries.parse, lambda block: ".so" in block.lower, SAMPLE),
    (extension_cuda_import.parse, _has("cannot open shared object file"), SAMPLE),
    (loaded_libraries.parse, _has(" => /", " from /", "calling init:"), EVERY_LINE),
    (link_libraries.parse, _has("undefined reference", "rpath-link", "libhsa-runtime64.so"), EVERY_LINE),
    (container_devices.parse, _has("renderd", "docker", "podman", "kfd", "devices:"), SAMPLE),
    (container_device_gids.parse, _has("kfd", "renderd", "supplementalgroups"), EVERY_LINE),
    (container_groups.parse, _has("group-add", "group_add", "--user", "-u ", "user:", "root user", "runasuser", "runasnonroot", "ged user", "supplementalgroups", "non-root", "non root", "nonroot", "unprivileged", "\nuser ", "podman"), SAMPLE),
    (env_settings.parse, lambda block: "=" in block.text or "set" in block.lower or "env" in block.lower or "echo" in block.lower
     or ("empty" in block.lower and "hsa_override_gfx_version" in block.lower), SAMPLE),
    (match_block, _always, SAMPLE),
]
"""Every recogniser with the cheap test that says whether it can find anything in a block, and
whether it reads every line (tool outputs where each of many alike lines is one more device) or the
block without its many-times-repeated lines (free text: :func:`~rocm_doctor.ingest.blocks.without_repeats`)."""


SOFT_KINDS = ("report-fields", "python-session", "mentions", packages.NAMED_KIND, install_log.KIND, resolutions.KIND)
"""Recognisers of loose text; inside a tool's output they add nothing and are dropped."""

PROMPT_KINDS = ("shell-prompt",)
"""Pieces read from a shell prompt (the user in ``user@host:~$``): the command after the prompt is
the report's own text, not a tool's output, so loose readers still read it (``user@host:~$
toolbox create ... --device /dev/kfd`` says the program runs in a container)."""


LISTING_LINES = 3
"""A tool piece this many lines long is a listing (rocminfo, collect_env, lspci ...): loose readings of
any fact inside it add nothing. A shorter one (a package version named in a sentence) replaces only
the loose readings of the facts it gives itself."""


def _tool_pieces(pieces: List[Piece]) -> List[Piece]:
    return [
        p for p in pieces
        if p.kind not in SOFT_KINDS + PROMPT_KINDS and not p.kind.startswith(("error:", "context:")) and not p.settings
    ]


def _spans(pieces: List[Piece]) -> Tuple[List[int], List[int]]:
    """Merged ``[start, end]`` line spans of the tool listings, as two sorted lists."""
    spans = sorted((p.line_start, p.line_end) for p in _tool_pieces(pieces) if p.line_end - p.line_start + 1 >= LISTING_LINES)
    starts: List[int] = []
    ends: List[int] = []
    for start, end in spans:
        if starts and start <= ends[-1] + 1:
            ends[-1] = max(ends[-1], end)
        else:
            starts.append(start)
            ends.append(end)
    return starts, ends


_EVERY_FACT = "*"


def _short_readings(pieces: List[Piece]) -> Dict[int, Set[str]]:
    """Per line, the fact paths the short tool pieces read there (``gpus`` for a GPU sighting)."""
    read: Dict[int, Set[str]] = {}
    for piece in _tool_pieces(pieces):
        if piece.line_end - piece.line_start + 1 >= LISTING_LINES:
            continue
        past = any(obs.path == "symptoms.earlier" for obs in piece.observations)
        for obs in piece.observations:
            read.setdefault(obs.line.number, set()).add(obs.path)
        for gpu in piece.gpus:
            read.setdefault(gpu.line.number, set()).add("gpus")
        if past:  # lines a reader marks as the earlier state (an uninstalled torch) say nothing of the present
            for number in range(piece.line_start, piece.line_end + 1):
                read.setdefault(number, set()).add(_EVERY_FACT)
    return read


def _without_overlap(pieces: List[Piece]) -> List[Piece]:
    starts, ends = _spans(pieces)
    short = _short_readings(pieces)

    def inside(number: int, path: str) -> bool:
        position = bisect.bisect_right(starts, number) - 1
        claimed = short.get(number, ())
        return (position >= 0 and number <= ends[position]) or path in claimed or _EVERY_FACT in claimed

    kept: List[Piece] = []
    for piece in pieces:
        if piece.kind in SOFT_KINDS:
            piece.observations = [o for o in piece.observations if not inside(o.line.number, o.path)]
            piece.gpus = [g for g in piece.gpus if not inside(g.line.number, "gpus")]
            if not piece.observations and not piece.gpus:
                continue
            numbers = [o.line.number for o in piece.observations] + [g.line.number for g in piece.gpus]
            piece.line_start, piece.line_end = min(numbers), max(numbers)
        kept.append(piece)
    return kept


def _reader_name(parser: Callable) -> str:
    return f"{parser.__module__.rsplit('.', 1)[-1]}.{parser.__name__}"


def _record_crash(parser: Callable, exc: Exception, crashes: Optional[List[Crash]], crashed: Set[str]) -> None:
    """A reader (or a pass over the report's blocks after them) that raised: one Crash row with its log, the first
    time it raises."""
    name = _reader_name(parser)
    if crashes is not None and name not in crashed:
        crashed.add(name)
        crashes.append(Crash(what=f"reader {name}", reason=f"{type(exc).__name__}: {exc}"[:300], log=write_crash_log(f"reader {name}")))


def _pieces(blocks: List[Block], crashes: Optional[List[Crash]] = None) -> List[Piece]:
    """The pieces every reader recognised, block by block. A reader that raises is a bug (its own, or a data
    table that would not load), not text it could not read: it goes to ``crashes`` once, with its log, and
    what it would have read is unknown (a report whose readers crashed is not a report that says nothing)."""
    pieces: List[Piece] = []
    crashed: Set[str] = set()
    expected = expected_lines(blocks)
    for block, sample in zip(blocks, without_repeats(blocks)):
        found: List[Piece] = []
        runs = command_runs(block)
        for parser, gate, every_line in PARSERS:
            # A tool's output reader reads each command's output apart (a block of several commands
            # is several outputs); the free-text readers read the block without its repeated lines.
            for read in (runs if every_line else [sample]):
                try:
                    if read.lines and gate(read):
                        found += _listing_complete(parser(read), every_line or read is block or parser is not env_settings.parse)
                except Exception as exc:  # noqa: BLE001 - a crashed reader is a result (a Crash row), never a traceback
                    _record_crash(parser, exc, crashes, crashed)
                    continue
        found = _command_scopes(block, _without_overlap(found))
        found += _logged_by(block)
        if block.scope != "current":  # "it doesn't detect my GPU" quoted, past or on another machine: not this machine now
            found = [p for p in found if p.kind not in statement_kinds()]
        if block.scope in ("other", "advice"):  # someone else's quoted text, an advice's example: what the report is about, no facts
            found = [p for p in found if p.kind.startswith("context:")]
        pieces += _as_earlier(found, block.scope) if block.scope in ("past", "elsewhere") else found
    if expected:  # what the reporter wanted (blocks.expected_lines): not the software installed now
        pieces = _without_software_state(pieces, expected)
    # A command in one block and its output in the next (pkgenv47)
    try:
        pieces += install_log.replacement_across_blocks(blocks)
    except Exception as exc:  # noqa: BLE001 - a crashed pass is a Crash row as a reader's is
        _record_crash(install_log.replacement_across_blocks, exc, crashes, crashed)
    # torch.cuda.is_available() on one line (a fenced command) and what it gave on the next ("returns `False`")
    try:
        pieces += python_session.unavailable_said_across_lines(blocks)
    except Exception as exc:  # noqa: BLE001 - a crashed pass is a Crash row as a reader's is
        _record_crash(python_session.unavailable_said_across_lines, exc, crashes, crashed)
    # rocminfo/clinfo failing as the user and reaching the GPU under sudo, in the same block or another one
    try:
        pieces += sudo_runs.gpu_reached_only_under_sudo(blocks)
    except Exception as exc:  # noqa: BLE001 - a crashed pass is a Crash row as a reader's is
        _record_crash(sudo_runs.gpu_reached_only_under_sudo, exc, crashes, crashed)
    # A CUDA index install that a later ROCm --index-url install replaced, in another block or the same one
    try:
        mentions.drop_superseded_cuda_index_installs(blocks, pieces)
    except Exception as exc:  # noqa: BLE001 - a crashed pass is a Crash row as a reader's is
        _record_crash(mentions.drop_superseded_cuda_index_installs, exc, crashes, crashed)
    return pieces


def _logged_by(block: Block) -> List[Piece]:
    """What the report is about, read from the names a log collector's prefixes held (``ollama`` in ``Jun 19 14:38:07
    host ollama[15932]: ...``, taken off the line's text: :func:`~rocm_doctor.ingest.blocks.log_prefixes_taken_off`),
    at the user's own line that holds the name; context rows only (:func:`name_context_rows`)."""
    pieces: List[Piece] = []
    for line in block.lines:
        if line.logged_by:
            alone = Block(block.index, block.kind, (replace(line, text=line.logged_by),), block.scope)
            pieces += match_block(alone, name_context_rows())
    return pieces


EXPECTED_DROPS = ("torch.", "packages.", "python.", "rocm.", "symptoms.earlier")
"""Fact paths a block under an "Expected behavior" heading does not speak for: the software a reporter wanted installed
(torch and its companions, packages, Python, the ROCm release), not the one that is. Its GPUs, errors and what the
report is about still count."""


def _without_software_state(pieces: List[Piece], lines: Set[int]) -> List[Piece]:
    """``pieces`` without the observations :data:`EXPECTED_DROPS` names that were read on one of ``lines`` (a piece
    left with nothing of its own is dropped). What the report is about and its errors stay whole.

    Only where the report shows the same fact outside those lines (rev48g): pytorch/pytorch#52571 wanted
    "torch 1.7.1+cu110" under the heading and showed its torch 1.7.1+rocm3.8 in "To Reproduce" and "Environment";
    a report whose only torch is pasted under the heading ("Expected: GPU used, torch 2.1.0+cpu installed", a
    collect_env listing with no heading of its own) pasted what it has, and what it wants is said beside it."""
    def _droppable(o: Observation) -> bool:
        return o.path.startswith(EXPECTED_DROPS) and o.line.number in lines

    elsewhere = {
        o.path for p in pieces if not p.kind.startswith(("context:", "error:")) for o in p.observations
        if o.path.startswith(EXPECTED_DROPS) and o.line.number not in lines
    }
    out: List[Piece] = []
    for piece in pieces:
        if piece.kind.startswith(("context:", "error:")):
            out.append(piece)
            continue
        kept = [o for o in piece.observations if not (_droppable(o) and (o.path in elsewhere or o.path == "symptoms.earlier"))]
        if len(kept) == len(piece.observations):
            out.append(piece)
        elif kept or piece.gpus or piece.settings:
            piece.observations = kept
            out.append(piece)
    return out


def _command_scopes(block: Block, pieces: List[Piece]) -> List[Piece]:
    """A command's own environment prefix (``NAME=value cmd``) is in force for that command's output
    only: its sightings learn where that output ends (:attr:`SettingSighting.until`)."""
    prefixed = [s for p in pieces for s in p.settings if s.origin == "command-prefix"]
    if not prefixed:
        return pieces
    boundaries = {s.line.number for p in pieces for s in p.settings}
    ends = {s.line.number: output_end(block, s.line, boundaries) for s in prefixed}
    for piece in pieces:
        piece.settings = [
            replace(s, until=ends[s.line.number]) if s.origin == "command-prefix" else s for s in piece.settings
        ]
    return pieces


EARLIER_PATHS = ("torch.version", "torch.rocm_version", "torch.flavour", "rocm.version", "host.kernel_release", "host.distro_name", "driver.amdgpu_version", "windows.driver_version", "python.version")
"""Facts of an earlier state worth comparing with the current one (what changed)."""


def _as_earlier(pieces: List[Piece], scope: str = "past") -> List[Piece]:
    """A block the report introduces as an earlier state: what it says is kept as evidence of what
    changed (``symptoms.earlier``), never as the current machine; what the report is about stays.
    Another machine (``elsewhere``) keeps no kernel: RD801 reads an earlier kernel as one that worked,
    and "on my other machine" does not say it did."""
    paths = EARLIER_PATHS if scope == "past" else tuple(p for p in EARLIER_PATHS if p != "host.kernel_release")
    out: List[Piece] = [p for p in pieces if p.kind.startswith("context:")]
    seen = [o for p in pieces if not p.kind.startswith("context:") for o in p.observations if o.path in paths or o.path == "symptoms.earlier"]
    if seen:
        first = seen[0].line
        # a reader that already read an earlier state inside the block ("before: torch 2.5.1+rocm6.2") keeps it
        said = list(dict.fromkeys(
            item for o in seen
            for item in (o.value if o.path == "symptoms.earlier" and isinstance(o.value, list) else [f"{o.path}={o.value}"])
            if isinstance(o.value, (str, int, float)) or o.path == "symptoms.earlier"
        ))
        out.append(Piece(kind="earlier-state", block=first.block, line_start=first.number, line_end=seen[-1].line.number,
                         observations=[Observation("symptoms.earlier", said, first, TRUST_PROSE)]))
    # vis59: the errors the machine printed then (a statement was dropped before: the reporter's words of a past
    # state say nothing of it): what failed before, the reason for a change, kept apart from the current errors.
    # Another machine's are not its past.
    errors = [o for p in pieces if p.kind.startswith("error:") for o in p.observations if o.path == "symptoms.signatures"]
    if errors and scope == "past":
        ids = list(dict.fromkeys(str(i) for o in errors for i in (o.value if isinstance(o.value, list) else [o.value])))
        out.append(Piece(kind="earlier-errors", block=errors[0].line.block, line_start=errors[0].line.number,
                         line_end=errors[-1].line.number,
                         observations=[Observation("symptoms.earlier_errors", ids, errors[0].line, TRUST_PROSE)]))
    return out


def _listing_complete(pieces: List[Piece], complete: bool) -> List[Piece]:
    """An environment listing read without its repeated lines cannot say which variables are unset."""
    if not complete:
        for piece in pieces:
            piece.coverage = None
    return pieces


_GC_LOCK = threading.Lock()
_gc_state = {"readers": 0, "was_enabled": False}


@contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """Reading a 20 MB paste makes millions of small objects and no reference cycles; the cyclic
    collector would walk them again and again (about a quarter of the time) for nothing. Counted,
    so that concurrent readers (a triage bot's threads) switch it back on only when the last ends."""
    with _GC_LOCK:
        if _gc_state["readers"] == 0:
            _gc_state["was_enabled"] = gc.isenabled()
            gc.disable()
        _gc_state["readers"] += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _gc_state["readers"] -= 1
            if _gc_state["readers"] == 0 and _gc_state["was_enabled"]:
                gc.enable()


def ingest_text(text: str, origin_detail: Optional[str] = None) -> IngestResult:
    """Facts and recognised pieces of a pasted report."""
    with _without_cycle_collection():
        return _ingest(text, origin_detail)


def _ingest(text: str, origin_detail: Optional[str]) -> IngestResult:
    crashes: List[Crash] = []
    pieces = _pieces(split_blocks(text), crashes)
    report = REPORT_MARKER in text
    if report and any(p.facts is not None for p in pieces):
        # rocm-doctor's own report: its facts JSON is the whole truth (exact round trip).
        pieces = [p for p in pieces if p.facts is not None]
    conflicts: List[Conflict] = []
    facts = assemble(pieces, origin_detail=origin_detail, documents_only=report, conflicts=conflicts)
    if crashes:
        facts = facts.model_copy(update={"meta": facts.meta.model_copy(update={"crashes": [*facts.meta.crashes, *crashes]})})
    infos = [PieceInfo(kind=p.kind, block=p.block, line_start=p.line_start, line_end=p.line_end) for p in pieces if not p.kind.startswith("context:")]
    shown = [ConflictInfo(path=c.path, kept=c.kept, others=list(c.others)) for c in conflicts]
    return IngestResult(facts=facts, pieces=infos, conflicts=shown)


def _decode(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8-sig", errors="replace")


def read_report(path_or_dash: str) -> str:
    """The text of a report file, or of stdin for ``-``; unreadable input is an InputError."""
    name = "stdin" if path_or_dash == "-" else path_or_dash
    if path_or_dash == "-":
        data = sys.stdin.buffer.read(MAX_REPORT_BYTES + 1)
    else:
        data = _read_file(path_or_dash)
    if len(data) > MAX_REPORT_BYTES:
        raise LimitError(name, "too large; paste only the relevant outputs", PASTE_BYTES)
    text = _decode(data)
    if line_count(text) > PASTE_LINES.value:  # reading costs per line: count before any work
        raise LimitError(name, "too many lines; paste only the relevant outputs", PASTE_LINES)
    if not text.strip():
        raise InputError(f"{name}: the report is empty")
    if "\x00" in text:
        raise InputError(f"{name}: a binary file, not a text report")
    return text


def line_count(text: str) -> int:
    """Lines as the reader splits them: LF, CRLF and CR each end one (progress bars print CR)."""
    ends = text.count("\n") + text.count("\r") - text.count("\r\n")
    return ends + (0 if text.endswith(("\n", "\r")) else 1)


def _read_file(path: str) -> bytes:
    """A regular file held to ``paste.max_bytes``; a pipe or FIFO read with a deadline."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror or exc}") from None
    if stat.S_ISREG(mode) or not hasattr(os, "O_NONBLOCK"):
        return read_limited(Path(path), PASTE_BYTES)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror or exc}") from None
    try:
        return _read_stream(fd, path)
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _read_stream(fd: int, path: str) -> bytes:
    """Up to ``MAX_REPORT_BYTES + 1`` bytes of a pipe, FIFO or device, until its end or ``paste.max_wait_seconds``.

    Opened without blocking: a named FIFO whose writer has not come yet reads as its end, so
    the first empty read waits for a writer (``mkfifo p; rocm-doctor check --from p & cmd > p``)
    instead of ending; an anonymous pipe (``--from <(cmd)``, ``/dev/stdin``) has had its writer."""
    chunks: List[bytes] = []
    size = 0
    waited_for_writer = os.fstat(fd).st_dev == _pipe_device()
    deadline = time.monotonic() + PASTE_WAIT.value
    while size <= MAX_REPORT_BYTES:
        try:
            chunk: Optional[bytes] = os.read(fd, 1 << 20)
        except BlockingIOError:
            chunk = None
        if chunk:
            chunks.append(chunk)
            size += len(chunk)
            continue
        if chunk == b"" and (size or waited_for_writer):
            break
        waited_for_writer = waited_for_writer or chunk == b""
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise LimitError(path, "the pipe did not reach its end in time", PASTE_WAIT)
    return b"".join(chunks)


def _pipe_device() -> int:
    """The device of anonymous pipes (Linux pipefs): a FIFO on a file system has another."""
    read_end, write_end = os.pipe()
    try:
        return os.fstat(read_end).st_dev
    finally:
        os.close(read_end)
        os.close(write_end)


def ingest_report_file(path_or_dash: str) -> IngestResult:
    """Read and ingest a report file (``-`` for stdin)."""
    detail = "stdin" if path_or_dash == "-" else str(path_or_dash)
    return ingest_text(read_report(path_or_dash), origin_detail=detail)


def facts_from_report_file(path_or_dash: str) -> Facts:
    """What ``--from`` uses: the facts of a pasted report."""
    return ingest_report_file(path_or_dash).facts


def render_pieces(result: IngestResult) -> List[str]:
    """One line per recognised piece (``collect_env  block 2, lines 14-40``); a note when none."""
    if not result.pieces:
        return ["Recognised nothing in the report: every fact is unknown."]
    lines = []
    width = max(len(piece.kind) for piece in result.pieces)
    for piece in sorted(result.pieces, key=lambda p: (p.block, p.line_start, p.kind)):
        span = f"line {piece.line_start}" if piece.line_start == piece.line_end else f"lines {piece.line_start}-{piece.line_end}"
        lines.append(f"{piece.kind:<{width}}  block {piece.block}, {span}")
    return lines


def render_conflicts(result: IngestResult) -> List[str]:
    """One line per fact whose readings disagreed: the kept reading and the others."""
    lines = []
    for conflict in result.conflicts:
        kept = "nothing (equal trust: the fact stays unknown)" if conflict.kept == "none" else conflict.kept
        lines.append(f"{conflict.path}: kept {kept}; also read {'; '.join(conflict.others)}")
    return lines
