"""Whose state, and when, a sentence of a pasted report speaks of: the one place the prose readers ask.

A fact read from prose is the current machine's only when its sentence says so. "I previously got
libhip_hcc.so: cannot open ...", "Before I was on Ubuntu 22.04", "on my other machine I installed the CUDA
torch", "it works flawlessly on my NVIDIA machine", "the README says ...", "someone said ..." are not.
This module holds the words that put a sentence elsewhere (:data:`PAST_OR_ELSEWHERE`: the past, another
person's or machine's, a doubt, a document's or another person's words, a template's example) and one
function, :func:`scope_before`, that answers for a position in a text: is what stands there, by the words
before it in its sentence, said of the machine now (:data:`NOW`), of the past (:data:`PAST`), of another
machine or person (:data:`ELSEWHERE`), or in a document's or another person's words (:data:`SAID`)?

A "now" (or "currently", "today") after the words starts the current state again: "Before I was on Ubuntu
22.04, now Windows 11" names the current system after "now". Advice and questions are their readers' own
(:func:`rocm_doctor.ingest.signatures.statement_pattern` leaves a yes/no question, the resolution reader a
"try X"); this module speaks only of time and place. Linear: one bounded look back per call.
"""

from __future__ import annotations

import functools
import re
from typing import Pattern

from rocm_doctor.ingest.blocks import CONDITIONAL_ADVICE
from rocm_doctor.ingest.formats.common import DOCUMENT_SAYS, REPORTED_SPEECH
from rocm_doctor.lazy_regex import when_used

NOW, PAST, ELSEWHERE, SAID = "now", "past", "elsewhere", "said"
"""The scopes :func:`scope_before` tells apart."""

ANOTHERS_MACHINE = (
    r"(?:(?:other|another|old|second|friend's|friends|colleague's)\s{1,4}(?:machine|pc|computer|laptop|desktop|system|box|setup|server)"
    r"|(?:my|a|his|her|their)\s{1,4}(?:friend|colleague|co-?worker|brother|sister)(?:'s)?|some(?:one|body)\s{1,4}else"
    r"|(?:but|while|whereas)\s{1,4}(?:on|with|in)\s{1,4}(?:my|the|our)\s{1,4}(?:desktop|laptop|pc|computer|workstation|server|machine)(?!\s{0,4}['`\"])\b)"
)
"""Another person or another of the reporter's machines ("my friend's", "my other PC"), or two of the
reporter's machines set against each other in one sentence ("my laptop has no GPU available, but on the
desktop it works"): which of them the report is about, the sentence does not say."""
FOR_EXAMPLE = r"for\s{1,4}(?:example|instance)"
"""The words after it are an example (a template's "For example: the GPU is not detected"); the words before it
are not: "It puts the model in shared memory instead of VRAM.For example, a 13b model ..." (ollama/ollama#7566)
is the reporter's own instance of what they just said. A parenthesised "e.g." after a statement stays a sign
of a general description ("When PyTorch is built for another ROCm (e.g. torch+rocm7.0 on ROCm 7.2), ...":
bitsandbytes-foundation/bitsandbytes#1878), so only these words are left out of the look after a statement."""
EXAMPLE_MARKS = r"e\.g(?=\.)|example(?=\s{0,4}:)"
"""An example's other markers: "e.g." and a label's "Example:"."""
_EXAMPLE = EXAMPLE_MARKS + r"|" + FOR_EXAMPLE
NAMED_BY_ITS_PAST = (
    r"\s{1,4}(?:fixed|reported|resolved|solved|closed|known|seen|described|discussed|mentioned)\s{1,4}"
    r"(?:issues?|bugs?|problems?|errors?|crash(?:es)?|regressions?|hangs?|segfaults?|failures?)\b"
)
"""What follows "previously" (or "originally") when the word names a thing by its past, not the time the sentence
speaks of: "Previously fixed bug is back:", "the previously reported crash came back with torch 2.5.1+rocm6.2"
(learn56f: a current failure, whose versions are the machine's now)."""
_PAST = (
    r"used\s{1,4}to|last\s{1,4}working|before(?!\s{1,4}(?:[`'\"]|\w{1,20}ing\b))"
    r"|previously(?!\s{1,4}(?:mentioned|said|stated|noted)|" + NAMED_BY_ITS_PAST + r")|(?<!\bsaid\s)(?<!\bmentioned\s)(?<!\bstated\s)(?<!\bnoted\s)earlier"
)
"""The past: "used to", "before" ("before" with a gerund or a command is an order of steps, "I had to set
HSA_OVERRIDE_GFX_VERSION before calling `ollama serve`": NixOS/nixpkgs#332446), "previously", "earlier"
(not "previously mentioned", "said earlier": a pointer into the report)."""
_DOUBT = r"(?:do\s{0,4}n'?t|do\s{1,4}not)\s{1,4}think|not\s{1,4}sure\s{1,4}(?:if|whether)|wonder(?:ing)?\s{1,4}(?:if|whether)"
_TEMPLATE = (
    r"(?:clear\s{1,4}and\s{1,4}concise\s{1,4})?description\s{1,4}of"
    r"|describe\s{1,4}(?:the|your|what|how|a)|please\s{1,4}(?:provide|describe|include|explain|list|add)"
)
"""A doubt ("I don't think it runs on the CPU", "not sure if it uses the GPU") or a template's instructions left
in place ("A clear and concise description of what the bug is", "<!-- Describe the problem ... -->": GitHub's
issue-form and bug-report templates word their placeholders so)."""
NOT_NOW_OR_HERE = (
    _PAST + r"|" + ANOTHERS_MACHINE + r"|" + _DOUBT + r"|" + CONDITIONAL_ADVICE
    + r"|(?:" + DOCUMENT_SAYS + r")|(?:" + REPORTED_SPEECH + r")|" + _TEMPLATE
)
PAST_OR_ELSEWHERE = r"\b(?:" + NOT_NOW_OR_HERE + r"|" + _EXAMPLE + r")\b"
"""Words of a past state, another machine, a doubt or a text retold ("the README says it looks for an NVIDIA
GPU", "according to the docs, the installer tries to detect an NVIDIA GPU": what a document says about the
program, not what it did on this machine), or a template's example and instructions: a sentence that holds them
speaks of a past state, another machine or person, a document or a template's example; an advice's case ("If you
get ...", "in case you see ...": :data:`rocm_doctor.ingest.blocks.CONDITIONAL_ADVICE`) is no state of this machine either. Plain regex text with no
groups, so statement patterns (:func:`rocm_doctor.ingest.signatures.statement_pattern`) and the readers'
own patterns embed it."""
PAST_OR_ELSEWHERE_AFTER = r"\b(?:" + NOT_NOW_OR_HERE + r"|" + EXAMPLE_MARKS + r")\b"
"""The same words looked for after a statement in its sentence, less "for example" (:data:`FOR_EXAMPLE`)."""

ANOTHER_SETUP = (
    r"\b(?:(?:the|an?|my|any)\s{1,4})?(?:other|another|different|second|separate)\s{1,4}"
    r"(?:(?:docker|podman)\s{1,4}(?:containers?|images?)|containers?|venvs?|(?:conda|python|virtual)\s{1,4}env(?:ironment)?s?|env(?:ironment)?s?)\b"
    r"|\bany\s{1,4}(?:docker\s{1,4}|podman\s{1,4})?containers?\b"
)
"""Another container, image or Python environment than the one the report is about: "it works in any docker container"
(on the host it does not: pytorch/pytorch#132987), "I have tried also with my other docker container"
(henk717/KoboldAI#327), "I used to have a working docker container ..., in this new container ..."
(Comfy-Org/ComfyUI#6444). Read by :func:`scope_before` and :func:`scope_of` (a fix or an install said of it is not
this one's); statement patterns leave it out, since a report's error often names the container it ran in."""
_NOT_NOW_BEFORE = PAST_OR_ELSEWHERE + r"|" + REPORTED_SPEECH + r"|" + DOCUMENT_SAYS + r"|" + ANOTHER_SETUP
_NOW_AGAIN = r"\b(?:now|currently|today)\b"
"""Words that start the current state again after a past or another machine ("Before I was on Ubuntu 22.04,
now Windows 11", "used to work on 6.1, currently on 6.4")."""
_CLAUSE = r"(?:(?!" + _NOW_AGAIN + r")(?:[^.!?;\n]|\.(?=\w)))"
"""A character of the clause the look back stays in: a dot inside a version or a name ("On my other machine (RX 6800,
Ubuntu 22.04) torch 2.4.1+rocm6.1 works") does not end it."""
_KINDS = (
    (PAST, when_used(r"\b(?:" + _PAST + r")\b", re.IGNORECASE)),
    (ELSEWHERE, when_used(r"\b(?:" + ANOTHERS_MACHINE + r")\b|" + ANOTHER_SETUP, re.IGNORECASE)),
)


@functools.lru_cache(maxsize=None)
def _compiled(reach: int) -> Pattern[str]:
    """The look back for one reach (the readers use a few fixed ones), compiled once."""
    return re.compile(r"(?:" + _NOT_NOW_BEFORE + r")" + _CLAUSE + r"{0," + str(reach) + r"}$", re.IGNORECASE)


def scope_before(text: str, at: int, reach: int = 240, span: int = 300) -> str:
    """The scope of what stands at ``at`` in ``text``, by the words before it in its sentence: :data:`PAST`,
    :data:`ELSEWHERE` (another person's or machine's), :data:`SAID` (a document's or another person's words,
    a doubt or a template's example) when :data:`PAST_OR_ELSEWHERE` (or a document's or another person's words)
    stand at most ``reach`` characters before ``at`` in its sentence with no "now" after them, else :data:`NOW`.
    Looks at the ``span`` characters before ``at`` only."""
    window = text[max(0, at - span) : at]
    found = _compiled(reach).search(window)
    if found is None:
        return NOW
    return _kind(window, found.start())


_ANYWHERE = when_used(_NOT_NOW_BEFORE, re.IGNORECASE)


def scope_of(clause: str) -> str:
    """The scope of a whole clause (the resolution reader's unit: "it works fine on my other machine" is out
    wherever in the clause the words stand): :func:`scope_before`'s kinds, from the first scope word in it."""
    found = _ANYWHERE.search(clause)
    if found is None:
        return NOW
    return _kind(clause, found.start())


def _kind(text: str, at: int) -> str:
    for kind, pattern in _KINDS:
        if pattern.match(text, at) is not None:
            return kind
    return SAID
