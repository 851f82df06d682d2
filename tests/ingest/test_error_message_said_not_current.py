"""An error message that the words around it say is fixed is not the machine's current error (prec52): a sentence that
opens with a fix's verb and names the message as what was fixed (a changelog's or a pull request's line). Only the words
decide: a '> ' quote marker alone never does, the same text quoted whole or hard-wrapped at 80 columns reads the same, and a
"fixed" that is about something else leaves the message current."""

from __future__ import annotations

from typing import List

import pytest
from ingest_helpers import ingest
from metamorphic import quote, wrap80


def errors_read(text: str) -> List[str]:
    """The error signatures the whole report holds (symptoms.signatures after assembly)."""
    found = ingest(text).facts.symptoms.signatures
    return list(found.value or []) if found.is_known else []


FIXED_IN_A_CHANGELOG = [
    "Changelog: fixed 'Unsupported GPU target: gfx1036' for rocBLAS\n",
    '- Fixed "hipErrorNoBinaryForGpu: Unable to find code object for all current devices" on gfx1031\n',
    "Release notes: - Fixes `RuntimeError: HIP error: invalid device function` on RDNA2 cards\n",
    "* Resolved: `RuntimeError: HIP error: invalid device function` when loading SDXL\n",
]

NOT_CURRENT = FIXED_IN_A_CHANGELOG

STILL_CURRENT = [
    # a "fixed" that is about something else, before the message: the message is now
    ("I fixed the driver install, but now:\nRuntimeError: HIP error: invalid device function\n", "hip_invalid_device_function"),
    ("I fixed the driver install, but now I get `RuntimeError: HIP error: invalid device function`\n", "hip_invalid_device_function"),
    ("Fixed HSA_OVERRIDE_GFX_VERSION, now getting `RuntimeError: HIP error: invalid device function`\n", "hip_invalid_device_function"),
    ("Fixed the permissions and then got `RuntimeError: HIP error: invalid device function`\n", "hip_invalid_device_function"),
    # a PR's "This fixed the ... I was getting" (ggml-org/llama.cpp#15994): a subject before the verb
    ("This fixed the `RuntimeError: HIP error: invalid device function` I was getting in the container.\n", "hip_invalid_device_function"),
    # a bare imperative is a request or a title
    ("Fix `RuntimeError: HIP error: invalid device function` on gfx1031 please\n", "hip_invalid_device_function"),
    # a quoted log the reporter adopts: the quote marker alone changes nothing
    ("> RuntimeError: HIP error: invalid device function\n", "hip_invalid_device_function"),
    ("> RuntimeError: HIP error: invalid device function\nSame here on my RX 6600.\n", "hip_invalid_device_function"),
]


@pytest.mark.parametrize("text", FIXED_IN_A_CHANGELOG)
def test_a_changelog_line_that_opens_with_a_fix_verb_reads_no_error(text: str) -> None:
    assert errors_read(text) == []


@pytest.mark.parametrize("text, wanted", STILL_CURRENT)
def test_a_message_with_no_fix_said_of_it_is_still_read(text: str, wanted: str) -> None:
    assert wanted in errors_read(text)


@pytest.mark.parametrize("rewrite", [quote, wrap80], ids=["quoted with '> '", "wrapped at 80 columns"])
@pytest.mark.parametrize("text", NOT_CURRENT + [text for text, _ in STILL_CURRENT])
def test_quoting_or_wrapping_the_report_reads_the_same(rewrite, text: str) -> None:
    assert errors_read(rewrite(text)) == errors_read(text)
