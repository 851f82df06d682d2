"""Anchors let signature search skip lines with ``str.find``; a wrong anchor would hide a match.

The property that matters: every string a pattern matches holds one of its anchors. It is checked
for every shipped signature on strings Hypothesis builds from the pattern itself, and on the
lines of every corpus report. The readers' module patterns and the redactor's token shapes are checked the
same way in ``test_anchors_of_readers_and_secrets.py`` (a file of its own, so that under ``--dist loadfile``
neither half is a long tail on one worker).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rocm_doctor.ingest import ingest_text
from rocm_doctor.anchors import anchors
from rocm_doctor.ingest.blocks import split_blocks
from rocm_doctor.ingest.signatures import _search, match_block, signatures

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@pytest.mark.parametrize(
    "pattern, expected",
    [
        ("No HIP GPUs are available", ["no hip gpus are available"]),
        ("abc|defg", ["abc", "defg"]),
        (r"foo\d+barbaz", ["barbaz"]),
        (r"works?finer", ["finer"]),  # the optional s splits the run
        (r"ab(?:cd|ef)ghij", ["ghij"]),
        (r"x(?:libamdhip64|rocr::)y", ["libamdhip64", "rocr::"]),  # a group every match goes through
        (r"x(?:libamdhip64|rocr::)?yyyy", ["yyyy"]),  # an optional group is not
        (r"(?<!abcdefg)hij", ["hij"]),  # nor a lookaround
        (r"[^\n]{0,40}permission denied", ["permission denied"]),
        (r"x{2,}yyyy", ["yyyy"]),
        (r"zzzz?w", ["zzz"]),
        (r"ab+cdef", ["cdef"]),  # b may repeat: "ab" and "cdef" need not be adjacent
        (r"lib\S*\.so[\w.]*: cannot open", [": cannot open"]),
        (r"a]b\]cd", ["a]b]cd"]),
        (r"[]x]tail", ["tail"]),
    ],
)
def test_anchors_are_the_longest_required_literal_of_each_alternative(pattern: str, expected: list) -> None:
    assert anchors(pattern) == expected


@pytest.mark.parametrize("pattern", [r"\d+|abcdef", r"(?i)abcdef", r"a", r"(?:abcdef)?", r"a.b.c", r"(?:o|fine)x"])
def test_patterns_without_a_sure_literal_have_no_anchors(pattern: str) -> None:
    assert anchors(pattern) is None


def test_an_anchor_that_contains_another_is_dropped() -> None:
    assert anchors("permission denied|open: permission denied") == ["permission denied"]


_ANCHORED = [s for s in signatures() if anchors(s.said or s.pattern.pattern) is not None]

DRAWS = 1
"""Strings drawn per pattern (317 signature patterns here, 393 reader and redactor patterns in
test_anchors_of_readers_and_secrets.py, on 2026-12-01). Hypothesis draws the simplest match first: optional parts left
out and repeats at their least, which is the string an anchor wrongly taken from an optional part or a lookaround
misses. Nearly all of the cost is building each pattern's strategy, not drawing, so this one draw is what the property
costs. Checked by breaking anchors() on 2026-12-01 (the two files together): reading a ``?`` as required fails 29
tests at 1 draw (42 at 4 draws), reading a lookaround's words as required fails 53 at 1 draw; 4 draws cost 19 more
CPU-s of the suite's some 500."""


@pytest.mark.parametrize("signature", _ANCHORED, ids=lambda s: s.id)
@settings(max_examples=DRAWS, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much], database=None)
@given(data=st.data())
def test_every_string_a_signature_matches_holds_one_of_its_anchors(signature, data) -> None:
    # a statement's sentence-scope wrapper only narrows where its own pattern matches, and the search
    # reads the anchors from that pattern (signatures._anchors): strings are drawn from it too
    own = signature.said or signature.pattern.pattern
    text = data.draw(st.from_regex(re.compile(own, signature.pattern.flags)))
    words = anchors(own)
    assert any(word in text.lower() for word in words), (text, words)


def _corpus_texts() -> list:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: the same documents, a tenth of the CPU
    cases = [yaml.load(p.read_text(), Loader=loader) for p in sorted(CORPUS.glob("*.yaml"))]
    return [case["report"] for case in cases if isinstance(case, dict) and case.get("report")]


def test_on_corpus_reports_anchored_search_finds_every_line_the_regex_finds() -> None:
    texts = _corpus_texts()
    assert len(texts) >= 40
    # About 40 reports spread over the corpus in file-name order (every sixth while it had under 280): every
    # signature's regex on every line of a report costs a second per 5 reports (16 CPU-s for 80 reports on 2026-12-01),
    # and the drawn strings above already test each pattern's anchors, so the sample stays this size as the corpus grows.
    # Each distinct line is checked once (a third of the sampled lines repeat another: blank lines, common log
    # lines), and a signature is not searched on a line that holds one of its anchors (nothing to check there).
    # A statement's sentence-scope wrapper holds the row's own pattern as a part every match goes through, so on a
    # line where the own pattern finds nothing the wrapper cannot match: it is searched only where the own pattern is
    # found, as the readers search it (signatures._search). Searching every wrapper on every line was nine tenths of
    # this test's CPU (7 of 8 CPU-s on 2026-12-03) for verdicts the own pattern's search already gives.
    lines = {line.text for text in texts[:: max(6, len(texts) // 40)] for block in split_blocks(text) for line in block.lines}
    words = [(signature, anchors(signature.pattern.pattern)) for signature in _ANCHORED]
    for line in sorted(lines):
        lowered = line.lower()
        for signature, anchor_words in words:
            if not any(w in lowered for w in anchor_words):
                assert not _search(signature, line), (signature.id, line)


def test_a_signature_deep_in_a_long_block_is_found_once_at_its_first_line() -> None:
    noise = "\n".join(f"step {i}: loss 0.{i % 97}" for i in range(20000))
    text = noise + "\nRuntimeError: HIP error: invalid device function\n" + noise + "\nhipErrorInvalidDeviceFunction\n"
    pieces = [p for b in split_blocks(text) for p in match_block(b)]
    found = [p for p in pieces if p.kind == "error:hip_invalid_device_function"]
    assert len(found) == 1
    assert found[0].line_start == 20001
    assert "hip_invalid_device_function" in ingest_text(text).facts.symptoms.signatures.value
