"""Access to the GPU's device files in the wordings of the field (issue 23, block h24d, RD960).

Every wording here is a form seen in several public reports (the signature rows of block h24d in
rules/data/signatures.yaml name them); none is one report's whole text.
"""

from __future__ import annotations


import pytest
from ingest_helpers import problems_shown, signature_contexts, signature_errors


@pytest.mark.parametrize(
    "line",
    [
        "hsa api call failure at line 900, file: /rocmdata/jedwards/git/compute/rocrinfo/rocminfo.cc. Call returned 4104",
        "hsa api call failure at line 900, file: /home/jenkins/workspace/compute-rocm-rel-1.9/rocminfo/rocminfo.cc. Call returned 4104",
        "Call returned  4104",
    ],
)
def test_hsa_status_4104_is_read_as_out_of_resources(line: str) -> None:
    assert "hsa_status_4104" in signature_errors(line)


@pytest.mark.parametrize("line", ["Call returned 41040", "Call returned 4105", "returned 4104 bytes"])
def test_another_status_number_is_not_out_of_resources(line: str) -> None:
    assert "hsa_status_4104" not in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "Need to use sudo to run clinfo",
        "I need to call clinfo with sudo though, otherwise it won't show the gpu",
        "Also, while examples build successful, they do not run without a `sudo`.",
        "A non-root user can't access the GPU resources and has to run commands as `sudo` for GPU access",
        "* When running ramalama / podman as root, the GPU is utilized.",
        "Running them as root allows them to use the GPU, but the fan spins up",
    ],
)
def test_the_gpu_working_only_with_sudo_or_as_root_reads_in_these_wordings(line: str) -> None:
    assert "gpu_needs_root_or_sudo" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "You need to use sudo to run apt install rocm",
        "pip install doesn't work without sudo here",
        "Running the container as root, the GPU is not detected either",
        "I run everything as root in the container",
        # negated: advice that it works without sudo (RD517 said it works only as root)
        "You don't need to use sudo to run rocminfo though, just add yourself to render.",
        "With the udev rule I no longer need to use sudo to run rocminfo.",
    ],
)
def test_sudo_for_installing_or_root_without_the_gpu_working_is_no_root_only_statement(line: str) -> None:
    assert "gpu_needs_root_or_sudo" not in signature_errors(line)


def test_a_jetson_reports_root_only_wording_gives_no_amd_permissions_finding() -> None:
    # dusty-nv/jetson-containers#1136: NVIDIA's CUDA error 801; RD517 would name /dev/kfd.
    text = "My actual problem is that torch finds GPU only if I use the root user.\nCUDA initialization: error 801: operation not supported\n"
    assert "RD517" not in problems_shown(text)


@pytest.mark.parametrize(
    "line",
    [
        "Podman rootless: When running a model it does not utilize the GPU",
        "llama-cli fails when run in a rootless Distrobox container",
        "Do you support running rootless docker with rocm/pytorch images?",
        "a named --group-add video/render never maps to the host's gid under rootless podman",
    ],
)
def test_a_rootless_container_engine_is_read_as_context(line: str) -> None:
    assert "rootless_container_engine" in signature_contexts(line)


def test_a_rootful_docker_engine_is_no_rootless_engine() -> None:
    assert "rootless_container_engine" not in signature_contexts("docker run --device /dev/kfd (rootful docker, user in the docker group)")


ROOTLESS_KFD_REFUSED = """\
distrobox create -n llama-rocm --image docker.io/kyuz0/amd-strix-halo-toolboxes:rocm-7.2 \\
  --additional-flags "--device /dev/kfd --device /dev/dri --group-add video --group-add render"
In the toolbox, llama-cli fails in a rootless Distrobox container:
rocminfo
ROCk module is loaded
Unable to open /dev/kfd read-write: Permission denied
"""


def test_a_rootless_container_refused_kfd_is_explained_first_by_the_rootless_rule() -> None:
    shown = problems_shown(ROOTLESS_KFD_REFUSED)
    assert shown[0] == "RD960"
    assert "RD516" in shown


def test_a_rootful_container_refused_kfd_gets_no_rootless_finding() -> None:
    rootful = ROOTLESS_KFD_REFUSED.replace("in a rootless Distrobox container", "in a docker container")
    assert "RD960" not in problems_shown(rootful)


def test_rootless_podman_working_only_as_root_is_a_rootless_permissions_finding() -> None:
    text = "Podman rootless: the model runs on the CPU.\nWhen running ramalama / podman as root, the GPU is utilized.\n"
    assert problems_shown(text)[0] == "RD960"


def test_a_rootless_engine_with_the_gpu_working_is_no_finding() -> None:
    assert "RD960" not in problems_shown("I run ollama:rocm under rootless podman with --group-add keep-groups and it works.\n")


GROUPS_WITHOUT_RENDER = """\
$ python -c "import torch; torch.cuda.init()"
RuntimeError: No HIP GPUs are available
$ groups
alice adm cdrom sudo dip plugdev lpadmin
"""


def test_a_group_list_without_render_beside_no_hip_gpus_is_a_permissions_finding() -> None:
    assert problems_shown(GROUPS_WITHOUT_RENDER)[0] == "RD961"


def test_the_id_form_of_the_group_list_reads_the_same() -> None:
    text = GROUPS_WITHOUT_RENDER.replace(
        "$ groups\nalice adm cdrom sudo dip plugdev lpadmin",
        "$ id\nuid=1000(alice) gid=1000(alice) groups=1000(alice),4(adm),24(cdrom),27(sudo)",
    )
    assert problems_shown(text)[0] == "RD961"


def test_a_group_list_with_render_gives_no_group_finding() -> None:
    text = GROUPS_WITHOUT_RENDER.replace("lpadmin", "lpadmin render video")
    assert "RD961" not in problems_shown(text)


CONTAINER_WITHOUT_DEVICES = """\
docker run -it --rm --group-add=video rocm/pytorch:latest
root@c0cb9814a02b:/# ls /dev/kfd
ls: cannot access '/dev/kfd': No such file or directory
root@c0cb9814a02b:/# rocminfo
ROCk module is NOT loaded, possibly no GPU devices
"""


def test_rock_module_not_loaded_inside_a_container_points_at_the_devices_not_the_driver() -> None:
    from ingest_helpers import ingest
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    findings = evaluate(load_rules([], use_env=False), ingest(CONTAINER_WITHOUT_DEVICES).facts).findings
    serious = [f for f in findings if f.severity in ("error", "warning")]
    # A container started without /dev/kfd is the container's own set-up (permissions, RD355's category since
    # session 57); a machine with no /dev/kfd at all is platform (RD518). Either is about the devices, not the driver.
    assert serious[0].category == "permissions"
    assert not any(f.category == "driver" for f in serious)
    assert "RD962" in [f.id for f in serious] or "RD518" in [f.id for f in serious]


def test_rock_module_not_loaded_with_the_devices_passed_gets_no_container_device_finding() -> None:
    text = CONTAINER_WITHOUT_DEVICES.replace("--group-add=video", "--device=/dev/kfd --device=/dev/dri --group-add=video").replace(
        "root@c0cb9814a02b:/# ls /dev/kfd\nls: cannot access '/dev/kfd': No such file or directory\n", ""
    )
    assert "RD962" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "services:\n  ollama:\n    image: ollama/ollama:rocm\n    devices:\n      - /dev/dri\n      - /dev/kfd\n",
        'services:\n  comfyui:\n    devices:\n      - "/dev/kfd:/dev/kfd" # remove this line if running on non ROCm\n      - "/dev/dri:/dev/dri"\n',
        "    devices:\n      - /dev/dri:/dev/dri\n      - /dev/kfd:/dev/kfd\n",
    ],
)
def test_a_compose_devices_list_with_kfd_reads_as_the_devices_passed(text: str) -> None:
    assert "gpu_devices_passed_to_container" in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        '    devices:\n      - /dev/dri\n#      - "/dev/kfd:/dev/kfd" # remove this line if running on non ROCm\n',
        "* /dev/kfd\n* /dev/dri/renderD128\n",
        "- /dev/kfd exists with correct root:render ownership\n",
    ],
)
def test_a_commented_out_or_prose_kfd_line_is_no_devices_entry(text: str) -> None:
    assert "gpu_devices_passed_to_container" not in signature_contexts(text)


@pytest.mark.parametrize(
    "line",
    [
        'time=2024-10-02T08:34:23.718Z level=ERROR source=amd_linux.go:364 msg="amdgpu devices detected but permission problems block access" error="kfd driver not loaded".',
        "level=ERROR msg=\"amdgpu devices detected but permission problems block access\" error=\"kfd driver not loaded.  If running in a container, remember to include '--device /dev/kfd --device /dev/dri'\"",
    ],
)
def test_ollamas_kfd_driver_not_loaded_reads_as_no_kfd_where_it_ran(line: str) -> None:
    assert "ollama_kfd_not_present" in signature_errors(line)
    assert problems_shown(line)[0] == "RD518"


def test_a_sentence_about_the_kfd_driver_being_loaded_is_not_ollamas_message() -> None:
    assert "ollama_kfd_not_present" not in signature_errors("the kfd driver not loaded yesterday is loaded now after a reboot, all good")


@pytest.mark.parametrize(
    "line",
    [
        "I use rootful docker, not rootless docker.",
        "I don't use rootless podman here",
        "We switched from rootless podman to docker last week",
        "This is docker run as root, not a rootless container",
    ],
)
def test_a_denied_rootless_engine_is_read_as_denied(line: str) -> None:
    assert "rootless_engine_denied" in signature_contexts(line)


@pytest.mark.parametrize(
    "line",
    [
        "Podman rootless: When running a model it does not utilize the GPU",
        "It does not work in rootless podman",
        "llama-cli fails when run in a rootless Distrobox container",
    ],
)
def test_a_failure_under_a_rootless_engine_is_no_denial(line: str) -> None:
    assert "rootless_engine_denied" not in signature_contexts(line)


def test_a_report_denying_a_rootless_engine_gets_no_rootless_finding() -> None:
    text = (
        "I use rootful docker, not rootless docker.\n"
        "docker run --device=/dev/kfd --device=/dev/dri --group-add video my-image\n"
        "rocminfo: Unable to open /dev/kfd read-write: Permission denied\n"
    )
    assert "RD960" not in problems_shown(text)


@pytest.mark.parametrize(
    "line",
    [
        "docker run -it --privileged --network=host rocm/pytorch:latest",
        "docker run -it --device=/dev/kfd --group-add video --privileged=true rocm/rocm-terminal:5.4.2",
        "    privileged: true",
        "docker run -it -v /dev:/dev rocm/pytorch:latest",
    ],
)
def test_a_privileged_container_or_the_host_dev_bound_in_reads_as_all_devices(line: str) -> None:
    assert "container_gets_all_host_devices" in signature_contexts(line)


@pytest.mark.parametrize("line", ["docker run --privileged=false rocm/pytorch", "-v /dev/shm:/dev/shm", "--privileged-mode is not a flag"])
def test_an_unprivileged_container_is_not_read_as_all_devices(line: str) -> None:
    assert "container_gets_all_host_devices" not in signature_contexts(line)


@pytest.mark.parametrize("run", ["docker run -it --privileged --network=host rocm/pytorch:latest", "docker run -it -v /dev:/dev rocm/pytorch:latest"])
def test_rock_module_not_loaded_in_a_privileged_container_is_no_devices_matter(run: str) -> None:
    # /dev/kfd is there without --device; "recreate the container with the devices" would not help
    text = f"$ {run}\nroot@abc123:/# rocminfo\nROCk module is NOT loaded, possibly no GPU devices\n"
    assert "RD962" not in problems_shown(text)


def test_a_compose_volume_of_dev_kfd_is_not_the_devices_passed() -> None:
    # a bind mount of the node under volumes: the device cgroup still refuses it; RD862 would say
    # the container "is started with --device /dev/kfd"
    text = "services:\n  ollama:\n    image: ollama/ollama:rocm\n    volumes:\n      - /dev/kfd:/dev/kfd\n      - /dev/dri:/dev/dri\n"
    assert "gpu_devices_passed_to_container" not in signature_contexts(text)
    assert "gpu_devices_passed_to_container" in signature_contexts(text.replace("volumes:", "devices:"))


def test_a_group_list_with_video_but_not_render_is_not_told_flatly_it_cannot_open_the_devices() -> None:
    # where /dev/kfd belongs to video (older distributions) a user in video opens it: RD961 said
    # "this user cannot open them" with the device's group not shown
    from ingest_helpers import ingest
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    text = "$ groups\nme adm video sudo\nRuntimeError: No HIP GPUs are available\n"
    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    rd961 = next(f for f in findings if f.id == "RD961")
    assert "ls -l /dev/kfd" in rd961.message


@pytest.mark.parametrize(
    "text",
    [
        # the host's rocminfo, docker only named after it
        "On the host:\nuser@desktop:~$ rocminfo\nROCk module is NOT loaded, possibly no GPU devices\nSo of course docker run -it rocm/pytorch also finds no GPU.\n",
        "user@desktop:~$ rocminfo\nROCk module is NOT loaded, possibly no GPU devices\nuser@desktop:~$ docker run -it rocm/pytorch\n",
        # left the container before running rocminfo
        "$ docker run -it rocm/pytorch\nroot@c0cb9814a02b:/# exit\n$ rocminfo\nROCk module is NOT loaded, possibly no GPU devices\n",
        "I use docker run for ollama, but this is not in a container:\n$ rocminfo\nROCk module is NOT loaded, possibly no GPU devices\n",
    ],
)
def test_rock_module_not_loaded_from_the_hosts_rocminfo_is_not_called_a_container_matter(text: str) -> None:
    # the host's driver is not loaded: RD962 said the line "says nothing about the host's amdgpu driver"
    assert "RD962" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        CONTAINER_WITHOUT_DEVICES,
        "$ docker exec -it ollama rocminfo\nROCk module is NOT loaded, possibly no GPU devices\n",
        "I started it with docker run rocm/pytorch.\nInside the container:\n$ rocminfo\nROCk module is NOT loaded, possibly no GPU devices\n",
    ],
)
def test_rock_module_not_loaded_from_a_rocminfo_run_in_the_container_is_read_so(text: str) -> None:
    from ingest_helpers import ingest

    context = ingest(text).facts.symptoms.context
    assert context.is_known and "rocminfo_in_container" in context.value
