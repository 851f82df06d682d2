"""Derived facts about the amdgpu DKMS driver (rocm_doctor/judge/derived_facts/driver.py)."""

from __future__ import annotations

import pytest

from rocm_doctor.errors import InputError
from rocm_doctor.judge.derived import Tables
from rocm_doctor.judge.derived_facts.driver import rocm_of_module
from rocm_doctor.knowledge._tables import source_urls
from tests.judge._derived_helpers import K, derived

TABLES = Tables()


def dkms(version: str, rocm: str = "7.2.0") -> dict:
    return {"driver": {"amdgpu_version": K(version)}, "rocm": {"version": K(rocm)}}


@pytest.mark.parametrize(
    ("version", "rocm"),
    [
        ("6.8.5", "6.2"),
        ("6.8.5-2009582.24.04", "6.2"),
        ("1:6.8.5.60203-2044426.22.04", "6.2"),
        ("6.2.4", "5.7"),
        ("6.12.12", "6.4"),
        ("6.14.14.30100000", "7.0"),
        ("6.16.6", "7.1"),
        ("6.16.13.30300400", "7.2"),
        ("6.10.5.60304-2125197.22.04", "6.3"),
    ],
)
def test_module_versions_map_to_the_rocm_release_they_shipped_with(version: str, rocm: str) -> None:
    assert rocm_of_module(version, TABLES) == rocm


def test_module_version_is_not_read_as_a_rocm_version() -> None:
    # 6.2.4 is the ROCm 5.7 driver, not ROCm 6.2.
    assert rocm_of_module("6.2.4-1652687.el9", TABLES) == "5.7"
    assert rocm_of_module("5.18.13", TABLES) is None
    assert rocm_of_module("not-a-version", TABLES) is None


def test_in_tree_driver_and_missing_driver_are_absent() -> None:
    in_tree = derived("derived.amdgpu_dkms_rocm", {})
    assert in_tree.status == "absent" and "in-tree" in in_tree.reason
    not_loaded = {"driver": {"amdgpu_loaded": K(False), "amdgpu_version": {"status": "absent", "reason": "amdgpu is not loaded"}}}
    assert derived("derived.amdgpu_dkms_rocm", not_loaded).status == "absent"


def test_dkms_line_is_used_when_the_module_version_was_not_read() -> None:
    change = {"driver": {"amdgpu_version": {"status": "unknown"},
                         "dkms_amdgpu": K("amdgpu/6.16.13-2278356.24.04, 6.8.0-94-generic, x86_64: installed")}}
    fact = derived("derived.amdgpu_dkms_rocm", change)
    assert (fact.status, fact.value) == ("known", "7.2")
    unreadable = {"driver": {"amdgpu_version": {"status": "failed", "reason": "permission denied"}, "dkms_amdgpu": {"status": "unknown"}}}
    assert derived("derived.amdgpu_dkms_rocm", unreadable).status == "unknown"


def test_unlisted_module_version_is_unknown_not_guessed() -> None:
    fact = derived("derived.amdgpu_dkms_rocm", dkms("5.18.13"))
    assert fact.status == "unknown" and "5.18.13" in fact.reason


def test_gap_counts_release_series_in_either_direction() -> None:
    assert derived("derived.driver_userspace_gap", dkms("6.8.5", "7.2.0")).value == 5
    assert derived("derived.driver_userspace_gap", dkms("6.16.13", "6.3.4")).value == 4
    assert derived("derived.driver_userspace_gap", dkms("6.16.13", "7.2.1")).value == 0
    assert derived("derived.driver_userspace_gap", {}).status == "absent"
    no_rocm = {"driver": {"amdgpu_version": K("6.8.5")}, "rocm": {"version": {"status": "unknown"}}}
    assert derived("derived.driver_userspace_gap", no_rocm).status == "unknown"


def test_support_follows_amds_matrix_rows() -> None:
    assert derived("derived.driver_userspace_supported", dkms("6.8.5", "7.0.2")).value is True
    assert derived("derived.driver_userspace_supported", dkms("6.8.5", "7.2.0")).value is False
    assert derived("derived.driver_userspace_supported", dkms("6.14.14", "6.1.3")).value is False
    assert derived("derived.driver_userspace_supported", dkms("6.16.13", "6.3.0")).value is True
    no_row = derived("derived.driver_userspace_supported", dkms("6.16.6", "7.1.1"))
    assert no_row.status == "unknown" and "7.1" in no_row.reason


def test_every_table_row_names_a_source_and_known_series() -> None:
    table = TABLES["amdgpu_driver"]
    order = table["series"]
    for key in ("releases", "drivers", "support", "policy"):
        assert table[key] and all(source_urls(row.get("source")) for row in table[key]), key
    assert all(str(row["rocm"]) in order for row in table["releases"])
    assert all(set(map(str, row["userspace"])) <= set(order) for row in table["support"])


def test_a_malformed_table_is_an_input_error() -> None:
    broken = Tables({"amdgpu_driver": {"releases": [{"amdgpu_dkms": "6.8.5", "rocm": "6.2"}], "series": ["6.2"]}})
    with pytest.raises(InputError):
        rocm_of_module("6.8.5", broken)
