"""The ollama release a report shows running: ``ollama version is 0.12.5``, ``ollama/ollama:0.12.5-rocm``.

ollama ships its own ROCm runtime and math libraries, compiled for the gfx targets of that release's
build; the targets change between releases (gfx900 and gfx906 left with 0.12.4), so which release runs
decides whether a GPU has kernels there, whatever the system's own ROCm supports. Read in the forms
ollama itself prints or users copy from it:

* ``ollama -v``: ``ollama version is 0.12.5`` (cmd/cmd.go at v0.12.5);
* the server's start line: ``Listening on 127.0.0.1:11434 (version 0.5.4)`` (server/routes.go);
* an image tag: ``ollama/ollama:0.12.5-rocm``, ``ollama:0.12.3-rocm``;
* the name with its release in a sentence or a title: ``ollama 0.12.6``, ``Ollama v0.12.5``;
* the issue form's "Ollama version" field, inline (``Ollama version: 0.11.8``) or as a heading whose
  value is on a following line (``### Ollama version`` then ``0.11.8``, also with the build suffix the
  binary prints, ``0.3.14-0-gc692dfd``, ``0.4.0-pre``, or words after it; not a value line that speaks
  of another release, "0.5.4 worked before").

Each distinct release is kept (``symptoms.ollama_versions``); a report that shows several (an upgrade
compared with the release before) does not say which one the failure is from, and the derived fact says
so. A line that speaks of another release than the one in use ("it worked on 0.12.3", "rolled back to")
is not read. Reports: ollama/ollama#12131 (issue form, 0.11.8), #12915 (ollama/ollama:0.12.3-rocm as the
release that worked), #8263 (``Listening on [::]:11434 (version 0.5.4)``), #11569 (issue form, 0.9.6).
"""

from __future__ import annotations

import re
from typing import List, Optional

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import TRUST_SIGNATURE, Observation, Piece
from rocm_doctor.lazy_regex import when_used

_RELEASE = r"v?(0\.\d{1,2}\.\d{1,2})(?![\d.]*\d)"
_INLINE = when_used(
    # "ollama version is 0.12.5" (ollama -v), "Ollama version 0.12.5", "ollama 0.12.6", "ollama v0.12.6",
    # the image tags "ollama/ollama:0.12.5-rocm" and "ollama:0.12.3-rocm"
    r"(?<![\w-])(?:ollama/)?ollama(?::|\s{1,4}(?:version\s{1,4}(?:is\s{1,4})?)?)" + _RELEASE
    + r"|\bListening\s{1,4}on\s{1,4}\S{1,80}\s{1,4}\(version\s{1,4}" + _RELEASE + r"\)"
    + r"|^[\W_]{0,8}ollama\s{1,4}version[*_`]{0,4}\s{0,4}[:=-][*_`]{0,4}\s{0,4}[`*_]{0,4}" + _RELEASE,
    re.IGNORECASE,
)
_HEADING = when_used(r"^[\W_]{0,8}ollama\s{1,4}version[\W_]{0,8}$", re.IGNORECASE)
_VALUE = when_used(
    # the release alone ("0.11.8", "0.12.3-rocm"), or with the build suffix the binary prints after it
    # (git describe's "0.3.14-0-gc692dfd", a package revision "0.3.13-1", "0.4.0-pre") and words after a
    # space ("0.5.4-1 tested both on arch linux ..."): ollama-for-amd#26, #36, ollama/ollama#8262, #7480
    r"^[\s`*_]{0,8}" + _RELEASE + r"(?:-[0-9a-z.]{1,24}){0,3}(?:[\s`*_.]{0,8}$|\s{1,8}\S)",
    re.IGNORECASE,
)
_OTHER_RELEASE = when_used(
    r"\b(?:work(?:ed|s)?\s{1,4}(?:fine\s{1,4})?(?:on|with|in)|used\s{1,4}to|before|previous(?:ly)?|earlier|older|"
    r"roll(?:ed|ing)?\s{0,4}back|downgrad\w*|revert\w*|last\s{1,4}working|upgrad\w*\s{1,4}from)\b",
    re.IGNORECASE,
)
_HEADING_LOOKAHEAD = 3
"""Lines after an "Ollama version" heading that may hold its value (the issue form leaves a blank one)."""
MAX_LINE = 2000


def _value_after(lines: tuple, index: int) -> Optional[str]:
    for line in lines[index + 1 : index + 1 + _HEADING_LOOKAHEAD]:
        if not line.text.strip():
            continue
        text = line.text[:MAX_LINE]
        if _OTHER_RELEASE.search(text):
            return None
        match = _VALUE.match(text)
        return match.group(1) if match else None
    return None


_SENTENCE_END = when_used(r"[.!?](?=\s|$)")
_NOT_RUNNING_BEFORE = when_used(
    r"\b(?:will|would|should|could|might|if|whether|plan(?:s|ned|ning)?|going\s{1,4}to|try|wait(?:ing)?\s{1,4}for|instead\s{1,4}of)\b",
    re.IGNORECASE,
)


def _runs(text: str, match: "re.Match[str]") -> bool:
    """Whether the sentence holding ``match`` shows the release running: not a question ("Will ollama
    0.12.6 still support my card?"), nor a release to come, to try or meant ("I will try ollama 0.12.6",
    "if ollama 0.12.5 drops it") (r33a). ollama's own lines (``ollama version is``, the server's
    ``(version ...)``, an image tag) hold no such words."""
    start = max((end.end() for end in _SENTENCE_END.finditer(text, 0, match.start())), default=0)
    after = _SENTENCE_END.search(text, match.end())
    if after is not None and after.group(0) == "?":
        return False
    return _NOT_RUNNING_BEFORE.search(text, start, match.start()) is None


def _read(line: Line) -> List[str]:
    text = line.text[:MAX_LINE]
    if _OTHER_RELEASE.search(text):
        return []
    return [next(v for v in m.groups() if v) for m in _INLINE.finditer(text) if _runs(text, m)]


def parse(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    for index, line in enumerate(block.lines):
        found = _read(line)
        if not found and _HEADING.match(line.text[:MAX_LINE]):
            value = _value_after(block.lines, index)
            found = [value] if value else []
        if found:
            versions = list(dict.fromkeys(v.lower().lstrip("v") for v in found))
            pieces.append(make_piece("ollama-version", [line], [Observation("symptoms.ollama_versions", versions, line, TRUST_SIGNATURE)]))
    return pieces
