"""Resolution statements: what a reporter says made the problem go away, or what its cause turned out to be.

A report often ends with the answer: "EDIT: solved it, setting HSA_OVERRIDE_GFX_VERSION=10.3.0 before
launching fixed it", "the culprit was HIP_VISIBLE_DEVICES set in my .bashrc", "Solved by updating the
Adrenalin driver". The table ``rules/data/resolution_statements.yaml`` holds the resolution wordings
(``phrases``, and ``labels`` such as "Solved:") and, per finding category, the words of the change or
cause (``changes``). This reader knows no particular change: it cuts each line into sentences and
clauses, keeps a clause that holds a phrase (or follows a label) and a change row's words, and leaves
out a clause whose scope is not the reporter's own working fix: a negation ("didn't fix it"), a failure
("still crashes", "no luck"), a question, advice or a condition ("try X", "X should fix it", "if X
fixes it"), another person's or machine's experience, the past, a document or a template's example
(the words :data:`rocm_doctor.ingest.scope.PAST_OR_ELSEWHERE` and :data:`.common.REPORTED_SPEECH`
name), a line quoted from someone else (``> ...`` amid the reporter's own lines), and a release note's or changelog's
line ("* Fixed an issue where ...", "6.2.1: fixed ...", the lines under "#### Resolved issues" or "Changelog:").

Each statement becomes ``"<row id>: <clause>"`` in ``symptoms.resolutions``. Linear in the input: the
lines are found by the phrases' anchor words (``str.find``), each found line is cut once, and each
clause is searched by one combined pattern per kind (phrases, changes, scope words).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, List, Optional, Pattern, Tuple

from rocm_doctor.data import load_table
from rocm_doctor.errors import InputError
from rocm_doctor.anchors import pattern_anchors
from rocm_doctor.ingest.blocks import Block, Line, may_be_wrapped
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import TRUST_PROSE, Observation, Piece
from rocm_doctor.ingest.scope import NOW, scope_of
from rocm_doctor.knowledge._tables import source_urls
from rocm_doctor.model.rules import CATEGORIES
from rocm_doctor.lazy_regex import when_used

TABLE = "resolution_statements"
KIND = "resolution"
FACT = "symptoms.resolutions"
MAX_LINE = 2000
"""Longer lines are cut before reading (a sentence is shorter)."""
MAX_SAID = 240
"""Characters of a clause kept in the fact (what the finding quotes)."""
SAID_KINDS = ("fix", "cause")


@dataclass(frozen=True)
class Change:
    """A row of ``changes``: the words of one change or cause, and its finding category."""

    id: str
    category: str
    meaning: str
    said: Tuple[str, ...]
    """The phrase kinds the row is read after: ``fix`` and ``cause``, or ``cause`` only."""
    unless_clause: Optional[Pattern[str]] = None
    """Words that, anywhere in the clause, say the row's change is not a fix there (a --no-dkms install inside a
    container or WSL, where no amdgpu module is ever built: normal practice, no change of driver)."""


@dataclass(frozen=True)
class Table:
    label: Pattern[str]
    phrases: Pattern[str]
    """Every phrase, one named group per kind (``fix``, ``cause``)."""
    changes: Pattern[str]
    """Every change row as a named group ``c<index>``, in table order (the first wins at one place)."""
    rows: Tuple[Change, ...]
    anchors: Tuple[str, ...]
    """Lower-case words every phrase or label match holds one of: the lines worth reading."""


def _compile(text: Any, where: str) -> Pattern[str]:
    try:
        return re.compile(str(text), re.IGNORECASE)
    except re.error as exc:
        raise InputError(f"{where}: invalid regex ({exc})") from None


def build(data: Any) -> Table:
    """The table's rows checked and compiled; a malformed row is an InputError naming it."""
    where = f"rules/data/{TABLE}.yaml"
    if not isinstance(data, dict) or not isinstance(data.get("phrases"), list) or not isinstance(data.get("changes"), list):
        raise InputError(f"{where}: must be a mapping with 'labels', 'phrases' and 'changes'")
    label = (data.get("labels") or {}).get("pattern")
    if not label:
        raise InputError(f"{where}: labels needs a pattern")
    by_kind: Dict[str, List[str]] = {kind: [] for kind in SAID_KINDS}
    anchors: List[str] = []
    for index, row in enumerate(data["phrases"]):
        here = f"{where}: phrases[{index}]"
        if not isinstance(row, dict) or not row.get("id") or not row.get("pattern") or row.get("said") not in SAID_KINDS:
            raise InputError(f"{here} needs id, pattern and said ({' or '.join(SAID_KINDS)})")
        _compile(row["pattern"], here)
        _cited(row, here)
        words = pattern_anchors(str(row["pattern"]))
        if words is None:
            raise InputError(f"{here}: every alternative needs a literal word (the lines to read are found by them)")
        anchors += words
        by_kind[str(row["said"])].append(f"(?:{row['pattern']})")
    rows: List[Change] = []
    parts: List[str] = []
    for index, row in enumerate(data["changes"]):
        here = f"{where}: changes[{index}]"
        if not isinstance(row, dict) or not all(row.get(k) for k in ("id", "pattern", "category", "meaning")):
            raise InputError(f"{here} needs id, pattern, category and meaning")
        if row["category"] not in CATEGORIES:
            raise InputError(f"{here}.category '{row['category']}' is not one of {', '.join(CATEGORIES)}")
        said = row.get("said")
        if said is not None and said not in SAID_KINDS:
            raise InputError(f"{here}.said must be one of {', '.join(SAID_KINDS)}")
        _compile(row["pattern"], here)
        _cited(row, here)
        unless = _compile(row["unless_clause"], f"{here}.unless_clause") if row.get("unless_clause") else None
        rows.append(Change(str(row["id"]), str(row["category"]), str(row["meaning"]), (str(said),) if said else SAID_KINDS, unless))
        parts.append(f"(?P<c{index}>{row['pattern']})")
    label_words = pattern_anchors(str(label))
    phrases = "|".join(f"(?P<{kind}>{'|'.join(found)})" for kind, found in by_kind.items() if found)
    return Table(
        label=_compile(label, f"{where}: labels"),
        phrases=_compile(phrases, f"{where}: phrases"),
        changes=_compile("|".join(parts), f"{where}: changes"),
        rows=tuple(rows),
        anchors=tuple(sorted({w.lower() for w in anchors + list(label_words or ("solved", "fixed", "resolved", "solution", "workaround", "fix"))})),
    )


def _cited(row: Dict[str, Any], here: str) -> None:
    urls = source_urls(row.get("source"))
    if not urls or len(urls) < 3:
        raise InputError(f"{here}.source must list at least three public reports")


@lru_cache(maxsize=1)
def table() -> Table:
    """The shipped table."""
    return build(load_table(TABLE))


# --- scope: what leaves a clause out ---------------------------------------------------------

_CLAUSE_END = when_used(r"(?:(?<!\b[ei]\.[ge])(?<![\s(]\d)(?<!^\d)[.!?]+|;|\s[-\u2013]{1,2}\s|,?\s{1,4}(?:but|however|although|though|whereas|except)\b)(?=\s|$)|\n", re.IGNORECASE)
"""Where a clause ends: a sentence's end (a full stop before a space: "6.8" and "rocm6.2" stay inside it),
a semicolon, a dash set apart, or a contrast ("X fixed the first error, but Y still fails"). A colon does
not end one: "Works now: I had to set ..." is one statement."""
_SENTENCE_END = when_used(r"(?<!\b[ei]\.[ge])(?<![\s(]\d)(?<!^\d)[.!?]+(?=\s|$)")

_NEGATED = when_used(r"(?:\bnot|n't|\b(?:did|does|do|was|is|has|have|had|ca|wo|could|would)nt|\bnever|\bno|\bnobody|\bnothing|\bneither|\bnor|\bunable\s{1,4}to|\bfailed\s{1,4}to|\bcannot)[*_~]{0,2}\s{1,4}(?:[\w'*_~-]{1,20}\s{1,4}){0,3}$", re.IGNORECASE)
"""Words right before a phrase that deny it ("didn't fix it", "haven't been able to get it working")."""
_FAILURE = when_used(
    r"\bstill\b|\bno\s{1,4}(?:luck|effect|change|difference|success|improvement|dice)\b|\b(?:did|does|do|has|have)\s{0,4}(?:n't|not)\s{1,4}(?:help|work|change|fix|solve|resolve)"
    # "disabling the iGPU in the BIOS did nothing", "changed nothing" (not "I did nothing else", "did nothing but reboot")
    r"|\b(?:did|does|do|changed?|changes|helped|helps)\s{1,4}(?:absolutely\s{1,4})?nothing\b(?!\s{1,4}(?:else|more|other|but|except)\b)"
    r"|\bwithout\s{1,4}(?:success|luck|any\s{1,4}(?:effect|change))\b|\bsame\s{1,4}(?:error|result|problem|issue|crash|thing|behaviou?r)\b"
    r"|\b(?:partially|partly|somewhat|temporar\w{1,6}|sometimes|intermittent\w{0,4})\b|\bfor\s{1,4}a\s{1,4}(?:while|bit|moment|day|few\s{1,4}\w{1,10})\b|\bthen\s{1,4}(?:it\s{1,4})?(?:crash|fail|broke|hang|froze)\w{0,3}\b"
    r"|\b(?:fix|work|solv|help|resolv)\w{0,4}\b[^.!?\n]{0,30}\b(?:at\s{1,4}first|initially)\b|\b(?:work\w{0,3}|ran|runs?|running)\b[^.!?\n]{0,60}\buntil\b|\b(?:at\s{1,4}first|initially)\s{1,4}(?:it\s{1,4}|this\s{1,4}|that\s{1,4})?(?:fix|work|solv|help|resolv)\w{0,4}\b|\bfirst\s{1,4}(?:error|problem|issue|crash|exception)\b|\b(?:different|another|new|next|other)\s{1,4}(?:error|problem|issue|crash|exception)\b"
    r"|\bonly\s{1,4}(?:on|with|using|uses|runs\s{1,4}on)\s{1,4}(?:the\s{1,4})?cpu\b"
    # the run moved to the CPU: "now it runs on the CPU instead of the GPU", "now it just uses the CPU", "falls back to CPU"
    # (not "instead of using the CPU", "no longer runs on the CPU", "doesn't use the CPU", nor the past of a fix that
    # worked, read as a resolution before: "it used to run on the CPU", "it stopped using the CPU", "it never uses
    # the CPU now" - rev51f)
    r"|(?<!\bof\s)(?<!\bthan\s)(?<!\blonger\s)(?<!\bnot\s)(?<!n't\s)(?<!\bused\sto\s)(?<!\bstopped\s)(?<!\bnever\s)\b(?:runs?|running|ran|works?|working|worked)\s{1,4}(?:\w{1,12}\s{1,4})?on\s{1,4}(?:the\s{1,4}|my\s{1,4})?cpu\b"
    r"|(?<!\bof\s)(?<!\bthan\s)(?<!\blonger\s)(?<!\bnot\s)(?<!n't\s)(?<!\bused\sto\s)(?<!\bstopped\s)(?<!\bnever\s)\b(?:uses?|using|used)\s{1,4}(?:\w{1,12}\s{1,4})?(?:the\s{1,4}|my\s{1,4})?cpu\b(?!\s{0,4}(?:and|\+|&)\s{0,4}(?:the\s{1,4})?gpu)|\bfalls?\s{1,4}back\s{1,4}to\s{1,4}(?:the\s{1,4})?cpu\b"
    # it runs, but what it makes is broken: "got ComfyUI working again, however all my outputs are black images"
    # (Comfy-Org/ComfyUI#6444), "runs at full speed, but the model outputs completely corrupted tokens"
    # (ROCm/TheRock#5579), "exllama running well ..., but ... I only get gibberish as output" (oobabooga/textgen#2840),
    # "gives a completely garbage output" (ollama/ollama#2720), "produces garbage output" (abetlen/llama-cpp-python#1121)
    r"|\b(?:but|however|though|yet)\b[^.!?\n]{0,80}?(?:\b(?:corrupt(?:ed)?|garbled|black|blank|garbage|gibberish|nonsense|wrong)\s{1,4}(?:outputs?|images?|pictures?|tokens?|text|results?|frames?)\b"
    r"|\b(?:outputs?|images?|pictures?|tokens?|text|results?)\s{1,4}(?:is|are|was|were|looks?|comes?\s{1,4}out)\s{1,4}(?:all\s{1,4}|just\s{1,4}|only\s{1,4}|completely\s{1,4}|pure\s{1,4})?(?:black|blank|noise|garbled|garbage|gibberish|nonsense|corrupt(?:ed)?|wrong)\b"
    r"|\b(?:garbage|gibberish)\b(?!\s{1,4}collect))",
    re.IGNORECASE,
)
"""Words of a failure or a partial fix anywhere in the clause ("still crashes after", "no luck with", "fixed it at
first", "fixed the first error", "now I get a different error", "works now, but only on the CPU", "now it runs on
the CPU instead of the GPU", "it ran flawlessly
until the driver update": it stopped then), or a run whose output is broken after a "but" ("got it to run, but the
output is garbage", "working again, however all my outputs are black images")."""
_NOT_ONE_OWN_CHANGE = when_used(
    r"\b(?:fixed|solved|resolved|addressed)\s{1,4}upstream\b|\bupstream\s{1,4}(?:fix|patch|commit)\b|\b(?:fix|patch)\s{1,4}(?:landed|was\s{1,4}merged|got\s{1,4}merged|is\s{1,4}merged)\b"
    r"|\b(?:fixed|solved|resolved)\s{1,4}in\s{1,4}(?:[\w.+-]{1,30}\s{1,4})?(?:v|b|r)?\d|\bbug\s{1,4}in\s{1,4}(?:py)?torch\b"
    r"|\b(?:re-?install\w{0,3}|wip\w{1,3}|format\w{0,3})\s{1,4}(?:of\s{1,4})?(?:everything|it\s{1,4}all|the\s{1,4}(?:whole\s{1,4}|entire\s{1,4})?(?:os|system|machine|distro|computer)|ubuntu|fedora|arch|windows|linux|mint|debian)\b"
    r"|\b(?:clean|fresh|full|complete)\s{1,4}(?:re-?install\w{0,3}|install\w{0,3})\s{1,4}of\s{1,4}(?:everything|the\s{1,4}(?:os|system)|ubuntu|fedora|arch|windows|linux|mint|debian)\b"
    r"|\bfresh\s{1,4}(?:os|system|ubuntu|fedora|windows|linux)\s{1,4}install",
    re.IGNORECASE,
)
"""A sentence that puts the fix outside the reporter's one change: a fix made upstream ("fixed upstream in ROCm 6.3",
"the fix landed in ollama v0.5.8", "the bug was in PyTorch and is fixed in 2.5"), or everything redone at once ("a clean
reinstall of Ubuntu, updated the kernel, and now it works"): a change named beside it is not shown to be the cause."""
_RELAPSE = when_used(
    r"\b(?:is|was|came|comes|are|were)\s{1,4}back\b|\b(?:crash|fail|hang|freez|froze|segfault|broke|break)\w{0,4}\s{1,4}again\b|\bnope\b"
    r"|\bspoke\s{1,4}too\s{1,4}soon\b|\b(?:not|n't)\s{1,4}(?:actually\s{1,4}|really\s{1,4})?(?:fixed|solved|resolved)\b|\bnow\s{1,4}(?:it\s{1,4})?(?:segfaults|crashes|fails|hangs)\b",
    re.IGNORECASE,
)
"""Words that take a fix back after it was told ("EDIT 2: nope, it crashes again", "the error is back", "spoke too
soon", "now it segfaults on load"): a statement followed by them in its block is no working fix."""
_ADVICE_OR_CONDITION = when_used(
    r"\b(?:if|whether|unless|in\s{1,4}case|try|trying|maybe|perhaps|hopefully|hope|hoping|suggest\w{0,4}|recommend\w{0,4}|please|consider|probably|possibly|supposedly"
    r"|should|would|could|might|shall|psa|for\s{1,4}any(?:one|body)(?:\s{1,4}(?:else|searching|reading|who))?|for\s{1,4}future\s{1,4}readers)\b|\byou\s{1,4}(?:can|may|will|need|must|have\s{1,4}to|want|just|\w{1,12}\s{1,4}need)\b"
    r"|\b(?:can|may|will|must)\s{1,4}(?:be\s{1,4})?(?:fix|solv|resolv|work|help)\w{0,3}\b|\b(?:think|thought|guess|suspect|assume|wonder\w{0,3}|not\s{1,4}sure|unsure)\b"
    r"|\b(?:going\s{1,4}to|gonna|plan\s{1,4}to|want\s{1,4}to|trying\s{1,4}to|tried\s{1,4}to|how\s{1,4}to|need\s{1,4}to)\s{1,4}(?:fix|solve|resolve)\b",
    re.IGNORECASE,
)
"""Advice, a condition, a plan or a doubt: "try X", "X should fix it", "if X fixes it", "you can fix that by",
"For anyone searching: <error> is solved by X" (a general statement addressed to others),
"I think X fixed it", "trying to fix it"."""
_QUESTION_START = when_used(r"^[\W_]{0,6}(?:does|did|do|would|could|should|can|will|is|are|has|have|was|were|any(?:one|body)|how|why|what|which|where)\b", re.IGNORECASE)
_ELSEWHERE = when_used(
    r"\bfor\s{1,4}(?:him|her|them|others|other\s{1,4}(?:people|users)|some(?:one|body|\s{1,4}(?:people|users))|many(?:\s{1,4}people)?|most(?:\s{1,4}people)?|a\s{1,4}lot\s{1,4}of\s{1,4}people|those)\b"
    r"|\b(?:a|the|another|that|this)\s{1,4}(?:similar|related|linked|other|different|older)\s{1,4}(?:issue|thread|post|report|discussion)\b"
    r"|\b(?:he|she|they)\s{1,4}(?:fixed|solved|resolved|got|had|made)\b"
    r"|\b(?:said|says|replied|wrote|writes|mentioned|suggested|commented|answered|posted|claimed|reported|told\s{1,4}(?:me|us))\s{1,4}that\b"
    r"|\b(?:users?|maintainers?|devs?|developers?|commenters?|posters?|guys?|person|redditors?)\s{1,4}(?:\w{1,20}\s{1,4}){0,3}(?:said|says|replied|wrote|mentioned|suggested|commented|answered|posted|reported)\b"
    r"|\bon\s{1,4}(?:his|her)\b|\bon\s{1,4}their\s{1,4}(?:own\s{1,4})?(?:machines?|pcs?|cards?|systems?|gpus?|computers?|laptops?|setups?|end)\b|\bfixed\s{1,4}(?:by|in)\s{1,4}(?:pr\b|pull\s{1,4}request|commit|#\d|version|release|the\s{1,4}(?:maintainers?|devs?|developers?))",
    re.IGNORECASE,
)
"""Another person's or machine's experience ("A user on reddit said that ...", "the maintainer replied that ... fixed it
on his 6700 XT"), another thread's ("I found a similar issue where it was solved
after disabling the iGPU": pytorch/pytorch#119637), the past, a document, a template's example, or a fix made
upstream ("Fixed by PR #16308", "fixed in the next release"): no change the reporter made here. The words every
prose reader shares (the past, another machine or person, a document's words: :func:`rocm_doctor.ingest.scope.scope_of`)
are asked of the scope module; these are the resolution reader's own."""
_CHANGE_DENIED = when_used(r"(?:\bwithout|\binstead\s{1,4}of|\brather\s{1,4}than|\bno\s{1,4}need\s{1,4}(?:to|for)|\b(?:do|did)\s{0,4}(?:n't|not)\s{1,4}need\s{1,4}to)\s{1,4}(?:\w{1,20}\s{1,4})?$", re.IGNORECASE)
"""Words right before a change that deny it was made ("now I have it working without disabling the iGPU":
ROCm/TheRock#5113, "no need to set the override")."""
_TRIED = when_used(r"\b(?:tried|try|trying|attempted|tested)\b", re.IGNORECASE)
"""Under a label only ("Solved: ..."), a change the sentence says was tried is not the one that solved it."""
_OWN_STEP = when_used(
    r"^\W{0,4}(?:(?:then|so|and|ok|okay|well),?\s{1,4})?I\s{1,4}(?:have\s{1,4}|had\s{1,4}|just\s{1,4}|then\s{1,4}|finally\s{1,4}|also\s{1,4})?"
    r"(?:[a-z]{2,20}ed|set|put|built|rebuilt|ran|made|got\s{1,4}rid\s{1,4}of|went\s{1,4}back)\b",
    re.IGNORECASE,
)
"""A clause that tells a step the reporter took ("I have updated to the latest Adrenalin driver", "I set
HSA_OVERRIDE_GFX_VERSION=10.3.0"): a success right after it ("AMD Chat is working correctly", "Now it
works") says that step made it work."""
_EDIT_NOTE = when_used(r"[\s*_]{0,4}(?:(?:an?|the|my|some)\s{1,4})?(?:typos?|formatting|format|links?|wording|spelling|grammar|markdown|code\s{1,4}blocks?|title)\b", re.IGNORECASE)
"""Words right after a label that make it a note on the post itself ("Fixed: typo in my previous comment"), not a
resolution of the problem."""
_QUOTED = when_used(r"^\s{0,3}>")
_CHANGE_TOLD = when_used(
    r"\b(?:now|again|after\w{0,5}|since|once|finally|anymore|any\s{1,4}more|no\s{1,4}longer|fix\w{0,3}|solv\w{0,3}|resolv\w{0,3}|trick"
    r"|got|made|make|managed|able|had\s{1,4}to|needed\s{1,4}to|caus\w{0,3}|culprit|turn\w{0,3}\s{1,4}(?:out|off)|workaround|solution"
    r"|set|setting|export\w{0,3}|add\w{0,3}|remov\w{0,3}|unset\w{0,4}|disabl\w{0,3}|enabl\w{0,3}|boot\w{0,3}|downgrad\w{0,3}|upgrad\w{0,3}"
    r"|updat\w{0,3}|roll\w{0,3}\s{1,4}back|revert\w{0,3}|switch\w{0,3}|(?:re-?)?install\w{0,3}|(?:re)?buil[dt]\w{0,3}|compil\w{0,3}|mov\w{0,3}"
    r"|went\s{1,4}back|go\w{0,3}\s{1,4}back|chang\w{0,3}|replac\w{0,3}|usermod|gpasswd|instead)\b",
    re.IGNORECASE,
)
"""Words of a change or of its result ("now", "after", "fixed", "switched", "set", "installed"). prec53a: a "works" phrase in a
clause with none of them ("It works fine on kernel 6.11", "Everything works perfectly on the 6.10 kernel") says what the
machine runs, not what changed: it is read as a resolution only where its block names a failure (:data:`_FAILURE_TOLD`)."""
_FAILURE_TOLD = when_used(
    r"(?<!\bno\s)(?<!\bwithout\s)(?<!\bany\s)\b(?:crash\w{0,3}|seg\s?faults?|segfault\w{0,3}|fail\w{0,3}|broke|broken|breaks|hangs?|hanging|hung"
    r"|freez\w{0,3}|froze|errors?|exceptions?|traceback|(?:does|do|did)\s{0,2}(?:not|n['’]?t)\s{1,4}work|not\s{1,4}working|stopped\s{1,4}working"
    r"|won['’]?t\s{1,4}(?:work|load|run|start)|can\s{0,2}(?:not|['’]?t)\s{1,4}(?:work|load|run|start|find|detect|see)|unable\s{1,4}to"
    r"|not\s{1,4}(?:detected|found|recogni[sz]ed))\b",
    re.IGNORECASE,
)
"""A failure named in a block: the words of RD566's guard (signatures.yaml's gpu_stack_fails_words: a "works on kernel X" counts
with a failure on another release, kernel_release_ab_told; ROCm/legacy-rocm-build#1007, ROCm/amdgpu#53,
likelovewant/ollama-for-amd#78), and an error, an exception or a GPU not found."""
_FIRST_PERSON = r"(?:(?-i:\bI\b)|\b(?:I[\'\u2019](?:m|ve|d)|my|me|myself)\b)"
"""The reporter's own voice: "I", "I'm", "my", "me" (rev57c)."""
_RELEASE_NOTE = when_used(
    r"^[\s*+>\u2022-]{0,6}(?:\[?v?\d{1,4}(?:\.\d{1,4}){1,3}[\w.+~-]{0,12}\]?\s{0,4}[:\u2013-]\s{0,4})"
    r"(?:fix\w{0,3}|resolv\w{0,3}|address\w{0,3}|correct\w{0,3})\b(?!\s{1,4}(?:it|this|that|them|my|me|myself|by|now)\b)"
    r"|^(?![^\n]*" + _FIRST_PERSON + r")[\s*+>\u2022-]{0,6}(?:fixed|fixes|resolved|resolves|addressed|corrected)\s{1,4}(?:an?|some|several|multiple|various|a\s{1,4}few)\s{1,4}"
    r"(?:[\w`-]{1,20}\s{1,4}){0,3}?(?:issues?|bugs?|crash(?:es)?|hangs?|regressions?|problems?|errors?|failures?|leaks?|defects?|segfaults?)"
    r"\s{1,4}(?:where|that|which|causing|when|whereby|affecting|preventing|in\s{1,4}which|with)\b"
    r"|^[\s*+>\u2022-]{0,6}(?:release\s{1,4}notes?|change\s{0,1}log)\b[^:\n]{0,40}:",
    re.IGNORECASE,
)
"""A release note's or changelog's line, not the reporter's own fix: a line that opens with a release ("6.2.1: fixed
amdgpu-install --no-dkms so it works", "[v0.5.8] - Fixed ...") or a changelog's label ("Changelog: fixed ..."), or the subject-less wording of release notes, "Fixed an
issue where ...", "Resolved an issue with ..." (ROCm's: "* Fixed an issue where, on systems running Linux kernel
6.8.0 such as Ubuntu 24.04, Direct Memory Access (DMA) transfers between the GPU and NIC were disabled", RELEASE.md
of rocm-6.3.0). A reporter's own fix says what they did: "Fixed it by ...", "Fixed the issue by ...", "I fixed ...";
rev57c: so a release followed by "fixed it" or "fixed by" ("10.05: fixed it by ...", a dated edit) and a "Fixed a
problem where ..." line in the first person ("... by adding my user to the render group") stay the reporter's."""
_NOTES_PREFIX = r"(?:\[?(?:(?-i:[A-Z][\w.+-]{0,19})|v?\d[\w.+-]{0,19})\]?\s{1,4}){0,3}?"
_NOTES_SUFFIX = (
    r"(?:\s{0,4}[:\u2013-]?\s{0,4}(?:(?:for|in|of)\s{1,4})?(?:(?-i:[A-Z][\w.+-]{0,19})\s{1,4})?v?\d[\w.+~-]{0,20})?"
    r"(?:\s{0,4}\([^)\n]{0,30}\))?[\s*_:]{0,6}$"
)
_NOTES_HEADING = when_used(
    r"^[ \t>]{0,4}(?:#{1,6}[ \t]{1,4}|\*\*|__)[ \t]{0,4}" + _NOTES_PREFIX
    + r"(?:release\s{1,4}notes?|change\s{0,1}log|what[\'\u2019]s\s{1,4}(?:new|changed)|(?:resolved|fixed)\s{1,4}issues"
    r"|bug\s{0,1}fix(?:es)?|defect\s{1,4}fixes)\b" + _NOTES_SUFFIX
    + r"|^[\s>*_-]{0,8}" + _NOTES_PREFIX + r"(?:release\s{1,4}notes?|change\s{0,1}log|what[\'\u2019]s\s{1,4}changed)\b" + _NOTES_SUFFIX,
    re.IGNORECASE,
)
"""A heading or label line that opens a release note or changelog ("#### Resolved issues", "Changelog:", "## What's
Changed", "ROCm 6.2.1 release notes"): the lines under it, to the next heading, are its entries, no fix the reporter
made. rev57c: the line is the label alone, with at most a product's name or a release before it and a release after
it, and "bug fixes", "resolved issues", "what's new" only as a Markdown heading: a sentence that names the notes ("I
checked the release notes for 6.2.", "I read the changelog of ROCm 6.2.1 and") or a label of the reporter's
("Bugfix:", "### Bug fix that worked for me:", "What's new since yesterday:") opens no section."""
_REPORTERS_LINE = when_used(_FIRST_PERSON, re.IGNORECASE)
"""A line in the reporter's own voice ("Anyway, on my machine: fixed it by ..."): no release note's entry; a pasted
changelog that no heading closes ends there (rev57c)."""
_HEADING = when_used(r"^\s{0,3}(?:#{1,6}\s|\*\*[^*\n]{1,80}\*\*:?\s{0,4}$|__[^_\n]{1,80}__:?\s{0,4}$)")
"""A Markdown heading, or a line that is only bold words: where a release note's section ends."""


def release_note_lines(lines: Tuple[Line, ...]) -> List[bool]:
    """Per line, whether it stands under a release-notes or changelog heading (:data:`_NOTES_HEADING`), up to the
    next heading or the reporter's own line (:data:`_REPORTERS_LINE`); one pass."""
    under = False
    out: List[bool] = []
    for line in lines:
        text = line.text[:MAX_LINE]
        if len(text) <= 80 and (_NOTES_HEADING.match(text) or _NOTES_HEADING.match(line.raw[:MAX_LINE])):
            under = True
            out.append(True)
            continue
        if _HEADING.match(line.raw[:MAX_LINE]) or (under and _REPORTERS_LINE.search(text)):
            under = False
        out.append(under)
    return out


_WORD = when_used(r"\w")


def _out_of_scope(clause: str, phrase: Optional["re.Match[str]"], question: bool) -> bool:
    """A clause that is no working fix of the reporter's own (the sentence's failure words are
    looked for apart: :func:`_failed_sentences`)."""
    if question or _QUESTION_START.match(clause) or _RELEASE_NOTE.match(clause):
        return True
    if phrase is not None and _NEGATED.search(clause, 0, phrase.start()):
        return True
    return bool(_ADVICE_OR_CONDITION.search(clause) or scope_of(clause) != NOW or _ELSEWHERE.search(clause))


def _failed_sentences(text: str) -> List[Tuple[int, int]]:
    """Spans of the sentences of ``text`` that hold a failure, a partial fix or a fix not the reporter's one change
    (:data:`_NOT_ONE_OWN_CHANGE`): a clause of them is
    no resolution, even where the failure is in another clause ("it works now, but only partially",
    "X fixed the first error; still crashes at sampling")."""
    spans: List[Tuple[int, int]] = []
    start = 0
    for end in [m.start() for m in _SENTENCE_END.finditer(text)] + [len(text)]:
        if _FAILURE.search(text, start, end) or _NOT_ONE_OWN_CHANGE.search(text, start, end):
            spans.append((start, end))
        start = end
    return spans


def _clauses(text: str, start: int, end: int) -> List[Tuple[int, int, bool]]:
    """(start, end, is a question) of each clause of ``text[start:end]``."""
    out: List[Tuple[int, int, bool]] = []
    position = start
    for match in _CLAUSE_END.finditer(text, start, end):
        out.append((position, match.start(), "?" in match.group(0)))
        position = match.end()
    if position < end:
        out.append((position, end, False))
    return out


def read_line(text: str, labelled_from: Optional[int], rules: Optional[Table] = None, failure_told: Optional[bool] = None) -> List[Tuple[Change, str]]:
    """The resolution statements of one line: (row, clause) per change a clause in scope names.
    ``labelled_from``: where the text a label stands for starts, to the line's end ("Solution: 1. I found my
    architecture 2. rebuild pytorch with PYTORCH_ROCM_ARCH=...": ROCm/legacy-rocm-build#1930); None: no label.
    ``failure_told``: whether the block around the line names a failure (None: the line itself is asked), without
    which a clause that only says what it works on is no resolution (:data:`_CHANGE_TOLD`)."""
    rules = rules or table()
    text = text[:MAX_LINE]
    if failure_told is None:
        failure_told = _FAILURE_TOLD.search(text) is not None
    labelled_end = len(text) if labelled_from is not None else -1
    failed = _failed_sentences(text)
    retracted_before = max((m.start() for m in _RELAPSE.finditer(text)), default=-1)
    at = 0  # the failed sentence at or after the clause (both lists run left to right: one pass)
    found: List[Tuple[Change, str]] = []
    step = ""  # the clause before, when it is the reporter's own step in scope ("I updated the driver.")
    for start, end, question in _clauses(text, 0, len(text)):
        while at < len(failed) and failed[at][1] <= start:
            at += 1
        clause = text[start:end]
        before, step = step, ""
        if not clause.strip() or (at < len(failed) and failed[at][0] <= start) or end <= retracted_before:
            continue
        phrase = rules.phrases.search(clause)
        under_label = labelled_from is not None and start < labelled_end and end > labelled_from
        if phrase is None and not under_label:
            if _OWN_STEP.match(clause) and not question and not _out_of_scope(clause, None, False):
                step = clause
            continue
        kinds = [k for k in SAID_KINDS if phrase is not None and phrase.group(k)] or list(SAID_KINDS)
        if _out_of_scope(clause, phrase, question) or (phrase is None and _TRIED.search(clause)):
            continue
        if not failure_told and not under_label and not before and phrase is not None and not phrase.group("cause") and _CHANGE_TOLD.search(clause) is None:
            continue  # a state ("It works fine on kernel 6.11") in a block that names no failure
        said = _changes(clause, kinds, rules)
        if not said and before and phrase is not None and phrase.group("fix"):
            # "I have updated to the latest Adrenalin driver (26.1.1). AMD Chat is working correctly."
            said = _changes(before, kinds, rules)
            clause = f"{before.strip()}. {clause.strip()}"
        found += [(row, clause.strip()[:MAX_SAID]) for row in said]
    return found


def _changes(clause: str, kinds: List[str], rules: Table) -> List[Change]:
    """The change rows a clause names (each match's row, in order), less a change the clause denies was made and a
    row whose ``unless_clause`` the clause holds."""
    out: List[Change] = []
    for match in rules.changes.finditer(clause):
        if _CHANGE_DENIED.search(clause, max(0, match.start() - 40), match.start()):
            continue
        group = next((name for name, value in match.groupdict().items() if value is not None), None)
        if group is None:
            continue
        row = rules.rows[int(group[1:])]
        if row.unless_clause is not None and row.unless_clause.search(clause):
            continue
        if any(kind in row.said for kind in kinds):
            out.append(row)
    return out


JOINED = 25
"""Lines of one sentence wrapped at 80 columns looked at on each side of a line that holds a phrase's word
(as many as :data:`MAX_LINE` characters fill at 80 columns: an unwrapped line is read that far too)."""
LABEL_REACH = 3
"""Lines after a label alone on its line ("**Solved:**") that may hold the sentence it stands for."""


def _readable(line: Line) -> bool:
    """A line of the reporter's prose: not a command, not a line quoted from someone else (a whole paste
    quoted in a reply has lost its margin before this), not blank."""
    return bool(line.text.strip()) and not line.command and not _QUOTED.match(line.raw)


_ENDS_SENTENCE = when_used(r"[.!?]\W{0,3}$")
_INTRODUCES = when_used(r":[\s*_`]{0,4}$")


def _joins(before: Line, after: Line, rules: Table) -> bool:
    """The break between two lines is inside one statement: a wrapping tool made it inside a sentence
    (the first line does not end one), or the first line introduces the second ("the only workaround I
    found is setting:" / "CUDA_VISIBLE_DEVICES=1": ROCm/TheRock#3392); the second does not open with a
    label of its own. A paragraph of long lines that each end a sentence (an unwrapped paste) is read
    line by line, as its wrapped copy is read sentence by sentence: the same sentences either way."""
    if not (_readable(before) and _readable(after)) or rules.label.match(after.text[:MAX_LINE]) is not None:
        return False
    if _INTRODUCES.search(before.text[-8:]):
        return True
    return _ENDS_SENTENCE.search(before.text[-8:]) is None and may_be_wrapped(before.text, after.text.strip())


def _sentence_lines(lines: Tuple[Line, ...], index: int, after: int, rules: Table) -> Tuple[int, int]:
    """The first and last line of the wrapped text around line ``index``, not before line ``after + 1``."""
    first = index
    while first - 1 > after and index - first < JOINED and _joins(lines[first - 1], lines[first], rules):
        first -= 1
    last = index
    while last + 1 < len(lines) and last - index < JOINED and _joins(lines[last], lines[last + 1], rules):
        last += 1
    return first, last


def _joined(lines: Tuple[Line, ...], first: int, last: int) -> str:
    return " ".join(line.text.strip() for line in lines[first : last + 1])[:MAX_LINE]


def parse(block: Block) -> List[Piece]:
    """One piece per sentence (a line, or the lines a wrapping tool made of it) that states a resolution;
    nothing for a block quoted from someone else or introduced as another time or machine (its scope is
    not ``current``)."""
    if block.scope != "current" or not block.lines:
        return []
    rules = table()
    lines = block.lines
    pieces: List[Piece] = []
    done = -1  # the last line read: lines are read once, left to right
    # the last line that takes a fix back ("EDIT 2: nope, crashes again"): a statement on an earlier line is no working fix
    retracted_before = max((i for i, line in enumerate(lines) if _RELAPSE.search(line.text[:MAX_LINE])), default=-1)
    failure: List[bool] = []  # whether the block names a failure, asked once, when a statement is first read

    def failure_told() -> bool:
        if not failure:
            failure.append(any(_FAILURE_TOLD.search(line.text[:MAX_LINE]) for line in lines))
        return failure[0]
    notes: List[bool] = []  # which lines stand under a release-notes heading, found once, when a line is first read
    for index in block.lines_with(rules.anchors):
        if index <= done or not _readable(lines[index]):
            continue
        if not notes:
            notes = release_note_lines(lines)
        if notes[index]:
            continue
        first, last = _sentence_lines(lines, index, done, rules)
        text = _joined(lines, first, last)
        done = last
        label = rules.label.match(text)
        if label is not None and _EDIT_NOTE.match(text, label.end()):
            label = None  # "Fixed: typo in my previous comment": the post was fixed, not the problem
        labelled_from: Optional[int] = label.end() if label else None
        if label is not None and not _WORD.search(text, label.end()):
            # a label alone on its line: it stands for the next sentence
            following = next((i for i in range(last + 1, min(len(lines), last + 1 + LABEL_REACH)) if lines[i].text.strip()), None)
            if following is None or not _readable(lines[following]):
                continue
            first, last = _sentence_lines(lines, following, last, rules)
            text, labelled_from, done = _joined(lines, first, last), 0, last
        said = read_line(text, labelled_from, rules, failure_told())
        if said and last < retracted_before:
            continue
        if said:
            values = list(dict.fromkeys(f"{row.id}: {clause}" for row, clause in said))
            line = lines[first]
            pieces.append(make_piece(KIND, list(lines[first : last + 1]), [Observation(FACT, values, line, TRUST_PROSE)]))
    return pieces
