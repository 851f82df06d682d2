"""The one way rocm-doctor reads a user's file and writes one: bounded, and without losing data.

Reading (:func:`read_limited`) opens without blocking and refuses anything but a regular
file, so a FIFO, a device or a socket named as input is an error, never a hang; it reads
at most the limit it is given.

Writing (:func:`update_file`) refuses what is not a regular file (a device node, a FIFO,
a socket, a folder), writes through a symbolic link to the file it points to, leaves a
read-only file alone unless told, keeps the file's encoding (UTF-8 with or without a
byte-order mark, UTF-16 or UTF-32 with one) or refuses, and holds a lock from reading to
replacing. The new text goes to a temporary file beside the target that replaces it
atomically, after a backup of what was there. Another program that writes to the file
meanwhile is not overwritten: a change before the replacement makes the merge start
again, and lines appended to the old file at the moment of the replacement are carried
over to the new one.
"""

from __future__ import annotations

import codecs
import contextlib
import datetime as _dt
import errno
import os
import stat
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, List, Optional, Tuple

from rocm_doctor.errors import InputError
from rocm_doctor.limits import EDIT_BYTES, FACT_FILE_BYTES, FOLDER_DEPTH, Limit, LimitError

_ATTEMPTS = 5
"""How often a merge starts again when another program changed the file meanwhile."""
_SETTLE = 0.1
"""Seconds the replaced file must stay unchanged before a write is done (see _carry_over_appends)."""
_SETTLE_AT_MOST = 2.0
"""A program that keeps the old file open and writes on is not waited for longer than this."""
_LOCK_WAIT = 10.0
"""Seconds to wait for another rocm-doctor (or any flock user) to release the file."""
_BOMS: Tuple[Tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
"""Byte-order marks, longest first (a UTF-32-LE mark starts with the UTF-16-LE one)."""


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


LOOP_REASON = "a link that leads back to itself (a loop of links)"


def resolved(path: Path) -> Path:
    """The real path of ``path`` (links followed); a loop of links is an InputError, not the RuntimeError
    ``Path.resolve()`` raises on Python 3.10-3.12. A link to nothing resolves to where it points."""
    try:
        return Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:
        return Path(os.path.realpath(path))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(f"{path}: {LOOP_REASON}") from None
        return Path(os.path.realpath(path))


class NotPlainFile(OSError):
    """A file read for facts that is not a plain, bounded regular file: a loop of links, a folder, a FIFO,
    a device, a socket, or one over ``facts.max_file_bytes``. An OSError, so a gatherer reading the live
    machine records a failed fact with the reason; a recorded machine turns it into exit 2."""


def read_fact_file(path: str, max_bytes: int) -> bytes:
    """The first ``max_bytes`` bytes of a file read for facts, the one way gatherers read files.

    Opens without blocking (a FIFO planted in site-packages must not hold the gathering) and reads only
    a regular file. ``max_bytes`` over ``facts.max_file_bytes`` is a bug in the caller (ValueError).
    FileNotFoundError and PermissionError propagate; other refusals are :class:`NotPlainFile`.
    """
    if max_bytes > FACT_FILE_BYTES.value:
        raise ValueError(f"read of {max_bytes:,} bytes is over {FACT_FILE_BYTES}")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotPlainFile(errno.ELOOP, LOOP_REASON, path) from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotPlainFile(errno.EINVAL, f"not a regular file: {kind_of(info.st_mode)}", path)
        return _read_upto(fd, max_bytes)
    finally:
        os.close(fd)


def _read_upto(fd: int, max_bytes: int) -> bytes:
    """Up to ``max_bytes`` from the start, in as many reads as it takes (a /proc file gives a page a read)."""
    chunks: List[bytes] = []
    size = 0
    while size < max_bytes:
        chunk = _pread(fd, min(1 << 20, max_bytes - size), size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _open_regular(path: Path, flags: int = os.O_RDONLY) -> Tuple[int, os.stat_result]:
    """An open descriptor of a regular file; FileNotFoundError propagates, anything else is an InputError."""
    try:
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a file") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(f"{path}: {LOOP_REASON}") from None
        raise InputError(f"{path}: cannot open ({exc.strerror or exc})") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise InputError(f"{path}: is {kind_of(info.st_mode)}, not a regular file")
    return fd, info


def _pread(fd: int, size: int, offset: int) -> bytes:
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)  # pragma: no cover - Windows has no pread
    return os.read(fd, size)  # pragma: no cover


def _read_fd(fd: int, path: Path, limit: Limit, offset: int = 0) -> bytes:
    """Up to ``limit`` bytes from ``offset``; more than that is a LimitError."""
    chunks = []
    size = 0
    while size <= limit.value:
        chunk = _pread(fd, min(1 << 20, limit.value + 1 - size), offset + size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit.value:
        raise LimitError(str(path), "too large", limit)
    return b"".join(chunks)


def read_limited(path: Path, limit: Limit) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    A missing file raises FileNotFoundError (callers decide whether that is an error); a
    folder, FIFO, device or socket, an unreadable file or a larger one is an InputError.
    """
    fd, info = _open_regular(Path(path))
    try:
        if info.st_size > limit.value:
            raise LimitError(str(path), f"{info.st_size:,} bytes, too large", limit)
        return _read_fd(fd, Path(path), limit)
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


# ---------------------------------------------------------------- encodings


@dataclass(frozen=True)
class Encoding:
    """How a file's bytes are text: the codec and the byte-order mark it starts with."""

    codec: str
    bom: bytes = b""

    def decode(self, data: bytes) -> str:
        body = data[len(self.bom):]
        if self.codec == "utf-8":
            # surrogateescape: bytes that are not UTF-8 come back out unchanged.
            return body.decode("utf-8", errors="surrogateescape")
        return body.decode(self.codec)

    def encode(self, text: str) -> bytes:
        if self.codec == "utf-8":
            return self.bom + text.encode("utf-8", errors="surrogateescape")
        return self.bom + text.encode(self.codec)


def encoding_of(data: bytes, path: Path) -> Encoding:
    """The encoding a file is in, or an InputError when it cannot be kept."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            found = Encoding(codec, bom)
            try:
                found.decode(data)
            except UnicodeDecodeError as exc:
                raise InputError(f"{path}: starts with a {codec} byte-order mark but is not {codec} (byte {exc.start})") from None
            return found
    if b"\x00" in data:
        raise InputError(f"{path}: has NUL bytes and no byte-order mark (binary, or UTF-16 without a BOM); not changed")
    return Encoding("utf-8")


def _encode(encoding: Encoding, old: str, new: str, path: Path) -> bytes:
    """``new`` in the file's encoding; refused when the file is not UTF-8 and the new text is not ASCII."""
    if encoding.codec == "utf-8" and _has_stray_bytes(old):
        # Only what the new text adds counts: the file's own UTF-8 characters (an "é" beside a stray
        # byte) are written back as the bytes they were read from.
        added = set(Counter(c for c in new if ord(c) > 127 and not _is_stray(c))
                    - Counter(c for c in old if ord(c) > 127 and not _is_stray(c)))
        if added:
            raise InputError(
                f"{path}: is not UTF-8, and the new lines are not ASCII ({''.join(sorted(added))[:20]!r}); not changed"
            )
    return encoding.encode(new)


def _is_stray(char: str) -> bool:
    return 0xDC80 <= ord(char) <= 0xDCFF


def _has_stray_bytes(text: str) -> bool:
    return any(_is_stray(c) for c in text)


# ---------------------------------------------------------------- writing


@dataclass(frozen=True)
class Written:
    """What :func:`update_file` did (or, with ``dry_run``, would do)."""

    path: Path
    """The file the bytes went to: the link's target when the path named a link."""
    changed: bool
    old: str
    new: str
    backup: Optional[Path] = None


def via(named: Path, real: Path) -> str:
    """The path the user named, plus the file it points to when it is a link (for messages)."""
    return str(named) if Path(named) == Path(real) else f"{named} (a link to {real})"


def _target(path: Path, force: bool) -> Tuple[Path, Optional[os.stat_result]]:
    """The file to write (through links), its status if it exists; refusals are InputErrors."""
    real = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    try:
        info = os.stat(real)
    except FileNotFoundError:
        parent = real.parent if str(real.parent) else Path(".")
        if not parent.is_dir():
            raise InputError(f"{path}: folder {parent} does not exist") from None
        return real, None
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{path}: is {kind_of(info.st_mode)}; rocm-doctor writes only regular files")
    read_only = not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(real, os.W_OK)
    if read_only and not force:
        raise InputError(f"{path}: is read-only; not changed (pass --force to replace it anyway)")
    return real, info


@contextlib.contextmanager
def _locked(real: Path, exists: bool) -> Iterator[Optional[int]]:
    """An open descriptor of the existing file, exclusively flock-ed while the block runs."""
    if not exists:
        yield None
        return
    fd, _ = _open_regular(real)
    try:
        _lock(fd, real)
        yield fd
    finally:
        os.close(fd)  # closing releases the lock


def _lock(fd: int, real: Path) -> None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory locks; the compare-and-retry still applies
        return
    deadline = time.monotonic() + _LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise InputError(f"{real}: locked by another program for {_LOCK_WAIT:g} s; not changed") from None
            time.sleep(0.05)
        except OSError:  # a file system without flock (some network mounts): go on unlocked
            return


def _backup_path(real: Path) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    candidate = real.with_name(f"{real.name}.{stamp}.rocm-doctor.bak")
    counter = 1
    while candidate.exists() or candidate.is_symlink():
        candidate = real.with_name(f"{real.name}.{stamp}-{counter}.rocm-doctor.bak")
        counter += 1
    return candidate


def _write_new(directory: Path, prefix: str, data: bytes, like: Optional[os.stat_result]) -> str:
    """A new file in ``directory`` holding ``data``, with the mode and owner of ``like``; its path."""
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if like is not None:
            os.chmod(tmp, stat.S_IMODE(like.st_mode))
            if hasattr(os, "chown") and (like.st_uid, like.st_gid) != (os.getuid(), os.getgid()):
                with contextlib.suppress(OSError):  # only root may give a file away
                    os.chown(tmp, like.st_uid, like.st_gid)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def _current(real: Path, limit: Limit) -> bytes:
    try:
        return read_limited(real, limit)
    except FileNotFoundError:
        return b""


def update_file(
    path: Path,
    make: Callable[[str], str],
    *,
    force: bool = False,
    backup: bool = True,
    dry_run: bool = False,
    limit: Limit = EDIT_BYTES,
) -> Written:
    """Replace the text of ``path`` with ``make(old text)`` ("" when there is no file).

    ``make`` may raise InputError to refuse (the file is then left as it was); it is
    called again when another program changed the file in the meantime. A different
    existing file is backed up first when ``backup`` is set.
    """
    path = Path(path)
    real, info = _target(path, force)
    try:
        with _locked(real, info is not None) as held:
            for _ in range(_ATTEMPTS):
                raw = _read_fd(held, real, limit) if held is not None else b""
                encoding = encoding_of(raw, path)
                old = encoding.decode(raw)
                new = make(old)
                if new == old or dry_run:
                    return Written(real, new != old, old, new)
                data = _encode(encoding, old, new, path)
                tmp = _write_new(real.parent, f".{real.name}.", data, info)
                if held is not None and not _current(real, limit).startswith(raw):
                    os.unlink(tmp)  # rewritten since we read it: merge again (appends are carried over below)
                    continue
                saved = _write_new(real.parent, ".rocm-doctor-bak.", raw, info) if backup and held is not None else None
                kept = None
                if saved is not None:
                    kept = _backup_path(real)
                    os.replace(saved, kept)
                os.replace(tmp, real)
                if held is not None:
                    _carry_over_appends(held, len(raw), real, limit)
                return Written(real, True, old, new, kept)
    except OSError as exc:  # a read-only folder, /proc, a full disk: the file is left as it was
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    raise InputError(f"{path}: kept changing while rocm-doctor merged into it; not changed")


def _carry_over_appends(old_fd: int, length: int, real: Path, limit: Limit) -> None:
    """Append to the new file what other programs append to the old one around the replacement.

    A program that opened the file just before it was replaced writes into the old one; its
    lines are copied over until the old file has stopped growing for ``_SETTLE`` seconds.
    """
    quiet_since = started = time.monotonic()
    while time.monotonic() - quiet_since < _SETTLE and time.monotonic() - started < _SETTLE_AT_MOST:
        extra = _read_fd(old_fd, real, limit, offset=length)
        if extra:
            with open(real, "ab") as handle:
                handle.write(extra)
            length += len(extra)
            quiet_since = time.monotonic()
        time.sleep(_SETTLE / 5)


def walk_tree(root: Path, unreadable: bool = False) -> Iterator[Tuple[Path, Optional[int]]]:
    """Every entry below ``root`` with its ``lstat`` mode; links are not followed.

    Keeps its own stack (``os.walk`` and ``Path.rglob`` recurse once per level before Python
    3.12, so a tree 1,000 folders deep was a RecursionError) and refuses a tree nested deeper
    than ``folder.max_depth``. A folder that cannot be listed is an InputError, or with
    ``unreadable`` is yielded with the mode None for the caller to report."""
    pending: List[Tuple[Path, int]] = [(root, 0)]
    while pending:
        where, depth = pending.pop()
        if depth > FOLDER_DEPTH.value:
            raise LimitError(str(where), "folders nested too deep", FOLDER_DEPTH)
        try:
            with os.scandir(where) as entries:
                for entry in entries:
                    try:
                        mode = entry.stat(follow_symlinks=False).st_mode
                    except FileNotFoundError:  # removed while the folder was read
                        continue
                    yield Path(entry.path), mode
                    if stat.S_ISDIR(mode):
                        pending.append((Path(entry.path), depth + 1))
        except OSError as exc:
            if not unreadable:
                raise InputError(f"{where}: cannot be listed ({exc.strerror or exc})") from None
            yield where, None
