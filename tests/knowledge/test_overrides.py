"""HSA_OVERRIDE_GFX_VERSION parsing and recommendations (rules/data/gfx_overrides.yaml, facts.md D)."""

from __future__ import annotations

import pytest

from rocm_doctor.knowledge import overrides as ov
from rocm_doctor.knowledge import torch_wheels as tw


@pytest.mark.parametrize("value", ["11.0.0", "10.3.0", "9.0.10", "63.255.255", "0.0.0"])
def test_values_libhsakmt_accepts(value: str) -> None:
    assert ov.is_valid_override(value)


@pytest.mark.parametrize("value", ["gfx1100", "11.0", "1100", "0xb.0.0", "11.0.0.0", "11.0.a", "64.0.0", "11.256.0", ""])
def test_values_libhsakmt_rejects(value: str) -> None:
    parsed = ov.parse_override(value)
    assert not parsed.valid and parsed.reason


def test_a_gfx_name_gets_a_hint_with_the_right_spelling() -> None:
    assert "write 11.0.0" in ov.parse_override("gfx1100").reason
    assert "write 9.0.10" in ov.parse_override("gfx90a").reason


def test_override_names_the_gfx_target() -> None:
    assert ov.override_gfx("11.5.1") == "gfx1151"
    assert ov.override_gfx("9.0.10") == "gfx90a"
    assert ov.override_gfx("10.3.0") == "gfx1030"
    assert ov.override_gfx("11.0") is None
    assert ov.override_gfx("11.16.0") is None  # valid for libhsakmt, but no gfx name


def test_per_node_variable_is_read_before_the_global_one() -> None:
    env = {"HSA_OVERRIDE_GFX_VERSION": "11.0.0", "HSA_OVERRIDE_GFX_VERSION_2": "10.3.0"}
    assert ov.override_for_agent(env, 2) == ("HSA_OVERRIDE_GFX_VERSION_2", "10.3.0")
    assert ov.override_for_agent(env, 1) == ("HSA_OVERRIDE_GFX_VERSION", "11.0.0")
    assert ov.override_for_agent({}, 1) is None
    with pytest.raises(LookupError):
        ov.override_for_agent(env, None)
    assert ov.override_for_agent({"HSA_OVERRIDE_GFX_VERSION": "11.0.0"}, None) == ("HSA_OVERRIDE_GFX_VERSION", "11.0.0")
    assert set(ov.override_variables({**env, "HSA_XNACK": "1"})) == set(env)


def test_groups_and_cross_family() -> None:
    assert ov.group_of("gfx1031") == "gfx10.3"
    assert ov.group_of("gfx1151") == "gfx11"
    assert ov.is_cross_family("gfx1151", "gfx900") is True
    assert ov.is_cross_family("gfx1010", "gfx1030") is True
    assert ov.is_cross_family("gfx1103", "gfx1100") is False
    assert ov.is_cross_family("gfx803", "gfx900") is None


def test_recommended_override_per_family_and_wheel() -> None:
    old = tw.gfx_targets("2.5.1", "6.2")
    assert ov.recommended_override("gfx1031", old) == "10.3.0"
    # gfx1033/gfx1035/gfx1036: only torchruntime vouches for 10.3.0 and ROCm/ROCm#3015 reports it
    # segfaults on gfx1036, so rocm-doctor does not recommend it.
    assert ov.recommended_override("gfx1036", tw.gfx_targets("2.13")) is None
    assert ov.recommended_override("gfx1035", tw.gfx_targets("2.13")) is None
    assert ov.recommended_override("gfx1101", old) == "11.0.0"
    assert ov.recommended_override("gfx1103", tw.gfx_targets("2.8")) == "11.0.0"
    assert ov.recommended_override("gfx1101", tw.gfx_targets("2.6")) is None  # native
    assert ov.recommended_override("gfx1151", tw.gfx_targets("2.8")) is None  # not recommended: upgrade
    assert ov.recommended_override("gfx1010", tw.gfx_targets("2.13")) is None  # no safe override
    assert ov.recommended_override("gfx1031", ["gfx1100"]) is None  # gfx1030 missing too
    assert ov.recommended_override("gfx1031", None) is None
