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
    text = "ROCm on an AMD node.\n```diff\n resources:\n   limits:\n     amd.com/gpu: 1\n securityContext:\n" + lines + "```\n"
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


@pytest.mark.parametrize(
    "text",
    [
        # a Markdown "+" list in prose is the author's words, not a diff's added line
        "ROCm 6.2 on RX 7900 XTX with docker, /dev/kfd passed.\nChanges in this PR:\n+ added --group-add render to the docs\n+ bump version\n",
        # a number added as the group of an unrelated service: nothing in the diff is about the GPU's nodes
        "ROCm 6.2 on RX 7900 XTX.\n```diff\n--- a/ci/compose.yml\n+++ b/ci/compose.yml\n   db:\n     image: postgres:16\n+    group_add:\n+      - \"999\"\n```\n",
    ],
)
def test_a_plus_list_in_prose_or_a_group_for_another_service_is_not_read(text: str) -> None:
    assert ADDED not in report_contexts(text)


def test_an_unfenced_git_diff_adding_the_render_group_is_read() -> None:
    text = "ROCm 6.2 on MI210, my fix:\ndiff --git a/run.sh b/run.sh\n@@ -3,4 +3,5 @@\n docker run --device /dev/kfd --device /dev/dri \\\n+  --group-add render \\\n   rocm/pytorch\n"
    assert ADDED in report_contexts(text)


@pytest.mark.parametrize(
    "trace",
    [
        "+ docker run --rm --device /dev/kfd --device /dev/dri --group-add render rocm/vllm-ci pytest\nHIP error: invalid device function\n",
        "++ getent group render\n++ cut -d: -f3\n+ docker run --device /dev/kfd --group-add 992 rocm/vllm-ci\ntorch.cuda.is_available() False\n",
        # the command's output indented below it (a traceback) is no diff's context line
        "+ echo starting\nstarting\n+ docker run --device=/dev/kfd --device=/dev/dri --group-add render rocm/pytorch python -c 'import torch'\n"
        "  File \"<string>\", line 1\nRuntimeError: No HIP GPUs are available\n",
    ],
)
def test_a_shell_trace_of_the_command_that_ran_is_not_a_change(trace: str) -> None:
    assert ADDED not in report_contexts("ROCm 6.2 CI on MI300X fails:\n```\n" + trace + "```\n")


@pytest.mark.parametrize(
    "hunk",
    [
        # a hunk pasted without its ```diff fence (or with the fence lost): the docker run's context lines around it
        "ROCm CI on MI300X.\n\n   docker run \\\n           --device /dev/kfd --device /dev/dri \\\n"
        "+          --group-add $(getent group render | cut -d: -f3) \\\n           --network=host \\\n",
        # a Markdown document's hunk: a removed line, then added lines at the file's margin
        "AMD GPUs in the container, non-root.\n\n-**AMD GPUs:**\n-- Docker: `--device /dev/kfd --device /dev/dri`\n"
        "+**AMD GPUs:** the user must join the render group\n+- Docker: `--device /dev/kfd --device /dev/dri --group-add render`\n",
        # a compose file's hunk, one line of context above
        "ROCm 6.2 on RX 7900 XTX.\n\n     devices:\n       - /dev/kfd\n       - /dev/dri\n+    group_add:\n+      - \"992\"\n",
        # a pod's hunk under a removed line
        "amd.com/gpu: 1 on the node.\n\n   securityContext:\n-    privileged: true\n+    runAsUser: 1000\n+    supplementalGroups: [110]\n",
    ],
)
def test_a_hunk_without_its_fence_or_header_is_read_as_the_change(hunk: str) -> None:
    assert ADDED in report_contexts(hunk)


@pytest.mark.parametrize(
    "text",
    [
        # a set -x trace whose output, indented, sits right above the next traced command
        "ROCm 6.2 CI on MI300X fails:\n```\n+ python -c 'import torch'\n  torch 2.5.1+rocm6.2\n"
        "+ docker run --device /dev/kfd --device /dev/dri --group-add render rocm/pytorch\nNo HIP GPUs are available\n```\n",
        # the same trace, unfenced
        "ROCm 6.2 CI on MI300X fails:\n+ ls -l /dev/kfd\n  crw-rw---- 1 root render 235, 0 /dev/kfd\n"
        "+ docker run --device /dev/kfd --group-add 992 rocm/pytorch\n",
        # a Markdown "+" list whose item above wraps onto an indented line
        "ROCm 6.2, /dev/kfd passed to docker.\nChanges:\n+ bump the base image\n  to rocm/pytorch:latest\n+ add --group-add render to the docs\n",
        # a Markdown "-" list followed by a "+" one, or by a "+1" comment
        "ROCm 6.2 with /dev/kfd in docker.\n- tried privileged\n+ --group-add render made no difference\n",
        "ROCm 6.2 with /dev/kfd in docker.\n- same on my MI210\n+1, --group-add render did not help\n",
    ],
)
def test_a_trace_or_a_list_beside_indented_or_dashed_lines_is_not_a_change(text: str) -> None:
    assert ADDED not in report_contexts(text)
