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


@pytest.mark.parametrize(
    "clause",
    [
        "it works in any docker container",  # pytorch/pytorch#132987: the host is the one that fails
        "I have tried also with my other docker container",  # henk717/KoboldAI#327
        "adding myself to the render group fixed it in the other container",
        "setting the override fixed it in another venv",
    ],
)
def test_another_container_or_environment_is_not_the_one_the_report_is_about(clause: str) -> None:
    assert scope.scope_of(clause) == scope.ELSEWHERE


@pytest.mark.parametrize("clause", ["adding myself to the render group fixed it in the container", "the second image is black"])
def test_the_container_itself_or_a_second_picture_stays_in_scope(clause: str) -> None:
    assert scope.scope_of(clause) == scope.NOW


def test_a_kernel_release_after_now_is_the_running_one_and_the_one_before_it_is_not() -> None:
    from ingest_helpers import ingest

    after_now = ingest("I used to run 6.5.0-14-generic, now 6.8.0-45-generic and rocminfo fails.\n").facts.host.kernel_release
    assert after_now.value == "6.8.0-45-generic"
    only_past = ingest("I used to run 6.5.0-14-generic and it worked.\n").facts.host.kernel_release
    assert not only_past.is_known


def test_is_available_printed_false_after_a_prefixed_commented_command_is_read() -> None:
    # ROCm/hip#3465's form: an env prefix before the command and a comment after it, False on the next line
    said = '```\n$ AMD_LOG_LEVEL=7 python -c "import torch; print(torch.cuda.is_available())" # no extra logs\n{}\n```\n'
    assert "cuda_unavailable_printed" in set(_contexts(said.format("False")))
    assert "cuda_unavailable_printed" not in set(_contexts(said.format("True")))


def _contexts(text: str) -> list:
    from ingest_helpers import ingest

    context = ingest(text).facts.symptoms.context
    return list(context.value) if context.is_known else []
