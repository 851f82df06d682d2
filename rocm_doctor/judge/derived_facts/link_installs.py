"""Derived fact: a build links a ROCm library of one install against another install's HSA runtime.

The reader (rocm_doctor/ingest/formats/link_libraries.py) keeps GNU ld's "<ROCm library>: undefined reference to
`hsa_...'" (``ld-undefined:<path>|<symbol>``), the folders the link searches first for a library's own
dependencies (``ld-searched:<folder>``, ``-rpath-link``) and HSA runtime files named by path (``ld-hsa:<path>``).
One install's libamdhip64 and libhsa-runtime64 are released together, so an HSA function libamdhip64 needs is
in the libhsa-runtime64 beside it; when the linker reports it undefined and the report shows the link reaching
a libhsa-runtime64 in another folder (a distribution's /usr/lib/x86_64-linux-gnu, another /opt/rocm-X.Y),
the two installs meet in that link. Without a second install shown nothing is concluded: a program's own
undefined references and a ROCm tree built wrong are other faults. Reports: pytorch/pytorch#137858,
ROCm/legacy-rocm-build#2527, ROCm/pytorch#1633.
"""

from __future__ import annotations

import posixpath
from typing import List, Tuple

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.processes import SYSTEM_LIBRARY_FOLDERS, install_of
from rocm_doctor.facts.value import Fact, absent, known
from rocm_doctor.judge.derived import Tables, machine_fact

SOURCE = "symptoms.loader_libraries"


def _install(path: str) -> str:
    """The install a library file belongs to: its folder less lib/lib64 (``/opt/rocm-6.2.0/lib/x.so`` ->
    ``/opt/rocm-6.2.0``); a path with ``..`` is normalised first (``/opt/rocm/lib/llvm/bin/../../../lib``)."""
    return install_of(posixpath.normpath(path))


def _inside(folder: str, root: str) -> bool:
    folder, root = posixpath.normpath(folder), posixpath.normpath(root)
    return folder == root or folder.startswith(root.rstrip("/") + "/")


def _other_folder(folder: str, root: str) -> bool:
    """A folder the link searches that holds another install's libraries: a system library folder or a ROCm
    tree, outside the failing library's install."""
    folder = posixpath.normpath(folder)
    if _inside(folder, root):
        return False
    system = any(folder == s or folder.startswith(s + "/") for s in SYSTEM_LIBRARY_FOLDERS)
    return system or "rocm" in folder.lower()


def _pairs(entries: List[str]) -> List[Tuple[str, str, str]]:
    undefined = [e.split(":", 1)[1] for e in entries if e.startswith("ld-undefined:")]
    searched = [e.split(":", 1)[1] for e in entries if e.startswith("ld-searched:")]
    hsa_files = [e.split(":", 1)[1] for e in entries if e.startswith("ld-hsa:")]
    out: List[Tuple[str, str, str]] = []
    for item in dict.fromkeys(undefined):
        library, _, symbol = item.partition("|")
        if not library.startswith("/"):
            continue  # a relative path (lib/libfoo.so) names no install
        root = _install(library)
        others = [f"libhsa-runtime64 at {p}" for p in dict.fromkeys(hsa_files) if not _inside(_install(p), root)]
        others += [f"{posixpath.normpath(d)} (searched first: -rpath-link)" for d in dict.fromkeys(searched) if _other_folder(d, root)]
        if others:
            out.append((library, symbol, "; ".join(others)))
    return out


@machine_fact(
    "rocm_link_two_installs",
    "A build's link step stopped at a ROCm library of one install that misses an HSA runtime function "
    "(GNU ld's 'undefined reference to `hsa_...'') while the report shows the link reaching another install's "
    "HSA runtime (a libhsa-runtime64 path outside that install, or a system or ROCm folder on -rpath-link), as "
    "'<library> (<install>) needs <symbol>; the link reaches <other>'; absent without both sides.",
)
def rocm_link_two_installs(facts: Facts, tables: Tables) -> Fact:
    shown = facts.symptoms.loader_libraries
    if not shown.is_known or not shown.value:
        return absent(shown.source or SOURCE, shown.reason or "the report shows no link step")
    pairs = _pairs([str(e) for e in shown.value])
    if not pairs:
        return absent(shown.source or SOURCE, "no ROCm library's undefined HSA reference beside another install")
    text = "; ".join(
        f"{posixpath.basename(lib)} of {_install(lib)} needs {sym.split('@')[0]}, and the link reaches {other}"
        for lib, sym, other in pairs
    )
    return known(text, shown.source or SOURCE)


@machine_fact(
    "rocm_process_two_installs",
    "One process (or one binary's ldd listing) resolves or loads ROCm libraries from two installs: the same "
    "library from two folders, or ROCm libraries of two install roots, read from contiguous ldd '=>' lines, "
    "backtrace 'from <path>' frames or LD_DEBUG 'calling init:' lines (rocm_doctor/ingest/formats/"
    "loaded_libraries.py), as '<library> from <folder> and from <folder>'; absent otherwise (a listing of both "
    "installs is no load).",
)
def rocm_process_two_installs(facts: Facts, tables: Tables) -> Fact:
    shown = facts.symptoms.loader_libraries
    if not shown.is_known or not shown.value:
        return absent(shown.source or SOURCE, shown.reason or "the report shows no loaded libraries")
    found = [str(e).split(":", 1)[1] for e in shown.value if str(e).startswith("two-installs:")]
    if not found:
        return absent(shown.source or SOURCE, "every ROCm library a listing shows loaded comes from one install")
    return known("; ".join(dict.fromkeys(found)), shown.source or SOURCE)
