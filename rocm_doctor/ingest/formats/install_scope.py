"""Whether a package index or a package named on a line is installed on this machine now.

A line that names an index URL or a package may show an install (a ``pip install`` command, pip's
"Looking in indexes", a listing) or speak of one that was not made here: a question ("should I use
.../whl/rocm6.2.4?"), advice or a condition ("try the gfx110X-all index instead", "if I install ..."), a
past or negated install ("I used to install from ...", "I did not use ..."), another person's or a
document's ("my friend ran ...", "the README says: pip install ..."), or instructions for some kind of
machine ("For Strix Halo users: ..."). The readers of TheRock's per-family indexes and of
download.pytorch.org's ROCm indexes share this judgement (r35b: both feed rules of severity error).
"""

from __future__ import annotations

import re

from rocm_doctor.ingest.scope import PAST_OR_ELSEWHERE
from rocm_doctor.lazy_regex import when_used

INSTALL = when_used(r"\b(?:pip3?|uv|pipx|poetry|pdm)\b|\bLooking\s{1,4}in\s{1,4}indexes\b|\.whl\b|--(?:extra-)?index-url|--find-links", re.IGNORECASE)
"""Words of an install on a line: an installer, pip's index line, a wheel, an index option."""
_SENTENCE_END = when_used(r"[.!?](?=\s|$)")
_ADVICE = when_used(
    r"\b(?:should|could|would|shall|if|whether|try|trying|instead|recommend\w*|suggest\w*|use\s{1,4}the|switch\w*\s{1,4}to|"
    r"not\s{1,4}(?:from|with)|n't\s{1,4}(?:use|install)"
    # an instruction put to the reader ("Make sure you install Torch with CUDA: pip install ...", StoryToolkitAI's
    # README and its printed warning; "make sure you install torch with CUDA wheels", a Jetson project's README)
    r"|make\s{1,4}sure|ensure|you\s{1,4}(?:need|have|must)\s{1,4}to|you['\u2019]ll\s{1,4}need\s{1,4}to)\b",
    re.IGNORECASE,
)
_NOT_HERE_OR_NOW = when_used(
    PAST_OR_ELSEWHERE
    # instructions for a kind of machine: "For Strix Halo users: pip install ...", "... on gfx1151 machines only"
    + r"|\b(?:for|on)\s{1,4}(?:[\w-]{1,20}\s{1,4}){0,3}?(?:users|owners|machines|cards|gpus|apus|systems|laptops)\b",
    re.IGNORECASE,
)
"""A sentence that holds these speaks of a past install, another person's or machine's, a document's or a
template's example, or instructions for some kind of machine: no install on this machine now (the words the
prose readers share, :data:`rocm_doctor.ingest.scope.PAST_OR_ELSEWHERE`)."""
_NEGATED_BEFORE = when_used(r"(?:\b(?:not|never|without|no\s{1,4}longer)|n['\u2019]t)\b(?:\s{1,4}[\w-]{1,20}){0,2}\s{0,4}$", re.IGNORECASE)
"""A negation a word or two before the install or the package ("I did not use pip install ...", "I haven't
installed rocm-sdk-libraries-gfx1151"): the install was not made."""
_ASKS = when_used(r"[\W_]{0,6}(?:do|does|did|should|shall|can|could|would|will|is|are|any(?:one|body)|how|which|where)\b", re.IGNORECASE)
"""A sentence opening as a question, its question mark left off ("Do I need pip install --index-url ... for this")."""


def installed_here(text: str, match: "re.Match[str]") -> bool:
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
    command = INSTALL.search(text, start, match.start())
    if _NEGATED_BEFORE.search(text, start, command.start() if command else match.start()) or _NEGATED_BEFORE.search(text, start, match.start()):
        return False
    return _ADVICE.search(text, start, match.start()) is None and _ADVICE.search(text, match.end(), after.start() if after else len(text)) is None
