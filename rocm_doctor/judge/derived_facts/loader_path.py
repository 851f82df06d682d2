"""Derived fact: a ROCm library the loader could not find although the report shows the file is there.

The reader (rocm_doctor/ingest/formats/loader_libraries.py) keeps the libraries a loader line could not find
(``missing:``), the files a listing or a sentence shows (``present:``), files said to be installed in a folder the
loader does not search (``off-path:``) and a folder put on the loader's path that made the program start
(``path-fixed``). The two sides pair by the library's file name: the file asked for (``libamdhip64.so.7``) or a
file that carries it with more of its version (``libamdhip64.so.7.2.70200``, the file the soname link points to).
Another release's soname (``libamdhip64.so.5`` asked for, ``.so.6`` listed) is no pair: that program was built for
another ROCm (RD521). Reports: ROCm/rocm-systems#7701, justxi/rocm#13, ROCm/TheRock#6716, ggml-org/llama.cpp#25807,
ROCm/rocprofiler#62, ROCm/AMDMIGraphX#2263.
"""

from __future__ import annotations

from typing import List

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known
from rocm_doctor.judge.derived import Tables, machine_fact

SOURCE = "symptoms.loader_libraries"


def _carries(present: str, missing: str) -> bool:
    """The listed file is the one the loader asked for, or that soname with more of its version."""
    if present == missing:
        return True
    # an unversioned name (libhip_hcc.so) is the development link only: libhip_hcc.so.3 is not it
    return missing.rsplit(".so", 1)[-1] != "" and present.startswith(missing + ".")


@machine_fact(
    "rocm_library_found_off_loader_path",
    "ROCm libraries (sonames) a loader line of the report could not find while the report shows the same file "
    "there (an ls/find listing, 'but file exists', 'installed in <folder>, not in LD_LIBRARY_PATH') or says that "
    "putting a folder on the loader's path (LD_LIBRARY_PATH, /etc/ld.so.conf.d and ldconfig) made the program "
    "start, as '<soname> (<evidence>)'; absent when the report shows no such pair (another release's soname "
    "listed beside the one asked for is none).",
)
def rocm_library_found_off_loader_path(facts: Facts, tables: Tables) -> Fact:
    shown = facts.symptoms.loader_libraries
    if not shown.is_known or not shown.value:
        # nothing read is nothing shown: decided, so the rules that step aside for this one stay decided
        return absent(shown.source or SOURCE, shown.reason or "the report shows no library both missing and present")
    entries = [str(e) for e in shown.value]
    missing = [e.split(":", 1)[1] for e in entries if e.startswith("missing:")]
    present = [e.split(":", 1)[1] for e in entries if e.startswith("present:")]
    out: List[str] = []
    for name in dict.fromkeys(missing):
        if any(_carries(p, name) for p in present):
            out.append(f"{name} (the report lists the file)")
        elif "path-fixed" in entries:
            out.append(f"{name} (putting its folder on the loader's path made the program start)")
    out += [f"{e.split(':', 1)[1]} (installed in a folder the loader does not search)" for e in entries if e.startswith("off-path:")]
    if not out:
        return absent(shown.source or SOURCE, "no library the loader could not find is shown to be installed")
    return known(list(dict.fromkeys(out)), shown.source or SOURCE)
