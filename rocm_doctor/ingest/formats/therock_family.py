"""The TheRock GPU family a report installs ROCm or PyTorch wheels for: ``.../v2/gfx110X-all/``.

TheRock's legacy per-family releases put each GPU family on its own index (rocm.nightlies.amd.com/v2/<family>/,
the v2-staging/<family>/ indexes, their CloudFront mirrors d2awnip2yjpvqn.cloudfront.net and
d25kgig7rdsyks.cloudfront.net) with one ``rocm-sdk-libraries-<family>`` package, built for that family's
targets only (rules/data/therock_families.yaml). The family in the index or the package name says which
targets the installed build holds even where the report prints no torch version. Read where an install
shows it: an index URL on a ``pip``/``uv`` line or pip's "Looking in indexes", a wheel's own URL, the
package name in a listing or a download. Every distinct family is kept (``symptoms.therock_families``);
a report that names several does not say which one is installed, and the derived fact says so. A
sentence that asks or advises ("should I use .../v2/gfx1151/?", "try the gfx110X-all index instead") is
not an install. Reports: ROCm/TheRock#3046 (``uv pip install --index-url=.../v2-staging/gfx1150`` and
``rocm-sdk-libraries-gfx1151`` in uv's progress), #5954 (``pip install --index-url .../v2/gfx110X-all/``),
#2164 (the families in tarball names).
"""

from __future__ import annotations

import re
from typing import List

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import TRUST_SIGNATURE, Observation, Piece
from rocm_doctor.ingest.signatures import PAST_OR_ELSEWHERE

_FAMILY = r"(?P<family>gfx[0-9]{2,4}[0-9a-fx]?(?:-(?:all|dgpu|dcgpu|igpu))?)(?![\w-])"
_INDEX = re.compile(
    r"(?:rocm\.nightlies\.amd\.com|rocm\.prereleases\.amd\.com|d2awnip2yjpvqn\.cloudfront\.net|d25kgig7rdsyks\.cloudfront\.net)"
    r"/v2(?:-staging)?/" + _FAMILY,
    re.IGNORECASE,
)
_PACKAGE = re.compile(r"(?<![\w-])rocm[-_]sdk[-_]libraries[-_]" + _FAMILY, re.IGNORECASE)
_INSTALL = re.compile(r"\b(?:pip3?|uv|pipx|poetry|pdm)\b|\bLooking\s{1,4}in\s{1,4}indexes\b|\.whl\b|--(?:extra-)?index-url|--find-links", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_ADVICE = re.compile(
    r"\b(?:should|could|would|shall|if|whether|try|trying|instead|recommend\w*|suggest\w*|use\s{1,4}the|switch\w*\s{1,4}to|"
    r"not\s{1,4}(?:from|with)|n't\s{1,4}(?:use|install))\b",
    re.IGNORECASE,
)
_NOT_HERE_OR_NOW = re.compile(
    PAST_OR_ELSEWHERE
    # instructions for a kind of machine: "For Strix Halo users: pip install ...", "... on gfx1151 machines only"
    + r"|\b(?:for|on)\s{1,4}(?:[\w-]{1,20}\s{1,4}){0,3}?(?:users|owners|machines|cards|gpus|apus|systems|laptops)\b",
    re.IGNORECASE,
)
"""A sentence that holds these speaks of a past install, another person's or machine's, a document's or a
template's example, or instructions for some kind of machine: no install on this machine now (the words the
prose readers share, :data:`rocm_doctor.ingest.signatures.PAST_OR_ELSEWHERE`)."""
_NEGATED_BEFORE = re.compile(r"(?:\b(?:not|never|without|no\s{1,4}longer)|n['\u2019]t)\b(?:\s{1,4}[\w-]{1,20}){0,2}\s{0,4}$", re.IGNORECASE)
"""A negation a word or two before the install or the package ("I did not use pip install ...", "I haven't
installed rocm-sdk-libraries-gfx1151"): the install was not made."""
_ASKS = re.compile(r"[\W_]{0,6}(?:do|does|did|should|shall|can|could|would|will|is|are|any(?:one|body)|how|which|where)\b", re.IGNORECASE)
"""A sentence opening as a question, its question mark left off ("Do I need pip install --index-url ... for this")."""
MAX_LINE = 2000
"""Characters of a line searched: an index URL or a package sits in a command or a listing line."""


def _installs(text: str, match: "re.Match[str]") -> bool:
    """Whether the sentence holding ``match`` shows an install on this machine now: not a question, advice or a
    condition ("should I use ...", "try ... instead", "if I install ..."), nor a past, negated or another
    person's install, a document's, or instructions for some kind of machine."""
    start = max((end.end() for end in _SENTENCE_END.finditer(text, 0, match.start())), default=0)
    after = _SENTENCE_END.search(text, match.end())
    if after is not None and after.group(0) == "?":
        return False
    stop = after.start() if after else len(text)
    if _NOT_HERE_OR_NOW.search(text, start, stop) or _ASKS.match(text, start):
        return False
    command = _INSTALL.search(text, start, match.start())
    if _NEGATED_BEFORE.search(text, start, command.start() if command else match.start()) or _NEGATED_BEFORE.search(text, start, match.start()):
        return False
    return _ADVICE.search(text, start, match.start()) is None and _ADVICE.search(text, match.end(), after.start() if after else len(text)) is None


def _read(line: Line) -> List[str]:
    text = line.text[:MAX_LINE]
    found = [m for m in _INDEX.finditer(text) if _INSTALL.search(text)]
    found += list(_PACKAGE.finditer(text))
    return [m.group("family") for m in found if _installs(text, m)]


def parse(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    for line in block.lines:
        found = _read(line)
        if found:
            families = list(dict.fromkeys(found))
            pieces.append(make_piece("therock-family", [line], [Observation("symptoms.therock_families", families, line, TRUST_SIGNATURE)]))
    return pieces
