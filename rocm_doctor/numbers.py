"""Whole numbers read from text that anyone wrote (a variable, a version, a folder name).

``str.isdigit`` accepts characters ``int`` refuses (``²``, other scripts' digits) and ``int``
refuses more than 4,300 digits, so a check with the one and a conversion with the other can raise
on hostile input. Everything that turns a token into an index or a version part goes through here.
"""

from __future__ import annotations

import re
from typing import Optional

_DECIMAL = re.compile(r"-?[0-9]{1,18}")
"""ASCII digits only, at most 18 (any index or version part; always within int()'s limit)."""


def small_int(text: str) -> Optional[int]:
    """``text`` (surrounding spaces ignored) as an int when it is 1 to 18 ASCII digits, with an
    optional minus sign; None otherwise."""
    token = text.strip()
    return int(token) if _DECIMAL.fullmatch(token) else None


def is_index(text: str) -> bool:
    """``text`` is a non-negative whole number :func:`small_int` reads (a device index, a node id)."""
    value = small_int(text)
    return value is not None and not text.strip().startswith("-")
