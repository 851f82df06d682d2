"""A rule bundle: a gzip'd tar of ``manifest.json``, its signature and ``rules/``, unpacked safely.

Every entry is checked before a byte of it is written: a regular file or a folder (never a link
or a device), a plain relative path inside the bundle, within the size and count limits. The
manifest must carry a trusted signature, and it must list exactly the files the bundle holds,
each with its SHA-256 and size. Anything else is a :class:`BundleError` and the staging folder is
left for the caller to remove.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tarfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Dict, Mapping, Sequence

from packaging.version import InvalidVersion, Version

from rocm_doctor.limits import UPDATE_FILES, UPDATE_UNPACKED_BYTES
from rocm_doctor.dbupdate.signing import BadSignature, verify
from rocm_doctor.dbstore import MANIFEST, RELEASE_FILE, RULES, SIGNATURE

FORMAT = "rocm-doctor/rule-bundle/1"
_TOP = (MANIFEST, SIGNATURE)
_RULE_SUFFIXES = (".yaml", ".yml")


class BundleError(Exception):
    """The bundle is refused; the message says why."""


@dataclass(frozen=True)
class Manifest:
    """What a signed manifest promises about its bundle."""

    release: Version
    released: str
    min_rocm_doctor: Version
    files: Mapping[str, Mapping[str, Any]]
    """``rules/...`` path -> ``{"sha256": hex, "size": bytes}``."""

    @classmethod
    def parse(cls, data: bytes) -> "Manifest":
        try:
            raw = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise BundleError("manifest.json is not JSON") from None
        if not isinstance(raw, dict) or raw.get("format") != FORMAT:
            raise BundleError(f"manifest.json is not a {FORMAT} manifest")
        try:
            release = Version(str(raw.get("release")))
            needs = Version(str(raw.get("min_rocm_doctor")))
        except InvalidVersion:
            raise BundleError("manifest.json: release and min_rocm_doctor must be versions") from None
        files = raw.get("files")
        if not isinstance(files, dict) or not files:
            raise BundleError("manifest.json lists no files")
        for name, entry in files.items():
            if not (isinstance(entry, dict) and isinstance(entry.get("sha256"), str) and isinstance(entry.get("size"), int)):
                raise BundleError(f"manifest.json: {name!r} needs a sha256 and a size")
        return cls(release, str(raw.get("released", "")), needs, files)


def manifest_for(rules: Path, release: str, released: str, min_rocm_doctor: str) -> bytes:
    """The manifest of the rule database in ``rules`` (used by tools/build_rule_bundle.py)."""
    files: Dict[str, Dict[str, Any]] = {}
    for path in sorted(p for p in rules.rglob("*") if p.is_file()):
        rel = path.relative_to(rules).as_posix()
        if "__pycache__" in rel:
            continue
        data = path.read_bytes()
        files[f"{RULES}/{rel}"] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    document = {
        "format": FORMAT,
        "release": release,
        "released": released,
        "min_rocm_doctor": min_rocm_doctor,
        "files": files,
    }
    return (json.dumps(document, indent=1, sort_keys=True) + "\n").encode("utf-8")


def _clean_name(name: str) -> str:
    """The entry's path inside the bundle, or BundleError when it could land outside it."""
    if "\\" in name or "\0" in name:
        raise BundleError(f"entry {name!r}: not a plain path")
    path = PurePosixPath(name)
    if path.is_absolute() or any(part in ("..", "") for part in path.parts) or not path.parts:
        raise BundleError(f"entry {name!r} escapes the bundle's folder")
    parts = [p for p in path.parts if p != "."]
    if not parts:
        raise BundleError(f"entry {name!r}: not a plain path")
    clean = "/".join(parts)
    if clean in _TOP or clean == RULES:
        return clean
    if parts[0] != RULES:
        raise BundleError(f"entry {name!r}: a bundle holds only {MANIFEST}, {SIGNATURE} and {RULES}/")
    return clean


def unpack(archive: bytes, staging: Path, keys: Sequence[str] = ()) -> Manifest:
    """Unpack ``archive`` into the empty folder ``staging`` and check it; the verified manifest."""
    seen: Dict[str, bytes] = {}
    total = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
            count = 0
            while True:
                member = tar.next()
                if member is None:
                    break
                count += 1
                if count > UPDATE_FILES.value:
                    raise BundleError(f"more entries than the limit ({UPDATE_FILES})")
                name = _clean_name(member.name)
                if member.isdir():
                    continue
                if not member.isreg():
                    raise BundleError(f"entry {member.name!r} is a link or a special file; refused")
                total += member.size
                if total > UPDATE_UNPACKED_BYTES.value:
                    raise BundleError(f"unpacks to more than the limit ({UPDATE_UNPACKED_BYTES})")
                if name in seen:
                    raise BundleError(f"entry {name!r} appears twice")
                handle = tar.extractfile(member)
                data = handle.read() if handle is not None else b""
                if len(data) != member.size:
                    raise BundleError(f"entry {name!r} is cut short")
                seen[name] = data
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise BundleError(f"not a readable .tar.gz ({type(exc).__name__})") from None
    if MANIFEST not in seen or SIGNATURE not in seen:
        raise BundleError(f"the bundle has no {MANIFEST} or no {SIGNATURE}")
    try:
        verify(seen[MANIFEST], seen[SIGNATURE], keys)
    except BadSignature as exc:
        raise BundleError(str(exc)) from None
    manifest = Manifest.parse(seen[MANIFEST])
    _check_files(manifest, seen)
    _write(staging, seen)
    return manifest


def _check_files(manifest: Manifest, seen: Mapping[str, bytes]) -> None:
    held = {name for name in seen if name not in _TOP}
    listed = set(manifest.files)
    if held - listed:
        raise BundleError(f"{sorted(held - listed)[0]} is in the bundle but not in its signed manifest")
    if listed - held:
        raise BundleError(f"{sorted(listed - held)[0]} is in the signed manifest but not in the bundle")
    for name in sorted(listed):
        entry = manifest.files[name]
        data = seen[name]
        if len(data) != entry["size"] or hashlib.sha256(data).hexdigest() != entry["sha256"].lower():
            raise BundleError(f"{name}: its SHA-256 differs from the signed manifest's")
        if not (name.endswith(_RULE_SUFFIXES) or name == f"{RULES}/{RELEASE_FILE}"):
            raise BundleError(f"{name}: a bundle's rules/ holds only YAML files and {RELEASE_FILE}")
    release_file = seen.get(f"{RULES}/{RELEASE_FILE}")
    if release_file is not None and release_file.decode("utf-8", "replace").strip() != str(manifest.release):
        raise BundleError(f"{RULES}/{RELEASE_FILE} says {release_file.strip()!r}, the manifest {manifest.release}")


def _write(staging: Path, seen: Mapping[str, bytes]) -> None:
    for name, data in sorted(seen.items()):
        target = staging.joinpath(*name.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)


def pack(rules: Path, manifest: bytes, signature: bytes) -> bytes:
    """A reproducible bundle of the database in ``rules``: the same inputs give the same bytes."""
    import gzip

    buffer = io.BytesIO()
    entries = [(MANIFEST, manifest), (SIGNATURE, signature)]
    for path in sorted(p for p in rules.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        entries.append((f"{RULES}/{path.relative_to(rules).as_posix()}", path.read_bytes()))
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in entries:
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as packed:
        packed.write(raw.getvalue())
    return buffer.getvalue()


def index_for(bundle_name: str, bundle: bytes, release: str) -> bytes:
    """The index document naming ``bundle`` (published beside it)."""
    document = {
        "format": "rocm-doctor/rules-index/1",
        "release": release,
        "bundle": bundle_name,
        "sha256": hashlib.sha256(bundle).hexdigest(),
        "size": len(bundle),
    }
    return (json.dumps(document, indent=1) + "\n").encode("utf-8")
