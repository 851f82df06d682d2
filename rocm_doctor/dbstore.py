"""Where updated rule databases live in the user's data folder, and which one is active.

Layout under ``<data folder>/rules/`` (the data folder is ``platformdirs``' user data folder for
``rocm-doctor``, or ``$ROCM_DOCTOR_DATA_DIR``)::

    active.json                       {"current": "db-...", "previous": "db-..." | null}
    db-<release>-<hash>/manifest.json the signed manifest (and manifest.json.sig)
    db-<release>-<hash>/rules/...     the rule files and data tables

``active.json`` is replaced atomically, so a database is switched on or off in one step; the
folders themselves are never changed once written. ``current`` null (or no file) means the shipped
database. An installed database is used only while it is newer than the shipped one and this
rocm-doctor is at least the version it asks for, so upgrading rocm-doctor never runs older rules.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional

from packaging.version import InvalidVersion, Version

from rocm_doctor import __version__

DATA_DIR_VAR = "ROCM_DOCTOR_DATA_DIR"
"""Overrides the data folder (tests, and users who keep state elsewhere)."""
STATE_FILE = "active.json"
MANIFEST = "manifest.json"
SIGNATURE = "manifest.json.sig"
RULES = "rules"
RELEASE_FILE = "RELEASE"
"""The shipped database's release (``YYYY.M.D``), beside its rule files."""


def data_dir() -> Path:
    """The user's rocm-doctor data folder (not created here)."""
    override = os.environ.get(DATA_DIR_VAR, "").strip()
    if override:
        return Path(override)
    import platformdirs  # only commands that touch the data folder pay for it

    return Path(platformdirs.user_data_dir("rocm-doctor", appauthor=False))


def updates_dir() -> Path:
    """``<data folder>/rules``: installed databases and the pointer to the active one."""
    return data_dir() / "rules"


@dataclass(frozen=True)
class State:
    """The installed database in use (None: the shipped one) and the one before it."""

    current: Optional[str] = None
    previous: Optional[str] = None


def read_state(root: Optional[Path] = None) -> State:
    """The pointer file; a missing, unreadable or malformed one means the shipped database."""
    root = updates_dir() if root is None else root
    try:
        raw = json.loads((root / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return State()
    if not isinstance(raw, dict):
        return State()
    names = [raw.get("current"), raw.get("previous")]
    clean = [n if isinstance(n, str) and _is_folder_name(n) else None for n in names]
    return State(clean[0], clean[1])


def _is_folder_name(name: str) -> bool:
    return name.startswith("db-") and "/" not in name and "\\" not in name and name not in (".", "..")


def write_state(state: State, root: Optional[Path] = None) -> None:
    """Replace the pointer file atomically (a reader sees the old state or the new, never half)."""
    root = updates_dir() if root is None else root
    root.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=".active-", dir=root)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"current": state.current, "previous": state.previous}, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, root / STATE_FILE)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def release_of(text: str) -> Optional[Version]:
    """A release string (``2026.11.28``) as a Version, or None."""
    try:
        return Version(text.strip())
    except InvalidVersion:
        return None


def shipped_dir() -> Path:
    """The rule database shipped with this rocm-doctor."""
    packaged = Path(__file__).resolve().parent / "_rules"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "rules"


def shipped_release() -> Optional[Version]:
    """The shipped database's release, from its ``RELEASE`` file."""
    try:
        return release_of((shipped_dir() / RELEASE_FILE).read_text(encoding="utf-8"))
    except OSError:
        return None


@dataclass(frozen=True)
class Installed:
    """An installed (updated) database: its folder and the manifest fields the CLI shows."""

    name: str
    folder: Path
    release: Version
    released: str
    min_rocm_doctor: str

    @property
    def rules(self) -> Path:
        return self.folder / RULES


def read_installed(name: str, root: Optional[Path] = None) -> Optional[Installed]:
    """The installed database ``name``, or None when its folder or manifest is missing or malformed."""
    root = updates_dir() if root is None else root
    folder = root / name
    try:
        manifest: Dict[str, Any] = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or not (folder / RULES).is_dir():
        return None
    release = release_of(str(manifest.get("release", "")))
    if release is None:
        return None
    return Installed(
        name=name,
        folder=folder,
        release=release,
        released=str(manifest.get("released", "")),
        min_rocm_doctor=str(manifest.get("min_rocm_doctor", "0")),
    )


def usable(installed: Installed) -> Optional[str]:
    """None when this rocm-doctor may use ``installed``; else why not."""
    try:
        needs = Version(installed.min_rocm_doctor)
    except InvalidVersion:
        return f"it asks for rocm-doctor {installed.min_rocm_doctor!r}, which is no version"
    if Version(__version__) < needs:
        return f"it needs rocm-doctor {needs} or newer (this is {__version__})"
    shipped = shipped_release()
    if shipped is not None and installed.release <= shipped:
        return f"the database shipped with this rocm-doctor ({shipped}) is as new or newer"
    return None


@functools.lru_cache(maxsize=1)
def active_update() -> Optional[Installed]:
    """The installed database in use, or None for the shipped one; decided once per process."""
    state = read_state()
    if state.current is None:
        return None
    installed = read_installed(state.current)
    if installed is None or usable(installed) is not None:
        return None
    return installed


_PINNED: Optional[Path] = None


def pin(folder: Optional[Path]) -> None:
    """Use the rule database in ``folder`` for the rest of this process (the check that a staged
    update loads runs in a child process that pins the staged folder); None unpins."""
    global _PINNED
    _PINNED = folder


def pinned() -> Optional[Path]:
    """The folder :func:`pin` set, if any."""
    return _PINNED


def forget() -> None:
    """Decide the active database again (after ``rules update`` changed it, and between tests)."""
    active_update.cache_clear()


def read_release(folder: Path) -> Optional[str]:
    """The release written in a database folder's ``RELEASE`` file, if any."""
    try:
        return (folder / RELEASE_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None

