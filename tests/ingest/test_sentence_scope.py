"""The one scope question the prose readers ask (rocm_doctor/ingest/scope.py): is what stands at a position said of
the machine now, of the past, of another machine or person, or in a document's or another person's words?"""

from __future__ import annotations

import pytest

from rocm_doctor.ingest import scope


def _at(text: str, word: str) -> str:
    return scope.scope_before(text, text.index(word))


@pytest.mark.parametrize(
    "text, word, kind",
    [
        ("I used to run it on Windows 11 with the HIP SDK", "Windows", scope.PAST),
        ("Previously I had the CUDA build of torch installed", "CUDA", scope.PAST),
        ("On my other machine I installed the CUDA version of torch", "CUDA", scope.ELSEWHERE),
        ("My friend's laptop runs 6.8.0-45-generic without trouble", "6.8.0", scope.ELSEWHERE),
        ("The README says the installer downloads the CUDA version", "CUDA", scope.SAID),
        ("Someone said the installer pulls the CUDA wheel", "CUDA", scope.SAID),
        ("I installed the CUDA version of torch by mistake", "CUDA", scope.NOW),
    ],
)
def test_the_words_before_a_position_in_its_sentence_give_its_scope(text: str, word: str, kind: str) -> None:
    assert _at(text, word) == kind


@pytest.mark.parametrize("now", ["now", "currently", "today"])
def test_a_now_after_past_words_starts_the_current_state_again(now: str) -> None:
    text = f"Before I was on Ubuntu 22.04, {now} on Windows 11"
    assert _at(text, "Ubuntu") == scope.PAST
    assert _at(text, "Windows") == scope.NOW


def test_past_words_in_an_earlier_sentence_leave_the_next_one_current() -> None:
    assert _at("I used to run Windows. This box runs Ubuntu 24.04", "Ubuntu") == scope.NOW


def test_a_whole_clause_is_out_of_scope_wherever_its_words_stand() -> None:
    assert scope.scope_of("setting the override fixed it on my other machine") == scope.ELSEWHERE
    assert scope.scope_of("setting the override fixed it") == scope.NOW
