"""Output that is safe to print: no terminal control sequences from input, and no crash on any encoding.

Facts, rule texts and pasted reports can carry control characters, among them the
escape sequences that set a terminal's title, write its clipboard or clear its
screen (a JSON ``\\u001b`` in a paste decodes to a real ESC). They are escaped on
output, whatever the reader produced: :func:`escape_controls` for text and markdown,
:class:`SafeConsole` for everything printed with rich, :func:`safe_json` for JSON.

A stream that cannot encode a character (a Windows console, ``PYTHONIOENCODING=cp1252``,
``check > out.txt`` on Windows) gets ASCII: the console's symbols have ASCII stand-ins
and any other character is written as a ``\\uXXXX`` escape instead of raising.
"""

from __future__ import annotations

import re
import sys
from typing import Any, Iterable, TextIO

from rich.console import Console
from rich.segment import Segment

_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""C0 (except tab and newline), DEL, C1, and the bidirectional overrides that reorder what is shown."""
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""What json.dumps leaves raw although a terminal acts on it (it escapes C0 itself)."""
SYMBOLS = "✓✗•…·—→"
ASCII_SYMBOLS = str.maketrans({"✓": "ok", "✗": "x", "•": "*", "…": "...", "·": "-", "—": "-", "→": "->"})


def _as_escape(match: "re.Match[str]") -> str:
    return f"\\u{ord(match.group()):04x}"


def escape_controls(text: str) -> str:
    """``text`` with every control character written as ``\\uXXXX`` (tab and newline kept)."""
    return _CONTROLS.sub(_as_escape, text)


_LINE_BREAKS = re.compile("[\t\n\u2028\u2029]")
"""What :func:`escape_controls` keeps and a one-line item must not hold (a new line forges the next item)."""


def escape_line(text: str) -> str:
    """``text`` as one line: every control character, tab, new line and line separator written as ``\\uXXXX``."""
    return _LINE_BREAKS.sub(_as_escape, escape_controls(text))


def safe_json(text: str) -> str:
    """A JSON document with the characters a terminal acts on escaped (the document means the same)."""
    return _JSON_UNSAFE.sub(_as_escape, text)


def can_encode(encoding: str, text: str = SYMBOLS) -> bool:
    try:
        text.encode(encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def degrade_streams(streams: Iterable[TextIO] = ()) -> None:
    """Make stdout and stderr write ``\\uXXXX`` for what their encoding lacks, instead of raising."""
    for stream in tuple(streams) or (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "utf-8"
        if not can_encode(encoding) and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


class SafeConsole(Console):
    """A rich Console that escapes control characters in every text it renders (not in its own styles).

    On a stream whose encoding lacks the console's symbols (✓ ✗ • …) they become ASCII.
    """

    def __init__(self, *args: Any, highlight: bool = False, **kwargs: Any) -> None:
        # rich's repr highlighter colours numbers and strings by regular expressions that backtrack
        # quadratically on long hostile lines (a 6,000-character line of a paste: over a minute).
        super().__init__(*args, highlight=highlight, **kwargs)

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        ascii_only = not can_encode(self.encoding)
        clean = (
            segment if segment.control else Segment(_clean(segment.text, ascii_only), segment.style, segment.control)
            for segment in buffer
        )
        return super()._render_buffer(clean)


def _clean(text: str, ascii_only: bool) -> str:
    text = escape_controls(text)
    return text.translate(ASCII_SYMBOLS) if ascii_only else text
