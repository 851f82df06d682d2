"""Whole numbers from hostile text: a number or None, never an exception."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from rocm_doctor.numbers import is_index, small_int


@given(st.text())
def test_any_text_is_a_number_or_none_never_an_exception(text: str) -> None:
    value = small_int(text)
    assert value is None or isinstance(value, int)
    assert is_index(text) == (value is not None and value >= 0 and not text.strip().startswith("-"))


@pytest.mark.parametrize("text, value", [("0", 0), (" 12 ", 12), ("-1", -1), ("007", 7)])
def test_ascii_digits_are_read(text: str, value: int) -> None:
    assert small_int(text) == value


@pytest.mark.parametrize("text", ["²", "١", "9" * 5000, "1e3", "", " ", "+1", "1.0", "0x10", "1 2"])
def test_digits_int_refuses_or_that_are_not_a_plain_number_are_none(text: str) -> None:
    assert small_int(text) is None and not is_index(text)


def test_a_visible_devices_value_in_other_digits_is_unreadable_not_a_crash() -> None:
    from rocm_doctor.judge.derived_facts.visible_rocr import _indices

    assert _indices("0,²") is None and _indices("1, 0") == [1, 0]
