"""A GPU device node's group id shown by number in a container, LXC guest or pod, against the user's numeric groups
(RD377, the reader container_device_gids, ``id``'s numbers in commands, the derived fact gpu_node_gids_user_lacks).

Shapes after ROCm/k8s-device-plugin#39 (``crw-rw---- 1 root 106 ... /dev/kfd`` in a pod), ROCm/rocm-examples#172
(``id`` listing the image's ``109(render)`` while the host's render is 110), dlandon/zoneminder.machine.learning#105
(renderD128 owned by 109 in a container), community-scripts/ProxmoxVE#15401 (``devN: /dev/kfd,gid=44``) and
ROCm/legacy-rocm-build#886 (an LXD unix-char device with a gid)."""

from __future__ import annotations

from typing import Any, List, Optional

import pytest
from ingest_helpers import ingest, problems_shown

from rocm_doctor.judge.derived import compute_machine


def _node_gids(text: str) -> Optional[List[int]]:
    fact = ingest(text).facts.permissions.gpu_node_gids
    return fact.value if fact.is_known else None


def _group_ids(text: str) -> Optional[List[int]]:
    fact = ingest(text).facts.permissions.group_ids
    return fact.value if fact.is_known else None


def _lacks(text: str) -> Any:
    fact = compute_machine(ingest(text).facts)["derived.gpu_node_gids_user_lacks"]
    return fact.value if fact.is_known else None


POD_LISTING = (
    "```\n"
    "root@alexnet-tf-gpu-pod:/# ls -l /dev/kfd\n"
    "crw-rw---- 1 root 106 242, 0 Apr 18 15:58 /dev/kfd\n"
    "root@alexnet-tf-gpu-pod:/# ls -l /dev/dri/renderD128\n"
    "crw-rw---- 1 root 106 226, 128 Apr 18 15:58 /dev/dri/renderD128\n"
    "```\n"
)


def test_a_bare_group_id_of_kfd_and_a_render_node_is_read() -> None:
    assert _node_gids(POD_LISTING) == [106]


def test_two_nodes_with_different_bare_ids_are_both_read() -> None:
    text = (
        "```\n"
        "$ ls -l /dev/kfd /dev/dri/renderD128\n"
        "crw-rw---- 1 root 44 242, 0 Apr 18 15:58 /dev/kfd\n"
        "crw-rw---- 1 root 992 226, 128 Apr 18 15:58 /dev/dri/renderD128\n"
        "```\n"
    )
    assert sorted(_node_gids(text) or []) == [44, 992]


@pytest.mark.parametrize("group", ["nogroup", "nobody", "65534"])
def test_an_unmapped_group_is_read_as_the_overflow_id(group: str) -> None:
    text = f"```\n$ ls -l /dev/kfd\ncrw-rw---- 1 nobody {group} 235, 0 Sep 11 09:06 /dev/kfd\n```\n"
    assert _node_gids(text) == [65534]


@pytest.mark.parametrize(
    "row",
    [
        # the host's own listing: the group has a name
        "crw-rw---- 1 root render 226, 128 Jul  7 14:20 /dev/dri/renderD128",
        # any user may open it: the group decides nothing
        "crw-rw-rw- 1 root 106 242, 0 Apr 18 15:58 /dev/kfd",
        # not a GPU compute or render node
        "crw-rw---- 1 root 109 226, 0 Jul  7 16:20 card0",
        # rev62b: ls -ln prints every owner and group as a number, a host's named render group too
        "crw-rw---- 1 0 992 235, 0 Jul  7 14:20 /dev/kfd",
        # rev62b: an ACL (logind's grant to the seat's user) opens the node beyond its group
        "crw-rw----+ 1 root 109 226, 128 Jul  7 14:20 /dev/dri/renderD128",
    ],
)
def test_named_world_open_or_other_nodes_give_no_id(row: str) -> None:
    assert _node_gids(f"```\n$ ls -l /dev/dri /dev/kfd\n{row}\n```\n") is None


def test_a_proxmox_device_entry_gives_its_gid() -> None:
    text = (
        "CTID.conf:\n```\n"
        "dev0: /dev/dri/renderD128,gid=992\n"
        "dev2: /dev/dri/card0,gid=44\n"
        "dev5: /dev/kfd,gid=44\n"
        "```\n"
    )
    assert sorted(_node_gids(text) or []) == [44, 992]


@pytest.mark.parametrize(
    "entry",
    ["dev1: /dev/kfd", "dev1: /dev/kfd,mode=0660", "lxc config device add ml kfd unix-char source=/dev/kfd path=/dev/kfd"],
)
def test_a_device_entry_without_gid_gives_group_0(entry: str) -> None:
    assert _node_gids(f"```\n{entry}\n```\n") == [0]


def test_a_proxmox_entry_open_to_every_user_gives_no_gid() -> None:
    assert _node_gids("```\ndev0: /dev/kfd,gid=44,mode=0666\n```\n") is None


def test_an_lxd_unix_char_device_gives_its_gid() -> None:
    text = "```\nlxc config device add ml kfd unix-char source=/dev/kfd path=/dev/kfd gid=44\n```\n"
    assert _node_gids(text) == [44]


def test_an_incus_device_that_is_not_a_gpu_node_gives_no_gid() -> None:
    assert _node_gids("```\nincus config device add ml tty unix-char source=/dev/ttyUSB0 gid=20\n```\n") is None


def test_id_gives_its_numbers_including_a_group_without_a_name() -> None:
    text = (
        "```\ndeveloper@f09768918a93:/workspaces$ id\n"
        "uid=1000(developer) gid=1000(developer) groups=1000(developer),27(sudo),44(video),109(render),110\n```\n"
    )
    assert _group_ids(text) == [1000, 27, 44, 109, 110]
    assert ingest(text).facts.permissions.unnamed_group_ids.value == [110]


POD_SPEC = (
    "```yaml\n"
    "spec:\n"
    "  securityContext:\n"
    "    runAsUser: 1000\n"
    "    runAsGroup: 3000\n"
    "    supplementalGroups: [44]\n"
    "```\n"
)


def test_a_pod_running_as_a_user_and_group_gives_its_numeric_groups() -> None:
    assert _group_ids(POD_SPEC) == [3000, 44]


def test_a_pod_without_run_as_group_gives_no_groups() -> None:
    # the primary group is then the image's user's, which the spec does not show
    text = "```yaml\nsecurityContext:\n  runAsUser: 1000\n  supplementalGroups:\n    - 44\n```\n"
    assert _group_ids(text) is None


FAILING = "Unable to open /dev/kfd read-write: Permission denied\n"


def test_the_node_id_missing_from_the_users_groups_is_derived() -> None:
    text = POD_LISTING + "```\n$ id\nuid=65534(nobody) gid=65534(nogroup) groups=65534(nogroup)\n```\n"
    assert _lacks(text) == "106"


def test_the_image_render_group_does_not_hold_the_hosts_id() -> None:
    text = (
        "```\n$ id\nuid=1000(developer) gid=1000(developer) groups=1000(developer),44(video),109(render)\n"
        "$ ls -l /dev/kfd\ncrw-rw---- 1 root 110 510, 0 Oct 16 10:00 /dev/kfd\n```\n"
    )
    assert _lacks(text) == "110"


def test_a_held_id_root_or_no_numbers_derive_nothing() -> None:
    held = POD_LISTING + "```\n$ id\nuid=1000(u) gid=1000(u) groups=1000(u),106\n```\n"
    root = POD_LISTING + "```\n$ id\nuid=0(root) gid=0(root) groups=0(root)\n```\n"
    assert _lacks(held) is None
    assert _lacks(root) is None
    assert _lacks(POD_LISTING + "```\n$ groups\nuser video render\n```\n") is None


def test_rd377_fires_for_a_node_id_the_container_user_lacks_and_a_refused_gpu() -> None:
    text = POD_LISTING + "```\n$ id\nuid=65534(nobody) gid=65534(nogroup) groups=65534(nogroup)\n$ rocminfo\n" + FAILING + "```\n"
    assert "RD377" in problems_shown(text)


def test_rd377_fires_for_an_lxc_entry_whose_gid_the_guest_user_lacks() -> None:
    text = (
        "/etc/pve/lxc/101.conf:\n```\ndev0: /dev/dri/renderD128,gid=992\ndev1: /dev/kfd,gid=44\n```\n"
        "In the guest:\n```\n$ id\nuid=1000(ai) gid=1000(ai) groups=1000(ai),992(render)\n"
        "$ python -c 'import torch; print(torch.cuda.is_available())'\nFalse\n```\n"
    )
    assert "RD377" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # the host's listing names render: no id by number
        "```\n$ id\nuid=1000(a) gid=1000(a) groups=1000(a),44(video)\n$ ls -l /dev/kfd\n"
        "crw-rw---- 1 root render 242, 0 Apr 18 15:58 /dev/kfd\n$ rocminfo\n" + FAILING + "```\n",
        # the user holds the node's id
        POD_LISTING + "```\n$ id\nuid=1000(a) gid=1000(a) groups=1000(a),106\n$ rocminfo\n" + FAILING + "```\n",
        # the id is lacked, but nothing failed
        POD_LISTING + "```\n$ id\nuid=1000(a) gid=1000(a) groups=1000(a)\n```\n",
    ],
)
def test_rd377_stays_silent_for_a_named_group_a_held_id_or_no_failure(text: str) -> None:
    assert "RD377" not in problems_shown(text)


def test_rd852_stays_silent_where_id_shows_the_bare_node_id_held() -> None:
    lacked = POD_LISTING + "```\n$ id\nuid=1000(a) gid=1000(a) groups=1000(a)\n```\n"
    held = POD_LISTING + "```\n$ id\nuid=1000(a) gid=1000(a) groups=1000(a),106\n```\n"
    assert "RD852" in problems_shown(lacked)
    assert "RD852" not in problems_shown(held)


def test_rd852_still_speaks_where_only_a_named_id_matches_the_bare_node_id() -> None:
    # the host's id names 106 render; the container's listing shows 106 bare: they ran in different places
    host_id = POD_LISTING + "```\n$ id\nuid=1000(a) gid=1000(a) groups=1000(a),106(render)\n```\n"
    assert "RD852" in problems_shown(host_id)
