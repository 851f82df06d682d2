"""The known-regressions table: an update into a published regression on a GPU and platform its reports
name matches; the same version elsewhere, or an update within the broken range, does not."""

from __future__ import annotations

import copy

import pytest

from rocm_doctor.data import load_table
from rocm_doctor.errors import InputError
from rocm_doctor.knowledge.regressions import regressions

HIPBLASLT = "torch-2.6-nightly-hipblaslt-unsupported-arch"


def test_an_update_into_a_nightly_regression_matches_on_the_reported_gpu() -> None:
    rows = regressions().matching_update("torch", "2.6.0.dev20241013+rocm6.2", "2.6.0.dev20241015+rocm6.2", ["gfx1100"], "linux")
    assert [r.id for r in rows] == [HIPBLASLT]


@pytest.mark.parametrize(
    "before, after, gfx, platform",
    [
        ("2.6.0.dev20241013+rocm6.2", "2.6.0.dev20241015+rocm6.2", ["gfx942"], "linux"),  # a GPU no report names
        ("2.6.0.dev20241013+rocm6.2", "2.6.0.dev20241015+rocm6.2", ["gfx1100"], "windows"),  # the other platform
        ("2.6.0.dev20241013+rocm6.2", "2.6.0.dev20241015+rocm6.2", ["gfx1100"], None),  # platform unknown
        ("2.6.0.dev20241014+rocm6.2", "2.6.0.dev20241015+rocm6.2", ["gfx1100"], "linux"),  # already inside
        ("2.6.0.dev20241015+rocm6.2", "2.6.0.dev20241021+rocm6.2", ["gfx1100"], "linux"),  # out to the fix
        ("2.6.0.dev20241013+rocm6.2", "not a version", ["gfx1100"], "linux"),
    ],
)
def test_no_match_beyond_the_evidence(before: str, after: str, gfx, platform) -> None:
    assert regressions().matching_update("torch", before, after, gfx, platform) == []


def test_a_version_in_use_matches_with_its_gfx_features_ignored() -> None:
    rows = regressions().matching_version("torch", "2.12.0+rocm7.14.1", ["gfx1201:xnack-"], "windows")
    assert [r.id for r in rows] == ["torch-2.12-rocm7.14.1-gfx1201-windows-invalid-value"]
    assert regressions().matching_version("torch", "2.12.0+rocm7.14.0", ["gfx1201"], "windows") == []


def test_the_gfx90a_kernel_pack_builds_match_only_on_gfx90a() -> None:
    rows = regressions().matching_update("torch", "2.11.0+rocm7.14.0", "2.12.0+rocm7.14.0", ["gfx90a:sramecc+:xnack-"], "linux")
    assert [r.id for r in rows] == ["torch-2.12-2.13-gfx90a-empty-xnack-kpack"]
    assert regressions().matching_version("torch", "2.12.0+rocm7.14.0", ["gfx942"], "linux") == []
    assert regressions().matching_version("torch", "2.11.0+rocm7.14.0", ["gfx90a"], "linux") == []


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("component", "driver", "component must be one of"),
        ("platform", "macos", "platform must be one of"),
        ("versions", ["not a spec"], "is not a version specifier"),
        ("versions", [], "at least one specifier"),
        ("source", "see the thread", "must be a public URL"),
        ("effect", "", "effect must be text"),
    ],
)
def test_a_malformed_row_is_refused_naming_the_field(key: str, value, message: str) -> None:
    table = copy.deepcopy(load_table("regressions"))
    table["regressions"][0][key] = value
    with pytest.raises(InputError, match=message):
        regressions(table)


def test_a_duplicate_id_is_refused() -> None:
    table = copy.deepcopy(load_table("regressions"))
    table["regressions"].append(copy.deepcopy(table["regressions"][0]))
    with pytest.raises(InputError, match="appears twice"):
        regressions(table)
