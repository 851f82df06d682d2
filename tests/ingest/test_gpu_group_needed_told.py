"""The report's own diagnosis that the program's user needs the render or video group to reach the GPU is a
permissions finding (RD614, signature gpu_group_needed_told): ollama/ollama#2838, FoldingAtHome/fah-issues#1548,
FoldingAtHome/fah-client-bastet#121, ROCm/ROCm-docker#90, openvinotoolkit/docker_ci#67. Advice to the reader, a
condition, a question, or a user said to hold the group already is not read. Assertions are about categories.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings


@pytest.mark.parametrize(
    "sentence",
    [
        "On OpenSUSE, ollama needs to be a member of the video group to access the GPU",
        "Ubuntu 20.04 amdgpu drivers require render group access, and the service account gets no groups.",
        "To access a GPU it needs to also belong to groups video and/or render.",
        "A user inside the docker container has to be a member of the `video` and `render` groups to access the GPU without `sudo`.",
        "Ubuntu 20.04 requires non root user to be render group to use GPU acceleration.",
    ],
)
def test_a_group_the_user_needs_for_the_gpu_is_a_permissions_finding(sentence: str) -> None:
    report = f"{sentence}\n"
    assert "gpu_group_needed_told" in (ingest(report).facts.symptoms.signatures.value or [])
    assert "permissions" in [category for _, _, category in serious_findings(report)][:1]


@pytest.mark.parametrize(
    "sentence",
    [
        "You need to be in the render group to access the GPU.",
        "If ollama needs to be in the video group to access the GPU, add it.",
        "Does ollama need to be a member of the video group to access the GPU?",
        "The user needs to be a member of the render group to access the GPU, and I am already in render.",
    ],
)
def test_advice_a_condition_a_question_or_a_group_held_is_not_read(sentence: str) -> None:
    assert "gpu_group_needed_told" not in (ingest(f"{sentence}\n").facts.symptoms.signatures.value or [])


def test_the_group_needed_is_no_finding_when_the_groups_shown_include_render() -> None:
    report = "ollama needs to be a member of the render group to access the GPU\n$ groups\nme adm video render\n"
    assert "RD614" not in [rule for rule, _, _ in serious_findings(report)]
