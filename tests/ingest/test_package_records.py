"""Package records that give the name and the version on their own lines (h35h, issue 23).

``apt show rocm-libs -a`` / ``apt info`` print Debian control fields and ``yum info`` prints ``Name :`` and
``Version :``; AMD documents these as the way to read the installed ROCm release and reports paste them
(ROCm/legacy-rocm-build#419, ROCm/ROCm#511, ROCm/ROCm#3246). The system's ROCm release read from them is
the side that torch's own ROCm build is compared with (RD580). Texts are written for the test.
"""

from __future__ import annotations

import time

import pytest
from ingest_helpers import ingest


def system_rocm(text: str):
    fact = ingest(text).facts.rocm.version
    return fact.value if fact.is_known else None


@pytest.mark.parametrize(
    ("text", "release"),
    [
        ("$ apt show rocm-libs -a\nPackage: rocm-libs\nVersion: 6.2.2.60202-116~22.04\nPriority: optional\nSection: devel\n", "6.2.2"),
        ("sudo apt info rocm-libs\nPackage: rocm-libs\nVersion: 6.0.2.60002-115~22.04\nPriority: optional\n", "6.0.2"),
        ("$ yum info rocm-libs\nInstalled Packages\nName        : rocm-libs\nArch        : x86_64\nVersion     : 6.1.0.60100\nRelease     : 82.el9\n", "6.1.0"),
        ("$ dpkg -s rocm-core\nPackage: rocm-core\nStatus: install ok installed\nPriority: optional\nArchitecture: amd64\nVersion: 6.3.1.60301-48~24.04\n", "6.3.1"),
    ],
)
def test_a_package_record_gives_the_systems_rocm_release(text: str, release: str) -> None:
    assert system_rocm(text) == release


@pytest.mark.parametrize(
    "text",
    [
        # pip show's record is torch's own build, read by pip_show.py, never the system's ROCm
        "$ pip show torch\nName: torch\nVersion: 2.5.1+rocm6.2\nSummary: Tensors and Dynamic neural networks in Python\n",
        # a package the table does not know
        "Package: python3-foo\nVersion: 6.1.0\n",
        # the Version field of another record, after a blank line or a new Package field
        "Package: rocm-libs\n\nPackage: libfoo\nVersion: 6.1.0\n",
    ],
)
def test_a_record_of_another_package_gives_no_system_rocm(text: str) -> None:
    assert system_rocm(text) is None


def test_the_apt_show_record_with_torchs_other_build_reports_the_difference() -> None:
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    text = (
        "$ apt show rocm-libs -a\nPackage: rocm-libs\nVersion: 6.1.0.60100-82~22.04\nPriority: optional\n\n"
        "torch==2.5.1+rocm6.2\nI built bitsandbytes from source against /opt/rocm and it cannot find its library.\n"
    )
    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    assert "RD580" in [f.id for f in findings]


def test_many_record_headers_are_read_in_linear_time() -> None:
    text = "Package: rocm-libs\n" * 20000 + "Version: 6.1.0\n"
    started = time.perf_counter()
    ingest(text)
    assert time.perf_counter() - started < 20


@pytest.mark.parametrize(
    "text",
    [
        # dpkg -s of a removed package whose configuration files remain: not in place
        "$ dpkg -s rocm-core\nPackage: rocm-core\nStatus: deinstall ok config-files\nPriority: optional\nVersion: 6.1.0.60100-82~22.04\n",
        # what the repositories offer, not what is installed
        "$ dnf info rocm-libs\nAvailable Packages\nName         : rocm-libs\nVersion      : 6.2.0\nRelease      : 1.fc41\n",
    ],
)
def test_a_record_of_a_package_not_installed_gives_no_system_rocm(text: str) -> None:
    assert system_rocm(text) is None


def test_yum_info_gives_the_installed_record_not_the_available_one() -> None:
    text = (
        "$ yum info rocm-libs\nInstalled Packages\nName        : rocm-libs\nVersion     : 6.1.0.60100\nRelease     : 82.el9\n\n"
        "Available Packages\nName        : rocm-libs\nVersion     : 6.2.0.60200\nRelease     : 66.el9\n"
    )
    assert system_rocm(text) == "6.1.0"


def test_a_dpkg_listing_row_of_a_removed_package_gives_no_system_rocm() -> None:
    text = "$ dpkg -l | grep rocm-core\nrc  rocm-core  6.1.0.60100-82~22.04  amd64  ROCm Runtime software stack\n"
    assert system_rocm(text) is None
    assert system_rocm(text.replace("rc  ", "ii  ")) == "6.1.0"
