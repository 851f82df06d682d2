"""A container command that passes one GPU render node, and a visibility index past it (RD624).

Wordings after ollama/ollama#5766 (``docker run -it ... --device=/dev/dri/card1
--device=/dev/dri/renderD129 ....`` and "when i set `HIP_VISIBLE_DEVICES=1`") and the ROCm docs'
docker commands (``--device /dev/kfd --device /dev/dri/renderD128``)."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, report_contexts

ONE = "container_given_one_render_node"


@pytest.mark.parametrize(
    "command",
    [
        "`docker run -it ... --device=/dev/dri/card1 --device=/dev/dri/renderD129 ....`",
        "docker run -it --device /dev/kfd --device /dev/dri/renderD128 --group-add video rocm/pytorch",
        "podman run --rm \\\n  --device /dev/kfd \\\n  --device /dev/dri/renderD130:/dev/dri/renderD130 \\\n  rocm/dev-ubuntu-22.04 rocminfo",
        "services:\n  ollama:\n    image: ollama/ollama:rocm\n    devices:\n      - /dev/kfd\n      - /dev/dri/renderD129\n",
    ],
)
def test_a_container_given_one_render_node_is_read(command: str) -> None:
    assert ONE in report_contexts(command)


@pytest.mark.parametrize(
    "command",
    [
        "docker run -it --device /dev/kfd --device /dev/dri rocm/pytorch",
        "docker run -it --device /dev/kfd --device /dev/dri/renderD128 --device /dev/dri/renderD129 rocm/pytorch",
        "docker run -it --privileged --device /dev/kfd --device /dev/dri/renderD129 rocm/pytorch",
        "docker run -it rocm/pytorch ls /dev/dri/renderD128",
        "services:\n  ollama:\n    privileged: true\n    devices:\n      - /dev/kfd\n      - /dev/dri/renderD129\n",
    ],
)
def test_all_gpus_several_nodes_privileged_or_a_node_after_the_image_are_not_one_node(command: str) -> None:
    assert ONE not in report_contexts(command)


def test_a_host_index_inside_a_container_with_one_gpu_is_flagged() -> None:
    report = (
        "I have 8 gpus, i want to specify the id=1's gpu in a docker,\n\n"
        "`docker run -it ... --device=/dev/dri/card1 --device=/dev/dri/renderD129 ....`\n\n"
        "Error occured!\n\nwhen i set `HIP_VISIBLE_DEVICES=1`\n"
    )
    assert "RD624" in problems_shown(report)


def test_index_zero_inside_a_container_with_one_gpu_is_not_flagged() -> None:
    report = "docker run -it --device /dev/kfd --device /dev/dri/renderD129 -e HIP_VISIBLE_DEVICES=0 ollama/ollama:rocm\n"
    assert "RD624" not in problems_shown(report)


@pytest.mark.parametrize(
    "commands",
    [
        "```\nexport HIP_VISIBLE_DEVICES=1\ndocker run -d --device /dev/kfd --device /dev/dri/renderD129 ollama/ollama:rocm\n```\n",
        "```\nHIP_VISIBLE_DEVICES=1 docker run -d --device /dev/kfd --device /dev/dri/renderD129 ollama/ollama:rocm\n```\n",
        "```\nexport ROCR_VISIBLE_DEVICES=1\nexport OLLAMA_DEBUG=1\ndocker run -d --device /dev/kfd --device /dev/dri/renderD129 ollama/ollama:rocm\n```\n",
    ],
)
def test_an_index_set_in_the_host_shell_that_starts_the_container_is_not_the_containers(commands: str) -> None:
    assert "RD624" not in problems_shown("Two GPUs, I want the second one in ollama.\n" + commands + "ollama runs on the CPU.\n")


@pytest.mark.parametrize(
    "flag",
    ["-e HIP_VISIBLE_DEVICES", "--env HIP_VISIBLE_DEVICES", "--env-file ./gpu.env"],
)
def test_an_index_the_container_command_forwards_from_the_shell_is_the_containers(flag: str) -> None:
    report = (
        "Two GPUs, I want the second one in ollama.\n```\nexport HIP_VISIBLE_DEVICES=1\n"
        f"docker run -d --device /dev/kfd --device /dev/dri/renderD129 {flag} ollama/ollama:rocm\n```\nollama runs on the CPU.\n"
    )
    assert "RD624" in problems_shown(report)
