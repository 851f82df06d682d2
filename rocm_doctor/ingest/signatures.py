"""Error signatures: the table ``rules/data/signatures.yaml`` and a generic matcher.

Every row is a regex with an id; a line that matches adds the id to
``symptoms.signatures``. A row may also say which facts the message proves
(``implies``; ``env.vars.NAME: {absent: why}`` says the program ran without NAME),
which named groups identify the GPU it is about (``gpu``), a regex for the lines that
follow it (``then``: "Missing CO for these ISAs -" names the ISA on the next line),
and the finding category of the causes it usually has (``category``: a recognised
error that no rule explains is reported in that category).

One combined pattern finds the candidate lines of a block in a single pass, so
reading stays linear in the size of the paste however many rows the table has.
The matcher knows nothing about any particular message.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, FrozenSet, Iterator, List, Optional, Pattern, Tuple

from rocm_doctor.cache import cached, key_of, source_stamps
from rocm_doctor.data import load_table, table_key
from rocm_doctor.errors import InputError
from rocm_doctor.anchors import pattern_anchors
from rocm_doctor.lazy_regex import AnyPattern, WhenUsed
from rocm_doctor.ingest.blocks import COMMAND_ARGUMENT, CONDITIONAL_ADVICE, Block, Line, may_be_wrapped
from rocm_doctor.ingest.formats.common import DOCUMENT_SAYS, REPORTED_SPEECH, gfx_of, gpu_fields, make_piece
from rocm_doctor.ingest.scope import ANOTHERS_MACHINE, NAMED_BY_ITS_PAST, PAST_OR_ELSEWHERE, PAST_OR_ELSEWHERE_AFTER
from rocm_doctor.ingest.model import TRUST_HINT, TRUST_SIGNATURE, Absent, GpuSighting, Observation, Piece, SettingSighting
from rocm_doctor.model.rules import CATEGORIES
from rocm_doctor.knowledge._tables import source_urls
from rocm_doctor.knowledge.gpu_table import codename_regex, model_for_name
from rocm_doctor.lazy_regex import when_used

TABLE = "signatures"
_ID = when_used(r"^[a-z][a-z0-9_]*$")
_ROW_KEYS = {"id", "pattern", "context", "implies", "gpu", "then", "category", "kind", "scope", "unless_line", "names_gpus", "meaning", "source", "note"}
_THEN_LINES = 3
"""How many following lines a ``then`` pattern may look at."""
MAX_LINE = 4000
"""Longer lines are cut before matching (a minified blob is not an error message)."""


@dataclass(frozen=True)
class Signature:
    """One row of the signature table."""

    id: str
    pattern: AnyPattern
    """The row's pattern; a statement's sentence-scope wrapper. Every pattern of a row is compiled when first
    used (:class:`~rocm_doctor.lazy_regex.WhenUsed`): a report tries only the rows whose anchor words it holds."""
    context: Optional[AnyPattern]
    implies: Tuple[Tuple[str, Any], ...]
    gpu: Tuple[str, ...]
    meaning: str
    source: str
    then: Optional[AnyPattern] = None
    category: Optional[str] = None
    kind: str = "error"
    """``error`` (goes to ``symptoms.signatures``) or ``context`` (``symptoms.context``: what the report is about)."""
    statement: bool = False
    """``scope: statement``: the reporter's statement of the machine's state (:func:`statement_pattern`)."""
    said: str = ""
    """The row's own pattern, before :func:`statement_pattern` wraps it: the words any match must hold
    (:func:`_anchors`) are read from it, so a line without them is never tried."""
    plain: Optional[AnyPattern] = None
    """For a statement, the row's own pattern compiled: a line it does not match is not a statement
    of it in any scope, and it is much cheaper to try than the sentence-scope wrapper."""
    unless: Optional[AnyPattern] = None
    """For a row that is not a statement, its ``unless_line``: a line (or wrapped message) it matches is not
    read (a statement's wrapper holds its own)."""
    names_gpus: Optional[AnyPattern] = None
    """``names_gpus``: the regex (the ``{{gpu_named}}`` fragment) that finds, in the matched sentence, the GPUs,
    targets or families the row's statement is about; :func:`support_gpus` reads each into a gfx target or a
    family, and the observation goes to ``symptoms.support_gpus`` (which GPU a request or a lack is about is
    told by the derived fact ``gpu.named_in_support_sentence``, not by making the name a device)."""
    words: Optional[Tuple[str, ...]] = None
    """The anchor words every match holds (:func:`rocm_doctor.anchors.pattern_anchors` of ``said``, or of the
    pattern when ``said`` is empty): None when none can be told."""


STATEMENT = "statement"
"""``scope: statement``: the row's pattern is a statement of the machine's state in the reporter's words,
read only where the report says it of the current state (:func:`statement_pattern`)."""

# The scope words every prose reader shares (the past, another machine or person, a doubt, a document's or
# another person's words, a template's example) live in rocm_doctor.ingest.scope and are imported above.
_ANOTHERS_LABEL = r"(?![^\S\n]{0,8}[^\w\n]{0,4}(?:\w{1,20}\s{1,4}){0,3}?" + ANOTHERS_MACHINE + r"\b[^.!?:\n]{0,40}:)"
"""A line that opens with a label naming another person's or machine ("My friend's laptop: torch.cuda.is_available()
returns False", "On my other PC: no GPU found"): the statement after the colon is that machine's, though the
colon starts a new sentence for :data:`_SENTENCE_START`."""
_NOT_AN_END = r"(?<=\b[ei]\.[ge])\."
"""The full stop of "e.g." and "i.e.": an abbreviation inside a sentence, not its end."""
_IN_SENTENCE = r"(?:[^.!?\n]|[.!?](?=\S)|" + _NOT_AN_END + r")"
"""A character of the same sentence: a full stop, "!" or "?" ends it only before white space ("6.8", "24.04"),
and not as the last dot of "e.g."."""
_SENTENCE_TOKEN = r"(?:(?!" + PAST_OR_ELSEWHERE + r")" + _IN_SENTENCE + r")"
_REST = r"(?:[^.!?\n]|[.!](?=\S)|" + _NOT_AN_END + r")"
_SENTENCE_START = r"(?:[^\n]*?(?:(?<!\b[ei]\.[ge])\.|[!?;]|(?<!example):|,\s{0,4}but\b)\s{1,4})?"
"""Where a sentence may start: after its end, or after a label's colon ("Problem: ..."), but not after a
template's "Example:" or "For example:" (what follows is the example)."""
_WHY = r"\b(?:why|how\s{1,4}come)\b"


def statement_pattern(pattern: str, unless_line: Optional[str] = None) -> str:
    """``pattern`` read only in a sentence of the current state: not in a yes/no question ("Does it
    fall back to CPU?"; a "why ... ?" presupposes the state and is read), not with a past state or
    another machine in the sentence ("used to", "before", "previously", "earlier", "on my friend's
    PC"), and not on a line that ``unless_line`` matches. A question or past state in another
    sentence of the same line leaves the statement. Linear: the sentence's start is found once per
    boundary, and the first "why" of a sentence is the only one tried."""
    after = r"(?!" + _REST + r"{0,300}?" + PAST_OR_ELSEWHERE_AFTER + r")"
    why = r"(?:(?!" + _WHY + r")" + _SENTENCE_TOKEN + r")*" + _WHY + _SENTENCE_TOKEN + r"*?(?:" + pattern + r")" + after
    plain = _SENTENCE_TOKEN + r"*?(?:" + pattern + r")(?!" + _REST + r"{0,300}\?)" + after
    guard = r"(?![^\n]*?(?:" + unless_line + r"))" if unless_line else ""
    return "^" + _ANOTHERS_LABEL + guard + _SENTENCE_START + "(?:" + why + "|" + plain + ")"


def _compile(text: Any, where: str) -> WhenUsed:
    """``text`` checked now (a bad row is an error when the table is loaded) and compiled again where it is
    next used in a process that reads the table from the cache."""
    pattern = WhenUsed(str(text), re.IGNORECASE)
    try:
        pattern.compiled()
    except re.error as exc:
        raise InputError(f"{where}: invalid regex ({exc})") from None
    return pattern


_FRAGMENT_USE = re.compile(r"\{\{(\w+)\}\}")
"""Where a row's regex names one of the table's ``fragments``: ``{{gpu_named}}`` (regex braces never come doubled)."""


def _fragments(data: Dict[str, Any], where: str) -> Dict[str, str]:
    """The table's named regex fragments: one spelling of a construct that several rows share. A fragment may name an
    earlier one as ``{{name}}`` (mend60: build_refusal_not_current widens error_not_current); it is spelled in here."""
    fragments = data.get("fragments") or {}
    if not isinstance(fragments, dict) or not all(_ID.match(str(k)) and isinstance(v, str) for k, v in fragments.items()):
        raise InputError(f"{where}: fragments must map snake_case names to regex text")
    out: Dict[str, str] = {}
    for key, text in fragments.items():
        def one(match: "re.Match[str]", key: str = str(key)) -> str:
            if match.group(1) not in out:
                raise InputError(f"{where}: fragment '{key}' names '{match.group(1)}', which is not a fragment above it")
            return out[match.group(1)]

        out[str(key)] = _FRAGMENT_USE.sub(one, text)
    return out


def _expand(row: Dict[str, Any], fragments: Dict[str, str], here: str) -> Dict[str, Any]:
    """``row`` with every ``{{name}}`` in its regex fields replaced by that fragment; an unknown name is an error."""
    def one(match: "re.Match[str]") -> str:
        if match.group(1) not in fragments:
            raise InputError(f"{here}: no fragment named '{match.group(1)}'")
        return fragments[match.group(1)]

    return {k: _FRAGMENT_USE.sub(one, v) if k in ("pattern", "unless_line", "then", "context", "names_gpus") and isinstance(v, str) else v
            for k, v in row.items()}


def expanded_rows(data: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The table's rows as :func:`build` reads them: fragments spelled in."""
    fragments = _fragments(data, f"rules/data/{TABLE}.yaml")
    return [_expand(row, fragments, f"rules/data/{TABLE}.yaml: signatures[{i}]") for i, row in enumerate(data["signatures"])]


def build(data: Any) -> List[Signature]:
    """Validate the table's rows; a malformed row is an InputError naming it."""
    where = f"rules/data/{TABLE}.yaml"
    rows = data.get("signatures") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise InputError(f"{where}: must be a mapping with a 'signatures' list")
    fragments = _fragments(data, where)
    out: List[Signature] = []
    for index, row in enumerate(rows):
        here = f"{where}: signatures[{index}]"
        if not isinstance(row, dict):
            raise InputError(f"{here} must be a mapping")
        row = _expand(row, fragments, here)
        unknown_keys = set(row) - _ROW_KEYS
        if unknown_keys:
            raise InputError(f"{here}: unknown field '{sorted(unknown_keys)[0]}'")
        for key in ("id", "pattern", "meaning", "source"):
            if not row.get(key):
                raise InputError(f"{here} needs field '{key}'")
        if not _ID.match(str(row["id"])):
            raise InputError(f"{here}.id '{row['id']}' must be snake_case")
        implies = row.get("implies") or {}
        if not isinstance(implies, dict):
            raise InputError(f"{here}.implies must be a mapping of fact path to value")
        category = row.get("category")
        if category is not None and category not in CATEGORIES:
            raise InputError(f"{here}.category '{category}' is not one of {', '.join(CATEGORIES)}")
        scope = row.get("scope")
        if scope is not None and scope != STATEMENT:
            raise InputError(f"{here}.scope must be {STATEMENT}")
        said = str(row["pattern"])
        plain = None
        unless_line = None
        if row.get("unless_line") and scope != STATEMENT:
            unless_line = _compile(row["unless_line"], f"{here}.unless_line")
        if scope == STATEMENT:
            plain = _compile(row["pattern"], f"{here}.pattern")
            unless = str(row["unless_line"]) if row.get("unless_line") else None
            if unless is not None:
                _compile(unless, f"{here}.unless_line")
            if plain.groupindex:
                raise InputError(f"{here}.pattern: a statement's pattern has no named groups (its sentence wrapper tries it twice)")
            # not compiled here: some ten thousand characters each, and only ever run on a line the row's own
            # pattern matched; it compiles wherever the row's own pattern and unless_line do
            pattern = WhenUsed(statement_pattern(str(row["pattern"]), unless), re.IGNORECASE)
        else:
            pattern = _compile(row["pattern"], f"{here}.pattern")
        then = _compile(row["then"], f"{here}.then") if row.get("then") else None
        gpu = tuple(str(g) for g in row.get("gpu") or ())
        groups = set((plain or pattern).groupindex) | set(then.groupindex if then else {})
        missing = [g for g in gpu if g not in groups]
        if missing:
            raise InputError(f"{here}.gpu names '{missing[0]}', which is not a named group of pattern or then")
        kind = str(row.get("kind") or "error")
        if kind not in ("error", "context"):
            raise InputError(f"{here}.kind must be error or context")
        out.append(
            Signature(
                kind=kind,
                id=str(row["id"]),
                pattern=pattern,
                context=_compile(row["context"], f"{here}.context") if row.get("context") else None,
                implies=tuple(sorted((str(k), _freeze(v)) for k, v in implies.items())),
                gpu=gpu,
                meaning=str(row["meaning"]),
                source=_source(row, here),
                then=then,
                category=str(category) if category else None,
                statement=scope == STATEMENT,
                said=said,
                plain=plain,
                unless=unless_line,
                names_gpus=_compile(row["names_gpus"], f"{here}.names_gpus") if row.get("names_gpus") else None,
                words=pattern_anchors(said),
            )
        )
    return out


def _source(row: Dict[str, Any], here: str) -> str:
    urls = source_urls(row["source"])
    if urls is None:
        raise InputError(f"{here}.source must be a public URL or a list of them")
    return " ".join(urls)


_CODE = (Path(__file__).resolve().parent, *(Path(__file__).resolve().parent.parent / name for name in ("anchors.py", "lazy_regex.py", "model", "knowledge/_tables.py")))
"""The code that builds the table's rows (the sentence-scope wrapper's words live in the readers' modules): part of
the cached table's key."""


@lru_cache(maxsize=1)
def signatures() -> Tuple[Signature, ...]:
    """The shipped signature table, validated once per table content and code, then read from the cache
    (:mod:`rocm_doctor.cache`) with its patterns not yet compiled."""
    key = key_of([table_key(TABLE), *source_stamps(_CODE)])
    return cached(f"table-{TABLE}-built", key, lambda: tuple(build(load_table(TABLE))))


@lru_cache(maxsize=1)
def statement_kinds() -> FrozenSet[str]:
    """Piece kinds of the shipped ``scope: statement`` rows: a statement of the machine's state that a
    quoted reply, a past state or another machine's block makes holds nothing of the machine now."""
    return frozenset(f"{'error' if s.kind == 'error' else 'context'}:{s.id}" for s in signatures() if s.statement)


@lru_cache(maxsize=1)
def name_context_rows() -> Tuple[Signature, ...]:
    """The context rows a program's or service's name alone can match (what the report is about: ``ollama_named``):
    no statement, no fact implied, no GPU, no following line or context needed. A name a log collector's prefix held
    (:attr:`~rocm_doctor.ingest.blocks.Line.logged_by`) is read with these only: it says which program logged, never a
    version or a state."""
    return tuple(
        s for s in signatures()
        if s.kind == "context" and not s.statement and not s.implies and not s.gpu and s.then is None
        and s.context is None and s.names_gpus is None
    )


def _freeze(value: Any) -> Any:
    return tuple(sorted(value.items())) if isinstance(value, dict) else value


def _implied(value: Any) -> Any:
    """``{absent: reason}`` in the table means the message proves the thing is not there."""
    if isinstance(value, tuple) and len(value) == 1 and value[0][0] == "absent":
        return Absent(str(value[0][1]))
    return value


def _gpu_sighting(signature: Signature, groups: dict, line: Line) -> Optional[GpuSighting]:
    wanted = {name: groups.get(name) for name in signature.gpu}
    if not any(wanted.values()):
        return None
    gfx = next((v for k, v in wanted.items() if k.startswith("gfx") and v), None)
    return GpuSighting("report", 0, line, gpu_fields(gfx=gfx_of(gfx) if gfx else None, device_id=wanted.get("device_id")))


def _following(block: Block, line: Line, pattern: Pattern[str]) -> dict:
    """Named groups of ``pattern`` in the lines right after ``line``."""
    index = block.lines.index(line)
    for after in block.lines[index + 1 : index + 1 + _THEN_LINES]:
        match = pattern.search(after.text[:MAX_LINE])
        if match:
            return {k: v for k, v in match.groupdict().items() if v}
    return {}


def _observations(signature: Signature, line: Line) -> Tuple[List[Observation], List[SettingSighting]]:
    path = "symptoms.signatures" if signature.kind == "error" else "symptoms.context"
    observations = [Observation(path, [signature.id], line, TRUST_HINT)]
    settings: List[SettingSighting] = []
    for path, value in signature.implies:
        implied = _implied(value)
        if path.startswith("env.vars."):
            # The message proves the program ran without the variable (or with a value).
            name = path[len("env.vars.") :]
            shown = None if isinstance(implied, Absent) else str(implied)
            reason = implied.reason if isinstance(implied, Absent) else None
            settings.append(SettingSighting(name, shown, "app-config", "the program that printed the message", line, True, reason, TRUST_SIGNATURE))
        else:
            observations.append(Observation(path, implied, line, TRUST_SIGNATURE))
    return observations, settings


def _search(signature: Signature, text: str) -> "Optional[re.Match[str]]":
    """The signature's match in ``text``; a statement's wrapper is tried only where its own words are."""
    if signature.plain is not None and signature.plain.search(text) is None:
        return None
    return signature.pattern.search(text)


def _anchors(signature: Signature) -> Optional[Tuple[str, ...]]:
    """Words every match of the signature holds (None when none can be told): read from the row's own
    pattern, which a statement's sentence-scope wrapper hides behind its look-aheads."""
    return signature.words if signature.said else pattern_anchors(signature.pattern.pattern)


def _candidate_lines(block: Block, signature: Signature, words: Optional[Tuple[str, ...]]) -> Iterator[Line]:
    """Lines the signature could match: found by its anchors (``words``, :func:`_anchors`) when it has some, else
    by its regex."""
    if words is not None:
        for index in block.lines_with(words):
            yield block.lines[index]
        return
    last = None
    for match in signature.pattern.finditer(block.text):
        line = block.line_at(match.start())
        if line is not last:
            last = line
            yield line


_SEAM = 80
"""Characters on each side of a line break that a wrapped message is looked for in."""
_MESSAGE = 400
"""Characters of each line a wrapped message may span."""
WRAPPED_LINES = 4
"""Lines one wrapped message may span (a log line wrapped at 80 columns takes three or four)."""
MAX_SEAMS = 256
"""Breaks holding a signature's anchor that are searched: a 20 MB log of wrapped lines costs a bounded
number of searches per signature, like the per-line readers' repeat limit."""


class _Seams:
    """The breaks of a block that may be wrapping (:func:`may_be_wrapped`), each as the end of the line,
    a space and the start of the next, lower-cased in one string: anchors are found with ``str.find``
    in one pass per word."""

    def __init__(self, block: Block) -> None:
        self.block = block
        self.at: List[int] = []
        self.starts: List[int] = []
        self.wrapped: List[bool] = []
        parts: List[str] = []
        offset = 0
        lines = block.lines
        for index in range(len(lines) - 1):
            text, following = lines[index].text, lines[index + 1].text.strip()
            wrapped = may_be_wrapped(text, following)
            self.wrapped.append(wrapped)
            if not wrapped:
                continue
            seam = (text[-_SEAM:] + " " + following[:_SEAM]).lower()
            self.at.append(index)
            self.starts.append(offset)
            parts.append(seam)
            offset += len(seam) + 1
        self.text = "\n".join(parts)
        self.held = _Words(self.text)

    def _message(self, index: int) -> Tuple[int, List[str]]:
        """The run of wrapped lines around the break after line ``index``: from the line before it
        (when that one wraps too) to at most :data:`WRAPPED_LINES` lines from line ``index`` on."""
        first = index - 1 if index > 0 and self.wrapped[index - 1] else index
        last = index + 1
        while last - index + 1 < WRAPPED_LINES and last < len(self.wrapped) and self.wrapped[last]:
            last += 1
        lines = self.block.lines
        texts = [lines[first].text[-_MESSAGE:]] + [lines[i].text.strip()[:_MESSAGE] for i in range(first + 1, last + 1)]
        return first, texts

    def search(self, signature: Signature, words: Optional[Tuple[str, ...]]) -> Optional[Tuple[int, "re.Match[str]"]]:
        """The first wrapped message a signature spans: (index of the line it starts on, the match); ``words`` are
        the signature's anchors (:func:`_anchors`)."""
        if not self.at:
            return None
        if words is None or not self.held.any_of(words):
            return None
        hits = sorted({bisect.bisect_right(self.starts, found) - 1 for word in words for found in itertools.islice(_finds(self.text, word), MAX_SEAMS)})
        for seam in hits[:MAX_SEAMS]:
            first, texts = self._message(self.at[seam])
            joined = " ".join(texts)
            match = _search(signature, joined)
            if match is None or match.end() <= len(texts[0]):
                continue
            ends, position = [], 0
            for text in texts:
                position += len(text) + 1
                ends.append(position)
            return first + bisect.bisect_right(ends, match.start()), match
        return None


class _Words:
    """Which anchor words a (lower-cased) text holds, each looked for once: the signature table's rows share
    many words, and most rows hold none that a block has, so a row is passed over with a few dictionary
    reads instead of a search per word."""

    __slots__ = ("text", "seen")

    def __init__(self, text: str) -> None:
        self.text = text
        self.seen: Dict[str, bool] = {}

    def any_of(self, words: Tuple[str, ...]) -> bool:
        seen = self.seen
        for word in words:
            held = seen.get(word)
            if held is None:
                held = seen[word] = word in self.text
            if held:
                return True
        return False


def _finds(text: str, word: str) -> Iterator[int]:
    position = text.find(word)
    while position >= 0:
        yield position
        position = text.find(word, position + 1)


_ARGUMENT = COMMAND_ARGUMENT
"""The next argument of a wrapped command line (:data:`rocm_doctor.ingest.blocks.COMMAND_ARGUMENT`); the joined line must
still stop the match (:func:`_cut_command`), so a prose line that merely holds a dash word further on changes nothing."""


def _cut_command(block: Block, line: Line, match: "re.Match[str]", signature: Signature) -> bool:
    """A match that ends where a wrapped command line was cut, and no longer matches once the command's
    next line is joined to it (``pip install torch ... torchaudio`` / ``--index-url ...``: the end of
    the line was not the end of the command)."""
    if match.end() < len(line.text.rstrip()):
        return False
    index = block.position_of(line)
    if index + 1 >= len(block.lines):
        return False
    following = block.lines[index + 1].text
    if not _ARGUMENT.match(following) or not may_be_wrapped(line.text, following.strip()):
        return False
    joined = line.text[:MAX_LINE] + " " + following.strip()[:MAX_LINE]
    again = signature.pattern.search(joined, match.start())
    return again is None or again.start() != match.start()


_GOES_ON = when_used(r"^\s{0,4}[\"'(]?[a-z]|^\s{0,4}[\"'][A-Za-z]")
"""A next line that goes on with the sentence: it starts with a lower-case word, or a quoted name or message (a new
sentence starts with a capital, a log line with a capital, a digit or a mark)."""


def _wrapped_sentence(lines: "List[Line]", at: int, to_sentence_end: bool = False) -> List[str]:
    """Line ``at`` and the lines a wrapping tool cut from it (each may have been wrapped and goes on in lower case or a
    quote, :data:`_GOES_ON`), at most :data:`WRAPPED_LINES` in all, each cut to :data:`MAX_LINE`; with
    ``to_sentence_end``, none after the line that holds a sentence's end."""
    texts = [lines[at].text[:MAX_LINE]]
    while at + 1 < len(lines) and len(texts) < WRAPPED_LINES:
        if to_sentence_end and _SENTENCE_END.search(texts[-1]) is not None:
            break
        following = lines[at + 1].text
        if not _GOES_ON.match(following) or not may_be_wrapped(lines[at].text, following.strip()):
            break
        texts.append(following.strip()[:MAX_LINE])
        at += 1
    return texts


def _cut_statement(block: Block, line: Line, match: "re.Match[str]", signature: Signature) -> bool:
    """A statement read on a line that a wrapping tool broke inside its sentence (the line is long or the next word
    would not have fitted, the next line goes on in lower case) and that no longer holds once the next lines are
    joined: the past, another machine or a question after it on the next line is in its sentence, as it is on the
    line unwrapped ("... when I use zluda" / "changed anything before this problem" wrapped at 80 columns reads as
    the one line did: zluda-vosen-140)."""
    if not signature.statement:
        return False
    texts = _wrapped_sentence(block.lines, block.position_of(line))
    if len(texts) == 1:
        return False
    again = signature.pattern.search(" ".join(texts))
    return again is None or again.end() > len(texts[0])


_GONE_GAP = (
    r"(?:(?!\b(?:and|or|now|still|again|but|instead|then|when|while|because|since|why|how|what|where|whether|if)\b)[^\n,;:.!?]){0,40}"
    # the message's own start where the match begins inside it: an opening quote and what it holds, or "RuntimeError: "
    r"(?:[\"'`][^\"'`\n]{0,60}|\b\w{0,20}error\s?:\s{0,4})?$"
)
"""What may stand between "no longer get" / "don't get" and the message it says is gone: a few words of one clause ("the
error", "this"), no clause break (a comma, a colon, "and", "but", "instead") and no question word ("I don't get why ..."),
then the start of the message itself when the match begins inside it ("\"HIP error: ", "RuntimeError: ")."""

_ANOTHER_PERSON = when_used(
    r"\b(?:(?:my|a|his|her|their)\s{1,4}(?:friend|colleague|co-?worker|brother|sister)(?:['\u2019]s)?|some(?:one|body)\s{1,4}else(?:['\u2019]s)?)\b"
    r"|" + REPORTED_SPEECH + r"|" + DOCUMENT_SAYS +
    # another user's or another thread's message (r34b): "another user got \"HIP error: ...\"", "in the linked issue they see ..."
    r"|\b(?:an)?other\s{1,4}(?:users?|people|person)\s{1,4}(?:got|gets|get|had|has|have|saw|sees|see|hit|hits|ran\s{1,4}into|runs\s{1,4}into)\b"
    # review66: someone elsewhere named by the place they wrote from: "Someone on discord got \"An Application Control
    # policy has blocked this file\", is that related?"
    r"|\bsome(?:one|body)\s{1,4}(?:on|in|at|from)\s{1,4}(?:the\s{1,4})?[\w.-]{1,20}\s{1,4}(?:got|gets|had|has|saw|sees|hit|hits|reported|posted|ran\s{1,4}into|runs\s{1,4}into)\b"
    r"|\bin\s{1,4}(?:the|that|this|a|an)\s{1,4}(?:linked|other|related|similar|referenced|older)\s{1,4}(?:issue|thread|post|discussion|report)\b" +
    # the message as the past: "This used to fail with \"hipErrorNoBinaryForGpu\" on ROCm 5.6, but ... it works"
    r"|\bused\s{1,4}to\s{1,4}(?:fail|crash|get|show|throw|give|print|error)\w*\b(?:(?!\b(?:now|still|again)\b)[^\n]){0,120}$"
    # the message as gone: "I no longer get \"HIP error: ...\"", "It no longer fails with `...`": the message is what
    # "no longer" governs, a few words after it in the same clause (_GONE_GAP); "torch no longer sees my GPU: RuntimeError:
    # ...", "rocminfo no longer shows the GPU and torch fails with ..." give a message printed now
    r"|\bno\s{1,4}longer\s{1,4}(?:get|gets|getting|see|sees|seeing|hit|hits|have|has|throws?|shows?|prints?|fails?\s{1,4}with)\b" + _GONE_GAP +
    # the message as the case an advice is for: "If you get \"HIP error: ...\", set ...", "in case you see `...`" (blocks.CONDITIONAL_ADVICE)
    r"|(?:" + CONDITIONAL_ADVICE + r")" + _GONE_GAP,
    re.IGNORECASE,
)
"""Words that put an error message a sentence quotes on another person's machine ("My friend's laptop shows
\"HIP error: invalid device function\"", "someone wrote that they get ..."), in a document, or in the past ("This
used to fail with ..."): no message this machine printed now."""
_PAST_BEFORE = when_used(
    # the marker opens the sentence or a clause (after a conjunction or a subject at most): "ComfyUI crashes before it reached the
    # first step with ..." orders events of now
    r"(?:^|[,;:\u2013\u2014]|\s-)[\s>*_\-\"'(]{0,6}(?:(?:and|so|but|well|also)[\s,]{1,4})?(?:(?:I|we|it|this|that|ComfyUI|torch|PyTorch)\s{1,4})?"
    r"(?:\bbefore\s{1,4}(?:I|we|it)\s{1,4}(?:had\s{1,4})?(?:re)?\w{2,16}ed\b"
    r"|\bbefore\s{1,4}(?:the|my|this|that)\s{1,4}(?:update|upgrade|reinstall(?:ation)?|fix|change|switch)\b"
    r"|\b(?:previously|originally|initially)\b(?!\s{1,4}(?:mentioned|said|stated|noted|posted|reported)|" + NAMED_BY_ITS_PAST + r")"
    r"|\bat\s{1,4}first\b(?!\s{1,4}(?:launch|start|run|boot|glance|sight|step|attempt|try)\b)|\b(?:back\s{1,4}when|last\s{1,4}working)\b)"
    # the sentence turns to the state now: a contrast or time word, a good state the past is told as ("it worked"), or a
    # verb in the present before the message ("with 2.4 I get", "ComfyUI says")
    r"(?:(?!\b(?:now|currently|still|again|today|but|however|then|since|after|until|unfortunately|worked|working|fine|ok|okay"
    r"|gets?|getting|says?|shows?|prints?|fails?|failing|throws?|crash(?:es)?|gives?|see|sees|keeps?|is|are|am)\b)[^\n]){0,160}$",
    re.IGNORECASE,
)
"""Words that put a message a sentence quotes in the past, with no "now", "still", "again", "but", "then" or
"after" between them and the message ("Previously it worked, but after the update it fails with ..." is now):
"Before I reinstalled torch, ComfyUI said \"Found no NVIDIA driver on your system\"", "before the update I got ...",
"Initially it failed with ...", "at first I got ..." (not "as previously mentioned", a pointer into the report, nor "at
first launch"). A good state told of the past, or a verb in the present before the message, turns the sentence to now
("Back when I used ROCm 5.7 it was fine, with 6.2 ComfyUI says ...", "I initially installed torch 2.4.1+rocm6.1 and
ComfyUI says ...", "Last working was torch 2.3; with 2.4 I get ..."). The
message is what the machine printed then, evidence of what changed, not its state now (the scope words of
:mod:`rocm_doctor.ingest.scope`, narrowed to a subject with a past verb or a named change after "before", so "it
fails before the first step with ..." stays now), and opening the sentence ("ComfyUI crashes before it reached the
first step with ..." is now)."""
_SOLVED_AFTER = when_used(r"(?:[^.!?\n]|[.!?](?=\S)){0,120}?\b(?:is|was|were|got|gets|has\s+been|have\s+been)\s{1,4}(?:now\s{1,4})?(?:solved|fixed|resolved|gone)\b", re.IGNORECASE)
"""The rest of the message's sentence says it is solved ("\"HIP error: invalid device function\" on gfx1031 is solved
by HSA_OVERRIDE_GFX_VERSION=10.3.0"): a message the reporter no longer gets."""
_NOT_GOT = when_used(
    r"\b(?:do|does|did)(?:\s{1,4}not|n['\u2019]?t)\s{1,4}(?:get|see|hit|have|throw|show|print)\b" + _GONE_GAP,
    re.IGNORECASE,
)
_GONE_AFTER = when_used(r"[^.!?\n]{0,60}?\b(?:any\s?more|no\s{1,4}more)\b(?!\s{1,4}than\b)", re.IGNORECASE)
"""A message the sentence says this machine does not print any more ("I don't get `...` anymore"): a negated
"get" before it and "anymore" after it (a negated "get" alone may be "I don't get why ... prints ..."; "any more than"
compares)."""
_QUOTED_SENTENCE = 200
"""Characters before a message in a prose line looked at for the start of its sentence."""
_RELEASE = r"(?:v(?:ersion)?\s{0,2})?\d{1,4}(?:\.\d{1,4}){0,3}(?:[-+.]?(?:rc|a|b|alpha|beta|post|dev)\d{0,3})?(?:\s{0,2}\([^)\n]{0,30}\))?"
"""prec55: a release as a changelog's heading names it ("v1.4", "1.2.3", "version 2.3", "0.9.1rc2", "1.4 (2024-05-01)")."""
_CHANGELOG_LABEL = (
    r"(?:" + _RELEASE + r"\s{1,3})?"
    r"(?:change\s?log|release\s{1,4}notes?|bug\s?fixes|fixes|what['\u2019]?s\s{1,4}(?:new|changed))"
    r"(?:\s{1,3}(?:for|in|of)?\s{0,3}" + _RELEASE + r")?"
)
"""prec55: a changelog's or release notes' label, bare or with its release before or after it: "Changelog:", "Changelog v1.4:",
"v2.3 release notes:", "Release notes for 1.4:", "What's changed in 2.0:" (GitHub's generated release notes head their list
"What's Changed"; Keep a Changelog, keepachangelog.com/en/1.1.0, heads each release "## [1.0.0] - 2019-02-15" over "### Fixed")."""
_FIXED_OPENS = when_used(
    r"^[\s>*_+\-\u2022#]{0,6}(?:" + _CHANGELOG_LABEL + r"\s{0,2}:\s{0,4}[*+\-\u2022]?\s{0,3})?"
    # "Fixed in 1.2.3: ...": the release the fix shipped in, between the verb and the message
    r"(?:fixed|fixes)\b(?:\s{1,3}(?:in|since|as\s{1,3}of)\s{1,3}" + _RELEASE + r")?\s{0,2}:?" + _GONE_GAP,
    re.IGNORECASE,
)
"""prec52: a sentence that opens with a fix's verb and names the message as what was fixed, as a changelog, a release note
or a pull request's description writes it: "- Fixes ROCm multinode training crash (`IndexError: ...`)" (meta-pytorch/torchforge#725),
"Fixes `hipErrorInvalidValue` or segmentation fault in `haloExchangeGpu` ..." (sphexa-org/sphexa#643), "Fix `RuntimeError: HIP
Error 101, invalid device ordinal` from #3000" (tinygrad/tinygrad#3440, the imperative this still leaves alone, so no source
of this construct), and rev47a's changelog line "- Fixed \"undefined symbol: rocblas_sgbmv_64\"" (rules/data/signatures.yaml
error_not_current; a probe, not a report). rev53p: only "Fixed"/"Fixes" (two real reports, and the "- Fixed `RuntimeError: ...`"
line of many projects' changelogs); "Resolved"/"Solved", which no report showed, are not read, and a message whose own sentence
ends in a question ("Fixed `...` by setting X? No, still ...") stays current: the message is
gone, not this machine's error now. The verb opens the sentence (after a bullet or a "Changelog:" label at most) and only a
few words of one clause stand between it and the message (:data:`_GONE_GAP`): "I fixed the driver install, but now I get ..."
and "This fixed the `...` I was getting" (ggml-org/llama.cpp#15994) are not read so (a subject before the verb, a clause
break, "but", "now" in between); a bare "Fix ..." or "fix:" is a request or a title, so it is not read so either."""
_FIXED_NEXT = when_used(
    r"^[\W_]{0,4}(?:(?:thanks?|thank\s{1,4}you|thx|ty|ok(?:ay)?|update|edit|ah|oh)\b[\W_]{1,4})?"
    r"(?:(?:wow\W{0,3})?works\s{1,4}(?:for\s{1,4}me\s{1,4})?now\b"
    r"|(?:(?:[^.!?\n]|[.!?](?=\S)){0,80}?\b"
    r"(?:(?:fixed|solved|resolved)\s{1,4}(?:it|that|this|the\s{1,4}(?:issue|problem|error))\b"
    r"|(?:it|everything|all|this|that)(?:\s{1,4}(?:actually|finally|now|really))?\s{1,4}works\s{1,4}(?:for\s{1,4}me\s{1,4})?now\b)))",
    re.IGNORECASE,
)
_LOG_LEVEL = when_used(r"^\W{0,4}(?:info|warn(?:ing)?|error|debug|trace|notice|critical|fatal)\b\W", re.IGNORECASE)
"""rev53p: a line a logger prints, opened by its level ("INFO:root:", "WARNING: ", "[DEBUG] ")."""
_FIXED_NEXT_NOT = when_used(
    r"\b(?:not|no|never|nothing|none|neither|nor|any(?:one|body)|some(?:one|body)|if|hope\w{0,4}|maybe|might|may|whether|how|why|what"
    r"|but|still|however|though|until|except|only|partly|partially|somewhat|almost|cpu"
    # a fix believed, expected or short-lived, or someone else's ("I thought reinstalling fixed it", "it fixed it for a while,
    # then ...", "the wiki says that fixed it", "that fixed it for them")
    r"|thought|assum\w{0,3}|suppos\w{0,5}|should|would|could|expected|seem\w{0,2}|temporar\w{0,4}|while|briefly|then|later|back"
    r"|says|said|claim\w{0,2}|reportedly|them|others"
    # rev53p: another person or a project fixed it, not this machine ("HSA override fixed it for my friend", "Upstream fixed
    # the issue in 6.1", "A patch that fixed the issue was proposed", "the release notes say they fixed the issue", "This PR
    # fixed the issue for gfx1030")
    r"|him|her|his|they|their|friend\w{0,2}|colleague\w{0,2}|people|users?|everyone|upstream|patch\w{0,2}|pr|pull|commit\w{0,2}"
    r"|merged|release\w{0,2}|propos\w{0,3}|say|saying|apparently|according)\b|n['\u2019]t\b|\?",
    re.IGNORECASE,
)
"""prec52: the line right after the message's line (its first sentence, joined over a wrapped line) says that something
fixed it: "Thanks, installing Python 3.10 fixed that.", "Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 solved it.", "Thanks, works
now." (the quoted-then-answered form of a reply, and a thread pasted as it reads). Reporters' own words for it, right after the
failure they showed: "downgrading to 1111 as per [this](...) fixed it." (lemonade-sdk/lemonade#838), "oh wow it actually works
for me now" (ROCm/legacy-rocm-build#2061), "Oh I actually solved it by commenting the blow lines" (ROCm/rocHPCG#22), "fixed the
issue." (rusty1s/pytorch_scatter#23); "So it seems it fixed it somewhat. ..., however ..." (Comfy-Org/ComfyUI#6444) is the
partial fix the guard leaves. Only the next line, and only words that point back at the message ("that", "it", "this", "the
issue"; "works now" bare or said of "it", "everything"): "I fixed the driver install, but now:" above the message, or a "fixed"
further down the report ("EDIT: ... adding HSA_OVERRIDE_GFX_VERSION=10.3.0 fixes the problem" under a log: ROCm/rocALUTION#197),
leave it current. A sentence with a negation, a question, a doubt, a contrast, a fix only believed or short-lived, or another's
(:data:`_FIXED_NEXT_NOT`: "Nothing I tried fixed it", "Has anyone fixed this?", "It fixed it somewhat, but ...", "I thought
reinstalling fixed it") does not count. A message in a fenced block with the answer under the fence is not read so (the fence
ends the block)."""


_FEARED_BEFORE = when_used(
    r"\b(?:worr(?:y|ies|ied|ying)|afraid|concern(?:s|ed)?|fear(?:s|ed|ing)?|thought|suspect(?:s|ed|ing)?|suspicion"
    r"|wonder(?:s|ed|ing)?|assum(?:e|ed|ing)|expect(?:ed|ing)|guess(?:ed)?|(?:make|made|making)\s{1,4}sure|double[\s-]?check(?:ed)?"
    r"|check(?:s|ed|ing)?|verif(?:y|ied|ying)|rul(?:e|ed|ing)\s{1,4}out|not\s{1,4}(?:a|an|the|that|due\s{1,4}to|because\s{1,4}of)"
    r"|(?:is|it['\u2019]?s|was)n['\u2019]?t\s{1,4}(?:a|an|the|that))\b",
    re.IGNORECASE,
)
"""prec57b: a fear, a belief, a check or a denial before a message or an absence in its sentence ("I was worried about missing
/dev/kfd", "I thought /dev/kfd does not exist", "I checked whether ...", "Not a missing /dev/kfd issue"): what follows may be
what the reporter ruled out. Only read with :data:`_THERE_AFTER` (on its own, "I'm afraid /dev/kfd is missing" says it is)."""
_THERE_THING = r"(?:\bthe\s{1,4}(?:device(?:\s{1,4}(?:node|file))?|node|file|path|character\s{1,4}device)|/dev/kfd|\bkfd)"
_THERE_IT = r"(?:\bit|\bthat)"
_THERE_END = (
    # the clause ends there: "it exists on the host" (not where the program ran) and "it does not" are no rebuttal
    r"(?=\s{0,4}(?:[.!,;:)]|$|(?:and|now|too|just\s{1,4}fine|as\s{1,4}expected)\b))"
)
_THERE_IS = r"(?:\s{1,4}|(?=['\u2019]s\b))(?:is|was|['\u2019]s)\s{1,4}(?:(?:really|actually|clearly)\s{1,4})?(?:there|present|here|listed|visible)"
_THERE_EXISTS = r"\s{1,4}(?:(?:really|actually|clearly|definitely|certainly|does)\s{1,4})?(?:exists|does)"
_THERE_ANY = (
    r"(?:\s{1,4}|(?=['\u2019]s\b))(?:(?:really|actually|clearly|definitely|certainly|still|does)\s{1,4})?"
    r"(?:exists|(?:is|was|['\u2019]s)\s{1,4}(?:(?:still|really|actually|clearly)\s{1,4})?(?:there|present|here|listed|visible)|does|shows?\s{1,4}up|appears)"
)
_THERE_LISTED = r"\b(?:ls|ll|stat)\b[^.!?\n]{0,40}?\b(?:shows?|lists?|gives?|returns?|prints?)\s{1,4}(?:it\b|c[rwx-]{9})|\bI\s{1,4}(?:can\s{1,4})?see\s{1,4}(?:it|both)\b"
_THERE_CONTRAST = r"\b(?:but|however|though|yet|actually|no|nope|instead|turns?\s{1,4}out|in\s{1,4}fact)\b"
_THERE_GAP = r"(?:(?!\b(?:host|outside|container|other|another)\b)[^\n]){0,60}?"
_THERE_AFTER = when_used(
    r"^[^\n]{0,40}?(?:"
    # a thing named (the device, /dev/kfd), or a listing: after a contrast or a bare clause break
    r"(?:" + _THERE_CONTRAST + r"|[,:;?])" + _THERE_GAP + r"(?:" + _THERE_THING + _THERE_ANY + _THERE_END + r"|" + _THERE_LISTED + r")"
    # rev57j: "it"/"that" may be the message itself ("I checked the logs for `...`: it's there", "..., and yes it shows
    # up", "I thought the override would fix `...`, but it is still there"): only "exists"/"does" after a clause break, and
    # "is there/present" only after a contrast
    r"|[,:;?]" + _THERE_GAP + _THERE_IT + _THERE_EXISTS + _THERE_END
    + r"|" + _THERE_CONTRAST + _THERE_GAP + _THERE_IT + r"(?:" + _THERE_EXISTS + r"|" + _THERE_IS + r")" + _THERE_END
    + r")",
    re.IGNORECASE,
)
_THERE_AFTER_ABSENCE = when_used(
    r"^[^\n]{0,40}?(?:" + _THERE_CONTRAST + r"|[,:;?])" + _THERE_GAP + r"(?:(?:" + _THERE_THING + r"|" + _THERE_IT + r")" + _THERE_ANY + _THERE_END + r"|" + _THERE_LISTED + r")",
    re.IGNORECASE,
)
"""prec57b: the text after a message or an absence says the thing is there after all ("... but it is there", "... but it exists",
"? No, it exists.", "... but ls -l /dev/kfd shows crw-rw----", "... the node exists"): a contrast or an answer, then the thing (it,
the device or node, /dev/kfd) that exists, is present or shows up, as the clause's last words; not "it exists on the host" nor
another machine's or the host's (the place words), which a container without the device says. Reporters show the device there
so: "I can see both /dev/kfd and /dev/dri*" (ROCm/legacy-rocm-build#5379), "ll /dev/kfd" showing "crw-rw-rw- 1 root render"
(ROCm/rocminfo#41), "stat /dev/kfd" (ROCm/legacy-rocm-build#6166). rev57j: "it" or "that" still there, showing up or appearing
(:data:`_THERE_AFTER_ABSENCE`) only after the reporter's own words of an absence (:data:`_ABSENCE_WORDED`: "I feared /dev/kfd is
gone, but it is still there"); after a printed message it is the message that is still there or shows up."""
_ABSENCE_WORDED = when_used(
    r"\b(?:missing|gone|disappeared|not\s{1,4}found|(?:does|did|do)\s{0,4}(?:not|n['\u2019]t)\s{1,4}exist|no\s{1,4}longer\s{1,4}exists?"
    r"|cannot\s{1,4}(?:see|find|open)|can['\u2019]?t\s{1,4}(?:see|find|open)|no\s{1,4}(?=/dev/))",
    re.IGNORECASE,
)
"""rev57j: a match in the reporter's words of an absence ("missing /dev/kfd", "/dev/kfd is gone", "amdhip64.dll not found", "the
container cannot see the GPU"), not a message a program printed ("Unable to open /dev/kfd read-write: No such file or directory")."""
_FEAR_SCOPE_ENDS = when_used(
    r"\b(?:but|however|though|yet|instead|says?|said|prints?|printed|shows?|showed|shown|reports?|reported|returns?|returned"
    r"|gives?|gave|get|gets|got|getting|see|saw|seeing|fails?|failed|errors?\s{1,4}out|crash(?:es|ed)?)\b",
    re.IGNORECASE,
)
"""rev57j: between the fear or check and the message, a contrast or a verb that reports output ends the doubt: "I thought it was
the driver, but `...`", "I checked and rocminfo says `...`" show the message, they do not fear it."""
_RULED_OUT_REACH = 160
"""Characters after the match looked at for :data:`_THERE_AFTER` (its sentence and the next one: "Missing /dev/kfd? No, it exists.")."""
_WENT_AWAY_AFTER = when_used(
    r"[\s\"'`\u2019\u201d)\]]{0,4}(?:(?:error|message|warning|problem|issue)s?\s{1,4})?"
    # rev57j: not "goes away", a condition it keeps ("goes away if I run it as root")
    r"(?:(?:went|has\s{1,4}gone|have\s{1,4}gone)\s{1,4}away|disappeared|(?:is|was)\s{1,4}no\s{1,4}longer\s{1,4}(?:there|shown|printed)"
    r"|no\s{1,4}longer\s{1,4}(?:appears|shows(?:\s{1,4}up)?|happens|occurs|comes\s{1,4}up))\b"
    # only for a while, or only so: "... went away but came back after the next pip install", "... went away with sudo" (the user
    # still gets it), and (rev57j) the next sentence saying it came back ("... went away after a reboot. It came back the next day.")
    r"(?![^.!?\n]{0,80}\b(?:but|still|again|came\s{1,4}back|comes\s{1,4}back|returns?|returned|temporar\w{0,4}|for\s{1,4}a\s{1,4}while"
    r"|sudo|root|administrator|admin|only|once|sometimes|occasionally)\b)"
    r"(?![^\n]{0,160}?\b(?:came\s{1,4}back|comes\s{1,4}back|(?:is|it['\u2019]s|was)\s{1,4}back|returned|reappear\w{0,4}|again)\b)",
    re.IGNORECASE,
)
"""prec57b: right after the message (its closing quote, "error" at most), the message went away or no longer shows ("The error
'Unable to open /dev/kfd read-write: No such file or directory' went away after a reboot"): gone, not this machine's error now.
Only right after it: "no /dev/kfd, and the GPU went away from lspci" speaks of something else."""


def _ruled_out(sentence: str, text: str, start: int, end: int) -> bool:
    """A message or an absence the reporter feared, believed or checked and found not so (:data:`_FEARED_BEFORE` before it in its
    sentence with no contrast or report of output between them (:data:`_FEAR_SCOPE_ENDS`), or a question mark right after it,
    and :data:`_THERE_AFTER` after it), or that went away (:data:`_WENT_AWAY_AFTER`): not this machine's state now. rev57j: a
    message named as "the ... problem" the reporter fixed is not read so (prec57b's "I fixed the ... problem" also hid "I have not
    fixed the `...` error" and "I thought I fixed the `...` problem. After a reboot it is back.", and no report showed it)."""
    after = text[end : end + _RULED_OUT_REACH]
    feared = list(_FEARED_BEFORE.finditer(sentence))
    doubted = (bool(feared) and not _FEAR_SCOPE_ENDS.search(sentence, feared[-1].end())) or after.lstrip().startswith("?")
    there = _THERE_AFTER_ABSENCE if _ABSENCE_WORDED.search(text, start, end) else _THERE_AFTER
    return bool((doubted and there.match(after)) or _WENT_AWAY_AFTER.match(after))


def _quoted_from_another(block: Block, line: Line, match: "re.Match[str]") -> bool:
    """An error message a prose sentence attributes to another person's machine (:data:`_ANOTHER_PERSON`
    before it in its sentence). Output pasted as it is (a fenced block, a command's line) is not judged so."""
    if block.kind != "prose" or line.command:
        return False
    # the text the match was found in: the line, or the wrapped lines joined (a message wrapped at 80
    # columns keeps the sentence around it)
    text = line.text if line.text.startswith(match.string) else match.string
    before = text[max(0, match.start() - _QUOTED_SENTENCE) : match.start()]
    ends = list(re.finditer(r"[.!?](?:\s|$)", before))
    sentence = before[ends[-1].end() :] if ends else before
    return bool(
        _ANOTHER_PERSON.search(sentence) or _PAST_BEFORE.search(sentence)
        or (_FIXED_OPENS.search(sentence) and not _asks_after(block, line, text, match.end()))
        or _SOLVED_AFTER.match(text, match.end(), match.end() + _QUOTED_SENTENCE)
        or (_NOT_GOT.search(sentence) and _GONE_AFTER.match(text, match.end(), match.end() + _QUOTED_SENTENCE))
        or _asks_about(sentence, text[match.end() : match.end() + _QUOTED_SENTENCE])
        or _ruled_out(sentence, text, match.start(), match.end())
    )


_YES_NO = when_used(
    r"^\W{0,4}(?:is|are|was|were|does|do|did|should|shall|could|can|would|will|might|may)(?:\s{1,4}[\w']{1,12}){0,2}\s{0,4}(?:[\"'`]{1,3}[^\"'`\n]{0,160})?$",
    re.IGNORECASE,
)
"""A yes/no question whose subject or object is the message itself: at most two words between its verb and the message
(or the quote the message is in)."""
_GOT_IT = when_used(
    r"\b(?:why|how\s{1,4}come|fix|fixe[sd]|fixing|solve[sd]?|solving|solution|resolve[sd]?|workaround|help|get\s{1,4}rid|avoid|way|any(?:one|body)|some(?:one|body))\b|\b(?:I|we)(?:\s{1,4}(?:am|are|was|were|keep|still)|'m|'re)?\s{1,4}(?:get|got|getting|see|saw|seeing|have|had|having|hit|hitting|run\s{1,4}into)\b",
    re.IGNORECASE,
)
_SENTENCE_END = when_used(r"[.!?](?=\s|$)")
_GOT_IT_NEXT = when_used(
    r"\s{0,4}(?:and\s{1,4})?(?:I|we)(?:\s{1,4}(?:am|are|was|were|keep|still|always)|'m|'re)?\s{1,4}(?:get|got|getting|see|seeing|hit|hitting)\s{1,4}(?:it|this|that|them|the\s{1,4}same)\b",
    re.IGNORECASE,
)
"""The sentence after the question says this machine printed the message ("Is `...` a known bug? I get it every time")."""


def _asks_about(before: str, after: str) -> bool:
    """The message's sentence is a yes/no question about the message ("Is `HIP error: invalid device function` the
    same as ...?", "Should I expect `No HIP GPUs are available` on WSL?"): it asks, it does not say this machine
    printed it. A question that presupposes the error ("why do I get ...?", "Is it normal that I get ...?") or asks
    for help with it ("Is there a fix for ...?", "Can anyone help with ...?") says it did."""
    end = _SENTENCE_END.search(after)
    return bool(
        end and end.group() == "?" and _YES_NO.match(before) and not _GOT_IT.search(before + " " + after[: end.start()])
        and not _GOT_IT_NEXT.match(after, end.end())
    )


_QUOTING_VERB = when_used(
    r"(?:^|[\s(])(?:get|gets|getting|got|fails?|failed|failing|with|is|was|shows?|showing|showed|says?|saying|said|see|seeing|saw"
    r"|throws?|throwing|threw|gives?|giving|gave)\b",
    re.IGNORECASE,
)
_PRINTED = when_used(r"^\s*(?:\d|:\d|\[|[A-Za-z]:[\\/]|/|\w+\s{0,4}\|)")
"""A line as a log prints it (a timestamp, a HIP trace's ``:3:``, ``[``, a path, a compose service's ``name |``)."""


def _quoted_in_sentence(block: Block, pair: "Tuple[Line, re.Match[str]]") -> bool:
    """A match in a prose sentence that quotes the message (`Getting "HIP error: ..." when running`, "It fails with
    `...`", "I get RuntimeError: ..."), not the message where the program printed it."""
    line, match = pair
    if block.kind != "prose" or line.command or _PRINTED.match(match.string):
        return False
    start = match.start()
    return bool(_QUOTING_VERB.search(match.string[max(0, start - _QUOTED_SENTENCE) : start]))


def _asks_after(block: Block, line: Line, text: str, end: int) -> bool:
    """The sentence the message stands in ends in a question mark after it ("Fixed `...` by setting X? No, still ..."),
    read on over the lines it may have been wrapped onto (at most :data:`WRAPPED_LINES` lines in all)."""
    after = text[end : end + _QUOTED_SENTENCE]
    if _SENTENCE_END.search(after) is None and text is line.text:
        lines, at = block.lines, block.position_of(line)
        for index in range(at + 1, min(at + WRAPPED_LINES, len(lines))):
            if not may_be_wrapped(lines[index - 1].text, lines[index].text.strip()):
                break
            after += " " + lines[index].text.strip()[:MAX_LINE]
            if _SENTENCE_END.search(after) is not None:
                break
    stop = _SENTENCE_END.search(after)
    return stop is not None and stop.group() == "?"


def _fixed_next(block: Block, line: Line, match: "re.Match[str]") -> bool:
    """The line right after the message's line says something fixed it (:data:`_FIXED_NEXT`), in any kind of block: the
    words alone decide, so a report quoted whole with '> ' reads the same. Hard-wrapped lines read as the line they were:
    a message wrapped over lines ends on the line that holds its last word, the message's sentence may go on over a wrapped
    line before the answer (a line that may be wrapped and ends no sentence), and an answer is read to the end of its first
    sentence over the lines it was wrapped onto; at most :data:`WRAPPED_LINES` lines in all."""
    lines = block.lines
    index = block.position_of(line)
    if match.string != line.text[:MAX_LINE]:
        tail = match.group(0).rstrip().rsplit(" ", 1)[-1][-20:]
        ends = [i for i in range(index, min(index + WRAPPED_LINES, len(lines))) if tail and tail in lines[i].text]
        if not ends:
            return False
        index = ends[0]
    for at in range(index + 1, min(index + WRAPPED_LINES, len(lines))):
        if _answers_fixed(lines, at):
            return True
        before = lines[at - 1].text.rstrip()
        if _SENTENCE_END.search(before[-1:] or ".") or not may_be_wrapped(before, lines[at].text.strip()):
            return False  # the line before ends a sentence or was not wrapped: the message's line ended there
    return False


def _answers_fixed(lines: "List[Line]", at: int) -> bool:
    """Line ``at`` opens with a sentence that says something fixed the message (:data:`_FIXED_NEXT`, not
    :data:`_FIXED_NEXT_NOT`), read over the lines it was wrapped onto."""
    if _PRINTED.match(lines[at].text) or _LOG_LEVEL.match(lines[at].text):
        return False  # rev53p: a log line ("INFO:root:Everything works now", "[INFO] test: it works now"), not an answer
    answer = " ".join(_wrapped_sentence(lines, at, to_sentence_end=True))
    end = _SENTENCE_END.search(answer)
    first = answer[: end.end()] if end is not None else answer
    return bool(_FIXED_NEXT.match(first)) and not _FIXED_NEXT_NOT.search(first)


def _said_elsewhere(block: Block, line: Line, match: "re.Match[str]", signature: Signature) -> bool:
    """An error message, or a message that implies a fact of this machine (a context row with ``implies``),
    that a prose sentence gives as another person's or solved (:func:`_quoted_from_another`), and an error message
    the next line answers as fixed (:func:`_fixed_next`: only errors, since what a context row implies, such as a
    setting, may be the very fix that stays). A statement row's match starts at its line's start, so the message
    itself is looked up inside it first."""
    if signature.kind != "error" and not signature.implies:
        return False
    if signature.plain is not None:
        inner = signature.plain.search(match.string, match.start(), match.end())
        match = inner if inner is not None else match
    return _quoted_from_another(block, line, match) or (signature.kind == "error" and _fixed_next(block, line, match))


def _unless(signature: Signature, line: Line, match: "re.Match[str]") -> bool:
    """The text the match was found in (the line, or the wrapped lines joined), or the line as pasted (its quote
    marker kept), matches the row's ``unless_line``."""
    if signature.unless is None:
        return False
    return signature.unless.search(match.string) is not None or signature.unless.search(line.raw[:MAX_LINE]) is not None


MAX_GPU_SEARCH = 64
"""Further occurrences of a message looked at for one that names the GPU, when the first does not."""


def _names_gpu(signature: Signature, match: "re.Match[str]") -> bool:
    return any(match.groupdict().get(name) for name in signature.gpu)


SUPPORT_SENTENCE_TAIL = 160
"""Characters after a match looked at for the rest of its sentence ("please include gfx1030/gfx1031/gfx1032")."""
UNKNOWN_NAME = "?"
"""Prefix of a GPU name :func:`support_gpus` cannot read into a target or family (``?rx 7900``)."""
_FAMILY_WORD = when_used(r"(?:rdna\s?(\d(?:\.5)?)|navi\s?(\d)(?!\d)|(vega)|(polaris))\b", re.IGNORECASE)
_NAVI_FAMILY = {"1": "rdna1", "2": "rdna2", "3": "rdna3", "4": "rdna4"}
"""Navi 1x is RDNA 1, Navi 2x RDNA 2, Navi 3x RDNA 3, Navi 4x RDNA 4 (the code names of rules/data/gpus.yaml)."""
_WILDCARD_GFX = when_used(r"gfx\d{2,3}x\b", re.IGNORECASE)
_NAME_WORD = when_used(r"[A-Za-z0-9]+")
_NAME_WORDS = 5
"""Words of a GPU's name tried at most ("AMD Radeon RX 7900 XTX")."""
_NOT_NAME_WORDS = frozenset(
    "and or in on for with the to of by from as like than but also too is are was not support gpu gpus card cards "
    "series please".split()
)
"""Words that end a GPU's name in running text."""
_SENTENCE_STOP = when_used(r"[.!?;](?:\s|$)")
_LIST_GAP = when_used(
    r"(?:\s{0,4}(?:xtx?|gre|xl|m|gpus?|cards?|series|apus?|igpus?|\(\w{1,12}\)))?\s{0,4}\)?\s{0,4}[/,&+|]?\s{0,4}"
    r"(?:(?:and|or|plus)\s{1,4})?\(?(?:(?:the|an?|amd|radeon)\s{1,4})?\Z",
    re.IGNORECASE,
)
"""What may stand between two GPUs of one list: a model's suffix, then a separator or "and"/"or", a name's
parenthesised other name ("gfx1103 (780M) and gfx1150 (890M)")."""


def _one_gpu(text: str, at: int, found: str) -> str:
    """The gfx target (``gfx1031``), family (``rdna2``, ``gcn5``) or target family (``gfx110x``) the name ``found``
    at ``at`` of ``text`` stands for; ``?name`` when the GPU table cannot tell."""
    lowered = found.lower()
    if lowered.startswith("gfx"):
        if _WILDCARD_GFX.match(lowered):
            return lowered
        return gfx_of(lowered) or UNKNOWN_NAME + lowered
    codename = codename_regex().match(text, at, at + 40)
    if codename is not None:
        model = model_for_name(codename.group(0).lower())
        if model is not None:
            return model.gfx
    family = _FAMILY_WORD.match(text, at, at + 40)
    if family is not None:
        if family.group(1):
            return "rdna" + family.group(1)
        if family.group(2):
            return _NAVI_FAMILY.get(family.group(2), UNKNOWN_NAME + lowered)
        return "gcn5" if family.group(3) else "gcn4"
    # a model's name runs on past what the fragment needs ("Radeon RX 7900 XTX GPUs"): the longest run of the words
    # from here that the GPU table knows ("radeon rx 7900 xtx")
    words = _NAME_WORD.findall(text, at, at + 40)[:_NAME_WORDS]
    # a name's words stop at the first word no product name holds: "RX 580 and Navi 10" is two GPUs, not one run
    # that the table reads as Navi 10's gfx1010
    cut = next((i for i, word in enumerate(words) if i and word.lower() in _NOT_NAME_WORDS), len(words))
    words = words[:cut]
    for count in range(len(words), 0, -1):
        model = model_for_name(" ".join(words[:count]).lower())
        if model is not None:
            return model.gfx
    return UNKNOWN_NAME + " ".join(lowered.split())


def support_gpus(signature: Signature, match: "re.Match[str]") -> List[str]:
    """The GPUs, targets and families a row's match names (``names_gpus``), in the row's own match and the rest of
    its sentence, each read by :func:`_one_gpu`; in the order named, each once."""
    if signature.names_gpus is None:
        return []
    text = match.string
    inner = signature.plain.search(text, match.start(), match.end()) if signature.plain is not None else None
    start = (inner or match).start()
    stop = min(len(text), (inner or match).end() + SUPPORT_SENTENCE_TAIL)
    end = _SENTENCE_STOP.search(text, (inner or match).end(), stop)
    stop = end.start() if end is not None else stop
    out: List[str] = []
    last = (inner or match).end()
    for found in signature.names_gpus.finditer(text, start, stop):
        # after the match only a list that goes on from it ("please include gfx1030/gfx1031/gfx1032", "RX 9070 / RX
        # 9070 XT"): "add support for gfx1030 as you did for gfx1100", "... like ollama has for the RX 7900 XTX I
        # use" name a GPU that has it
        if found.start() >= last and not _LIST_GAP.match(text, last, found.start()):
            break
        last = max(last, found.end())
        named = _one_gpu(text, found.start(), found.group(0))
        if named not in out:
            out.append(named)
    return out


def match_block(block: Block, table: Optional[Tuple[Signature, ...]] = None) -> List[Piece]:
    """One piece per signature that occurs in the block (first occurrence); a message wrapped onto
    the next line counts too (:data:`WRAPPED_AT`)."""
    pieces: List[Piece] = []
    block_text: Optional[str] = None
    seams: Optional[_Seams] = None
    held = _Words(block.lower)
    for signature in signatures() if table is None else table:
        words = _anchors(signature)
        if words is not None and not held.any_of(words):
            first = None  # no line holds an anchor word: _candidate_lines would yield none
        else:
            searched = ((line, _search(signature, line.text[:MAX_LINE])) for line in _candidate_lines(block, signature, words))
            valid = (
                (line, match) for line, match in searched
                if match is not None and not _cut_command(block, line, match, signature)
                and not _cut_statement(block, line, match, signature)
                and not _unless(signature, line, match) and not _said_elsewhere(block, line, match, signature)
            )
            first = next(valid, None)
            if first is not None and signature.kind == "error" and _quoted_in_sentence(block, first):
                # The reporter's sentence quotes the message ("Getting \"No HIP GPUs are available\" when ...") above the
                # log that printed it: the printed line is the error's line (a command's own environment prefix is
                # in force for its output, not for the sentence), unless only the sentence names the GPU.
                printed = next((found for found in itertools.islice(valid, MAX_GPU_SEARCH) if not _quoted_in_sentence(block, found)), None)
                if printed is not None and (not signature.gpu or _names_gpu(signature, printed[1]) or not _names_gpu(signature, first[1])):
                    first = printed
            if first is not None and signature.gpu and not _names_gpu(signature, first[1]):
                # A sentence that quotes the message ("with dmesg I get `PCI rejects atomics`") before the
                # log line that names the device: the GPU comes from the log line, fenced apart or not.
                first = next((found for found in itertools.islice(valid, MAX_GPU_SEARCH) if _names_gpu(signature, found[1])), first)
        found = [first] if first is not None else []
        if not found:
            seams = seams or _Seams(block)
            spanning = seams.search(signature, words)
            found = [(block.lines[spanning[0]], spanning[1])] if spanning else []
            if found and (_unless(signature, found[0][0], found[0][1]) or _said_elsewhere(block, found[0][0], found[0][1], signature)):
                found = []
        for line, match in found:
            if signature.context is not None:
                if block_text is None:
                    block_text = block.text
                if not signature.context.search(block_text):
                    break
            groups = {k: v for k, v in match.groupdict().items() if v}
            if signature.then is not None:
                groups.update({k: v for k, v in _following(block, line, signature.then).items() if k not in groups})
            observations, settings = _observations(signature, line)
            sighting = _gpu_sighting(signature, groups, line)
            if sighting is not None and sighting.fields.get("gfx") and signature.kind == "error":
                observations.append(Observation("symptoms.error_gfx", [sighting.fields["gfx"]], line, TRUST_SIGNATURE))
            if signature.names_gpus is not None:
                named = support_gpus(signature, match)
                if named:
                    observations.append(Observation("symptoms.support_gpus", named, line, TRUST_SIGNATURE))
            prefix = "error" if signature.kind == "error" else "context"
            piece = make_piece(f"{prefix}:{signature.id}", [line], observations, [sighting] if sighting else [])
            if settings:
                piece.settings = settings
                piece.coverage = [f"^{re.escape(s.name)}$" for s in settings]
            pieces.append(piece)
            break
    return pieces
