"""What a container engine or a cluster scheduler does to the GPUs a program sees (issue 23, rules
RD555-RD559 and the rules widened in place, branch h33b).

Each wording is a form seen in several public reports (the signature rows and rules name them); none
is one report's text.
"""

from __future__ import annotations

from typing import List

import pytest
from ingest_helpers import ingest, problems_shown


def _context(text: str) -> List[str]:
    context = ingest(text).facts.symptoms.context
    return list(context.value) if context.is_known else []


_RUN = "docker run -it --device=/dev/kfd --device=/dev/dri rocm/pytorch:latest\n"
_FALSE = 'python -c "import torch; print(torch.cuda.is_available())"\nFalse\n'

# ----------------------------------------------------------------- a container's user that is not root


@pytest.mark.parametrize(
    "text",
    [
        "```\nFROM rocm/dev-ubuntu-22.04:6.2\nRUN adduser --disabled-password --gecos '' user\nUSER user\nWORKDIR /home/user\n```\n",
        "```dockerfile\nFROM rocm/pytorch:latest AS base\nRUN useradd -m dev\nUSER 1000:1000\n```\n",
        "docker run --rm -it --user $(id -u):$(id -g) --device /dev/kfd --device /dev/dri rocm/pytorch bash\n",
        'docker run --rm -it -u "$(id -u):$(id -g)" --device=/dev/kfd img\n',
        "docker run --rm --user ${UID} --device=/dev/kfd img\n",
        'services:\n  app:\n    image: rocm/pytorch\n    user: "${UID}:${GID}"\n',
        "When developing, I run my containers as non-root for convenience.\n",
        "We are running the container as an unprivileged user.\n",
    ],
)
def test_a_non_root_container_user_from_a_dockerfile_an_id_command_or_prose_is_read(text: str) -> None:
    assert "container_user_not_root" in _context(text)


@pytest.mark.parametrize(
    "text",
    [
        # The Dockerfile's last USER is root: the image runs as root.
        "```\nFROM rocm/pytorch\nUSER dev\nRUN make\nUSER root\n```\n",
        # The Dockerfile puts its user into video and render itself.
        "```\nFROM rocm/pytorch\nRUN useradd -m dev && usermod -aG video,render dev\nUSER dev\n```\n",
        # A USER line without a Dockerfile around it.
        "USER dev\n",
        "I run the container as root.\n",
        # A host process started as non-root is not the container's user.
        "The ollama service is started as non-root.\n",
    ],
)
def test_a_root_dockerfile_user_or_one_given_the_gpu_groups_is_not_read_as_not_root(text: str) -> None:
    assert "container_user_not_root" not in _context(text)


def test_a_dockerfile_user_and_a_run_without_groups_finding_no_gpu_is_a_permissions_finding() -> None:
    text = "```\nFROM rocm/pytorch:latest\nRUN useradd -m dev\nUSER dev\n```\n" + _RUN + _FALSE
    assert problems_shown(text)[:1] == ["RD613"]


def test_a_dockerfile_user_whose_run_adds_the_render_gid_is_not_blamed_on_the_groups() -> None:
    run = "docker run -it --device=/dev/kfd --device=/dev/dri --group-add video --group-add 109 img\n"
    text = "```\nFROM rocm/pytorch:latest\nRUN useradd -m dev\nUSER dev\n```\n" + run + _FALSE
    assert "RD613" not in problems_shown(text)


def test_a_non_root_run_command_that_finds_the_gpu_is_not_a_finding() -> None:
    text = "docker run --rm -u 1000 --device=/dev/kfd --device=/dev/dri img\n>>> torch.cuda.is_available()\nTrue\n"
    assert "RD613" not in problems_shown(text)


# ----------------------------------------------------------------- Docker Desktop as the engine


@pytest.mark.parametrize(
    "line",
    [
        "This fails specifically when Docker Desktop is running the background.",
        "I do indeed use Docker Desktop on Ubuntu 24.04.",
        "I'm running it through docker-desktop on Fedora.",
        "docker desktop is running in the background",
        "I start it by running `systemctl --user start docker-desktop`",
    ],
)
def test_docker_desktop_said_to_be_the_engine_in_use_is_read(line: str) -> None:
    assert "docker_desktop_engine_told" in _context(line + "\n")


@pytest.mark.parametrize(
    "line",
    [
        "I'm not using Docker Desktop.",
        "I uninstalled Docker Desktop and installed the docker engine.",
        "Is Docker Desktop running?",
        "If Docker Desktop is running, the devices are not passed.",
        "Docker Desktop is not running.",
        "Without Docker Desktop it works.",
    ],
)
def test_docker_desktop_denied_removed_or_asked_about_is_not_the_engine_in_use(line: str) -> None:
    assert "docker_desktop_engine_told" not in _context(line + "\n")


def test_docker_desktop_running_beside_a_command_passing_kfd_is_a_platform_finding_without_an_error() -> None:
    text = "This leads to the following when Docker Desktop is running in the background.\n" + _RUN
    assert problems_shown(text)[:1] == ["RD861"]


def test_docker_desktop_removed_beside_a_command_passing_kfd_is_not_a_finding() -> None:
    text = "I uninstalled Docker Desktop, and now it works.\n" + _RUN
    assert "RD861" not in problems_shown(text)


# ----------------------------------------------------------------- podman: keep-groups told as the fix


@pytest.mark.parametrize(
    "line",
    [
        "you need to use `--group-add keep-groups` instead of ` --group-add video --group-add render`",
        "The fix for this is to use the 'crun' runtime, and to specify `--group-add keep-groups`",
        "But also `--group-add keep-groups` worked which is nice.",
        "I replaced --group-add video --group-add render with --group-add keep-groups and rocminfo lists the GPU.",
        "keep-groups is the only form that grants /dev/kfd under rootless podman",
    ],
)
def test_keep_groups_told_as_the_fix_is_read(line: str) -> None:
    assert "keep_groups_fix_told" in _context(line + "\n")


@pytest.mark.parametrize(
    "line",
    [
        "Should I use keep-groups instead of --group-add video?",
        "docker has no keep-groups, use the gid",
        "podman run --group-add keep-groups --device /dev/kfd img",
    ],
)
def test_a_question_a_docker_remark_or_a_plain_keep_groups_flag_is_not_a_told_fix(line: str) -> None:
    assert "keep_groups_fix_told" not in _context(line + "\n")


def test_keep_groups_told_instead_of_named_groups_is_a_permissions_finding() -> None:
    text = "maybe those flags are fine for distrobox, but with podman you need to use `--group-add keep-groups` instead of `--group-add video --group-add render`\n"
    assert problems_shown(text)[:1] == ["RD960"]


# ----------------------------------------------------------------- a Slurm job's visibility mask


@pytest.mark.parametrize(
    "text",
    [
        "Slurm exports `ROCR_VISIBLE_DEVICES` for the job and we launch the container with pyxis.\nRuntimeError: No CUDA GPUs are available\n",
        "srun --gres=gpu:4 --container-image=rocm/vllm bash\nHIP_VISIBLE_DEVICES=4,5,6,7\nRuntimeError: No HIP GPUs are available\n",
    ],
)
def test_a_slurm_job_with_a_visibility_mask_finding_no_gpu_is_an_env_finding(text: str) -> None:
    assert "RD555" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "On Slurm with ROCR_VISIBLE_DEVICES=0,1 the job trains fine on both MI250X.\n",
        "HIP_VISIBLE_DEVICES=1 python x.py\nRuntimeError: No HIP GPUs are available\n",
        "srun --gres=gpu:1 python x.py\nRuntimeError: No HIP GPUs are available\n",
    ],
)
def test_a_mask_without_a_scheduler_or_a_scheduler_without_a_mask_or_an_error_is_not_rd555(text: str) -> None:
    assert "RD555" not in problems_shown(text)


# ----------------------------------------------------------------- podman as a user, no keep-groups


@pytest.mark.parametrize(
    "text",
    [
        "podman run --rm -it --device /dev/kfd --device /dev/dri --group-add video rocm/pytorch\n",
        "$ toolbox create llama --image docker.io/kyuz0/amd-strix-halo-toolboxes:rocm -- --device /dev/kfd\n",
        "distrobox create -n rocm --image rocm/dev-ubuntu-24.04 --additional-flags '--device /dev/kfd'\nDistrobox 1.7, podman 5.2\n",
        "podman-compose up -d\n",
    ],
)
def test_a_container_started_by_podman_as_a_user_is_read(text: str) -> None:
    assert "podman_container_started" in _context(text)


@pytest.mark.parametrize(
    "text",
    [
        "sudo podman run --rm --device /dev/kfd rocm/pytorch\n",
        "docker run --rm --device /dev/kfd rocm/pytorch\n",
        # distrobox without podman named may run on docker.
        "distrobox create -n rocm --image rocm/dev-ubuntu-24.04\n",
    ],
)
def test_rootful_podman_docker_or_distrobox_of_unknown_engine_is_not_read_as_podman(text: str) -> None:
    assert "podman_container_started" not in _context(text)


_PODMAN_NAMED = "podman run --rm -it --device /dev/kfd --device /dev/dri --group-add video --group-add render rocm/pytorch\n"


def test_podman_with_named_groups_finding_no_gpu_is_a_permissions_finding_first() -> None:
    assert problems_shown(_PODMAN_NAMED + _FALSE)[:1] == ["RD556"]


def test_podman_with_keep_groups_finding_no_gpu_is_not_blamed_on_the_groups() -> None:
    text = "podman run --rm -it --device /dev/kfd --device /dev/dri --group-add keep-groups rocm/pytorch\n" + _FALSE
    assert "RD556" not in problems_shown(text)


# ----------------------------------------------------------------- r33a: second reading (precision)


@pytest.mark.parametrize(
    "text",
    [
        "How do I run the container as non-root? Right now it runs as root.\n",
        "Can I run my containers as an unprivileged user with the GPU?\n",
        "The docs recommend running containers as non-root, but I run it as root.\n",
        "```\nFROM rocm/dev-ubuntu-22.04 AS build\nUSER builder\nRUN make\nFROM rocm/pytorch:latest\nCOPY --from=build /out /app\nCMD python /app/run.py\n```\n",
    ],
)
def test_non_root_asked_advised_or_in_an_earlier_build_stage_is_not_the_container_user(text: str) -> None:
    assert "container_user_not_root" not in _context(text)


def test_a_question_about_non_root_beside_a_run_passing_kfd_is_not_a_permissions_finding() -> None:
    text = (
        "How do I run the container as non-root? Right now it runs as root.\n"
        "docker run --device=/dev/kfd --device=/dev/dri --group-add video rocm/pytorch\nRuntimeError: No HIP GPUs are available\n"
    )
    assert not {"RD850", "RD613"} & set(problems_shown(text))


@pytest.mark.parametrize(
    "line",
    [
        "I've never used Docker Desktop, only the docker engine from apt.",
        "I used Docker Desktop last year but removed it, now plain docker-ce.",
    ],
)
def test_docker_desktop_never_used_or_since_removed_is_not_the_engine_in_use(line: str) -> None:
    assert "docker_desktop_engine_told" not in _context(line + "\n")


@pytest.mark.parametrize(
    "text",
    [
        "Slurm cluster with MI250X. I did not set HIP_VISIBLE_DEVICES or ROCR_VISIBLE_DEVICES anywhere.\nsrun --gpus=1 python train.py\nRuntimeError: No HIP GPUs are available\n",
        "sbatch job on MI210 nodes; CUDA_VISIBLE_DEVICES is not set in the job.\nRuntimeError: No HIP GPUs are available\n",
        "Our Slurm job runs without ROCR_VISIBLE_DEVICES.\nRuntimeError: No HIP GPUs are available\n",
    ],
)
def test_a_slurm_job_that_says_no_mask_is_set_is_not_rd555(text: str) -> None:
    assert "RD555" not in problems_shown(text)


def test_podman_run_at_roots_prompt_is_the_rootful_engine_not_rd556() -> None:
    text = "root@box:~# podman run -it --device /dev/kfd --device /dev/dri --group-add video rocm/pytorch\n" + _FALSE
    assert "podman_run_by_root" in _context(text)
    assert "RD556" not in problems_shown(text)


def test_podman_run_as_a_user_with_root_inside_the_container_is_still_rd556() -> None:
    # the prompt inside a rootless container is root's; only the host prompt before `podman run` counts
    text = "user@box:~$ " + _PODMAN_NAMED + "root@3f2a1b9c:/# " + _FALSE
    assert problems_shown(text)[:1] == ["RD556"]


def test_keep_groups_advice_quoted_from_a_readme_is_not_the_reports_fix() -> None:
    line = ("Sharing my toolbox notes from the README: on podman you need to use --group-add keep-groups instead of "
            "--group-add video --group-add render. My actual problem: ComfyUI produces black images, the GPU works fine.\n")
    assert "keep_groups_fix_told" not in _context(line)
    assert "RD960" not in problems_shown(line)


@pytest.mark.parametrize(
    "text",
    [
        'me@box:~$ docker run -it --device=/dev/kfd --device=/dev/dri --security-opt seccomp=unconfined rocm/pytorch:latest '
        'python3 -c "import torch; print(torch.cuda.is_available())"\nFalse\n',
        "I run docker as my own user (in the docker group):\n" + _RUN
        + "$ id\nuid=1000(me) gid=1000(me) groups=1000(me),27(sudo),998(docker)\n>>> torch.cuda.is_available()\nFalse\n",
    ],
)
def test_the_hosts_non_root_user_beside_a_run_without_a_user_is_not_the_containers_user(text: str) -> None:
    # r33a: docker runs the image's user (root for rocm/pytorch); RD613 blamed a non-root container user
    assert "RD613" not in problems_shown(text)


@pytest.mark.parametrize("said", [
    "I've never used Docker Desktop, this is plain docker-ce.",
    "I'm not using Docker Desktop.",
    "I don't use docker desktop at all.",
    "We run plain docker-ce without Docker Desktop.",
])
def test_docker_desktop_named_only_as_not_in_use_gets_no_docker_desktop_finding(said: str) -> None:
    text = f"{said}\n{_RUN}RuntimeError: No HIP GPUs are available\n"
    assert "docker_desktop_denied" in _context(text)
    assert "RD861" not in problems_shown(text)


def test_docker_desktop_said_to_be_in_use_still_gets_the_docker_desktop_finding() -> None:
    assert "RD861" in problems_shown(f"I use Docker Desktop on Ubuntu 24.04.\n{_RUN}RuntimeError: No HIP GPUs are available\n")
