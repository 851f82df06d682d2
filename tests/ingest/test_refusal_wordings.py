"""The GPU refused to the user, in the field's wordings (issue 23, block h29p, RD612/RD613).

Every wording is a form seen in public reports (the signature rows of block h29p in
rules/data/signatures.yaml name them); none is one report's whole text.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, report_contexts, signature_contexts, signature_errors


@pytest.mark.parametrize(
    "line",
    [
        "But if I run it as root, it works as intended",
        "It has to do with permissions since when executing as root there is no problem.",
        "If you can run rocminfo successfully as root or via su, but it fails as a regular user",
        "Inside the container rocminfo fails and sudo rocminfo executes correctly.",
        "sudo rocminfo works but rocminfo without sudo gives an error",
        "Running as root works.",
        "When I run it with sudo it detects the GPU",
        "torch.cuda.is_available() prints False, but as root it prints True.",
        "With sudo python it returns True.",
        "As a regular user rocminfo reports the HSA_STATUS_ERROR_OUT_OF_RESOURCES message and fails.",
        "I did not change any permission, not working outside root account",
        "Applications run as normal user cannot detect amdocl64 and make use of my GPU.",
        "it seems torch can only access the gpu when run with sudo",
        "The GPU is only visible to root.",
    ],
)
def test_the_gpu_working_as_root_reads_in_these_wordings(line: str) -> None:
    assert "gpu_works_as_root_told" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "Same result using sudo or adding myself to the render group.",
        "It doesn't work even as root.",
        "It does not work when I run it as root, it works for nobody",
        "Does it work if I run it as root?",
        "With the udev rule it no longer needs sudo, rocminfo works as my user.",
        "sudo apt install rocm works fine",
        "sudo pip install torch ran fine",
        "You don't need to run it as root, it works for every user in render.",
        "It fails as a normal user and as root too.",
        "with sudo pip install it works",
        "I use sudo only when installing packages",
    ],
)
def test_failing_as_root_a_question_or_an_install_is_no_works_as_root_statement(line: str) -> None:
    assert "gpu_works_as_root_told" not in signature_errors(line)


@pytest.mark.parametrize(
    "row",
    [
        "crw-rw---- 1 root render 238, 0 Sep  2 15:45 /dev/kfd",
        "crw-rw----+ 1 root render 226, 128 Aug 22 21:34 renderD128",
        "crw-rw---- 1 root render 509, 0 Aug 22 21:34 /dev/kfd",
    ],
)
def test_a_gpu_node_listed_as_owned_by_render_is_read(row: str) -> None:
    assert "gpu_node_owned_by_render_listed" in signature_contexts(row)


@pytest.mark.parametrize(
    "row",
    [
        # open to everyone: the group does not decide
        "crw-rw-rw- 1 root render 226, 128 Aug 22 21:34 renderD128",
        # the card node is not the compute path, and video owns it
        "crw-rw---- 1 root video  226,   1 Aug 22 21:34 card1",
        # a bare id: gpu_node_group_unnamed, RD852
        "crw-rw---- 1 root 106 235, 0 Jan  1 10:00 /dev/kfd",
    ],
)
def test_a_node_open_to_all_a_card_node_or_a_bare_id_is_no_render_owned_listing(row: str) -> None:
    assert "gpu_node_owned_by_render_listed" not in signature_contexts(row)


LISTING_AND_GROUPS = """\
I installed ROCm 6.2 and the rocm6.2 torch wheel on Ubuntu 22.04. torch.cuda.is_available() returns False.
$ ls -l /dev/kfd /dev/dri/renderD128
crw-rw---- 1 root render 235, 0 Jan  1 10:00 /dev/kfd
crw-rw----+ 1 root render 226, 128 Jan  1 10:00 /dev/dri/renderD128
$ groups
alice adm cdrom sudo dip video plugdev
"""


def test_nodes_owned_by_render_beside_groups_without_it_and_no_gpu_is_a_permissions_error_first() -> None:
    assert problems_shown(LISTING_AND_GROUPS)[0] == "RD612"


def test_nodes_owned_by_render_with_the_user_in_render_give_no_group_finding() -> None:
    shown = problems_shown(LISTING_AND_GROUPS.replace("video plugdev", "video render plugdev"))
    assert "RD612" not in shown and "RD961" not in shown


def test_nodes_owned_by_render_beside_groups_without_it_and_the_gpu_working_give_no_finding() -> None:
    text = LISTING_AND_GROUPS.replace("torch.cuda.is_available() returns False.", "Training runs fine.")
    assert "RD612" not in problems_shown(text)


@pytest.mark.parametrize(
    "line",
    [
        "I dont even get to build because the container cannot find GPUs.",
        "The docker container doesn't see the GPU at all.",
        "my container does not detect any AMD GPU",
        "docker image doesn't detect my card",
        "[bug]: ROCM Docker container not using AMD GPU",
    ],
)
def test_the_container_finding_no_gpu_reads_with_the_container_as_subject(line: str) -> None:
    assert "container_finds_no_gpu_told" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "The container can see the GPU now.",
        "the container cannot find the file config.yaml",
        "Can the container find GPUs without --device?",
        "This image does not use the GPU by default, pass --device.",
    ],
)
def test_a_container_that_sees_the_gpu_or_misses_a_file_is_no_gpu_missing_statement(line: str) -> None:
    assert "container_finds_no_gpu_told" not in signature_errors(line)


CONTAINER_USER = """\
Rocm-smi doesnt work when using the container built from the Dockerfile.
developer@gpu-lab-01:/workspaces$ rocminfo
I dont even get to build because the container cannot find GPUs.
"""


def test_a_non_root_container_user_whose_container_finds_no_gpu_gets_the_render_gid_finding() -> None:
    assert problems_shown(CONTAINER_USER)[0] == "RD613"


def test_a_root_container_user_gets_no_render_gid_finding() -> None:
    assert "RD613" not in problems_shown(CONTAINER_USER.replace("developer@gpu-lab-01:/workspaces$", "root@gpu-lab-01:/workspaces#"))


RUST_TOOL = """\
#0 DevicePath { render: "/dev/dri/renderD128", card: "/dev/dri/card1", pci: "0000:04:00.0" }
thread 'main' panicked at src/dump_info.rs:122:41:
called `Result::unwrap()` on an `Err` value: Permission denied (os error 13)
"""


def test_a_path_less_rust_permission_error_beside_a_render_node_is_the_node_refused() -> None:
    assert "gpu_node_denied_os_error" in signature_errors(RUST_TOOL)
    assert problems_shown(RUST_TOOL)[0] == "RD516"


def test_a_path_less_rust_permission_error_without_a_gpu_node_is_not_the_node_refused() -> None:
    text = RUST_TOOL.replace('#0 DevicePath { render: "/dev/dri/renderD128", card: "/dev/dri/card1", pci: "0000:04:00.0" }', "writing ~/.config/tool.toml")
    assert "gpu_node_denied_os_error" not in signature_errors(text)


@pytest.mark.parametrize(
    "line",
    [
        "The ollama rocm image can't access the gpu due to permission problems, here's the log:",
        "Without this change, the server sits in a crash-loop due to lack of permissions to access the driver.",
        "Even after the installation of rocm-smi, GPUs are not visible due to lack of permissions in docker container.",
        "Since v11.0.0 the image is not root anymore, so we need to give container user permission to /dev/dri and /dev/kfd",
    ],
)
def test_the_gpu_refused_for_lack_of_permission_reads_in_these_wordings(line: str) -> None:
    assert "gpu_permission_lack_told" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "Is the GPU not found due to permission problems?",
        "The GPU is not detected, but this is not due to permissions.",
        "I can't write the file due to permission problems",
    ],
)
def test_a_question_a_denial_or_a_file_is_no_gpu_permission_statement(line: str) -> None:
    assert "gpu_permission_lack_told" not in signature_errors(line)


def test_a_service_refused_the_driver_for_lack_of_permission_gets_the_permissions_finding() -> None:
    text = "ollama service on Ubuntu with a Radeon card: the server sits in a crash-loop due to lack of permissions to access the driver."
    assert problems_shown(text)[0] == "RD614"


@pytest.mark.parametrize(
    "text",
    [
        "crw-------   1 root    root    234,   0 Mai 21 05:13 kfd",
        "On reboot, `/dev/kfd` resets to `root:root 0660`.",
    ],
)
def test_kfd_owned_by_roots_group_is_read(text: str) -> None:
    assert "kfd_owned_by_root_group" in signature_contexts(text)


def test_kfd_open_to_everyone_is_not_read_as_roots_only() -> None:
    assert "kfd_owned_by_root_group" not in signature_contexts("crw-rw-rw- 1 root root 234, 0 Mai 21 05:13 /dev/kfd")


KFD_ROOT_ONLY = """\
My /dev/kfd has the wrong permissions, which means that ROCm only runs for root.
$ ls -la /dev | grep kfd
crw-------   1 root    root    234,   0 Mai 21 05:13 kfd
"""


def test_kfd_owned_by_root_with_rocm_only_for_root_points_at_the_udev_rule_first() -> None:
    assert problems_shown(KFD_ROOT_ONLY)[0] == "RD615"


def test_kfd_owned_by_root_with_nothing_failing_gives_no_udev_finding() -> None:
    text = KFD_ROOT_ONLY.replace("My /dev/kfd has the wrong permissions, which means that ROCm only runs for root.", "Listing for reference.")
    assert "RD615" not in problems_shown(text)


@pytest.mark.parametrize(
    "line",
    [
        "docker run -it --device=/dev/kfd --device=/dev/dri rocm/rocm-terminal",
        "docker run -it --rm --device=/dev/kfd --device=/dev/dri --group-add video rocm/rocm-terminal:latest",
    ],
)
def test_the_rocm_terminal_image_is_read_as_a_container_user_that_is_not_root(line: str) -> None:
    assert "container_user_not_root" in signature_contexts(line)


def test_rocm_terminal_started_as_root_is_not_a_non_root_user() -> None:
    assert "container_user_not_root" not in signature_contexts("docker run -it -u 0 --device=/dev/kfd rocm/rocm-terminal")


@pytest.mark.parametrize(
    "line",
    [
        "I followed pretty basic directions and now when I run it, it doesn't detect my GPU.",
        "ROCm logs no ROCm-capable device is detected and silently falls back to CPU.",
        "GPU usage remains at 0%, only CPU is used.",
        "does not run without --skip-torch-cuda test, can use only CPU.",
        "The GPU is not detected by pytorch.",
    ],
)
def test_the_gpu_not_found_or_not_used_reads_in_these_wordings(line: str) -> None:
    assert "gpu_unused_told" in report_contexts(line)


@pytest.mark.parametrize(
    "line",
    [
        "Does it detect my GPU?",
        "Before the update it didn't detect my GPU, now it does.",
        "The tokenizer runs on the CPU.",
    ],
)
def test_a_question_a_past_state_or_cpu_work_is_no_gpu_unused_statement(line: str) -> None:
    assert "gpu_unused_told" not in report_contexts(line)


def test_groups_without_render_beside_the_gpu_not_detected_in_prose_is_a_group_finding() -> None:
    text = "Ubuntu 22.04, RX 6800. The GPU is not detected by pytorch.\n$ groups\nalice adm cdrom sudo dip plugdev\n"
    assert "RD961" in problems_shown(text)


def test_a_flathub_build_that_does_not_recognise_the_gpu_gets_the_sandbox_finding() -> None:
    text = "I just installed Blender 4.3.0 from Flathub but it still does not recognize my AMD GPU."
    assert "RD616" in problems_shown(text)


def test_a_flatpak_named_without_the_gpu_failing_gives_no_sandbox_finding() -> None:
    assert "RD616" not in problems_shown("I installed Blender from Flathub and rendering with HIP works fine.")
