"""A container the report's own command starts without /dev/kfd (reader container_devices, rule RD355).

Wordings after robertrosenbusch/gfx803_rocm#6 (``docker run -it --rm --group-add=video --ipc=host ...
rocm63_pt25:latest`` then ``rocminfo``: "ROCk module is NOT loaded"), hartmark/sd-rocm#4 (the compose
``/dev/kfd`` item commented out), truenas/apps#2145 and linuxserver/docker-mods#630 (a container given
/dev/dri only), and the ROCm docs' commands that do pass it."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, report_contexts

WITHOUT = "container_started_without_kfd"


@pytest.mark.parametrize(
    "command",
    [
        "docker run -it --rm   --group-add=video  --ipc=host --cap-add=SYS_PTRACE --name test_rocm rocm63_pt25:latest /bin/bash -c bash\n",
        "$ sudo docker run -it \\\n  --group-add video \\\n  --ipc=host \\\n  rocm/pytorch:latest\n",
        "podman run --rm -it --device /dev/dri rocm/dev-ubuntu-22.04 rocminfo\n",
        "services:\n  ollama:\n    image: ollama/ollama:rocm\n    devices:\n      - /dev/dri\n",
        '`#      - "/dev/kfd:/dev/kfd" # remove this line if running on non ROCm`\n',
        "    devices:\n      - /dev/dri:/dev/dri\n#      - /dev/kfd:/dev/kfd\n",
    ],
)
def test_a_container_started_without_kfd_is_read(command: str) -> None:
    assert WITHOUT in report_contexts(command)


@pytest.mark.parametrize(
    "command",
    [
        "docker run -it --device=/dev/kfd --device=/dev/dri rocm/pytorch\n",
        "docker run -it --device /dev/kfd:/dev/kfd --device /dev/dri rocm/pytorch\n",
        "docker run -it --privileged rocm/pytorch\n",
        "docker run -it -v /dev:/dev rocm/pytorch\n",
        "docker run --device amd.com/gpu=all rocm/pytorch\n",
        "docker run --gpus=all -v ollama:/root/.ollama ollama/ollama\n",
        "docker run -it --rm --ipc=host nvcr.io/nvidia/pytorch:24.01-py3\n",
        "You should run docker run -it --ipc=host rocm/pytorch\n",
        "e.g. `docker run -it --ipc=host rocm/pytorch`\n",
        "Try this:\ndocker run -it --ipc=host rocm/pytorch\n",
        "When I docker run the image it fails\n",
        "docker run -it ... rocm/pytorch\n",
        "docker run -it $GPU_FLAGS rocm/pytorch\n",
        "docker run --device=/dev/dri -v <local_dir>:<container_dir> amdih/pytorch:rocm5.0\n",
        "services:\n  ollama:\n    devices:\n      - /dev/kfd\n      - /dev/dri\n",
        "services:\n  x:\n    privileged: true\n    devices:\n      - /dev/dri\n",
        "services:\n  jellyfin:\n    devices:\n      - /dev/video0\n",
        "services:\n  jellyfin:\n    image: jellyfin/jellyfin\n    devices:\n      - /dev/dri:/dev/dri\n",
        "docker run -d -p 3000:8080 -v open-webui:/app/backend/data --name open-webui ghcr.io/open-webui/open-webui:main\n",
    ],
)
def test_kfd_passed_every_device_nvidia_advice_unshown_flags_or_no_gpu_workload_are_not_read(command: str) -> None:
    assert WITHOUT not in report_contexts(command)


def test_no_gpu_inside_a_container_started_without_kfd_is_the_finding() -> None:
    report = (
        "docker run -it --rm --group-add=video --ipc=host --name test_rocm rocm63_pt25:latest /bin/bash\n"
        "root@c0cb9814a02b:/audio# rocminfo\n"
        "ROCk module is NOT loaded, possibly no GPU devices\n"
    )
    assert problems_shown(report)[0] == "RD355"


@pytest.mark.parametrize(
    "report",
    [
        # an Intel VAAPI service: /dev/dri only, and nothing failed
        "services:\n  jellyfin:\n    image: jellyfin/jellyfin\n    devices:\n      - /dev/dri:/dev/dri\n",
        # the failing command passes /dev/kfd
        "docker run -it --device=/dev/kfd --device=/dev/dri rocm/pytorch\nRuntimeError: No HIP GPUs are available\n",
        # advice in a reply, not the reporter's command
        "You could try docker run -it --ipc=host rocm/pytorch\nRuntimeError: No HIP GPUs are available\n",
        # a web UI's container beside an ollama on the host that falls back to the CPU
        (
            "docker run -d -p 3000:8080 -v open-webui:/app/backend/data --name open-webui ghcr.io/open-webui/open-webui:main\n"
            'time=2025-01-29T10:00:00.000Z level=INFO source=gpu.go:386 msg="no compatible GPUs were discovered"\n'
        ),
        # an NVIDIA container
        "docker run --gpus all -it pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime\nRuntimeError: No CUDA GPUs are available\n",
    ],
)
def test_healthy_kfd_passed_advice_and_nvidia_reports_get_no_rd355(report: str) -> None:
    assert "RD355" not in problems_shown(report)


@pytest.mark.parametrize(
    "command",
    [
        # open-webui's own README command: its -e OLLAMA_BASE_URL names the ollama on the host, not a GPU job
        "docker run -d -p 3000:8080 -e OLLAMA_BASE_URL=http://127.0.0.1:11434 -v open-webui:/app/backend/data"
        " --name open-webui --restart always ghcr.io/open-webui/open-webui:main\n",
        # a Dockerfile's comment (a bare "# " is otherwise taken off as a root prompt)
        "FROM rocm/pytorch:latest\n# docker run -it --rm -p 8080:8080 my-rocm-image\nRUN pip install foo\n",
    ],
)
def test_a_side_containers_option_values_or_a_commented_run_are_not_a_gpu_container_without_kfd(command: str) -> None:
    assert WITHOUT not in report_contexts(command)


def test_an_amd_setting_in_an_option_still_marks_the_container_as_meant_for_the_gpu() -> None:
    assert WITHOUT in report_contexts("docker run -it --rm -e HSA_OVERRIDE_GFX_VERSION=10.3.0 my/app:latest\n")


# The first command above pasted unbroken and wrapped at 80 columns by a mail client or an editor: the wrap falls after
# an option that waits for its value (--security-opt / seccomp=unconfined), so the next line does not start with "-".
WRAPPED_RUN = (
    "(base) (Mon Mar 17 00:25:52) c@archb gfx803_rocm$ docker run -it --rm\n"
    "--group-add=video  --ipc=host --cap-add=SYS_PTRACE --security-opt\n"
    "seccomp=unconfined --name test_rocm rocm63_pt25:latest /bin/bash -c bash\n"
)


def test_a_docker_run_wrapped_at_80_columns_is_read_as_one_command() -> None:
    assert WITHOUT in report_contexts(WRAPPED_RUN)


def test_a_wrapped_docker_run_that_passes_kfd_on_its_last_line_is_not_read() -> None:
    text = WRAPPED_RUN.replace("seccomp=unconfined --name", "seccomp=unconfined --device=/dev/kfd --device=/dev/dri --name")
    assert WITHOUT not in report_contexts(text)


def test_a_short_docker_run_line_is_not_joined_with_the_output_after_it() -> None:
    # the command ends on its own line (it is short: no wrapping tool cut it), so the next line is not its options,
    # and a command that reaches no image is not read
    assert WITHOUT not in report_contexts("$ docker run -it --ipc=host\n--group-add video rocm/pytorch\n")
