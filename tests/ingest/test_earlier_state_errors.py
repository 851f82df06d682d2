"""An error the machine printed in a block the report marks as its own earlier state ("Old version used ...
resulting in pytest failing with:", "Before the update the test runner failed with:") is kept as
``symptoms.earlier_errors``: never a current error (RD525 stays silent), but the reason for the change the report
describes (RD542, ROCm/TheRock#2195). Another machine's errors are not its past. Assertions are about fact values
and rule ids, never wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import serious_findings

from rocm_doctor.ingest import ingest_text

ERROR = "RuntimeError: HIP_VISIBLE_DEVICES contains more devices than ROCR_VISIBLE_DEVICES"


@pytest.mark.parametrize("label", [
    "Old version used offload-arch that sees more gpus than pytorch resulting in pytest failing with:",
    "Before the update the test runner failed with:",
    "With the old driver the test runner failed at start with:",
])
def test_an_error_under_an_earlier_state_label_is_kept_as_the_earlier_state_s_error(label: str) -> None:
    text = f"This changes how the test runner picks its GPUs.\n\n{label}\n{ERROR}\n\nThe runner now takes the list from PyTorch.\n"
    facts = ingest_text(text).facts
    assert "visible_devices_conflict" in (facts.symptoms.earlier_errors.value or [])
    assert "visible_devices_conflict" not in (facts.symptoms.signatures.value or [])
    ids = [f[0] for f in serious_findings(text)]
    assert "RD542" in ids and "RD525" not in ids


def test_the_same_error_printed_now_is_current_and_rd525_speaks_alone() -> None:
    text = f"The tests fail at start on the MI300X node:\n{ERROR}\n"
    facts = ingest_text(text).facts
    assert "visible_devices_conflict" in (facts.symptoms.signatures.value or [])
    ids = [f[0] for f in serious_findings(text)]
    assert "RD525" in ids and "RD542" not in ids


def test_another_machine_s_error_is_not_kept_as_this_machine_s_past() -> None:
    text = f"This machine is fine.\n\nOn my other machine the test runner fails with:\n{ERROR}\n"
    facts = ingest_text(text).facts
    assert "visible_devices_conflict" not in (facts.symptoms.earlier_errors.value or [])
    assert "RD542" not in [f[0] for f in serious_findings(text)]


LABEL = "Old version used offload-arch that sees more gpus than pytorch resulting in pytest failing with:"


@pytest.mark.parametrize("after", [
    "Now it runs fine.",
    "PyTorch now is used to set HIP_VISIBLE_DEVICES. Now it runs fine.",
    "With the list taken from PyTorch everything works now.",
    "All tests pass now.",
])
def test_an_earlier_error_the_reporter_says_now_runs_fine_gets_no_earlier_state_finding(after: str) -> None:
    text = f"{LABEL}\n{ERROR}\n\n{after}\n"
    assert "RD542" not in [f[0] for f in serious_findings(text)]


@pytest.mark.parametrize("after", [
    "Now it runs, but only on the CPU.",
    "Does it run fine now?",
    "It works now until I start a second process.",
    "It still doesn't work now.",
    "Someone said it works now with the new runner.",
])
def test_a_contrast_question_negation_or_hearsay_of_working_keeps_the_earlier_state_finding(after: str) -> None:
    text = f"{LABEL}\n{ERROR}\n\n{after}\n"
    assert "RD542" in [f[0] for f in serious_findings(text)]
