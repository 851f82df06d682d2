"""Whose groups a report prints (issue 23, h30b): bare `groups`/`id` print the session's groups,
`groups NAME`/`id NAME` an account's in the group database (which a session gets only at its next
login), root's say nothing of the user, and a group added with usermod after the session started is
missing from the session's list (metal3-io/metal3-dev-env#1317, moby/moby#1614,
rpm-software-management/mock#174)."""

from __future__ import annotations

from typing import Any, Dict

import pytest

from ingest_helpers import ingest, problems_shown, report_contexts

ADDED = "gpu_group_added_not_in_session"


def _permissions(text: str) -> Dict[str, Any]:
    facts = ingest(text).facts.permissions
    return {
        name: (getattr(facts, name).value if getattr(facts, name).is_known else None)
        for name in ("user", "is_root", "groups", "in_render_group", "in_video_group")
    }


def test_bare_groups_print_the_sessions_groups() -> None:
    read = _permissions("$ groups\nalice adm cdrom sudo dip plugdev lpadmin\n")
    assert (read["is_root"], read["in_render_group"], read["in_video_group"]) == (False, False, False)


def test_groups_of_a_named_account_say_what_it_lacks_not_what_the_session_has() -> None:
    listed = _permissions("$ groups alice\nalice : alice adm video render\n")
    assert listed["user"] == "alice" and listed["in_render_group"] is None and listed["in_video_group"] is None
    lacking = _permissions("$ groups bob\nbob : bob adm cdrom sudo\n")
    assert (lacking["in_render_group"], lacking["in_video_group"]) == (False, False)


def test_id_of_root_says_nothing_of_the_user() -> None:
    read = _permissions("$ id root\nuid=0(root) gid=0(root) groups=0(root)\n")
    assert read["is_root"] is None and read["user"] is None


def test_id_of_a_named_account_reads_only_the_groups_it_lacks() -> None:
    read = _permissions("$ id alice\nuid=1000(alice) gid=1000(alice) groups=1000(alice),4(adm),44(video)\n")
    assert (read["user"], read["in_render_group"], read["in_video_group"]) == ("alice", False, None)


def test_bare_id_still_reads_the_session() -> None:
    read = _permissions("$ id\nuid=0(root) gid=0(root) groups=0(root)\n")
    assert read["is_root"] is True


def test_a_group_added_with_usermod_missing_from_the_later_session_list_is_read() -> None:
    text = "$ sudo usermod -aG render,video $USER\n$ groups\nalice adm cdrom sudo dip plugdev\n"
    assert ADDED in report_contexts(text)


def test_a_group_added_with_gpasswd_missing_from_the_later_session_list_is_read() -> None:
    assert ADDED in report_contexts("$ sudo gpasswd -a $USER render\n$ groups\nalice adm video\n")


def test_the_account_listing_render_beside_a_session_without_it_is_read() -> None:
    text = (
        "$ id\nuid=1000(alice) gid=1000(alice) groups=1000(alice),4(adm)\n"
        "$ id alice\nuid=1000(alice) gid=1000(alice) groups=1000(alice),4(adm),44(video),109(render)\n"
    )
    assert ADDED in report_contexts(text)


def test_another_account_added_an_earlier_list_or_a_list_with_the_group_is_no_missing_session_group() -> None:
    other = "$ sudo usermod -aG render,video ollama\n$ groups\nalice adm cdrom sudo dip plugdev\n"
    before = "$ groups\nalice adm\n$ sudo usermod -aG render,video $USER\n"
    has_it = "$ sudo usermod -a -G render $LOGNAME\n$ id\nuid=1000(alice) gid=1000(alice) groups=1000(alice),44(video),109(render)\n"
    for text in (other, before, has_it):
        assert ADDED not in report_contexts(text)


def test_a_session_that_lacks_a_group_just_added_is_a_permissions_finding() -> None:
    text = "RX 7900 XTX, rocminfo fails with HSA_STATUS_ERROR_OUT_OF_RESOURCES.\n$ sudo usermod -aG render,video $USER\n$ groups\nalice adm cdrom sudo dip plugdev\n"
    assert "RD617" in problems_shown(text)


def test_neither_render_nor_video_beside_torch_without_a_gpu_on_an_amd_machine_is_a_permissions_finding() -> None:
    text = "Ubuntu 22.04, RX 7800 XT\n$ groups\nbob adm cdrom sudo dip plugdev\ntorch.cuda.is_available() returns False\n"
    assert problems_shown(text)[:1] == ["RD961"]


def test_groups_of_another_account_with_render_or_roots_groups_give_no_group_finding() -> None:
    for text in (
        "RX 6800, ROCm 6.2\n$ groups alice\nalice : alice adm video render\ntorch.cuda.is_available() returns False\n",
        "RX 6800, ROCm 6.2\n$ id root\nuid=0(root) gid=0(root) groups=0(root)\ntorch.cuda.is_available() returns False\n",
        "RX 6800, ROCm 6.2\nroot@3f2a1b9c4d5e:/# groups\nroot\ntorch.cuda.is_available() returns False\n",
    ):
        assert not {"RD961", "RD617", "RD300"} & set(problems_shown(text))


def test_groups_printed_inside_a_container_are_the_container_users() -> None:
    for text in (
        "RX 7900 XTX, ROCm 6.2. Inside the container:\n$ groups\nappuser\ntorch.cuda.is_available() returns False\n",
        "RX 7900 XTX, ROCm 6.2, torch.cuda.is_available() returns False\nappuser@4f3c2a1b9e8d:/workspace$ groups\nappuser\n",
    ):
        assert "groups_printed_in_container" in report_contexts(text)
        shown = problems_shown(text)
        assert "RD613" in shown and "RD961" not in shown


def test_groups_printed_on_the_host_are_not_a_containers() -> None:
    text = "RX 7900 XTX, ROCm 6.2\nalice@workstation:~$ groups\nalice adm\n"
    assert "groups_printed_in_container" not in report_contexts(text)


def test_a_usermod_quoted_from_a_guide_is_no_group_added() -> None:
    # the guide's command, not one the transcript shows run (r30a)
    text = (
        "The install guide says:\n    sudo usermod -a -G render,video $LOGNAME\nI haven't done that yet.\n"
        "$ groups\nalice adm cdrom sudo\n"
    )
    assert ADDED not in report_contexts(text)


def test_a_list_after_a_reboot_or_new_login_is_no_session_older_than_the_change() -> None:
    # the session listed started after the usermod: its age does not explain the missing group (r30a)
    for between in ("$ sudo reboot\n", "(logged out and back in)\n", "$ newgrp render\n"):
        text = f"$ sudo usermod -aG render,video $USER\n{between}$ groups\nalice adm cdrom sudo\n"
        assert ADDED not in report_contexts(text)


def test_a_kfd_listed_open_to_every_user_is_read_and_leaves_the_group_list_unblamed() -> None:
    # upstream systemd's default mode for /dev/kfd is 0666 (group-render-mode): render membership does not
    # decide access there (r30a)
    listing = "$ ls -l /dev/kfd\ncrw-rw-rw- 1 root render 235, 0 Nov 28 10:00 /dev/kfd\n"
    text = "RX 6800 on Arch Linux, ROCm 6.2.\n$ groups\nalice wheel\n" + listing + "torch.cuda.is_available() returns False\n"
    assert "kfd_open_to_all" in report_contexts(text)
    assert "RD961" not in problems_shown(text)
    # a 0660 row is no such listing, and the group list still counts
    closed = text.replace("crw-rw-rw-", "crw-rw----")
    assert "kfd_open_to_all" not in report_contexts(closed)
    assert "RD961" in problems_shown(closed)


# prec53a: RD961's sibling permission rules need an AMD machine (RD300 an AMD GPU, RD507 the HSA runtime's status, RD614
# derived.amd_context not false); a group list without render on an NVIDIA machine is no render-group problem.
NVIDIA_SMI = (
    "$ nvidia-smi\n"
    "+-----------------------------------------------------------------------------+\n"
    "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |\n"
    "|-------------------------------+----------------------+----------------------+\n"
    "| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n"
    "|   0  NVIDIA GeForce RTX 3090  Off | 00000000:01:00.0 Off |                  N/A |\n"
    "+-------------------------------+----------------------+----------------------+\n"
)


@pytest.mark.parametrize(
    "text",
    [
        "PyTorch doesn't detect my GPU on Ubuntu 22.04.\n\n" + NVIDIA_SMI + "\n$ groups\nalice adm cdrom sudo dip plugdev lpadmin docker\n\n"
        ">>> torch.cuda.is_available()\nFalse\n\nThe GPU is not detected by torch.\n",
        NVIDIA_SMI + "\n$ id\nuid=1000(bob) gid=1000(bob) groups=1000(bob),4(adm),27(sudo),999(docker)\n\nMy GPU is not detected by the program.\n",
    ],
)
def test_a_group_list_without_render_on_an_nvidia_machine_is_no_render_group_finding(text: str) -> None:
    assert "RD961" not in problems_shown(text)
