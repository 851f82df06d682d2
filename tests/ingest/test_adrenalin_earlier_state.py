"""An Adrenalin (Windows AMD driver) release said to have worked is the earlier state (ab62, issue 23 item 2).

It was dropped before (not the installed release); now it is kept as ``symptoms.earlier`` so that what changed is said
("windows.driver_version: 24.8.1 -> 24.12.1"). A release warned against or named as a bug's start stays neither. No
Adrenalin-specific finding: fewer than three independent reports of a working earlier Adrenalin were found.
The texts are written for the test.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest


def _earlier(text: str) -> list:
    earlier = ingest(text).facts.symptoms.earlier
    return list(earlier.value or []) if earlier.is_known else []


@pytest.mark.parametrize("text,release", [
    ("Windows 11, RX 7800 XT. It worked with Adrenalin 24.7.1 but after updating to driver 24.12.1 the GPU is not used.\n", "24.7.1"),
    ("Adrenalin 24.6.1 was the last driver that worked; now on Adrenalin 25.2.1 HIP crashes on Windows 11.\n", "24.6.1"),
])
def test_a_release_that_worked_is_kept_as_the_earlier_state(text: str, release: str) -> None:
    assert f"windows.driver_version={release}" in _earlier(text)
    assert ingest(text).facts.windows.driver_version.value != release


def test_a_release_warned_against_is_no_earlier_state() -> None:
    assert not [v for v in _earlier("Avoid Adrenalin 24.10.1 on Windows 11, I am on 24.8.1.\n") if "driver_version" in str(v)]
