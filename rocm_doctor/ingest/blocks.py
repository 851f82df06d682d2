"""Split pasted text into numbered blocks of lines, the way people paste it.

A bug report is GitHub markdown: prose, fenced code blocks (```` ``` ```` or
``~~~``), ``<details>`` sections, block quotes, several tool outputs one after
the other, Windows line endings, cut-off outputs. Every later step works on
:class:`Line` objects that remember their block and their line number in the
original text, so a fact can say where it was read (``paste:block 2 line 14``).

Nothing here can fail: any string splits into zero or more blocks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Tuple

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_DETAILS_OPEN = re.compile(r"^\s*<details\b[^>]*>", re.IGNORECASE)
_DETAILS_CLOSE = re.compile(r"^\s*</details\s*>", re.IGNORECASE)
_TAG_ONLY = re.compile(r"^\s*</?(summary|details|pre|code|br)\b[^>]*>.*$", re.IGNORECASE)
_QUOTE = re.compile(r"^\s{0,3}>(?!>>)\s?")

# Prompts that precede a command a reporter ran; stripped to leave the command.
_PROMPTS = (
    re.compile(r"^[ \t]{0,8}(?:\([\w.-]{1,64}\) ?)?[\w.-]{1,64}@[\w.-]{1,64}:[^$#\n]{0,256}[$#]\s?"),  # (venv) user@host:~/dir$
    re.compile(r"^\s*\[[\w.-]+@[\w.-]+[^\]]*\][$#]\s?"),  # [root@host ~]#
    re.compile(r"^\s*PS [A-Za-z]:\\[^>]*>\s?"),  # PS C:\Users\x>
    re.compile(r"^\s*[A-Za-z]:\\[^>]*>\s?"),  # C:\Users\x>
    re.compile(r"^\s*In \[\d+\]:\s?"),  # ipython
    re.compile(r"^\s*>>>\s?"),  # python REPL
    re.compile(r"^\s*\$\s"),  # $ command
)


@dataclass(frozen=True)
class Line:
    """One line of the paste: its text (prompt removed), its block and original line number."""

    text: str
    block: int
    number: int
    raw: str = ""
    command: bool = False
    """The line started with a shell or Python prompt (so ``text`` is a command)."""

    @property
    def source(self) -> str:
        """Where the line came from, in the form facts use."""
        return f"paste:block {self.block} line {self.number}"


@dataclass(frozen=True)
class Block:
    """A run of lines: one fenced block, one ``<details>`` body or one stretch of prose."""

    index: int
    kind: str
    """``fenced``, ``details`` or ``prose``."""
    lines: Tuple[Line, ...]

    @property
    def first_line(self) -> int:
        return self.lines[0].number if self.lines else 0

    @property
    def last_line(self) -> int:
        return self.lines[-1].number if self.lines else 0


def normalise(text: str) -> List[str]:
    """Text to lines: CRLF and CR become LF, NULs and other control characters go, tabs stay."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", "", text)
    return text.split("\n")


def strip_prompt(text: str) -> Tuple[str, bool]:
    """Remove a leading shell / REPL prompt; returns the rest and whether one was found."""
    for prompt in _PROMPTS:
        match = prompt.match(text)
        if match:
            return text[match.end() :], True
    return text, False


def _make_line(raw: str, block: int, number: int) -> Line:
    body = _QUOTE.sub("", raw, count=1) if _QUOTE.match(raw) else raw
    text, command = strip_prompt(body)
    return Line(text=text.rstrip(), block=block, number=number, raw=raw, command=command)


def split_blocks(text: str) -> List[Block]:
    """Split ``text`` into blocks; block numbers start at 1 in the order they appear."""
    blocks: List[Block] = []
    current: List[Tuple[str, int]] = []
    kind = "prose"
    fence = ""

    def flush(next_kind: str) -> None:
        nonlocal current, kind
        if any(raw.strip() for raw, _ in current):
            index = len(blocks) + 1
            blocks.append(Block(index, kind, tuple(_make_line(raw, index, n) for raw, n in current)))
        current = []
        kind = next_kind

    for number, raw in enumerate(normalise(text), start=1):
        fence_match = _FENCE.match(raw)
        if fence and fence_match and fence_match.group(1)[0] == fence[0] and len(fence_match.group(1)) >= len(fence):
            flush("prose")
            fence = ""
            continue
        if not fence and fence_match:
            flush("fenced")
            fence = fence_match.group(1)
            continue
        if not fence and _DETAILS_OPEN.match(raw):
            flush("details")
            continue
        if not fence and _DETAILS_CLOSE.match(raw):
            flush("prose")
            continue
        if not fence and _TAG_ONLY.match(raw):
            continue
        current.append((raw, number))
    flush("prose")
    return blocks
