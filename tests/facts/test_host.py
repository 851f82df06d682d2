"""Host facts: OS, distribution, kernel, WSL, containers and device files, on recorded machines."""

from __future__ import annotations

import pytest
from core_machine import build_machine, context

from rocm_doctor.facts.host import container_from_cgroup, gather_host, parse_os_release, wsl_version_from_kernel

UBUNTU = 'NAME="Ubuntu"\nVERSION_ID="22.04"\nID=ubuntu\nPRETTY_NAME="Ubuntu 22.04.4 LTS"\n'


def host(tmp_path, **kwargs):
    return gather_host(context(build_machine(tmp_path, **kwargs)))


def test_docker_container_with_gpu_devices_passed_in(tmp_path):
    facts = host(tmp_path, files={"/etc/os-release": UBUNTU, "/.dockerenv": "", "/dev/kfd": "",
                                  "/dev/dri/renderD128": "", "/dev/dri/renderD129": "", "/dev/dri/card0": "",
                                  "/dev/shm": None, "/proc/sys/kernel/osrelease": "6.8.0-45-generic\n",
                                  "/proc/version": "Linux version 6.8.0-45-generic (buildd@lcy02)\n"},
                 disks={"/dev/shm": 8 << 30})
    assert facts.os.value == "linux"
    assert (facts.distro_id.value, facts.distro_version.value) == ("ubuntu", "22.04")
    assert facts.distro_name.value == "Ubuntu 22.04.4 LTS"
    assert facts.kernel_release.value == "6.8.0-45-generic"
    assert facts.container.value == "docker" and facts.container.source == "/.dockerenv"
    assert facts.dev_kfd.value is True and facts.dev_dri.value is True and facts.dev_dxg.value is False
    assert facts.render_nodes.value == ["/dev/dri/renderD128", "/dev/dri/renderD129"]
    assert facts.shm_bytes.value == 8 << 30
    assert facts.wsl_version.status == "absent"
    assert facts.windows_build.status == "unknown" and facts.windows_build.reason == "not applicable on Linux"


def test_wsl2_is_recognised_from_the_kernel_name_and_has_no_kfd(tmp_path):
    facts = host(tmp_path, files={"/proc/sys/kernel/osrelease": "5.15.153.1-microsoft-standard-WSL2\n",
                                  "/dev/dxg": "", "/etc/os-release": UBUNTU})
    assert facts.wsl_version.value == 2
    assert facts.dev_dxg.value is True and facts.dev_kfd.value is False
    assert facts.render_nodes.status == "absent"


def test_wsl1_kernel_is_version_1():
    assert wsl_version_from_kernel("4.4.0-19041-Microsoft", has_dxg=False) == 1
    assert wsl_version_from_kernel("4.4.0-19041-Microsoft", has_dxg=True) == 2
    assert wsl_version_from_kernel("6.8.0-45-generic", has_dxg=False) is None


@pytest.mark.parametrize(
    ("files", "env", "expected", "source"),
    [
        ({"/run/.containerenv": ""}, {}, "podman", "/run/.containerenv"),
        ({"/.dockerenv": ""}, {"KUBERNETES_SERVICE_HOST": "10.0.0.1"}, "kubernetes", "env:KUBERNETES_SERVICE_HOST"),
        ({"/.dockerenv": "", "/proc/1/cgroup": "12:pids:/kubepods/besteffort/pod1\n"}, {}, "kubernetes",
         "/proc/1/cgroup"),
        ({"/proc/1/cgroup": "11:memory:/docker/0123abcd\n"}, {}, "docker", "/proc/1/cgroup"),
        ({}, {"APPTAINER_CONTAINER": "/images/pytorch.sif"}, "singularity", "env:APPTAINER_CONTAINER"),
        ({"/run/systemd/container": "lxc\n"}, {}, "lxc", "/run/systemd/container"),
    ],
)
def test_container_markers(tmp_path, files, env, expected, source):
    facts = host(tmp_path, files=files, env=env)
    assert (facts.container.value, facts.container.source) == (expected, source)


def test_no_container_marker_is_absent_not_false(tmp_path):
    facts = host(tmp_path, files={"/proc/1/cgroup": "0::/init.scope\n"})
    assert facts.container.status == "absent"
    assert container_from_cgroup("0::/\n") is None


def test_unreadable_os_release_is_failed_with_permission_denied(tmp_path):
    facts = host(tmp_path, files={"/etc/os-release": UBUNTU}, unreadable=["/etc/os-release"])
    assert facts.distro_id.status == "failed"
    assert "permission denied" in (facts.distro_id.reason or "")


def test_missing_os_release_is_absent_and_usr_lib_fallback_is_used(tmp_path):
    assert host(tmp_path, name="a").distro_id.status == "absent"
    facts = host(tmp_path, name="b", files={"/usr/lib/os-release": "ID=fedora\nVERSION_ID=40\n"})
    assert facts.distro_id.value == "fedora" and facts.distro_id.source == "/usr/lib/os-release"
    assert facts.distro_name.status == "absent"


def test_os_release_quoting():
    assert parse_os_release("ID='opensuse-tumbleweed'\n# c\nPRETTY_NAME=\"A \\\"b\\\"\"\nBROKEN=\"x\n") == {
        "ID": "opensuse-tumbleweed", "PRETTY_NAME": 'A "b"', "BROKEN": "x"}


def test_unlistable_dev_dri_makes_render_nodes_failed(tmp_path):
    facts = host(tmp_path, files={"/dev/dri/renderD128": ""}, unreadable=["/dev/dri"])
    assert facts.render_nodes.status == "failed"


def test_shm_without_a_size_is_failed(tmp_path):
    facts = host(tmp_path, files={"/dev/shm": None})
    assert facts.shm_bytes.status == "failed"


def test_kernel_release_falls_back_to_platform_release(tmp_path):
    facts = host(tmp_path, release="6.1.0-custom")
    assert (facts.kernel_release.value, facts.kernel_release.source) == ("6.1.0-custom", "platform.release()")


@pytest.mark.parametrize(("version", "release", "build"), [("10.0.26100", "11", 26100), ("10.0.19045", "10", 19045)])
def test_windows_release_from_build_number(tmp_path, version, release, build):
    facts = host(tmp_path, system="Windows", release="10", version=version)
    assert facts.os.value == "windows"
    assert (facts.windows_release.value, facts.windows_build.value, facts.windows_version.value) == (
        release, build, version)
    assert facts.distro_id.reason == "not applicable on Windows"
    assert facts.dev_kfd.status == "unknown" and facts.container.status == "unknown"


def test_garbage_windows_version_is_failed(tmp_path):
    facts = host(tmp_path, system="Windows", version="garbage")
    assert facts.windows_build.status == "failed" and "garbage" in (facts.windows_build.reason or "")


def test_macos_version_from_system_version_plist(tmp_path):
    plist = "<dict>\n<key>ProductName</key>\n<string>macOS</string>\n<key>ProductVersion</key>\n<string>14.5</string>\n"
    facts = host(tmp_path, system="Darwin", release="23.5.0",
                 files={"/System/Library/CoreServices/SystemVersion.plist": plist})
    assert facts.os.value == "macos" and facts.macos_version.value == "14.5"
    assert facts.kernel_release.value == "23.5.0"


def test_unknown_operating_system_is_failed(tmp_path):
    facts = host(tmp_path, system="FreeBSD")
    assert facts.os.status == "failed" and "FreeBSD" in (facts.os.reason or "")
