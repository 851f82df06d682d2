"""Printing a rich renderable (a table) without the spaces rich pads its lines with.

rich fills every line of a table to the table's width; in a terminal that is invisible,
but piped, copied or diffed output carries a tail of spaces on every row.
"""

from __future__ import annotations

from typing import List

from rich.console import Console, RenderableType
from rich.segment import Segment, Segments


def _rstrip(line: List[Segment]) -> List[Segment]:
    """The line without its trailing whitespace (styles and control codes kept)."""
    out = list(line)
    while out and not out[-1].control and not out[-1].text.rstrip():
        out.pop()
    if out and not out[-1].control:
        last = out[-1]
        out[-1] = Segment(last.text.rstrip(), last.style, last.control)
    return out


def print_trimmed(console: Console, renderable: RenderableType) -> None:
    """Print ``renderable`` as ``console.print`` would, each line with no trailing spaces."""
    lines = console.render_lines(renderable, pad=False)
    console.print(Segments([segment for line in lines for segment in _rstrip(line) + [Segment.line()]]), end="")
