"""The regular expressions of rule files (``matches:``), compiled with RE2.

A rule file may come from anyone (``--rules``, ``ROCM_DOCTOR_RULES``), and a backtracking engine
can spend minutes on one pattern: ``(x+x+)+y``, ``(.*x){10}y`` or ``(\\w+\\s?)*y`` on an 8 KB fact.
RE2 (https://github.com/google/re2/wiki/Syntax) runs in time linear in the text for every pattern
it accepts; what it does not accept (backreferences, look-arounds) is refused when the rule loads.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import re2

_MAX_MEM = 8 << 20
"""RE2's memory budget for one compiled pattern (its default); a larger program is refused at load."""


def _options() -> Any:
    options = re2.Options()
    options.log_errors = False  # RE2 logs every refusal to stderr; the loader's message says it once
    options.max_mem = _MAX_MEM
    return options


class RuleRegexError(ValueError):
    """A pattern RE2 cannot compile; the message says why, in RE2's words."""


@lru_cache(maxsize=1024)
def compile_rule_regex(pattern: str) -> Any:
    """The compiled pattern, or RuleRegexError."""
    try:
        return re2.compile(pattern, _options())
    except re2.error as exc:
        reason = exc.args[0] if exc.args else exc
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise RuleRegexError(
            f"regular expression {pattern!r} does not compile in RE2 ({reason}); rule patterns run on RE2, which has no "
            "backreferences or look-arounds, so every match takes linear time"
        ) from None


def searches(pattern: str, text: str) -> bool:
    """Whether a compiled rule pattern occurs in ``text`` (the pattern was checked when its rule loaded)."""
    return compile_rule_regex(pattern).search(text) is not None
