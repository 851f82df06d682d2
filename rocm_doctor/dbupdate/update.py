"""``rules update`` and ``rules update --revert``: fetch, verify, check and switch rule databases.

The order is fixed so that nothing changes until everything has passed: the index, then the
bundle it names (hash and size as the index says), then the signature, the file hashes, the
release order and the rocm-doctor version the manifest asks for, then the caller's check that
every rule and table loads (in a child process). Only then is the unpacked folder renamed into
place and the pointer file replaced, in one atomic step. The folder of the database in use before
is kept, so ``--revert`` switches back to exactly those bytes.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence
from urllib.parse import urljoin

from packaging.version import InvalidVersion, Version

from rocm_doctor import __version__
from rocm_doctor.limits import UPDATE_BUNDLE_BYTES, UPDATE_INDEX_BYTES
from rocm_doctor.dbupdate.bundle import BundleError, unpack
from rocm_doctor.dbupdate.fetch import FetchError, fetch
from rocm_doctor.dbstore import (
    Installed,
    State,
    active_update,
    forget,
    read_installed,
    read_state,
    shipped_release,
    updates_dir,
    write_state,
)

URL_VAR = "ROCM_DOCTOR_RULES_URL"
DEFAULT_URL = "https://github.com/rocm-doctor/rocm-doctor/releases/latest/download/rules-index.json"
"""The project's release downloads: every release carries the index and its signed bundle."""
INDEX_FORMAT = "rocm-doctor/rules-index/1"


class UpdateRefused(Exception):
    """The update was refused and nothing changed; the message says why."""


@dataclass(frozen=True)
class Index:
    """The small document that names the newest bundle."""

    release: Version
    bundle: str
    """The bundle's URL (relative ones are resolved against the index's URL)."""
    sha256: Optional[str]
    size: Optional[int]


def parse_index(body: bytes, url: str) -> Index:
    try:
        raw = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise UpdateRefused(f"{url}: the index is not JSON") from None
    if not isinstance(raw, dict) or raw.get("format") != INDEX_FORMAT:
        raise UpdateRefused(f"{url}: not a {INDEX_FORMAT} index")
    try:
        release = Version(str(raw.get("release")))
    except InvalidVersion:
        raise UpdateRefused(f"{url}: the index's release is not a version") from None
    bundle = raw.get("bundle")
    if not isinstance(bundle, str) or not bundle.strip():
        raise UpdateRefused(f"{url}: the index names no bundle")
    sha256 = raw.get("sha256") if isinstance(raw.get("sha256"), str) else None
    size = raw.get("size") if isinstance(raw.get("size"), int) else None
    return Index(release, urljoin(url, bundle.strip()), sha256, size)


@dataclass(frozen=True)
class InUse:
    """The database in use: its release and whether it is the shipped one."""

    release: Optional[Version]
    installed: Optional[Installed]

    @property
    def origin(self) -> str:
        return "updated" if self.installed is not None else "shipped"


def in_use() -> InUse:
    installed = active_update()
    return InUse(installed.release if installed else shipped_release(), installed)


@dataclass(frozen=True)
class Outcome:
    changed: bool
    message: str


Validator = Callable[[Path], Optional[str]]
"""Checks a staged database's ``rules/`` folder: None when every rule and table loads, else why not."""


def update(url: str, timeout: float, validate: Validator, allow_downgrade: bool = False, keys: Sequence[str] = ()) -> Outcome:
    """Install the bundle the index at ``url`` names, if it is newer; UpdateRefused changes nothing."""
    try:
        index = parse_index(fetch(url, UPDATE_INDEX_BYTES.value, timeout, "index").body, url)
    except FetchError as exc:
        raise UpdateRefused(str(exc)) from None
    current = in_use()
    if current.release is not None and index.release == current.release:
        return Outcome(False, f"{url} names release {index.release}, the one in use ({current.origin}); nothing changed")
    _refuse_downgrade(index.release, current, allow_downgrade)
    try:
        body = fetch(index.bundle, UPDATE_BUNDLE_BYTES.value, timeout, "bundle").body
    except FetchError as exc:
        raise UpdateRefused(str(exc)) from None
    if index.size is not None and len(body) != index.size:
        raise UpdateRefused(f"{index.bundle}: {len(body):,} bytes, the index says {index.size:,}")
    if index.sha256 is not None and hashlib.sha256(body).hexdigest() != index.sha256.lower():
        raise UpdateRefused(f"{index.bundle}: its SHA-256 differs from the index's")
    root = updates_dir()
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=root))
    try:
        manifest = unpack(body, staging, keys)
        if manifest.release != index.release:
            raise UpdateRefused(f"the bundle is release {manifest.release}, the index says {index.release}")
        if Version(__version__) < manifest.min_rocm_doctor:
            raise UpdateRefused(
                f"release {manifest.release} needs rocm-doctor {manifest.min_rocm_doctor} or newer (this is {__version__}); "
                "upgrade rocm-doctor first"
            )
        _refuse_downgrade(manifest.release, current, allow_downgrade)
        problem = validate(staging / "rules")
        if problem is not None:
            raise UpdateRefused(f"release {manifest.release} does not load: {problem}")
        name = f"db-{manifest.release}-{hashlib.sha256(body).hexdigest()[:12]}"
        if not (root / name).is_dir():
            staging.rename(root / name)
        state = read_state(root)
        write_state(State(current=name, previous=state.current), root)
    except BundleError as exc:
        raise UpdateRefused(f"{index.bundle}: {exc}") from None
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    _remove_unused(root)
    forget()
    was = f"{current.origin} release {current.release}"
    return Outcome(True, f"rule database release {manifest.release} ({manifest.released}) installed in {root / name}; it replaces {was}")


def _refuse_downgrade(release: Version, current: InUse, allow: bool) -> None:
    if current.release is not None and release < current.release and not allow:
        raise UpdateRefused(
            f"release {release} is older than the {current.origin} release {current.release} in use; "
            "add --allow-downgrade to install it anyway"
        )


def revert() -> Outcome:
    """Switch back to the database in use before the last update (or the shipped one)."""
    root = updates_dir()
    state = read_state(root)
    if state.current is None and state.previous is None:
        raise UpdateRefused("no rule database update was installed; the shipped database is in use")
    if state.previous is not None and read_installed(state.previous, root) is None:
        raise UpdateRefused(f"the previous database ({state.previous}) is missing or damaged in {root}")
    write_state(State(current=state.previous, previous=state.current), root)
    forget()
    back = state.previous or "the shipped database"
    return Outcome(True, f"rule database switched back to {back}")


def _remove_unused(root: Path) -> None:
    """Delete installed databases that are neither current nor previous (best effort)."""
    state = read_state(root)
    keep = {state.current, state.previous}
    for folder in root.glob("db-*"):
        if folder.name not in keep and folder.is_dir():
            shutil.rmtree(folder, ignore_errors=True)
