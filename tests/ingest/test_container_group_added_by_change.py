"""A diff that adds the render group to an AMD GPU container (learn55h, rule RD621).

The forms come from several public changes (vllm-project/vllm#27881, redhat-et/GKM#174,
lemonade-sdk/lemonade#2857, named in the reader container_groups); none is one report's text.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, report_contexts

ADDED = "container_render_group_added_by_change"

_RUN_HEAD = "```diff\n docker run -it \\\n   --device /dev/kfd --device /dev/dri \\\n"
_RUN_TAIL = "   rocm/pytorch:latest\n```\n"


@pytest.mark.parametrize(
    "added",
    [
        "+  --group-add $(getent group render | cut -d: -f3) \\\n",
        "+  --group-add video --group-add 992 \\\n",
        "+  --group-add=render \\\n",
        "+  --group-add keep-groups \\\n",
    ],
)
def test_a_diff_adding_a_render_group_flag_is_read_as_the_change(added: str) -> None:
    assert ADDED in report_contexts(_RUN_HEAD + added + _RUN_TAIL)


@pytest.mark.parametrize(
    "lines",
    [
        "+    group_add:\n+      - \"992\"\n",
        "+          supplementalGroups: [110]\n",
        "+          # supplementalGroups: [<render-gid-on-node>]\n",
    ],
)
def test_a_diff_adding_a_group_list_is_read_as_the_change(lines: str) -> None:
    text = "ROCm on an AMD node, /dev/kfd passed.\n```diff\n securityContext:\n" + lines + "```\n"
    assert ADDED in report_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # the group already in the command, no change shown
        "```\ndocker run --device /dev/kfd --device /dev/dri --group-add render rocm/pytorch\n```\n",
        # the diff removes it, or adds only video
        _RUN_HEAD + "-  --group-add render \\\n" + _RUN_TAIL,
        _RUN_HEAD + "+  --group-add video \\\n" + _RUN_TAIL,
        # a diff header, not an added line
        "+++ b/docker/run.sh --group-add render\n",
    ],
)
def test_no_change_adding_a_render_group_is_not_read(text: str) -> None:
    assert ADDED not in report_contexts(text)


def test_the_change_on_an_amd_container_is_a_permissions_warning() -> None:
    assert "RD621" in problems_shown(_RUN_HEAD + "+  --group-add $(getent group render | cut -d: -f3) \\\n" + _RUN_TAIL)


def test_a_plain_run_command_with_the_render_group_gives_no_change_finding() -> None:
    text = "```\ndocker run --device /dev/kfd --device /dev/dri --group-add render rocm/pytorch\n```\nrocminfo lists gfx1100.\n"
    assert "RD621" not in problems_shown(text)
