"""Every string a reader's module pattern or a redactor's token shape matches holds one of its anchors.

The signatures' half of this property, the corpus-line check and ``anchors()`` itself are in ``test_anchors.py``;
these were split off it (same tests, same draws) so that under ``--dist loadfile`` the largest file of the suite
(41 CPU-s) became two that the workers can balance.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rocm_doctor.anchors import anchors
from rocm_doctor.lazy_regex import WhenUsed

DRAWS = 1
"""Strings drawn per pattern: as ``test_anchors.DRAWS`` (why the simplest match is enough is said there)."""


def _reader_patterns() -> list:
    """Every regex at module level in the readers, compiled (each may be skipped by Block.scan)."""
    import importlib
    import pkgutil

    import rocm_doctor.ingest.formats as formats
    from rocm_doctor.knowledge.gpu_table import codename_regex

    found = {codename_regex().pattern: codename_regex()}
    for info in pkgutil.iter_modules(formats.__path__):
        module = importlib.import_module(f"{formats.__name__}.{info.name}")
        for value in vars(module).values():
            values = value if isinstance(value, (list, tuple)) else [value]
            for item in values:
                if isinstance(item, (re.Pattern, WhenUsed)) and anchors(item.pattern) is not None:
                    found.setdefault(item.pattern, item.compiled() if isinstance(item, WhenUsed) else item)
    return sorted(found.values(), key=lambda p: p.pattern)


_READER_PATTERNS = _reader_patterns()


def test_the_readers_have_many_anchored_patterns_to_check() -> None:
    assert len(_READER_PATTERNS) >= 30


@pytest.mark.parametrize("pattern", _READER_PATTERNS, ids=lambda p: p.pattern[:40])
@settings(max_examples=DRAWS, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
def test_every_string_a_reader_pattern_matches_holds_one_of_its_anchors(pattern, data) -> None:
    text = data.draw(st.from_regex(pattern))
    words = anchors(pattern.pattern)
    assert pattern.search(text) is None or any(word in text.lower() for word in words), (text, words)


@pytest.mark.parametrize("pattern, expected", [(r"caf\xe9 ok", ["caf"]), (r"\u00e9tat", ["tat"]), (r"\N{BULLET} item", [" item"])])
def test_character_escapes_are_one_character_not_their_letters(pattern: str, expected: list) -> None:
    assert anchors(pattern) == expected


def _secret_patterns() -> list:
    """The redactor's token shapes that it runs only where their anchors are (``redact_secrets._Words``)."""
    import rocm_doctor.redact_secrets as secrets

    shapes = [pattern for _kind, pattern in secrets.SHAPES] + [secrets._AUTHORIZATION, secrets._FRAGMENT, secrets._AWS_FRAGMENT]
    return [p for p in shapes if anchors(p.pattern) is not None]


@pytest.mark.parametrize("pattern", _secret_patterns(), ids=lambda p: p.pattern[-40:])
@settings(max_examples=DRAWS, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
def test_every_token_a_secret_shape_matches_holds_one_of_its_anchors(pattern, data) -> None:
    text = data.draw(st.from_regex(pattern))
    words = anchors(pattern.pattern)
    assert pattern.search(text) is None or any(word in text.lower() for word in words), (text, words)
