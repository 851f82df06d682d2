"""Containers that lack the host's render group, and settings that never reach the process (issue 23,
rules RD850-RD859, branch h27p).

Each wording is a form seen in several public reports (the signature rows and rules name them); none
is one report's text.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, signature_errors

# ----------------------------------------------------------------- "No CUDA GPUs are available"

_AMD_NO_GPU = (
    "GPU: AMD Radeon RX 7900 XTX\n"
    ">>> torch.cuda.get_device_name(0)\n"
    "RuntimeError: No CUDA GPUs are available\n"
)


def test_no_cuda_gpus_available_does_not_make_the_torch_build_a_cuda_one() -> None:
    # A CUDA build without NVIDIA's driver says "Found no NVIDIA driver"; this message is printed
    # by ROCm builds too (c10/cuda/CUDAFunctions.cpp, ROCm/vllm#893).
    flavour = ingest(_AMD_NO_GPU).facts.torch.flavour
    assert not (flavour.is_known and flavour.value == "cuda")


def test_no_cuda_gpus_available_on_an_amd_report_gives_no_cuda_build_error() -> None:
    shown = problems_shown(_AMD_NO_GPU)
    assert "RD100" not in shown and "RD528" not in shown


def test_found_no_nvidia_driver_still_shows_a_cuda_build() -> None:
    text = "GPU: AMD Radeon RX 7900 XTX\nRuntimeError: Found no NVIDIA driver on your system. Please check\n"
    assert ingest(text).facts.torch.flavour.value == "cuda"


# ----------------------------------------------------------------- --group-add video without render

_NO_GPU = "RuntimeError: No HIP GPUs are available\n"


@pytest.mark.parametrize(
    "command",
    [
        "$ docker run -it --device=/dev/kfd --device=/dev/dri --group-add video rocm/pytorch:latest\n",
        "docker run -it \\\n    --device=/dev/kfd \\\n    --device=/dev/dri \\\n    --group-add=video \\\n    -u 1000 \\\n    rocm/pytorch\n",
        "podman run --rm --device /dev/kfd --device /dev/dri --group-add 'video' image\n",
        "services:\n  app:\n    devices:\n      - /dev/kfd\n      - /dev/dri\n    group_add:\n      - video\n",
        "services:\n  app:\n    group_add: [\"video\"]\n",
        "The job mounts /dev/kfd and /dev/dri, but only adds --group-add video. The user cannot open the node.\n",
    ],
)
def test_a_container_given_video_and_not_render_is_read_in_its_forms(command: str) -> None:
    context = ingest(command + _NO_GPU).facts.symptoms.context
    assert context.is_known and "container_adds_video_not_render" in context.value


@pytest.mark.parametrize(
    "command",
    [
        "docker run --device=/dev/kfd --device=/dev/dri --group-add video --group-add render image\n",
        "docker run --device=/dev/kfd --group-add video \\\n  --group-add $(getent group render | cut -d: -f3) image\n",
        "services:\n  app:\n    group_add:\n      - video\n      - \"110\"\n",
        "services:\n  app:\n    group_add:\n      - video\n      - ${RENDER_GID}\n",
        "podman run --device /dev/kfd --group-add keep-groups image\n",
        "docker run --device /dev/kfd --device /dev/dri image\n",
    ],
)
def test_a_container_given_render_or_a_gid_or_no_group_is_not_video_only(command: str) -> None:
    context = ingest(command + _NO_GPU).facts.symptoms.context
    assert not (context.is_known and "container_adds_video_not_render" in context.value)


def test_a_container_with_video_only_and_no_gpu_explains_it_by_the_render_group_first() -> None:
    text = "$ docker run -it --device=/dev/kfd --device=/dev/dri --group-add video -u 1000 rocm/pytorch\n" + _NO_GPU
    assert problems_shown(text)[0] == "RD850"


def test_a_container_with_video_and_render_and_no_gpu_does_not_blame_the_groups() -> None:
    text = "$ docker run -it --device=/dev/kfd --device=/dev/dri --group-add video --group-add render rocm/pytorch\n" + _NO_GPU
    assert "RD850" not in problems_shown(text)


def test_a_video_only_container_whose_user_may_be_root_is_not_blamed_for_hsa_out_of_resources() -> None:
    # AMD's older instructions add video only and the image runs as root; OUT_OF_RESOURCES has other causes
    text = (
        "docker run -it --device=/dev/kfd --device=/dev/dri --group-add video rocm/pytorch:latest\n"
        "python3 -c \"import torch; torch.zeros(1).cuda()\"\n"
        "HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.\n"
    )
    assert "RD850" not in problems_shown(text)


def test_a_video_only_container_whose_user_may_be_root_is_not_blamed_for_no_gpu() -> None:
    # Most ROCm images run as root, who opens the nodes whatever their group.
    text = "$ docker run -it --device=/dev/kfd --device=/dev/dri --group-add video rocm/pytorch\n" + _NO_GPU
    assert "RD850" not in problems_shown(text)


@pytest.mark.parametrize(
    "command",
    [
        "docker run -u 1000 --device /dev/kfd image\n",
        "docker run -it \\\n  --user=1000:1000 \\\n  --device /dev/kfd image\n",
        "services:\n  app:\n    image: rocm/pytorch\n    user: \"1000:1000\"\n",
    ],
)
def test_a_container_run_as_a_named_user_is_read_as_not_root(command: str) -> None:
    context = ingest(command).facts.symptoms.context
    assert context.is_known and "container_user_not_root" in context.value


@pytest.mark.parametrize("command", ["docker run -u 0 --device /dev/kfd image\n", "docker run --user root image\n", "ls -u 1000\n"])
def test_a_container_run_as_root_or_no_container_is_not_read_as_not_root(command: str) -> None:
    context = ingest(command).facts.symptoms.context
    assert not (context.is_known and "container_user_not_root" in context.value)


@pytest.mark.parametrize(
    "line",
    [
        "the container user cannot open the render node, HIP enumerates zero devices",
        "renderD128 is not accessible in the container",
        "docker is not able to access device /dev/kfd when running without root",
        "the process failed to open /dev/dri/renderD128 as my user",
    ],
)
def test_a_refused_device_node_told_in_prose_is_read(line: str) -> None:
    assert "gpu_node_refused_told" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "Unable to open /dev/kfd read-write: Invalid argument",
        "cannot open /dev/kfd: it does not exist in WSL",
        "I can open the render node fine",
    ],
)
def test_rocminfo_s_own_line_and_a_missing_node_are_not_a_told_refusal(line: str) -> None:
    assert "gpu_node_refused_told" not in signature_errors(line)


# ----------------------------------------------------------------- systemd Environment= quoting


@pytest.mark.parametrize(
    "line",
    [
        '`Environment="OLLAMA_HOST=0.0.0.0:11434" "HSA_OVERRIDE_GFX_VERSION=11.0.2" "OLLAMA_CONTEXT_LENGTH=16384 OLLAMA_IGPU_ENABLE=1"`',
        'Environment="HSA_OVERRIDE_GFX_VERSION=10.3.0 HIP_VISIBLE_DEVICES=0"',
        "[Service]\nEnvironment=\"LC_ALL=en_US.UTF-8 LD_LIBRARY_PATH=/opt/rocm/lib\"",
    ],
)
def test_two_assignments_in_one_quoted_environment_word_are_read(line: str) -> None:
    result = ingest(line + "\n")
    assert "systemd_env_assignments_in_one_word" in result.facts.symptoms.context.value
    assert "RD851" in problems_shown(line + "\n")


def test_a_systemd_value_quoted_with_another_assignment_is_one_value() -> None:
    # systemd.exec(5): the quoted word is one assignment, whose value holds the rest.
    settings = ingest('`Environment="HSA_OVERRIDE_GFX_VERSION=10.3.0 HIP_VISIBLE_DEVICES=0"`\n').facts.env.vars.value
    assert settings["HSA_OVERRIDE_GFX_VERSION"] == "10.3.0 HIP_VISIBLE_DEVICES=0"
    assert "HIP_VISIBLE_DEVICES" not in settings


@pytest.mark.parametrize(
    "line",
    [
        'Environment="OLLAMA_HOST=0.0.0.0:11434" "HSA_OVERRIDE_GFX_VERSION=11.0.2"',
        "Environment=HSA_OVERRIDE_GFX_VERSION=10.3.0 HIP_VISIBLE_DEVICES=0",
        'Environment="OLLAMA_ORIGINS=chrome-extension://*,moz-extension://*"',
        'Environment="EXTRA_ARGS=--flag value=3"',
    ],
)
def test_assignments_quoted_each_on_their_own_are_not_joined(line: str) -> None:
    context = ingest(line + "\n").facts.symptoms.context
    assert not (context.is_known and "systemd_env_assignments_in_one_word" in context.value)


# ----------------------------------------------------------------- the reporter's own gfx in an override sentence


def _gfx_read(text: str) -> set:
    return {agent.gfx.value for agent in ingest(text).facts.gpus.agents if agent.gfx.is_known}


@pytest.mark.parametrize(
    "text, own",
    [
        ("I am on gfx1201 which is already natively supported, so this is just spoofing my GPU as an RDNA 2 one.\n", "gfx1201"),
        ("Since the 6600 is `gfx1032`, I have to override it to `gfx1030`.\n", "gfx1032"),
        ("I'm using an RX 6700 XT (gfx1031), which requires HSA_OVERRIDE_GFX_VERSION to be set.\n", "gfx1031"),
    ],
)
def test_a_gfx_introduced_as_the_reporters_own_is_a_gpu_in_an_override_sentence(text: str, own: str) -> None:
    assert own in _gfx_read(text)


def test_a_target_the_reporter_runs_as_through_an_override_is_not_a_gpu() -> None:
    # The second reader: "I'm using gfx1030 through HSA_OVERRIDE..." on an RX 6700 XT added a phantom gfx1030.
    text = "RX 6700 XT. I'm using gfx1030 through HSA_OVERRIDE_GFX_VERSION=10.3.0 and it works.\n"
    assert _gfx_read(text) == {"gfx1031"}


@pytest.mark.parametrize(
    "text",
    [
        "Since the 6600 is `gfx1032`, I have to override it to `gfx1030`.\n",
        "I set HSA_OVERRIDE_GFX_VERSION=10.3.0 to spoof gfx1030.\n",
        "The override makes the runtime pretend to be gfx1100.\n",
    ],
)
def test_an_override_target_is_still_not_a_gpu(text: str) -> None:
    found = _gfx_read(text)
    assert "gfx1030" not in found and "gfx1100" not in found


def test_an_app_that_sets_another_familys_override_on_the_reporters_gpu_is_an_error() -> None:
    text = (
        "```\nif not os.environ.get(\"HSA_OVERRIDE_GFX_VERSION\"):\n"
        "    os.environ[\"HSA_OVERRIDE_GFX_VERSION\"] = \"10.3.0\"\n```\n"
        "I am on gfx1201 which is already natively supported on ROCm, so this is just spoofing my RDNA 4 GPU.\n"
    )
    assert problems_shown(text)[0] == "RD214"


# ----------------------------------------------------------------- device nodes with a bare group id


@pytest.mark.parametrize(
    "listing",
    [
        "root@pod:/# ls -l /dev/kfd\ncrw-rw---- 1 root 106 242, 0 Apr 18 15:58 /dev/kfd\n",
        "$ docker exec app ls -l /dev/dri\ncrw-rw---- 1 root video 226,   0 Jul  7 16:20 card0\ncrw-rw---- 1 root   109 226, 128 Jul  7 16:20 renderD128\n",
    ],
)
def test_a_gpu_node_listed_with_a_bare_group_id_is_read(listing: str) -> None:
    assert "gpu_node_group_unnamed" in ingest(listing).facts.symptoms.context.value


@pytest.mark.parametrize(
    "listing",
    [
        "crw-rw---- 1 root render 226, 128 Aug 22 21:34 renderD128\n",
        "crw-rw---- 1 root video  226,   0 Aug 22 21:34 card0\n",
        "crw-rw-rw- 1 root render 511, 0 Sep 18 11:04 /dev/kfd\n",
        # the overflow gid of a user namespace (rootless engines, RD960): no --group-add id names it
        "crw-rw----+ 1 nobody nogroup 511, 0 Sep 18 11:04 /dev/kfd\n",
        "crw-rw---- 1 65534 65534 226, 128 Sep 18 11:04 renderD128\n",
    ],
)
def test_a_gpu_node_with_a_named_group_or_a_card_node_is_not_read_as_unnamed(listing: str) -> None:
    context = ingest(listing).facts.symptoms.context
    assert not (context.is_known and "gpu_node_group_unnamed" in context.value)


@pytest.mark.parametrize(
    "text",
    [
        "I am trying to run the container with unpriviledged user, like `nobody`.\n",
        "securityContext:\n  runAsUser: 1000\n",
        "securityContext:\n  runAsNonRoot: true\n",
    ],
)
def test_a_non_root_container_user_told_or_configured_is_read(text: str) -> None:
    assert "container_user_not_root" in ingest(text).facts.symptoms.context.value


def test_a_bare_group_id_on_the_gpu_nodes_for_a_non_root_pod_user_is_a_permissions_finding() -> None:
    text = (
        "I want to run the container with an unprivileged user.\n"
        "```\nroot@pod:/# ls -l /dev/kfd\ncrw-rw---- 1 root 106 242, 0 Apr 18 15:58 /dev/kfd\n```\n"
    )
    assert "RD852" in problems_shown(text)


def test_a_bare_group_id_listed_and_used_as_root_is_not_a_finding() -> None:
    text = "```\nroot@pod:/# ls -l /dev/kfd\ncrw-rw---- 1 root 106 242, 0 Apr 18 15:58 /dev/kfd\n```\n"
    assert "RD852" not in problems_shown(text)


def test_a_unit_line_wrapped_inside_a_quote_is_read_whole() -> None:
    text = (
        '`Environment="OLLAMA_HOST=0.0.0.0:11434" "HSA_OVERRIDE_GFX_VERSION=11.0.2" "OLLAMA_CONTEXT_LENGTH=16384\n'
        'OLLAMA_IGPU_ENABLE=1"`\n'
    )
    assert "systemd_env_assignments_in_one_word" in ingest(text).facts.symptoms.context.value


def test_a_unit_line_wrapped_before_a_quoted_assignment_is_read_whole() -> None:
    text = (
        '`Environment="OLLAMA_HOST=0.0.0.0:11434" "HSA_OVERRIDE_GFX_VERSION=11.0.2"\n'
        '"OLLAMA_CONTEXT_LENGTH=16384 OLLAMA_IGPU_ENABLE=1"`\n'
    )
    assert "systemd_env_assignments_in_one_word" in ingest(text).facts.symptoms.context.value


@pytest.mark.parametrize(
    "listing",
    [
        "crw-rw-rw- 1 root 993 235,   0 Nov 20 10:00 /dev/kfd\n",
        "crw-rw-rw-  1 root 105 226, 128 Nov 20 10:00 /dev/dri/renderD128\n",
    ],
)
def test_a_gpu_node_every_user_may_open_is_not_blamed_on_its_bare_group_id(listing: str) -> None:
    # upstream systemd's group-render-mode 0666: others may open the node, its group does not matter
    text = "$ docker run --user 1000:1000 --device=/dev/kfd --device=/dev/dri rocm/pytorch\n$ ls -l\n" + listing
    context = ingest(text).facts.symptoms.context
    assert not (context.is_known and "gpu_node_group_unnamed" in context.value)
    assert "RD852" not in problems_shown(text)


def test_a_bare_group_id_already_given_by_supplemental_groups_is_not_a_finding() -> None:
    text = (
        "```\nsecurityContext:\n  runAsUser: 65534\n  supplementalGroups:\n    - 106\n```\n"
        "```\n$ ls -l /dev/kfd\ncrw-rw---- 1 root 106 242, 0 Apr 18 15:58 /dev/kfd\n```\n"
    )
    context = ingest(text).facts.symptoms.context.value
    assert "container_adds_render_group" in context
    assert "RD852" not in problems_shown(text)


@pytest.mark.parametrize(
    "command",
    [
        "docker run -it --device=/dev/kfd --device=/dev/dri --group-add video rocm/pytorch python -u train.py\n",
        "docker run --rm -it \\\n  --device /dev/kfd --device /dev/dri \\\n  rocm/pytorch:latest \\\n  python3 -u main.py --user 1000\n",
        "podman run --privileged image bash -c 'useradd -u 1000 me && su me'\n",
    ],
)
def test_a_user_flag_of_the_containers_own_command_is_not_the_containers_user(command: str) -> None:
    # Words after the image are the command run inside (python -u: unbuffered output), not docker's options.
    context = ingest(command).facts.symptoms.context
    assert not (context.is_known and "container_user_not_root" in context.value)


@pytest.mark.parametrize(
    "command",
    [
        "docker run --rm -it -u 1000 image python -u x.py\n",
        "docker run -d --name x --user 1000:1000 \\\n  --device /dev/kfd \\\n  image\n",
        "docker run ... -u 1000 rocm/pytorch python -u x.py\n",
        "docker run --rm [...] --user 1000 image\n",
    ],
)
def test_a_user_flag_before_the_image_is_still_read_after_valueless_options(command: str) -> None:
    context = ingest(command).facts.symptoms.context
    assert context.is_known and "container_user_not_root" in context.value


def test_python_unbuffered_in_a_video_only_container_does_not_blame_the_groups() -> None:
    text = "docker run -it --device=/dev/kfd --device=/dev/dri --group-add video rocm/pytorch python -u train.py\n" + _NO_GPU
    assert "RD850" not in problems_shown(text)


@pytest.mark.parametrize(
    "text, kept",
    [
        ("docker run -it -e HSA_OVERRIDE_GFX_VERSION=10.3.0 --device=/dev/kfd rocm/pytorch python x.py -e FOO=1\n", {"HSA_OVERRIDE_GFX_VERSION"}),
        ("docker run -it \\\n  -e HSA_OVERRIDE_GFX_VERSION=10.3.0 \\\n  rocm/pytorch \\\n  bash -c 'python x.py -e BAR=2'\n", {"HSA_OVERRIDE_GFX_VERSION"}),
        ("docker exec -e HIP_VISIBLE_DEVICES=0 mycontainer python -e X=1\n", {"HIP_VISIBLE_DEVICES"}),
    ],
)
def test_an_env_flag_after_the_image_belongs_to_the_containers_command(text: str, kept: set) -> None:
    # The second reader: container_groups stopped at the image, env reading did not.
    facts = ingest(text).facts
    assert set(facts.env.vars.value or {}) == kept
