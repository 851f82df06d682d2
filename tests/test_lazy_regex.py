"""Patterns compiled when first used: they must behave as the compiled pattern, and every one the package holds
must compile (a broken one would otherwise fail only on the first report that reaches it)."""

from __future__ import annotations

import importlib
import pickle
import pkgutil
import re
from typing import Any, Iterator, List, Tuple

import pytest

import rocm_doctor
from rocm_doctor.lazy_regex import WhenUsed, when_used


def _held(value: Any, depth: int = 0) -> Iterator[WhenUsed]:
    if isinstance(value, WhenUsed):
        yield value
    elif depth < 2 and isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _held(item, depth + 1)
    elif depth < 2 and isinstance(value, dict):
        for item in value.values():
            yield from _held(item, depth + 1)


def _module_patterns() -> List[Tuple[str, WhenUsed]]:
    found: List[Tuple[str, WhenUsed]] = []
    for info in pkgutil.walk_packages(rocm_doctor.__path__, prefix="rocm_doctor."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            found += [(f"{info.name}.{name}", pattern) for pattern in _held(value)]
    return found


def test_every_pattern_the_package_holds_compiles() -> None:
    found = _module_patterns()
    assert len(found) >= 300  # the readers' patterns are module constants: a walk that finds few is broken
    broken = []
    for where, pattern in found:
        try:
            re.compile(pattern.pattern, pattern.flags)
        except re.error as exc:
            broken.append(f"{where}: {exc}")
    assert broken == []


def test_a_pattern_is_not_compiled_until_it_is_used() -> None:
    pattern = when_used(r"(unclosed")
    assert pattern.pattern == "(unclosed"
    with pytest.raises(re.error):
        pattern.search("text")


@pytest.mark.parametrize(
    "source, flags, text",
    [
        (r"HIP error: (?P<what>[\w ]+)", re.IGNORECASE, "RuntimeError: hip ERROR: invalid device function"),
        (r"^gfx(\d{3,4})$", re.MULTILINE, "Name: x\ngfx1030\ngfx90a\ngfx1100"),
        (r"\bROCm\s+(\d+)\.(\d+)", 0, "no version here"),
    ],
)
def test_it_answers_as_the_compiled_pattern(source: str, flags: int, text: str) -> None:
    lazy, compiled = when_used(source, flags), re.compile(source, flags)
    def span(match: Any) -> Any:
        return None if match is None else (match.span(), match.groups())

    assert span(lazy.search(text)) == span(compiled.search(text))
    assert span(lazy.match(text)) == span(compiled.match(text))
    assert span(lazy.fullmatch(text)) == span(compiled.fullmatch(text))
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    # Block.scan runs a pattern on one line of a block: finditer(text, start, end)
    assert [m.span() for m in lazy.finditer(text, 5, len(text) - 2)] == [m.span() for m in compiled.finditer(text, 5, len(text) - 2)]
    assert span(lazy.search(text, 5)) == span(compiled.search(text, 5)) and span(lazy.match(text, 8)) == span(compiled.match(text, 8))
    assert lazy.findall(text) == compiled.findall(text)
    assert lazy.sub("<>", text) == compiled.sub("<>", text)
    assert lazy.split(text) == compiled.split(text)
    assert dict(lazy.groupindex) == dict(compiled.groupindex) and lazy.groups == compiled.groups


def test_a_used_pattern_pickles_as_its_text_and_flags() -> None:
    pattern = when_used(r"invalid device function", re.IGNORECASE)
    assert pattern.search("HIP error: Invalid Device Function")
    data = pickle.dumps(pattern)
    assert b"_compiled" not in data and len(data) < 200
    again = pickle.loads(data)
    assert again == pattern and again._compiled is None
    assert again.search("INVALID DEVICE FUNCTION")
