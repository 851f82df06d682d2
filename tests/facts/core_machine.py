"""Build small recorded machines in a temporary folder for the facts-core tests.

``build_machine(tmp_path, files={...}, commands=[...], ...)`` writes machine.yaml,
commands.yaml and files/ and returns a RecordedSystem over them. A ``files`` value
of ``None`` makes a directory; a string makes a file with that content.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Optional

import yaml

from rocm_doctor.facts.context import GatherContext, GatherOptions
from rocm_doctor.system.recorded import RecordedSystem, tree_parts


def python_info(site_dirs: List[str], prefix: str = "/usr", base_prefix: Optional[str] = None,
                executable: str = "/usr/bin/python3", version: str = "3.12.3", **extra: Any) -> str:
    """The stdout of the python-info probe for a made-up interpreter."""
    data = {
        "executable": executable, "version": version, "implementation": "CPython", "prefix": prefix,
        "base_prefix": base_prefix or prefix, "site_packages": site_dirs, "user_site": None,
        "conda_prefix": None, "conda_default_env": None, "virtual_env": None, "is_conda": False,
        "platform": "linux-x86_64",
    }
    data.update(extra)
    return json.dumps(data) + "\n"


def probe_lines(*stages: Dict[str, Any]) -> str:
    """Torch-probe stdout: one JSON line per dict."""
    return "".join(json.dumps(s) + "\n" for s in stages)


def dist_info(site: str, name: str, version: str, record: Optional[List[str]] = None) -> Dict[str, Optional[str]]:
    """Files of a ``<name>-<version>.dist-info`` entry."""
    folder = f"{site}/{name.replace('-', '_')}-{version}.dist-info"
    files: Dict[str, Optional[str]] = {f"{folder}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\nbody\n"}
    if record is not None:
        files[f"{folder}/RECORD"] = "".join(f"{line},sha256=x,1\n" for line in record)
    return files


def build_machine(
    tmp_path: Path,
    *,
    system: str = "Linux",
    release: str = "6.8.0-45-generic",
    version: str = "",
    files: Optional[Dict[str, Optional[str]]] = None,
    commands: Optional[List[Dict[str, Any]]] = None,
    env: Optional[Dict[str, str]] = None,
    identity: Optional[Dict[str, Any]] = None,
    resources: Optional[Dict[str, Any]] = None,
    unreadable: Optional[List[str]] = None,
    access: Optional[Dict[str, str]] = None,
    disks: Optional[Dict[str, int]] = None,
    python: str = "/usr/bin/python3",
    name: str = "machine",
) -> RecordedSystem:
    """Write a recorded machine folder and open it."""
    folder = tmp_path / name
    tree = folder / "files"
    tree.mkdir(parents=True)
    windows = system == "Windows"
    for path, content in (files or {}).items():
        target = tree.joinpath(*tree_parts(path, windows))
        if content is None:
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
    meta: Dict[str, Any] = {
        "platform": {"system": system, "release": release, "version": version, "machine": "x86_64"},
        "identity": identity or {"user": "alice", "uid": 1000, "groups": ["alice"], "group_ids": {}},
        "resources": resources or {},
        "python": python,
        "env": env or {},
    }
    if unreadable:
        meta["unreadable"] = unreadable
    if access:
        meta["access"] = access
    if disks:
        meta["disks"] = disks
    (folder / "machine.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    (folder / "commands.yaml").write_text(yaml.safe_dump(commands or []), encoding="utf-8")
    return RecordedSystem(folder)


def context(system: Any, **options: Any) -> GatherContext:
    """A gather context over a machine with the given options."""
    return GatherContext(system=system, options=GatherOptions(**options))
