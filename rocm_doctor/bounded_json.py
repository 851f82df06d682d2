"""``json.loads`` within rocm-doctor's limits: nesting depth and integer size.

Python's parser recurses once per nesting level (it stops with RecursionError near
Python's own limit) and turns an integer of more than 4,300 digits into a ValueError
that is not a JSONDecodeError. Here both are a :class:`JsonLimitError` naming the
limit, and a document within Python's recursion limit is still held to
``json.max_depth`` (checked without recursion).
"""

from __future__ import annotations

import json
from typing import Any

from rocm_doctor.limits import INTEGER_DIGITS, JSON_DEPTH


class JsonLimitError(ValueError):
    """A JSON document over ``json.max_depth`` or ``number.max_digits``."""


def _integer(text: str) -> int:
    if len(text) - text.startswith("-") > INTEGER_DIGITS.value:
        raise JsonLimitError(f"an integer of {len(text):,} digits (limit {INTEGER_DIGITS})")
    return int(text)


def depth(value: Any) -> int:
    """How deeply objects and arrays nest in ``value`` (a scalar is 0), without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        if level > JSON_DEPTH.value:
            break
        stack.extend((child, level + 1) for child in children)
    return deepest


TOO_DEEP = "nested too deeply (limit {limit})"


def parse(text: str) -> Any:
    """The parsed document, held to ``number.max_digits`` and Python's own nesting limit but not yet to
    ``json.max_depth``: for a caller that walks the document anyway and checks the depth on that walk."""
    try:
        return json.loads(text, parse_int=_integer)
    except RecursionError:
        raise JsonLimitError(TOO_DEEP.format(limit=JSON_DEPTH)) from None


def loads(text: str) -> Any:
    """The parsed document; raises json.JSONDecodeError (bad syntax) or JsonLimitError (both ValueErrors)."""
    data = parse(text)
    if depth(data) > JSON_DEPTH.value:
        raise JsonLimitError(TOO_DEEP.format(limit=JSON_DEPTH))
    return data
