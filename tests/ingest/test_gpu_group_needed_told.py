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


def _read(sentence: str) -> bool:
    return "gpu_group_needed_told" in (ingest(f"{sentence}\n").facts.symptoms.signatures.value or [])


@pytest.mark.parametrize(
    "sentence",
    [
        "Users must be members of the render group to access the GPU.",
        "A user must be a member of the render group to access the GPU.",
        "All users need to be in the video group to use the GPU.",
        "Every user has to be in the render group to access /dev/kfd.",
    ],
)
def test_a_general_statement_of_what_users_need_is_not_read(sentence: str) -> None:
    assert not _read(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Users must be members of the render group to access the GPU; see the install guide",
        "According to the ROCm docs, your user needs to be in the render and video groups",
        "Per the docs, the ollama user needs to be a member of the video group to access the GPU.",
        "The service user must be in the render group to access the GPU, as the documentation explains.",
    ],
)
def test_a_documentation_quote_of_the_group_needed_is_not_read(sentence: str) -> None:
    assert not _read(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "The Steam client needs to be in video for the overlay; ollama works fine",
        "The Steam client needs to be in the video group to access the GPU; ollama works fine.",
        "Steam needs to be a member of the video group to access the GPU, but ollama cannot find the GPU.",
        "OBS needs to be in the render group to access the GPU, while ollama fails to start.",
        "OBS needs to be in the render group to access the GPU; my problem is with ollama.",
    ],
)
def test_another_programs_group_need_beside_the_reports_program_is_not_read(sentence: str) -> None:
    assert not _read(sentence)


def test_another_programs_group_need_gives_no_permissions_finding() -> None:
    report = "The Steam client needs to be in the video group to access the GPU; ollama works fine.\n"
    assert "RD614" not in [rule for rule, _, _ in serious_findings(report)]


@pytest.mark.parametrize(
    "sentence",
    [
        "The ollama user needs to be in the render group to access the GPU.",
        "My user needs to be in the render group to access the GPU.",
        "The container user needs to be a member of the render group to access /dev/kfd.",
        "ollama needs to be in the video group to access the GPU; it cannot open /dev/kfd otherwise.",
        "My user needs to be in the render group to access the GPU, but rocminfo fails.",
    ],
)
def test_the_reporters_own_program_or_user_needing_the_group_is_still_read(sentence: str) -> None:
    assert _read(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        # perm59: the program's user needs access to a node said to belong to render (lingfish/ollama-deb#22's shape)
        "The packaged daemon needs access to /dev/dri/renderD128 that belongs to the render group.",
        "ollama needs read-write access to /dev/kfd, which is owned by the render group.",
        # ... or must be in the group that owns the node (dlandon/zoneminder.machine.learning#105,
        # kyuz0/amd-strix-halo-vllm-toolboxes#6)
        "The `www-data` user must be in the group owning `/dev/dri/renderD128`.",
        "The container user must be in the same numeric GID that owns /dev/kfd on the host.",
    ],
)
def test_the_programs_user_needing_the_group_that_owns_the_gpu_node_is_read(sentence: str) -> None:
    report = f"{sentence}\n"
    assert "gpu_group_needed_told" in (ingest(report).facts.symptoms.signatures.value or [])
    assert "permissions" in [category for _, _, category in serious_findings(report)][:1]


@pytest.mark.parametrize(
    "sentence",
    [
        "If the daemon needs access to /dev/kfd which is owned by the render group, add it to render.",
        "The daemon needs access to /dev/kfd, which is owned by the render group, and I am already in render.",
        "Users must be in the group owning /dev/kfd.",
        "You must be in the group that owns /dev/kfd.",
        # the node owned by another group than render or video is not this diagnosis
        "The daemon needs access to /dev/kfd which is owned by root.",
    ],
)
def test_the_node_group_shapes_keep_out_advice_conditions_and_groups_held(sentence: str) -> None:
    assert "gpu_group_needed_told" not in (ingest(f"{sentence}\n").facts.symptoms.signatures.value or [])
