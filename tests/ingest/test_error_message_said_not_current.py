"""An error message that the words around it say is fixed is not the machine's current error (prec52): a sentence that
opens with a fix's verb and names the message as what was fixed (a changelog's or a pull request's line), and a message
whose next line answers "that fixed it" / "works now". Only the words decide: a '> ' quote marker alone never does, the same
text quoted whole or hard-wrapped at 80 columns reads the same, and a "fixed" that is about something else, asked about,
denied, partial, believed, short-lived, someone else's or further down the report leaves the message current."""

from __future__ import annotations

from typing import List

import pytest
from ingest_helpers import ingest, problems_shown
from metamorphic import quote, wrap80


def errors_read(text: str) -> List[str]:
    """The error signatures the whole report holds (symptoms.signatures after assembly)."""
    found = ingest(text).facts.symptoms.signatures
    return list(found.value or []) if found.is_known else []


FIXED_IN_A_CHANGELOG = [
    "Changelog: fixed 'Unsupported GPU target: gfx1036' for rocBLAS\n",
    '- Fixed "hipErrorNoBinaryForGpu: Unable to find code object for all current devices" on gfx1031\n',
    "Release notes: - Fixes `RuntimeError: HIP error: invalid device function` on RDNA2 cards\n",
]

ANSWERED_FIXED_NEXT = [
    "> ERROR: No matching distribution found for torch-directml\nThanks, installing Python 3.10 fixed that.\n",
    "ERROR: No matching distribution found for torch-directml\nThanks, installing Python 3.10 fixed that.\n",
    "RuntimeError: HIP error: invalid device function\nSetting HSA_OVERRIDE_GFX_VERSION=10.3.0 solved it.\n",
    "RuntimeError: HIP error: invalid device function\nThanks, works now.\n",
    "RuntimeError: HIP error: invalid device function\nOh wow, it actually works for me now.\n",
    "RuntimeError: HIP error: invalid device function\nEDIT: exporting HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed the issue.\n",
]

NOT_CURRENT = FIXED_IN_A_CHANGELOG + ANSWERED_FIXED_NEXT

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
    # a fix asked about, denied, partial, believed, short-lived, someone else's, or far from the message
    ("ERROR: No matching distribution found for torch-directml\nHas anyone fixed that?\n", "no_torch_for_this_python"),
    ("ERROR: No matching distribution found for torch-directml\nI tried Python 3.11, but nothing fixed it.\n", "no_torch_for_this_python"),
    ("RuntimeError: HIP error: invalid device function\nIt fixed it somewhat, however SDXL still fails.\n", "hip_invalid_device_function"),
    ("RuntimeError: HIP error: invalid device function\nI thought reinstalling ROCm fixed it.\n", "hip_invalid_device_function"),
    ("RuntimeError: HIP error: invalid device function\nRebooting fixed it for a while, then it came back.\n", "hip_invalid_device_function"),
    ("RuntimeError: HIP error: invalid device function\nThe wiki says HSA_OVERRIDE_GFX_VERSION fixed it for them.\n", "hip_invalid_device_function"),
    ("RuntimeError: HIP error: invalid device function\nat torch/cuda/__init__.py line 300\nReinstalling fixed it.\n", "hip_invalid_device_function"),
    # "works now" said of something other than the failure
    ("RuntimeError: HIP error: invalid device function\nThe CPU build works now, the GPU one fails as above.\n", "hip_invalid_device_function"),
    ("RuntimeError: HIP error: invalid device function\nROCm 5.7 works now; on 6.0 I get the error above.\n", "hip_invalid_device_function"),
    # rev53p: "Resolved"/"Solved" opening a sentence had no report behind them; a "Fixed ...?" question; a status label
    ("* Resolved: `RuntimeError: HIP error: invalid device function` when loading SDXL\n", "hip_invalid_device_function"),
    ("Fixed `RuntimeError: HIP error: invalid device function` by setting HSA_OVERRIDE_GFX_VERSION? No, still the same.\n", "hip_invalid_device_function"),
    ("Resolved: no\nRuntimeError: HIP error: invalid device function\n", "hip_invalid_device_function"),
    ("Solved? Not yet: RuntimeError: HIP error: invalid device function\n", "hip_invalid_device_function"),
    # rev53p: the next line is a log line, not an answer
    ("RuntimeError: HIP error: invalid device function\nINFO:root:Everything works now, exiting\n", "hip_invalid_device_function"),
    ("RuntimeError: HIP error: invalid device function\n[INFO] test_basic: it works now (regression check)\n", "hip_invalid_device_function"),
    ("RuntimeError: HIP error: invalid device function\nWARNING: fixed the issue with seed, using 42\n", "hip_invalid_device_function"),
    # rev53p: another person, a project or a release fixed it, not this machine
    ("RuntimeError: HIP error: invalid device function\nHSA override fixed it for my friend.\n", "hip_invalid_device_function"),
    ("RuntimeError: HIP error: invalid device function\nUpstream fixed the issue in 6.1.\n", "hip_invalid_device_function"),
    ("RuntimeError: HIP error: invalid device function\nA patch that fixed the issue was proposed in #123.\n", "hip_invalid_device_function"),
    ("RuntimeError: HIP error: invalid device function\nROCm 6.1 release notes say they fixed the issue.\n", "hip_invalid_device_function"),
    ("RuntimeError: HIP error: invalid device function\nThis PR https://github.com/x/y/pull/1 fixed the issue for gfx1030.\n", "hip_invalid_device_function"),
    # a quoted log the reporter adopts: the quote marker alone changes nothing
    ("> RuntimeError: HIP error: invalid device function\n", "hip_invalid_device_function"),
    ("> RuntimeError: HIP error: invalid device function\nSame here on my RX 6600.\n", "hip_invalid_device_function"),
]


@pytest.mark.parametrize("text", FIXED_IN_A_CHANGELOG)
def test_a_changelog_line_that_opens_with_a_fix_verb_reads_no_error(text: str) -> None:
    assert errors_read(text) == []


@pytest.mark.parametrize("text", ANSWERED_FIXED_NEXT)
def test_a_message_answered_fixed_on_its_next_line_reads_no_error(text: str) -> None:
    assert errors_read(text) == []
    assert not {"RD503", "RD520"} & set(problems_shown(text))


@pytest.mark.parametrize("text, wanted", STILL_CURRENT)
def test_a_message_with_no_fix_said_of_it_is_still_read(text: str, wanted: str) -> None:
    assert wanted in errors_read(text)


@pytest.mark.parametrize("rewrite", [quote, wrap80], ids=["quoted with '> '", "wrapped at 80 columns"])
@pytest.mark.parametrize("text", NOT_CURRENT + [text for text, _ in STILL_CURRENT])
def test_quoting_or_wrapping_the_report_reads_the_same(rewrite, text: str) -> None:
    assert errors_read(rewrite(text)) == errors_read(text)


def test_a_long_message_and_its_answer_wrapped_at_80_columns_read_as_unwrapped() -> None:
    text = (
        "I run koboldai on an RX 6600 and every time it prints hipErrorNoBinaryForGpu: Unable to find code object for"
        " all current devices! and stops\n"
        "Thanks, exporting HSA_OVERRIDE_GFX_VERSION=10.3.0 in the terminal before starting fixed it.\n"
    )
    assert wrap80(text).count("\n") > text.count("\n")
    assert errors_read(text) == errors_read(wrap80(text)) == []
    current = text.replace("fixed it.", "did not help.")
    assert errors_read(current) == errors_read(wrap80(current)) != []


# prec55: a changelog's or release notes' label with its release ("Changelog v1.4:", "v2.3 release notes:", "What's changed in
# 2.0:") and a fix's release after the verb ("Fixed in 1.2.3:") read as the bare "Changelog:" does (RD349, RD353 fired on them)
FIXED_IN_A_VERSIONED_CHANGELOG = [
    "Changelog v1.4: fixed libd3d12.so: cannot open shared object file when DirectML was selected on Linux.\n",
    'v2.3 release notes: fixed "No matching distribution found for onnxruntime-directml" on Linux installs.\n',
    "Release notes for 1.4: fixed No matching distribution found for onnxruntime-directml\n",
    "What's changed in 2.0: fixed libd3d12.so: cannot open shared object file on Linux\n",
    "What's Changed: - Fixed `libd3d12.so: cannot open shared object file` on Linux\n",
    "Fixed in 1.2.3: libd3d12.so: cannot open shared object file on Linux\n",
    "Changelog for version 2.3 (2024-05-01): fixed libd3d12.so: cannot open shared object file\n",
]

STILL_CURRENT_BESIDE_A_RELEASE = [
    # the reporter's own error after an update to a release, or a changelog that fixed something else
    ("After updating to v1.4 I get OSError: libd3d12.so: cannot open shared object file: No such file or directory\n", "d3d12_library_missing"),
    ("Changelog v1.4: fixed the installer, but now OSError: libd3d12.so: cannot open shared object file\n", "d3d12_library_missing"),
    ("Fixed in 1.2.3? No, still: ERROR: No matching distribution found for onnxruntime-directml\n", "directml_onnxruntime_not_found"),
    ("v1.4 changelog says nothing about it.\nOSError: libd3d12.so: cannot open shared object file: No such file or directory\n", "d3d12_library_missing"),
]


@pytest.mark.parametrize("text", FIXED_IN_A_VERSIONED_CHANGELOG)
def test_a_versioned_changelog_or_release_notes_line_that_fixed_the_message_reads_no_error(text: str) -> None:
    assert errors_read(text) == []
    assert not {"RD349", "RD353"} & set(problems_shown("Ubuntu 22.04, RX 7900 XTX.\n" + text))


@pytest.mark.parametrize("text, wanted", STILL_CURRENT_BESIDE_A_RELEASE)
def test_the_reporters_error_beside_a_release_or_changelog_is_still_read(text: str, wanted: str) -> None:
    assert wanted in errors_read(text)
