"""ROCm libraries one process resolves or loads from two installs, read from what reports paste of it.

Three outputs show where a process's libraries come from: ldd's ``<soname> => <path> (0x...)`` (the loader's
resolution for one binary), a debugger's backtrace frames ``... from <path>`` (libraries mapped into the
crashed process) and glibc's ``LD_DEBUG=libs`` line ``calling init: <path>`` (a library the loader has loaded).
Each contiguous run of such lines is one binary's or one process's view. When one run shows the same ROCm
library from two folders (``libamdhip64.so.6 => /opt/rocm-6.2.4/lib/...`` beside ``libamdhip64.so =>
.../site-packages/torch/lib/...``), or ROCm libraries from two installs (a bundled libamdhip64 whose
libamd_comgr.so.3 the loader took from another ROCm on LD_LIBRARY_PATH), the process mixes two installs.

Installs are told apart by their root, so that one install split over folders stays one: a Python
environment's site-packages (torch/lib, TheRock's _rocm_sdk_core and _rocm_sdk_libraries_*), a folder named
for ROCm (/opt/rocm-6.2.0; /opt/rocm/lib/llvm/lib and /opt/rocm/lib are one; /opt/rocm is a link to
/opt/rocm-X.Y.Z, so beside exactly one versioned folder it is taken as that one), the system's folders (/usr/lib/x86_64-linux-gnu, /lib64 ...), the Nix or Guix
store (every package in its own folder there). A listing of both installs (``ls``, ``find``) is not a load
and is not read.

Entries: ``two-installs:<which library from which folders>`` in ``symptoms.loader_libraries``; the derived
fact ``derived.rocm_process_two_installs`` (rocm_doctor/judge/derived_facts/link_installs.py) lists them.
Reports: pytorch/pytorch#141014 (ldd lists libamdhip64 from /opt/rocm-6.2.4 and from torch/lib; the
backtrace runs through both), koharu-rs/koharu#972 (LD_DEBUG: the bundled libamdhip64's libamd_comgr.so.3
from /opt/therock-tarball/install/lib, then the bundle's own: two comgr copies abort), pytorch/pytorch#186516
(the wheel's libamd_smi.so.26 and the amdsmi package's libamd_smi.so in one process).
"""

from __future__ import annotations

import posixpath
import re
from typing import Dict, List, Optional

from rocm_doctor.facts.processes import SYSTEM_LIBRARY_FOLDERS, classify, install_of
from rocm_doctor.ingest.blocks import Block
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import TRUST_SIGNATURE, Observation

FACT = "symptoms.loader_libraries"
KIND = "loaded-libraries"
MAX_LINE = 2000

_PATH = r"(?P<path>/[^\s()'\"`]{1,400}?\.so(?:\.[\w-]{1,40}){0,5})"
_LDD = re.compile(r"^\s{0,12}lib[\w+.-]{1,80}\s{1,4}=>\s{1,4}" + _PATH + r"\s{1,4}\(0x[0-9a-f]{1,16}\)\s*$", re.IGNORECASE)
_FRAME_FROM = re.compile(r"(?:^\s{0,8}#\d{1,4}\s[^\n]{0,800}?\s|^\s{1,40})from\s{1,4}" + _PATH + r"\s*$")
_CALLING_INIT = re.compile(r"\bcalling\s{1,3}init:\s{1,4}`?" + _PATH)
_FRAME = re.compile(r"^\s{0,8}#\d{1,4}\s|^\s{1,40}(?:at|from)\s")
"""A backtrace frame, or the continuation a debugger wraps its location onto: part of the same run."""
_LDD_OTHER = re.compile(r"^\s{0,12}\S{1,200}\s{1,4}(?:=>\s{1,4}not\s{1,3}found|(?:=>\s{1,4}\S{1,400}\s{1,4})?\(0x[0-9a-f]{1,16}\))\s*$", re.IGNORECASE)
"""Another line of ldd's output (linux-vdso.so.1 (0x...), a library not found): part of the same run."""
_LD_DEBUG = re.compile(r"^\s{0,8}\d{1,10}:\s")
"""An LD_DEBUG line ("   4242:     find library=..."): part of the same run."""
_PYTHON_ENV = re.compile(r"^(?P<env>.*?/(?:site|dist)-packages)/")
_STORE = re.compile(r"^/(?:nix|gnu)/store/")
_ROCM_COMPONENT = re.compile(r"rocm", re.IGNORECASE)
_VERSIONED_ROCM = re.compile(r"^/opt/rocm(?:-[\d.]+\w*)?(?=/|$)")


def install_root(path: str) -> str:
    """The install a library file belongs to (see the module's text)."""
    path = posixpath.normpath(path)
    env = _PYTHON_ENV.match(path)
    if env:
        return env.group("env")
    if _STORE.match(path):
        return "/" + path.split("/")[1] + "/store"
    rocm = _VERSIONED_ROCM.match(path)
    if rocm:
        return rocm.group(0)
    if any(path.startswith(s + "/") for s in SYSTEM_LIBRARY_FOLDERS):
        return "the system's library folders"
    parts = path.split("/")
    for index, part in enumerate(parts[:-1]):
        if part and _ROCM_COMPONENT.search(part):
            return "/".join(parts[: index + 1])
    return install_of(path)


def _loaded(text: str) -> Optional[str]:
    for pattern in (_LDD, _FRAME_FROM, _CALLING_INIT):
        m = pattern.search(text)
        if m:
            return m.group("path")
    return None


def mix(paths: List[str]) -> Optional[str]:
    """One run's ROCm libraries from two installs: the same library from two folders, else ROCm libraries
    whose installs differ; a sentence, else None."""
    folders: Dict[str, List[str]] = {}
    installs: Dict[str, List[str]] = {}
    for path in paths:
        lib = classify(path)
        if lib is None or lib.kind not in ("hip-runtime", "hsa-runtime", "rocm-library"):
            continue
        norm = posixpath.normpath(path)
        folder = posixpath.dirname(norm)
        places = folders.setdefault(lib.key, [])
        if folder not in places:
            places.append(folder)
        keys = installs.setdefault(install_root(norm), [])
        if lib.key not in keys:
            keys.append(lib.key)
    twice = [key for key, places in folders.items() if len(places) > 1]
    if twice:
        return "; ".join(f"lib{key} from {' and from '.join(folders[key])}" for key in twice)
    # /opt/rocm is a link to one /opt/rocm-X.Y.Z: beside exactly one versioned folder it is that one
    versioned = [root for root in installs if root.startswith("/opt/rocm-")]
    if "/opt/rocm" in installs and len(versioned) == 1:
        installs[versioned[0]] += [k for k in installs.pop("/opt/rocm") if k not in installs[versioned[0]]]
    if len(installs) > 1:
        return "; ".join(f"{', '.join('lib' + k for k in keys)} from {root}" for root, keys in installs.items())
    return None


def parse(block: Block):
    pieces = []
    run: List[str] = []
    lines = []

    def close() -> None:
        found = mix(run)
        if found:
            pieces.append(make_piece(KIND, list(lines), [Observation(FACT, [f"two-installs:{found}"], lines[0], TRUST_SIGNATURE)]))
        run.clear()
        lines.clear()

    for line in block.lines:
        text = line.text[:MAX_LINE]
        path = None if line.command else _loaded(text)
        if path is not None:
            run.append(path)
            lines.append(line)
        elif not run or not (_FRAME.match(text) or _LD_DEBUG.match(text) or _LDD_OTHER.match(text)):
            close()
    close()
    return pieces
