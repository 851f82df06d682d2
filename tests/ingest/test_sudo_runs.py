"""rocminfo or clinfo run as the user (failing, or listing no device) and under sudo (listing a gfx GPU), with no words
about it: the user lacks access to /dev/kfd or the render node (issue 23, perm67b). The output-only form of
ROCm/legacy-rocm-build#1070 (and #1064, the same reporter), ROCm/legacy-rocm-build#1826 and ROCm/ROCm-docker#36; the
texts below are written for the tests, in those reports' shapes."""

from __future__ import annotations

from ingest_helpers import problems_shown, report_contexts

SUDO = "gpu_reached_only_under_sudo"

USER_RUN = (
    "```\n$ /opt/rocm/bin/rocminfo\nROCk module is loaded\n"
    "hsa api call failure at: rocminfo.cc:1102\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.\n```\n"
)
SUDO_RUN = (
    "```\n$ sudo /opt/rocm/bin/rocminfo\nROCk module is loaded\n==========\nHSA Agents\n==========\n"
    "  Name:                    AMD Ryzen 7 5800X\n  Name:                    gfx1030\n  Marketing Name:          AMD Radeon RX 6800\n```\n"
)


def test_rocminfo_failing_as_user_and_listing_a_gpu_under_sudo_is_read() -> None:
    text = "ROCm 5.4 on Ubuntu 22.04.\n\n" + USER_RUN + "\n" + SUDO_RUN
    assert SUDO in report_contexts(text)
    assert "RD517" in problems_shown(text)


def test_clinfo_listing_nothing_as_user_and_a_device_as_root_in_one_block_is_read() -> None:
    text = (
        "```\nbob@box:~$ clinfo --list\nbob@box:~$ sudo -u root clinfo --list\n"
        "Platform #0: AMD Accelerated Parallel Processing\n `-- Device #0: gfx1033\n```\n"
    )
    assert SUDO in report_contexts(text)


def test_rocminfo_under_sudo_cut_after_its_hsa_headings_is_read() -> None:
    text = (
        "u@c0ffee:~$ rocminfo\nhsa api call failure at line 900, file: rocminfo.cc. Call returned 4104\n"
        "u@c0ffee:~$ sudo /opt/rocm/bin/rocminfo\n=====================\nHSA System Attributes\n=====================\n"
        "Runtime Version:         1.1\n(...)\n"
    )
    assert SUDO in report_contexts(text)


def test_a_root_prompt_counts_as_the_privileged_run() -> None:
    text = USER_RUN + "\n```\nroot@box:~# rocminfo\n  Name:                    gfx1100\n```\n"
    assert SUDO in report_contexts(text)


def test_both_runs_failing_is_not_read() -> None:
    text = USER_RUN + "\n```\n$ sudo rocminfo\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES\n```\n"
    assert SUDO not in report_contexts(text)


def test_a_sudo_run_alone_is_not_read() -> None:
    assert SUDO not in report_contexts(SUDO_RUN)


def test_a_sudo_install_of_the_tool_is_not_a_run_of_it() -> None:
    text = USER_RUN + "\n```\n$ sudo apt install rocminfo\nSetting up rocminfo (5.4.0) ... gfx1030\n```\n"
    assert SUDO not in report_contexts(text)


def test_the_sudo_run_on_another_machine_is_not_read() -> None:
    text = (
        "```\nbob@test:~$ clinfo --list\n```\n\n"
        "```\nbob@other:~$ sudo clinfo --list\nPlatform #0: AMD Accelerated Parallel Processing\n `-- Device #0: gfx701\n```\n"
    )
    assert SUDO not in report_contexts(text)
    introduced = USER_RUN + "\nOn my other machine:\n\n" + SUDO_RUN
    assert SUDO not in report_contexts(introduced)


def test_the_user_run_listing_the_gpu_too_is_not_read() -> None:
    text = (
        USER_RUN + "\n" + SUDO_RUN
        + "\n```\n$ rocminfo\n  Name:                    gfx1030\n```\n"
    )
    assert SUDO not in report_contexts(text)


def test_root_in_a_container_is_not_the_users_sudo_on_the_host() -> None:
    # review67b: the host's user run beside root at a container's prompt (its id as host, or after docker run): the
    # container's root runs the image's own ROCm, so the pair does not say the host's user lacks access
    by_id = USER_RUN + "\n```\nroot@4f3c2a1b9e7d:/var/lib/jenkins# rocminfo\n  Name:                    gfx1100\n```\n"
    assert SUDO not in report_contexts(by_id)
    after_docker_run = USER_RUN + (
        "\n```\n$ docker run -it --device=/dev/kfd --device=/dev/dri rocm/pytorch\n# rocminfo\n"
        "  Name:                    gfx1100\n```\n"
    )
    assert SUDO not in report_contexts(after_docker_run)
    after_docker_exec = USER_RUN + "\n```\n$ docker exec -it rocmbox bash\n$ sudo rocminfo\n  Name:                    gfx1030\n```\n"
    assert SUDO not in report_contexts(after_docker_exec)


def test_the_user_and_sudo_runs_in_one_container_are_read() -> None:
    # ROCm/ROCm-docker#36's shape: both prompts carry the container's id
    text = (
        "```\nrocm-user@2888cb18b1a3:~$ rocminfo\nhsa api call failure at line 900, file: rocminfo.cc. Call returned 4104\n```\n"
        "```\nrocm-user@2888cb18b1a3:~$ sudo /opt/rocm/bin/rocminfo\n=====================\nHSA System Attributes\n"
        "=====================\n(...)\n```\n"
    )
    assert SUDO in report_contexts(text)


def test_a_user_run_that_finds_no_dev_kfd_is_not_what_sudo_mends() -> None:
    text = (
        "```\nuser@host:~$ rocminfo\nUnable to open /dev/kfd read-write: No such file or directory\n```\n\n"
        + SUDO_RUN
    )
    assert SUDO not in report_contexts(text)


def test_a_user_run_listing_a_gpu_beside_another_files_permission_error_reached_the_gpu() -> None:
    text = (
        "```\n$ rocminfo\n  Name:                    gfx1030\nPermission denied: /home/me/.cache/foo\n```\n\n" + SUDO_RUN
    )
    assert SUDO not in report_contexts(text)


def test_two_installs_named_by_their_folders_are_not_one_tool_run_twice() -> None:
    # review67b: the user ran one release's rocminfo, sudo another's: the runs differ by more than the user
    text = USER_RUN.replace("/opt/rocm/bin/rocminfo", "/opt/rocm-5.4.0/bin/rocminfo") + "\n" + SUDO_RUN.replace(
        "/opt/rocm/bin/rocminfo", "/opt/rocm-6.0.0/bin/rocminfo"
    )
    assert SUDO not in report_contexts(text)
    # a folder on one side only is still the same tool (ROCm/ROCm-docker#36: rocminfo, then sudo /opt/rocm/bin/rocminfo)
    assert SUDO in report_contexts(USER_RUN.replace("/opt/rocm/bin/rocminfo", "rocminfo") + "\n" + SUDO_RUN)
