"""ROCm libraries the loader could not find, and what the report shows of the same files being there.

A program that stops with "<lib>: cannot open shared object file" (or ldd's "<lib> => not found") beside a
listing of that very file (``ls``/``find`` output, an ``ls -l`` row), a sentence saying it is there ("- but file
exists", "libhsa-runtime64.so.1 is in /opt/rocm/hsa/lib", "installs libhsa-runtime64.so to /usr/lib/hsa, but that
is not in the LD_LIBRARY_PATH") or a sentence saying that putting its folder on the loader's path made it start
("Adding /opt/rocm/lib to /etc/ld.so.conf.d and running ldconfig changes the same binary to exit 0", "Setting
LD_LIBRARY_PATH=/opt/rocm/core-7.14/lib works around the issue") has the library installed and only off the
loader's path. This reader keeps each side as ``symptoms.loader_libraries`` entries; the derived fact
``derived.rocm_library_found_off_loader_path`` (rocm_doctor/judge/derived_facts/loader_path.py) pairs them by the
library's file name, so another release's soname (libamdhip64.so.5 asked for, .so.6 listed) is no pair.

Entries: ``missing:<soname>`` (a ROCm library a loader line could not find), ``present:<file name>`` (a file a
listing or a sentence shows there), ``off-path:<file name>`` (a sentence saying the file is installed in a folder
the loader does not search: both sides at once), ``path-fixed`` (putting a folder on the loader's path made it
work).

Reports: ROCm/rocm-systems#7701 ("libamd_smi.so.26: cannot open shared object file ... - but file exists"),
justxi/rocm#13 (libhsa-runtime64.so installed to /usr/lib/hsa, not on the loader's path), ROCm/TheRock#6716
(libamdhip64.so.7 not found; an ld.so.conf.d entry and ldconfig make the binary exit 0), ggml-org/llama.cpp#25807
(libhipblas.so.3 not found; "The libraries are located at /opt/rocm/core-7.14/lib/", LD_LIBRARY_PATH works
around it), ROCm/rocprofiler#62 (libhsa-runtime64.so.1 found under /opt/rocm/hsa/lib; LD_LIBRARY_PATH fixed it),
ROCm/AMDMIGraphX#2263 (libamdhip64.so "can be found at /opt/rocm/lib" but dlopen fails).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import List

from rocm_doctor.data import load_table
from rocm_doctor.ingest.blocks import Block, Line, may_be_wrapped
from rocm_doctor.ingest.formats.common import DOCUMENT_SAYS, REPORTED_SPEECH, make_piece
from rocm_doctor.ingest.model import TRUST_SIGNATURE, Observation, Piece
from rocm_doctor.lazy_regex import when_used

FACT = "symptoms.loader_libraries"
KIND = "loader-libraries"
MAX_LINE = 2000
"""Characters of a line searched: a loader line or a listing row is short."""

_FILE = r"lib[\w+-]{1,60}\.so(?:\.\d{1,8}){0,4}"
"""A shared library's file name (libamdhip64.so, libamdhip64.so.6, libamdhip64.so.6.2.60200)."""


@lru_cache(maxsize=1)
def _stem() -> str:
    """The ROCm libraries' file-name stems, the signature table's one spelling (rules/data/signatures.yaml
    fragments.rocm_library_stem), with amdsmi's library (libamd_smi, ROCm/rocm-systems#7701)."""
    stem = str(load_table("signatures")["fragments"]["rocm_library_stem"])
    return r"(?:" + stem + r"|amd_smi)"


@lru_cache(maxsize=1)
def _missing() -> "re.Pattern[str]":
    rocm = r"lib" + _stem() + r"(?:[\w+-]{0,20})\.so(?:\.\d{1,8}){0,4}"
    return re.compile(
        # the loader's and dlopen's words: "<lib>: cannot open shared object file", ldd's "<lib> => not found",
        # "error while loading shared libraries: <lib>", TensorFlow's "Could not load dynamic library '<lib>'"
        r"(?P<a>" + rocm + r")(?![\w.])['\"`]?(?::\s{0,3}cannot\s{1,3}open\s{1,3}shared\s{1,3}object\s{1,3}file|\s{1,8}=>\s{1,3}not\s{1,3}found)"
        r"|error\s{1,3}while\s{1,3}loading\s{1,3}shared\s{1,3}libraries:\s{0,3}(?P<b>" + rocm + r")(?![\w.])"
        r"|could\s{1,3}not\s{1,3}load\s{1,3}dynamic\s{1,3}library\s{1,3}['\"`](?P<c>" + rocm + r")['\"`]",
        re.IGNORECASE,
    )


_LS_ROW = when_used(
    # an `ls -l` row: mode, links, owner, group, size, date, then the file (a link shows "-> target")
    r"^\s{0,8}[-l][rwxsStT-]{9}[.@+]?\s{1,6}\d{1,6}\s{1,6}\S{1,40}\s{1,6}\S{1,40}\s{1,6}\d[\d.,]{0,14}[KMG]?\s[^\n]{0,40}?"
    r"(?:\S{0,200}/)?(?P<file>" + _FILE + r")(?:\s{1,4}->\s{1,4}\S{1,200})?\s{0,4}$"
)
_NAMES_ONLY = when_used(
    # `ls` or `find` output: nothing on the line but library files or their paths
    r"^\s{0,8}(?:(?:/[\w.+@-]{1,80}){1,12}/)?" + _FILE + r"(?:\s{1,8}(?:(?:/[\w.+@-]{1,80}){1,12}/)?" + _FILE + r"){0,16}\s{0,4}$"
)
_NAME = when_used(r"(?:^|[\s/])(" + _FILE + r")(?=\s|$)")
_THERE = when_used(
    # a sentence saying the file is there: "<lib> is in /opt/rocm/lib", "<lib> exists", "I found <lib> under
    # /opt/rocm/hsa/lib", "The libraries are located at ..." is read by the folder's name, not here
    r"(?P<file>" + _FILE + r")[`'\"]?\s{1,4}(?:(?:is|are)\s{1,4}(?:already\s{1,4}|definitely\s{1,4}|actually\s{1,4})?"
    r"(?:(?:present|there|installed|located|available)(?:\s{1,4}(?:in|under|at)\s{1,4}[`'\"]?/)?|in\s{1,4}[`'\"]?/|under\s{1,4}[`'\"]?/|at\s{1,4}[`'\"]?/)"
    r"|exists\b)"
    r"|\bfound\s{1,4}[`'\"]?(?P<found>" + _FILE + r")[`'\"]?\s{1,4}(?:under|in|at)\s{1,4}[`'\"]?/",
    re.IGNORECASE,
)
_FILE_EXISTS = when_used(
    # on a not-found line: "... cannot open shared object file: No such file or directory - but file exists"
    r"\bbut\s{1,4}(?:the\s{1,4})?(?:file|it|library|lib)\s{1,4}(?:(?:does|really)\s{1,4})?exists?\b",
    re.IGNORECASE,
)
_OFF_PATH = when_used(
    # "installs libhsa-runtime64.so to /usr/lib/hsa, but that is not in the LD_LIBRARY_PATH" (justxi/rocm#13)
    r"\b(?:install(?:s|ed)?|put(?:s)?|place(?:s|d)?)\s{1,4}[`'\"]?(?P<file>" + _FILE + r")[`'\"]?\s{1,4}(?:to|in|into|under)\s{1,4}[`'\"]?/[^\n]{0,80}?"
    r"\bbut\s{1,4}(?:that|this|it|which|the\s{1,4}folder|the\s{1,4}directory)\s{1,4}(?:is\s{1,4}not|isn[’']t)\s{1,4}(?:in|on|part\s{1,4}of)\s{1,4}(?:the\s{1,4})?"
    r"(?:LD_LIBRARY_PATH|loader[’']?s?\s{1,4}(?:search\s{1,4})?path|library\s{1,4}path|ld\.so\.conf|ldconfig)",
    re.IGNORECASE,
)
_PATH_FIXED = when_used(
    # "Adding /opt/rocm/lib to /etc/ld.so.conf.d and running ldconfig changes the same binary to exit 0",
    # "Setting LD_LIBRARY_PATH=/opt/rocm/core-7.14/lib works around the issue", "setting LD_LIBRARY_PATH to that
    # location fixed the issue": a folder put on the loader's path made the program start
    r"\b(?:add(?:ing|ed)?|set(?:ting)?|export(?:ing|ed)?|append(?:ing|ed)?|prepend(?:ing|ed)?|register(?:ing|ed)?|putting)\b"
    r"[^.!?\n]{0,100}?(?:LD_LIBRARY_PATH|ld\.so\.conf(?:\.d)?|ldconfig)\b[^!?\n]{0,120}?"
    r"\b(?:fix(?:es|ed)|solv(?:es|ed)|resolv(?:es|ed)|works?\s{1,4}around|worked|works\b|exits?\s{1,4}(?:with\s{1,4})?(?:code\s{1,4})?0\b|to\s{1,4}exit\s{1,4}0\b|succeed(?:s|ed))",
    re.IGNORECASE,
)
_CURED = when_used(
    # after an off-path sentence: the reporter's own cure ("so I added ...", "works now", "which fixed it")
    r"\b(?:so\s{1,4}I\s{1,4}(?:added|set|created|put|moved|symlinked|linked)|(?:works?|working|runs?|running)\s{1,4}now"
    r"|now\s{1,4}(?:it\s{1,4})?(?:works?|runs?)|fix(?:ed|es)\s{1,4}(?:it|this|that)|solved|resolved)\b",
    re.IGNORECASE,
)
_NOT_HERE = when_used(
    # advice, a question, a condition, a negation of the fix, another person's or a document's words
    r"\b(?:if|try|should|could|might|would|maybe|perhaps|suggest\w{0,4}|recommend\w{0,4}|does\s{1,4}not|doesn[’']t|did\s{1,4}not|didn[’']t|not\s{1,4}(?:fix|help|work|solve)\w{0,3}|no\s{1,4}(?:effect|luck|change)|nothing)\b|\?|https?://|"
    + REPORTED_SPEECH + "|" + DOCUMENT_SAYS,
    re.IGNORECASE,
)


_NOT_NOW = when_used(
    # a loader line that is advice, another person's or a past one: "if you get ...", "someone had ...", a link,
    # a changelog's or release note's entry ("- Fixed libamdhip64.so.6: cannot open shared object file when ...")
    r"\bif\s{1,4}you\b|\bused\s{1,4}to\b|\bpreviously\b|https?://|\bchange\s{0,1}log\b|\brelease\s{1,3}notes?\b"
    r"|^\W{0,4}(?:fix(?:ed|es)|resolved)\b|" + REPORTED_SPEECH,
    re.IGNORECASE,
)


_CONDITION_OR_QUESTION = when_used(r"\bif\b|\?", re.IGNORECASE)
"""A "but the file exists" said as a condition or asked ("if the file exists ...", "the file exists?"): not a listing."""


@lru_cache(maxsize=1)
def _rocm_library() -> "re.Pattern[str]":
    # compiled on first use, as _missing is: the stems come from the signature table, not read at import
    return re.compile(r"lib" + _stem(), re.IGNORECASE)


def _entries(line: str, text: str, command: bool) -> List[str]:
    """What ``line`` shows; ``text`` is the line with the lines a wrapping tool may have cut it into."""
    found: List[str] = []
    missing = [] if _NOT_NOW.search(text) else [m.group("a") or m.group("b") or m.group("c") for m in _missing().finditer(text)]
    found += [f"missing:{name}" for name in missing]
    if missing and _FILE_EXISTS.search(text) and not _CONDITION_OR_QUESTION.search(text):
        found += [f"present:{name}" for name in missing]
    if command:
        return found
    row = _LS_ROW.match(line)
    if row:
        found.append(f"present:{row.group('file')}")
    elif _NAMES_ONLY.match(line):
        found += [f"present:{name}" for name in _NAME.findall(line)]
    elif not missing and not _NOT_HERE.search(text):
        for m in _THERE.finditer(text):
            found.append(f"present:{m.group('file') or m.group('found')}")
        for m in _OFF_PATH.finditer(text):
            # "..., so I added an env.d file; rocminfo works now": the fault told and already cured (rev54k)
            if _CURED.search(text, m.end()):
                continue
            if _rocm_library().match(m.group("file")):
                found.append(f"off-path:{m.group('file')}")
        if _PATH_FIXED.search(text):
            found.append("path-fixed")
    return found


WRAPPED_LINES = 3
"""Lines a sentence or a loader message is read across where a wrapping tool may have cut it (80 columns)."""


def _with_wrapped(lines: List[Line], index: int) -> str:
    text = lines[index].text[:MAX_LINE]
    for after in lines[index + 1 : index + WRAPPED_LINES]:
        if after.command or not may_be_wrapped(text.rsplit("\n", 1)[-1], after.text.strip()):
            break
        text += " " + after.text.strip()[:MAX_LINE]
    return text


def parse(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    lines = list(block.lines)
    for index, line in enumerate(lines):
        entries = _entries(line.text[:MAX_LINE], _with_wrapped(lines, index), line.command)
        if entries:
            pieces.append(make_piece(KIND, [line], [Observation(FACT, list(dict.fromkeys(entries)), line, TRUST_SIGNATURE)]))
    return pieces
