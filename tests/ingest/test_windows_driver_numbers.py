"""Windows' own numbers for an AMD display driver name the Adrenalin release AMD's list gives them.

A report may name the driver as Windows shows it (driver-store version, ``Driver Version:
32.0.31021.5001``: vosen/ZLUDA#659, ollama/ollama#16423, lshqqytiger/ZLUDA#1). Rules are keyed on
releases (RD800: 24.9.1 and 24.10.1), so the reader translates through
``rules/data/adrenalin_releases.yaml`` or reads nothing; a number of another vendor's driver, one the
list does not hold, or AMD Software's internal build (``24.20.11.01-240910a-...``) names no release.
"""

from __future__ import annotations

import pytest

from rocm_doctor.errors import InputError
from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.knowledge.adrenalin import AdrenalinTable, release_of_windows_driver
from rocm_doctor.pipeline import evaluate

SOURCE = "https://github.com/GPUOpen-Drivers/amd-vulkan-versions/blob/54dd23da7db8a5a23637df70d7c8707d17da6499/amdversions.xml"


def _driver(text: str):
    return ingest_text(text).facts.windows.driver_version


def _report(gpu: str, driver: str, tail: str = "") -> str:
    return f"OS: Windows 11\nGPU: {gpu}\nDriver Version: {driver}\n{tail}"


# AMD's list (amdversions.xml at the pinned commit): 24.9.1 is store 32.0.12011.1036, 24.10.1 is 32.0.12019.1028,
# 24.1.1 is 31.0.24002.92 (the pair lshqqytiger/ZLUDA#1's reporter gives).
@pytest.mark.parametrize(
    "driver, release",
    [
        ("32.0.12011.1036", "24.9.1"),
        ("32.0.12019.1028", "24.10.1"),
        ("**32.0.12019.1028**", "24.10.1"),
        ("31.0.24002.92", "24.1.1"),
    ],
)
def test_an_amd_driver_store_version_is_read_as_its_release(driver: str, release: str) -> None:
    got = _driver(_report("AMD Radeon RX 7900 XTX", driver))
    assert got.status == "known" and got.value == release


@pytest.mark.parametrize(
    "gpu, driver",
    [
        ("NVIDIA GeForce RTX 4070 SUPER", "32.0.15.9186"),  # NVIDIA's store version: a two-digit third part
        ("Intel Iris Xe Graphics", "32.0.101.6790"),  # Intel's: a three-digit third part
        ("AMD Radeon RX 7800 XT", "32.0.31021.5001"),  # AMD's, but newer than the list (vosen/ZLUDA#659)
        ("AMD Radeon RX 580", "31.0.21921.1000"),  # 24.9.1's Polaris/Vega branch: another driver, left out of the list
        ("AMD Radeon RX 6800", "24.20.11.01-240910a-406143C-AMD-Software-Adrenalin-Edition"),  # an internal build
    ],
)
def test_a_driver_number_the_list_does_not_tie_to_one_release_names_none(gpu: str, driver: str) -> None:
    assert _driver(_report(gpu, driver)).status != "known"


def test_an_internal_build_is_no_longer_taken_for_a_release_of_that_name() -> None:
    # before drv63 "24.20.11.01" was kept as the release itself, a release no rule or note knows
    assert _driver(_report("AMD Radeon RX 6800", "24.20.99.01")).value != "24.20.99.01"


def test_the_store_version_of_an_affected_release_brings_rd800_and_another_release_does_not() -> None:
    rules = load_rules([], use_env=False)
    slow = "Models run slowly; Task Manager shows them in shared GPU memory.\n"
    affected = evaluate(rules, ingest_text(_report("AMD Radeon RX 7900 XTX", "32.0.12019.1028", slow)).facts).findings
    assert any(f.id == "RD800" for f in affected)
    # 24.8.1 (store 32.0.11037.4004) is the release AMD named as free of the defect
    unaffected = evaluate(rules, ingest_text(_report("AMD Radeon RX 7900 XTX", "32.0.11037.4004", slow)).facts).findings
    assert not any(f.id == "RD800" for f in unaffected)


def test_the_shipped_list_ties_each_store_version_to_one_release() -> None:
    assert release_of_windows_driver("32.0.12011.1036") == "24.9.1"
    assert release_of_windows_driver("32.0.99999.9999") is None


@pytest.mark.parametrize(
    "table",
    [
        [],
        {"source": SOURCE, "releases": []},
        {"source": SOURCE, "releases": [{"release": "24.9.1", "windows": "32.0.15.9186"}]},
        {"source": SOURCE, "releases": [{"release": "24.9", "windows": "32.0.12011.1036"}]},
        {"source": SOURCE, "releases": [{"release": "24.9.1", "windows": "32.0.12011.1036"}, {"release": "24.9.2", "windows": "32.0.12011.1036"}]},
        {"releases": [{"release": "24.9.1", "windows": "32.0.12011.1036"}]},
    ],
)
def test_a_malformed_list_is_an_input_error(table) -> None:
    with pytest.raises(InputError):
        AdrenalinTable.from_data(table)
