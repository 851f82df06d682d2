"""Literal anchors of a regular expression: words every match must contain.

Searching a 20 MB paste with fifty case-insensitive regexes is slow; finding a plain word in
its lower-cased text is not (``str.find`` runs in C at gigabytes per second). Each top-level
alternative of a pattern contributes either its longest run of literal characters that is
neither optional nor repeated nor inside a group or character class, or the anchors of a group
every match passes through (``(?:rocr::|libamdhip64)``), whichever has the longer shortest word.
A line that holds none of a pattern's anchors cannot match it. A pattern with an alternative
that has no anchor of at least :data:`MIN_ANCHOR` characters gets ``None`` and is searched the
slow way.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator, List, Optional, Tuple

MIN_ANCHOR = 2
_CLASS_ESCAPES = set("dDsSwWbBAZzGnrtfv0123456789")
_CODE_ESCAPES = {"x": 2, "u": 4, "U": 8, "N": 0}


def _skip_code(branch: str, i: int, escape: str) -> int:
    """Index after the code of a character escape whose letter was just read."""
    if escape == "N":
        close = branch.find("}", i)
        return close + 1 if close >= 0 else len(branch)
    return i + _CODE_ESCAPES[escape]


def _structure(pattern: str, start: int = 0) -> Iterator[Tuple[int, str, int]]:
    """(index, character, group depth after it) of each character from ``start`` that is neither
    escaped nor inside a character class."""
    depth, i = 0, start
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            i = _skip_class(pattern, i)
            continue
        depth += (char == "(") - (char == ")")
        yield i, char, depth
        i += 1


def _branches(pattern: str) -> List[str]:
    """Top-level alternatives (``a|b(c|d)`` -> ``a``, ``b(c|d)``)."""
    out, last = [], 0
    for i, char, depth in _structure(pattern):
        if char == "|" and depth == 0:
            out.append(pattern[last:i])
            last = i + 1
    return out + [pattern[last:]]


def _skip_group(branch: str, i: int) -> int:
    """Index just after the group that opens at ``i``."""
    for j, char, depth in _structure(branch, i):
        if char == ")" and depth == 0:
            return j + 1
    return len(branch)


def _skip_class(branch: str, i: int) -> int:
    """Index just after the character class that opens at ``i`` (``[]a]`` and ``[^]a]`` hold a ``]``)."""
    j = i + 1
    if j < len(branch) and branch[j] == "^":
        j += 1
    if j < len(branch) and branch[j] == "]":
        j += 1
    while j < len(branch) and branch[j] != "]":
        j += 2 if branch[j] == "\\" else 1
    return j + 1


def _quantifier(branch: str, i: int) -> Tuple[int, bool, bool]:
    """(index after the quantifier at ``i``, whether there is one, whether it allows zero repetitions)."""
    if i >= len(branch) or branch[i] not in "?*+{":
        return i, False, False
    if branch[i] == "{":
        close = branch.find("}", i)
        if close < 0 or not re.fullmatch(r"\d*(?:,\d*)?", branch[i + 1 : close]):
            return i, False, False  # a literal brace
        least = branch[i + 1 : close].split(",")[0].strip()
        end, optional = close + 1, least in ("", "0")
    else:
        end, optional = i + 1, branch[i] in "?*"
    if end < len(branch) and branch[end] in "?+":
        end += 1  # lazy or possessive
    return end, True, optional


_GROUP_OPENING = re.compile(r"\((?:\?:|\?P<\w+>)?")


def _required_parts(branch: str) -> Tuple[str, List[str]]:
    """The longest run of characters every match of ``branch`` contains, in order and adjacent,
    and the insides of the groups every match goes through (not optional, not a lookaround)."""
    runs: List[str] = []
    groups: List[str] = []
    run = ""
    i = 0
    while i < len(branch):
        char = branch[i]
        literal: Optional[str] = None
        inside: Optional[str] = None
        if char == "\\" and i + 1 < len(branch):
            escaped = branch[i + 1]
            i += 2
            if escaped in _CODE_ESCAPES:
                i = _skip_code(branch, i, escaped)  # \x41, \u00e9, \N{...}: one character, not these letters
            elif escaped not in _CLASS_ESCAPES:
                literal = escaped
        elif char == "(":
            end = _skip_group(branch, i)
            opening = _GROUP_OPENING.match(branch, i)
            if opening is not None and not branch.startswith("?", opening.end()):  # not a lookaround or flags
                inside = branch[opening.end() : end - 1]
            i = end
        elif char == "[":
            i = _skip_class(branch, i)
        elif char in ".^$":
            i += 1
        else:
            literal = char
            i += 1
        i, quantified, optional = _quantifier(branch, i)
        if inside is not None and not optional:
            groups.append(inside)
        if literal is None or optional:
            runs.append(run)
            run = ""
            continue
        run += literal
        if quantified:
            runs.append(run)  # repeated: what follows need not be adjacent to this run
            run = ""
    runs.append(run)
    return max(runs, key=len, default=""), groups


def _branch_anchors(branch: str) -> Optional[List[str]]:
    """The best set of words one of which every match of ``branch`` holds: its longest literal,
    or the anchors of one of the groups it must go through, whichever has the longest shortest word."""
    literal, groups = _required_parts(branch)
    options = [[literal.lower()]] + [found for found in map(anchors, groups) if found]
    best = max(options, key=lambda words: (min(len(w) for w in words), -len(words)))
    return best if min(len(w) for w in best) >= MIN_ANCHOR else None


def anchors(pattern: str) -> Optional[List[str]]:
    """Lower-case words of which every match of ``pattern`` contains at least one; None if there are none."""
    if pattern.startswith("(?") and not pattern.startswith(("(?:", "(?P", "(?=", "(?!", "(?<")):
        return None  # inline flags: not worth interpreting
    found: List[str] = []
    for branch in _branches(pattern):
        words = _branch_anchors(branch)
        if words is None:
            return None
        found += words
    # a word that holds another anchor adds nothing: a line holding it holds the shorter one
    return sorted({w for w in found if not any(o != w and o in w for o in found)})


@lru_cache(maxsize=None)
def pattern_anchors(pattern: str) -> Optional[Tuple[str, ...]]:
    """:func:`anchors`, cached per pattern text (readers' patterns are module constants)."""
    words = anchors(pattern)
    return tuple(words) if words is not None else None
