"""The gfx targets of a prebuilt release archive the report names: ``llama-b4730-bin-win-hip-x64-gfx1030``.

Some llama.cpp-family programs publish their HIP builds as archives whose name tells the targets the
kernels were built for: llama.cpp's per-target Windows HIP archives carry the target in the name, and
stable-diffusion.cpp's ``sd-<branch>-<commit>-bin-win-rocm5.5-x64`` archives were all built for one
list (rules/data/ggml_builds.yaml, ``archives``: each row a pattern and the list, pinned to the build
file or the release page). A report that names the archive it runs shows that list as surely as a
build command's ``-DAMDGPU_TARGETS=`` does, so it is read into the same fact (``symptoms.build_targets``)
and judged the same way against the GPU. Reports: ggml-org/llama.cpp#11906 (the gfx1030 archive on a
Radeon 780M), leejet/stable-diffusion.cpp#292 (the rocm5.5 archive on an RX 6600, gfx1032). An
archive named as advice ("try llama-b5000-bin-win-hip-x64-gfx1100 instead"), in the past or for another
machine (ingest.scope), in a yes/no question, or one the reporter left ("switched from ... to the vulkan
build") is not the one that ran, and is not read; nor one whose own sentence says it works (a failure told
elsewhere is another program's). The rules that judge the list by it (RD795, RD996) want the
program shown failing or leaving the GPU unused besides: a download's name is also named beside "it works".
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import List, Pattern, Tuple

from rocm_doctor.data import load_table
from rocm_doctor.errors import InputError
from rocm_doctor.ingest.blocks import Block
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import TRUST_SIGNATURE, Observation, Piece
from rocm_doctor.ingest.scope import NOW, scope_before
from rocm_doctor.knowledge._tables import need_rows, str_list, where
from rocm_doctor.lazy_regex import when_used

TABLE = "ggml_builds"
MAX_LINE = 2000
_GFX = re.compile(r"^gfx[0-9a-f]{3,4}$")
_ADVICE_BEFORE = when_used(r"\b(?:try|trying|use|using\s{1,4}instead|download|get|grab|recommend\w{0,3}|should|suggest\w{0,3}|instead\s{1,4}of)\b[^.!?\n]{0,80}$", re.IGNORECASE)
"""Advice or a suggestion before the archive in its sentence: an archive the reader is told to try is not the one that ran."""
_QUESTION_AFTER = when_used(r"(?:[^.!?\n]|[.!](?=\S)){0,300}\?")
"""The archive's sentence ends in a question mark (a full stop ends it only before white space: "rocm5.5", ".zip"):
"Should I use llama-b4730-bin-win-hip-x64-gfx1030?", "Does sd-...-bin-win-rocm5.5-x64 support gfx1032?" ask about
an archive the reporter may not have run (review rev50b)."""
_LEFT_BEFORE = when_used(
    r"\b(?:switch(?:ed|ing)?|mov(?:ed|ing)|went|chang(?:ed|ing)|upgrad(?:ed|ing)|downgrad(?:ed|ing))\s{1,4}(?:back\s{1,4})?from\b[^.!?\n]{0,60}$"
    r"|\b(?:delet|remov|uninstall)(?:e|ed|ing)\b[^.!?\n]{0,60}$"
    r"|\b(?:not|no\s{1,4}longer|stopped)\s{1,4}(?:using|use|running|run)\b[^.!?\n]{0,40}$",
    re.IGNORECASE,
)
"""An archive the reporter left: "I switched from sd-...-rocm5.5-x64 to the vulkan build", "I deleted
llama-...-gfx1030 and now use ...", "not using llama-...-gfx1030 anymore" (review rev50b)."""
_LEFT_AFTER = when_used(r"[^.!?\n]{0,60}?\b(?:used\s{1,4}to|any\s?more|no\s{1,4}longer)\b", re.IGNORECASE)
"""The same said after it: "llama-...-gfx1030 used to work, now I run ...", "... is not used any more"."""
_ANY_WINDOWS_ARCHIVE = when_used(r"\b(?:llama|sd)-[\w.-]{1,80}?-bin-win-[a-z0-9][\w.-]{0,40}", re.IGNORECASE)
"""Any Windows release archive of llama.cpp or stable-diffusion.cpp, whatever its backend (avx2, vulkan, cuda, hip)."""
_ARCHIVE_SUFFIX = re.compile(r"(?:\.(?:zip|7z|tar\.gz))?[.-]*$", re.IGNORECASE)
_WORKS = when_used(r"\b(?:works?|worked|working)\b", re.IGNORECASE)
_NOT_WORKING = when_used(
    r"n't\b|\b(?:not|never|nothing|no|cpu|crash\w{0,4}|fail\w{0,4}|errors?|but|except|only|slow\w{0,2}|hang\w{0,3}|freez\w{0,3}|stop\w{0,4}|broke\w{0,2}|unable|issues?|problems?)\b",
    re.IGNORECASE,
)
"""An archive whose own sentence says it works, with no negation, failure or limit in that sentence ("I run llama.cpp
from llama-...-gfx1030.zip and it works. ollama from the installer runs on CPU only"): a failure told elsewhere is
another program's, and the list is no diagnosis of it (review rev50d: RD996 fired on such a report)."""
_SENTENCE_END = when_used(r"[.!?](?:\s|$)|\n")
_WHY_BEFORE = when_used(r"\b(?:why|how\s{1,4}come)\b[^.!?\n]{0,200}$", re.IGNORECASE)
"""A "why ... ?" presupposes the archive ran ("why does llama-...-gfx1030 crash on my RX 6600?"): it is read."""


@lru_cache(maxsize=1)
def archives() -> Tuple[Tuple[Pattern[str], Tuple[str, ...]], ...]:
    """(pattern, targets) per archive row of the table; targets empty where the name carries the target."""
    data = load_table(TABLE)
    rows = need_rows(data.get("archives") if isinstance(data, dict) else None, TABLE, "archives")
    out = []
    for index, row in enumerate(rows):
        path = f"archives[{index}]"
        pattern = row.get("pattern")
        targets = str_list(row, "targets", TABLE, path)
        if not isinstance(pattern, str) or not pattern:
            raise InputError(f"{where(TABLE, path)} needs a pattern")
        compiled = when_used(pattern, re.IGNORECASE)
        if bool(targets) == ("(?P<target>" in pattern):
            raise InputError(f"{where(TABLE, path)} needs either a (?P<target>...) group or a targets list, not both")
        if any(not _GFX.match(t) for t in targets):
            raise InputError(f"{where(TABLE, path)}.targets must be gfx names")
        out.append((compiled, tuple(targets)))
    return tuple(out)


def _archives_named(block: Block) -> int:
    """How many different Windows release archives the block names (a name and its download link count once)."""
    names = set()
    for line in block.lines:
        for found in _ANY_WINDOWS_ARCHIVE.finditer(line.text[:MAX_LINE]):
            names.add(_ARCHIVE_SUFFIX.sub("", found.group(0).lower()))
    return len(names)


def _said_to_work(text: str, start: int, end: int) -> bool:
    """The archive's sentence says it works and nothing in it says it fails or falls short (:data:`_NOT_WORKING`)."""
    opened = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    closing = _SENTENCE_END.search(text, end)
    sentence = text[opened : closing.start() if closing else len(text)]
    return _WORKS.search(sentence) is not None and _NOT_WORKING.search(sentence) is None


def parse(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    if _archives_named(block) > 1:
        # a release page's list of downloads, or several archives tried ("the rocm5.5 zip and the vulkan zip"):
        # which one ran is not shown (review rev50b)
        return pieces
    for line in block.lines:
        text = line.text[:MAX_LINE]
        found: List[str] = []
        for pattern, targets in archives():
            for match in pattern.finditer(text):
                before = text[max(0, match.start() - 200) : match.start()]
                if scope_before(text, match.start()) != NOW or _ADVICE_BEFORE.search(before[-120:]):
                    continue
                if _QUESTION_AFTER.match(text, match.end()) and not _WHY_BEFORE.search(before):
                    continue
                if _LEFT_BEFORE.search(before) or _LEFT_AFTER.match(text, match.end()):
                    continue
                if _said_to_work(text, match.start(), match.end()):
                    continue
                listed = list(targets) or [match.group("target").lower()]
                found.append(";".join(listed))
        if found:
            lists = list(dict.fromkeys(found))
            pieces.append(make_piece("release-archive-targets", [line], [Observation("symptoms.build_targets", lists, line, TRUST_SIGNATURE)]))
    return pieces
