"""The metamorphic respellings (platform, torch version, what torch.cuda.is_available() gave) change prose
only, the same way every run, and the readers take the same facts from every spelling."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest
from metamorphic import is_available_spellings, platform_spellings, torch_version_spellings

REPORT = (
    "I am on Windows 11 with WSL2 and Ubuntu 22.04 LTS; it also fails on Fedora 41 and when I run it on Arch Linux.\n"
    "I installed torch 2.5.1+rocm6.2 but torch.cuda.is_available() returns False.\n"
    "```\n"
    "OS: Ubuntu 22.04.4 LTS\n"
    "Windows 11 WSL2 torch 2.5.1+rocm6.2 torch.cuda.is_available() returns False\n"
    "```\n"
    "2024-05-02 10:14:07 torch 2.5.1+rocm6.2 on Windows 11 says torch.cuda.is_available() returns False\n"
    ">>> torch.cuda.is_available() is False\n"
    "$ pip install torch==2.5.1+rocm6.2 --index-url https://download.pytorch.org/whl/rocm6.2\n"
    "Platform: Windows 11\n"
    "    torch 2.5.1+rocm6.2 on Windows 11\n"
)
RESPELLINGS = [platform_spellings, torch_version_spellings, is_available_spellings]


@pytest.mark.parametrize("respell", RESPELLINGS)
def test_a_respelling_changes_prose_only_and_the_same_way_every_run(respell) -> None:
    rewritten = respell(REPORT)
    assert rewritten == respell(REPORT)
    before, after = REPORT.split("\n"), rewritten.split("\n")
    assert before[0:2] != after[0:2]
    # fenced output, a timestamped log line, a prompt, a command, a "key: value" line and an indented block keep theirs
    assert before[2:] == after[2:]


def test_the_platform_is_respelled_as_users_write_it() -> None:
    first = platform_spellings(REPORT).split("\n")[0]
    assert first == "I am on Win11 with WSL 2 and ubuntu 22.04 LTS; it also fails on fedora 41 and when I run it on Arch."


def test_the_torch_version_and_is_available_are_respelled_as_users_write_them() -> None:
    assert torch_version_spellings(REPORT).split("\n")[1].startswith("I installed torch==2.5.1+rocm6.2 but")
    spellings = is_available_spellings("torch.cuda.is_available() returns False.\n" * 4).split("\n")[:4]
    assert spellings == [
        "torch.cuda.is_available() is False.",
        "is_available() gives False.",
        "`torch.cuda.is_available()` -> False.",
        "cuda.is_available() = False.",
    ]


def facts_read(text: str) -> tuple:
    f = ingest(text).facts
    known = lambda fact: fact.value if fact.is_known else None  # noqa: E731
    context = f.symptoms.context.value if f.symptoms.context.is_known else []
    return (
        known(f.host.os),
        known(f.host.wsl_version),
        known(f.host.distro_id),
        known(f.host.distro_version),
        known(f.torch.version),
        known(f.torch.flavour),
        "cuda_unavailable_reported" in context,
    )


PROSE = (
    "Setup: see below.\n\n"
    "I run ROCm in WSL2 with Ubuntu 22.04, torch 2.5.1+rocm6.2 installed from the index.\n"
    "torch.cuda.is_available() returns False although rocminfo lists the card.\n"
)


@pytest.mark.parametrize("respell", RESPELLINGS)
def test_every_respelling_gives_the_same_facts(respell) -> None:
    assert respell(PROSE) != PROSE
    assert facts_read(respell(PROSE)) == facts_read(PROSE)


@pytest.mark.parametrize(
    "sentence", ["torch==2.5.1+rocm6.2 is installed.", "PyTorch 2.5.1+rocm6.2 is installed.", "torch version 2.5.1+rocm6.2 is installed."]
)
def test_a_torch_version_is_read_in_each_spelling(sentence: str) -> None:
    f = ingest(sentence).facts.torch
    assert (f.version.value, f.flavour.value) == ("2.5.1+rocm6.2", "rocm")


@pytest.mark.parametrize(
    "sentence",
    [
        "torch.cuda.is_available() is False on my machine.",
        "is_available() gives False on my machine.",
        "`torch.cuda.is_available()` -> False on my machine.",
        "cuda.is_available() = False on my machine.",
    ],
)
def test_is_available_giving_false_is_read_in_each_spelling(sentence: str) -> None:
    assert facts_read(sentence)[-1] is True


@pytest.mark.parametrize(
    "sentence",
    [
        "if torch.cuda.is_available() is False, the app falls back to the CPU.",
        "assert torch.cuda.is_available() == False",
        "torch.backends.mps.is_available() gives False on this Linux box.",
    ],
)
def test_a_condition_code_or_another_backend_is_not_a_report_that_is_available_gave_false(sentence: str) -> None:
    assert facts_read(sentence)[-1] is False


FACT_SAMPLE = 12
"""Corpus reports per respelling whose facts are compared (the first ones it changes, in id order): the
metamorphic table compares diagnoses, which a dropped platform fact seldom changes."""


@pytest.mark.parametrize("respell", RESPELLINGS)
def test_corpus_reports_respelled_give_the_same_facts(respell) -> None:
    from corpus_scoring import corpora

    cases = sorted((case for name, members in corpora() if name in ("shared", "tests") for case in members), key=lambda case: case["id"])
    changed = [case for case in cases if respell(case["report"]) != case["report"]][:FACT_SAMPLE]
    if not changed:
        pytest.skip("no corpus found")
    dropped = [case["id"] for case in changed if facts_read(respell(case["report"])) != facts_read(case["report"])]
    assert dropped == []
