"""The Windows HIP SDK tables in rules/data/rocm_support.yaml against rows read by hand from AMD's pages.

Each expectation below was checked by eye against the release's "System requirements (Windows)" page (the
source pinned in the row). They are the rows a cut-off transcription loses first: the last Radeon rows
(RX 7650 GRE / 7600 XT / 7600, gfx1102; RX 6750 XT / 6700 XT / 6700, gfx1031) and the Ryzen APU tab.
"""

from __future__ import annotations

from typing import Dict

import pytest

from rocm_doctor.knowledge import rocm_support as rs

YES, RUNTIME_ONLY, NO = "runtime+sdk", "runtime only", "unsupported"

# (release, target) -> the page's Runtime / HIP SDK columns for that target's rows
BY_HAND = {
    ("7.2", "gfx1102"): YES,  # Radeon tab: RX 7650 GRE, RX 7600 XT, RX 7600
    ("7.2", "gfx1151"): YES,  # Ryzen tab: Ryzen AI Max+ 395 and siblings
    ("7.2", "gfx1150"): YES,  # Ryzen tab: Ryzen AI 300 series
    ("7.2", "gfx1031"): NO,  # Radeon tab: RX 6700 XT crossed in every column
    ("7.2", "gfx1030"): NO,
    ("6.4.2", "gfx1102"): YES,
    ("6.4.2", "gfx1151"): YES,
    ("6.4.2", "gfx1031"): RUNTIME_ONLY,
    ("6.4.2", "gfx1032"): RUNTIME_ONLY,
    ("6.4.2", "gfx906"): NO,
    ("6.2.4", "gfx1102"): YES,
    ("6.0.2", "gfx1102"): YES,
    ("6.0.2", "gfx1031"): RUNTIME_ONLY,
    ("5.7.1", "gfx1102"): YES,
    ("5.7.1", "gfx1032"): RUNTIME_ONLY,
}


def _rows() -> Dict[str, rs.WindowsRow]:
    return {row.rocm: row for row in rs.support().windows}


def _columns(row: rs.WindowsRow, target: str) -> str:
    if target in row.sdk:
        return YES if target in row.runtime else "sdk without runtime"
    if target in row.runtime:
        return RUNTIME_ONLY
    return NO if target in row.unsupported else "not listed"


@pytest.mark.parametrize(("release", "target"), sorted(BY_HAND))
def test_windows_table_rows_match_the_page_read_by_hand(release: str, target: str) -> None:
    assert _columns(_rows()[release], target) == BY_HAND[(release, target)]


def test_complete_windows_tables_are_consistent() -> None:
    for row in _rows().values():
        if not row.sdk_complete:
            continue
        assert not row.partial, row.rocm
        assert set(row.sdk) <= set(row.runtime), row.rocm  # every page ticks Runtime wherever it ticks HIP SDK
        assert not set(row.runtime) & set(row.unsupported), row.rocm


def test_hip_sdk_libraries_are_not_called_missing_for_gpus_the_page_lists() -> None:
    assert rs.windows_sdk_lacks("gfx1102", "6.4.2") is False  # RX 7600 (XT)
    assert rs.windows_sdk_lacks("gfx1151", "6.4") is False  # Ryzen AI Max+ 395
    assert rs.windows_sdk_lacks("gfx1151", "7.2") is False
    assert rs.windows_sdk_lacks("gfx1102", "7.2.1") is False
    assert rs.windows_sdk_lacks("gfx1031", "6.4.2") is True  # listed for the runtime only
    assert rs.windows_sdk_lacks("gfx1103", "6.4.2") is True  # Radeon 780M: no row on the complete page
