"""A change said in prose that gives the container (its image, pod or LXC guest) the render group or its id is the
report's fix for a container user refused the GPU: a permissions finding (RD621, signature
render_group_given_to_container_told): defilantech/LLMKube#1569, community-scripts/ProxmoxVE#15401, ROCm/ROCm-docker#90,
ROCm/rocMLIR#556. Advice to the reader, a condition, a question, a change said not to be needed, or a render group
named without a container is not read. Assertions are about categories.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings

SIGNATURE = "render_group_given_to_container_told"


def _read(sentence: str) -> bool:
    return SIGNATURE in (ingest(f"{sentence}\n").facts.symptoms.context.value or [])


@pytest.mark.parametrize(
    "sentence",
    [
        "The operator injects the node's render GID into `supplementalGroups` for the ROCm serving pods.",
        "Update the LXC config so that /dev/kfd uses the render group id, like the renderD* nodes.",
        "We need to create the `render` group in the ROCm docker image.",
        "Add a 'render' group in the Dockerfile and pass it with --group-add.",
        "This PR adds the host's render gid to the container's groups.",
    ],
)
def test_a_change_giving_the_container_the_render_group_is_read(sentence: str) -> None:
    assert _read(sentence)


def test_such_a_change_in_a_rocm_report_is_a_permissions_finding() -> None:
    report = "ROCm inside the container finds no GPU.\nThe operator injects the node's render GID into `supplementalGroups` for the serving pods.\n"
    assert "permissions" in [category for _, _, category in serious_findings(report)]


@pytest.mark.parametrize(
    "sentence",
    [
        "If your user lacks it, add the render group to the container with --group-add.",
        "You can add the render gid to the pod's supplementalGroups.",
        "Should I add the render group to the docker image?",
        "It works without adding the render group to the container.",
        "I added myself to the render group.",
        # review65: the host's group of the user, with a container in the same sentence
        "I added my user to the render group and then ran it in the container.",
        "I created a new container from rocm/pytorch, and my user on the host is in the render group.",
        "The container image is based on Ubuntu 22.04.",
    ],
)
def test_advice_a_condition_a_question_or_no_container_is_not_read(sentence: str) -> None:
    assert not _read(sentence)
