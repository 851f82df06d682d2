"""Regular expressions compiled the first time they are used.

Compiling is most of what reading a paste costs in a fresh process: the readers and the signature table hold
some thousand patterns, and Python's ``re`` parses and compiles each in Python code. Most readers run a pattern
only on a line that holds its anchor words (:mod:`rocm_doctor.anchors`), so a report compiles the patterns it
can match and no others (about a third of them for a typical report).

A :class:`WhenUsed` pattern behaves as the compiled pattern for what the readers call (``search``, ``match``,
``finditer`` ...), and its ``pattern`` and ``flags`` are the text and flags it was made from. It pickles as
that text (the compiled program is rebuilt when next used), so a table of them can be kept in the on-disk
cache (:mod:`rocm_doctor.cache`). A pattern that does not compile fails where it is first used: every pattern
the package holds is compiled by the tests (``tests/test_lazy_regex.py``).
"""

from __future__ import annotations

import re
from typing import Any, Iterator, List, Mapping, Optional, Pattern, Tuple, Union


class WhenUsed:
    """A regex compiled when first used; see the module's docstring."""

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: Optional[Pattern[str]] = None

    def compiled(self) -> Pattern[str]:
        """The compiled pattern (compiled now if it was not yet)."""
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, string: str, *args: Any) -> "Optional[re.Match[str]]":
        return self.compiled().search(string, *args)

    def match(self, string: str, *args: Any) -> "Optional[re.Match[str]]":
        return self.compiled().match(string, *args)

    def fullmatch(self, string: str, *args: Any) -> "Optional[re.Match[str]]":
        return self.compiled().fullmatch(string, *args)

    def finditer(self, string: str, *args: Any) -> "Iterator[re.Match[str]]":
        return self.compiled().finditer(string, *args)

    def findall(self, string: str, *args: Any) -> List[Any]:
        return self.compiled().findall(string, *args)

    def sub(self, repl: Any, string: str, count: int = 0) -> str:
        return self.compiled().sub(repl, string, count)

    def subn(self, repl: Any, string: str, count: int = 0) -> Tuple[str, int]:
        return self.compiled().subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> List[Any]:
        return self.compiled().split(string, maxsplit)

    @property
    def groupindex(self) -> Mapping[str, int]:
        return self.compiled().groupindex

    @property
    def groups(self) -> int:
        return self.compiled().groups

    def __reduce__(self) -> Tuple[Any, Tuple[str, int]]:
        return (WhenUsed, (self.pattern, self.flags))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WhenUsed) and (self.pattern, self.flags) == (other.pattern, other.flags)

    def __hash__(self) -> int:
        return hash((self.pattern, self.flags))

    def __repr__(self) -> str:
        return f"WhenUsed({self.pattern!r}, {self.flags})"


AnyPattern = Union[Pattern[str], WhenUsed]
"""A compiled pattern or one compiled when first used: what readers may hold."""


def when_used(pattern: str, flags: int = 0) -> WhenUsed:
    """``re.compile(pattern, flags)``, deferred to the first use."""
    return WhenUsed(pattern, flags)
