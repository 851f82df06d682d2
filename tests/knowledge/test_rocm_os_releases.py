"""rules/data/rocm_os.yaml covers every release AMD's compatibility matrix has a column for."""

from __future__ import annotations

import pytest

from rocm_doctor.knowledge.rocm_os import listed_os, supported_os

# The columns of the historical CSV at rocm-6.3.3 and of the docs-7.0.0, docs-7.1.0, docs-7.1.1 and
# docs-7.2.3 compatibility-matrix pages.
PUBLISHED = ["6.0.0", "6.0.2", "6.1.0", "6.1.1", "6.1.2", "6.2.0", "6.2.1", "6.2.2", "6.2.4", "6.3.0", "6.3.1", "6.3.2",
             "6.3.3", "6.4.0", "6.4.3", "7.0.0", "7.0.2", "7.1.0", "7.1.1", "7.2.1", "7.2.2", "7.2.3"]


@pytest.mark.parametrize("release", PUBLISHED)
def test_every_published_release_has_a_row(release):
    assert listed_os(release) is not None and supported_os(release, "ubuntu", "22.04.5") is True


@pytest.mark.parametrize(("release", "distro", "version", "listed"), [
    ("6.3.3", "azurelinux", "3.0", True),
    ("6.4.0", "rhel", "9.6", False),
    ("6.4.3", "rhel", "9.6", True),
    ("7.0.0", "rhel", "10.0", False),
    ("7.0.2", "rhel", "10.0", True),
    ("7.0.2", "ol", "9.6", True),
    ("7.0.0", "ol", "10.0", False),
    ("7.1.1", "rhel", "10.1", True),
    ("7.1.1", "ubuntu", "20.04", False),
    ("7.2.3", "rocky", "9.6", True),
    ("7.2.3", "debian", "13", True),
])
def test_the_new_rows_say_what_the_matrix_says(release, distro, version, listed):
    assert supported_os(release, distro, version) is listed


def test_a_release_without_a_column_is_judged_by_its_series_only_when_the_rows_agree():
    assert supported_os("7.2.0", "ubuntu", "24.04") is True  # 7.2.1-7.2.3 agree
    assert supported_os("6.4.1", "rhel", "9.6") is None  # 6.4.0 does not list it, 6.4.3 does
    assert supported_os("7.14.0", "ubuntu", "24.04") is None  # no 7.14 row at all
