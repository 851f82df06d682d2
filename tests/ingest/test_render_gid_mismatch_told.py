"""The report's own diagnosis that the render group's numeric id differs between the host and the container, pod or
LXC guest whose user opens the GPU's device files is a permissions finding (RD614, signature render_gid_mismatch_told):
Hal0ai/hal0#2213, defilantech/LLMKube#1560, kubeflow/kubeflow#7655, open-edge-platform/physical-ai-studio#417.
A condition, advice to the reader, a line that says it was fixed, or a render gid merely named is not read.
Assertions are about categories.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings


def _read(sentence: str) -> bool:
    return "render_gid_mismatch_told" in (ingest(f"{sentence}\n").facts.symptoms.signatures.value or [])


@pytest.mark.parametrize(
    "sentence",
    [
        "XX  GPU passthrough is broken: the render device is visible but its gid does not map to the render group in this container",
        "The serving container cannot open `/dev/dri/renderD128` because the pod securityContext grants no supplementary group for the node's render GID.",
        "This is due to the group id of the render group being dynamic.",
        "Systems with different RENDER GID failed to detect GPU in container, resulting in XPU not available.",
        "The render group id on the host differs from the one in the container, so rocminfo cannot open /dev/kfd.",
    ],
)
def test_a_render_gid_that_differs_between_host_and_guest_is_a_permissions_finding(sentence: str) -> None:
    report = f"{sentence}\n"
    assert _read(sentence)
    assert "permissions" in [category for _, _, category in serious_findings(report)][:1]


@pytest.mark.parametrize(
    "sentence",
    [
        "If the render gid differs between host and container, pass it with --group-add.",
        "Your render group id may differ from the one in the image.",
        "The render GID was different between host and container; fixed by passing the host's gid.",
        "The render group id is 110 on my host.",
        "Pass the host's render gid with --group-add $(getent group render | cut -d: -f3).",
        "Allow to customize the render GID to match the one on the host",
        "Does the render gid differ between the host and the container?",
    ],
)
def test_a_condition_advice_a_fix_or_a_gid_merely_named_is_not_read(sentence: str) -> None:
    assert not _read(sentence)


def test_a_render_gid_merely_named_gives_no_permissions_finding() -> None:
    report = "docker run --device /dev/kfd --device /dev/dri --group-add 992 rocm/pytorch\nThe render group id is 992 on my host.\n"
    assert "permissions" not in [category for _, _, category in serious_findings(report)]


@pytest.mark.parametrize(
    "sentence",
    [
        "The render group ID may be different on each host, so pass it with --group-add.",
        "The render gid can differ between distributions.",
        "The render group id does not differ between host and container.",
        "The render gid doesn't differ: 992 on both.",
        "render gid: no mismatch (992 on host, 992 in container)",
    ],
)
def test_a_hedge_or_a_negated_render_gid_mismatch_is_not_read(sentence: str) -> None:
    assert not _read(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        # ROCm/AMDMIGraphX#4340's shape: the video group's number differs in the image (grp63)
        "The CI docker image was built on Ubuntu 22.04 which had a different groupid for the `video` user/group.",
        "Our image has a different gid for the render group than the build hosts.",
    ],
)
def test_a_different_gid_for_the_render_or_video_group_is_a_permissions_finding(sentence: str) -> None:
    assert _read(sentence)
    assert "permissions" in [category for _, _, category in serious_findings(f"{sentence}\n")][:1]


@pytest.mark.parametrize(
    "sentence",
    [
        "Docker images may have a different group id for the video group than the host.",
        "If your image has a different gid for the render group, add it with --group-add.",
        "Does the container have a different gid for the render group?",
        "The image had a different gid for the render group, which I fixed with --group-add.",
    ],
)
def test_a_hedge_a_condition_a_question_or_a_fix_of_a_different_group_gid_is_not_read(sentence: str) -> None:
    assert not _read(sentence)
