"""The data tables agree about which releases exist: a release added to one table must be
answered, or knowingly left out with a reason, by every table that depends on it."""

from __future__ import annotations

import datetime as dt
from typing import Any, Dict, List

import pytest
import yaml
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from rocm_doctor.data import rules_dir
from rocm_doctor.knowledge import hipblaslt
from rocm_doctor.knowledge.rocm_os import listed_os


def _table(name: str) -> Dict[str, Any]:
    return yaml.safe_load((rules_dir() / "data" / f"{name}.yaml").read_text(encoding="utf-8"))


def _wheel_releases() -> List[Dict[str, Any]]:
    return _table("torch_wheels")["releases"]


def _variants() -> List[str]:
    return sorted({str(v) for row in _wheel_releases() for v in row["rocm"]}, key=Version)


def test_every_torch_release_with_wheels_is_covered_by_the_hipblaslt_table():
    table = _table("hipblaslt")
    covers = SpecifierSet(table["covers_torch"])
    unchecked = table.get("unchecked_torch") or {}
    missing = [row["torch"] for row in _wheel_releases() if Version(row["torch"]) not in covers and row["torch"] not in unchecked]
    assert not missing, f"torch releases in torch_wheels.yaml that hipblaslt.yaml neither covers nor lists as unchecked: {missing}"


def test_the_hipblaslt_tables_unchecked_releases_are_real_and_not_also_covered():
    table = _table("hipblaslt")
    covers = SpecifierSet(table["covers_torch"])
    wheel = {row["torch"] for row in _wheel_releases()}
    for release, reason in (table.get("unchecked_torch") or {}).items():
        assert release in wheel and Version(release) not in covers and reason


@pytest.mark.parametrize("release", ["2.14.0", "2.14.0.dev20260801"])
def test_hipblaslt_answers_unknown_for_a_release_it_was_not_checked_for(release):
    assert hipblaslt.preferred("gfx1100", release, "7.2") is None
    assert hipblaslt.allowed("gfx942", release, "7.2") is None
    assert hipblaslt.prefer_variable(release) is None
    assert hipblaslt.allowed("gfx942", "2.13.0", "7.2") is True


def test_every_rocm_release_with_wheels_has_an_os_row_or_a_reason():
    table = _table("rocm_os")
    not_tabled = {SpecifierSet(spec): why for spec, why in (table.get("not_tabled") or {}).items()}
    missing = [v for v in _variants() if listed_os(v) is None and not any(Version(v) in spec for spec in not_tabled)]
    assert not missing, f"ROCm releases with wheels but no row in rocm_os.yaml: {missing}"


def test_the_os_tables_exclusions_hide_no_row():
    table = _table("rocm_os")
    for spec in table.get("not_tabled") or {}:
        assert not [r for r in table["releases"] if Version(r) in SpecifierSet(spec)], spec


def test_every_os_row_names_its_source():
    table = _table("rocm_os")
    for release in table["releases"]:
        assert release in (table.get("sources") or {}) or Version(release) < Version("6.3.3"), release


@pytest.mark.parametrize("path", sorted((rules_dir() / "data").glob("*.yaml")), ids=lambda p: p.name)
def test_every_table_says_on_which_date_it_was_last_checked(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    checked = data.get("checked")
    assert isinstance(checked, (str, dt.date)), path.name
    dt.date.fromisoformat(str(checked))
