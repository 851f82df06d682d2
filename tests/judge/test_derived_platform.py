"""Derived facts about the platform (rocm_doctor/judge/derived_facts/platform.py)."""

from __future__ import annotations

from tests.judge._derived_helpers import K, agent, derived

WSL = {"host": {"wsl_version": K(2), "dev_kfd": K(False), "dev_dxg": K(True)}}
DOCKER = {"host": {"container": K("docker")}}


def test_windows_wsl_and_container_flags() -> None:
    assert derived("derived.is_windows", {"host": {"os": K("windows")}}).value is True
    assert derived("derived.is_wsl2", WSL).value is True
    assert derived("derived.is_wsl2", {}).value is False
    assert derived("derived.in_container", DOCKER).value is True
    assert derived("derived.in_container", {"host": {"os": K("windows"), "container": {"status": "unknown"}}}).value is False
    assert derived("derived.linux_native", WSL).value is False
    assert derived("derived.linux_native", DOCKER).value is True


def test_kernel_version_is_parsed_from_the_release() -> None:
    assert derived("derived.kernel_version", {"host": {"kernel_release": K("6.14.0-1013-oem")}}).value == "6.14.0"


def test_kfd_missing_reason_distinguishes_wsl_container_and_driver() -> None:
    no_kfd = {"host": {"dev_kfd": K(False)}}
    assert derived("derived.kfd_missing_reason", {}).status == "absent"
    assert derived("derived.kfd_missing_reason", WSL).value == "wsl2"
    assert derived("derived.kfd_missing_reason", {**DOCKER, "host": {"container": K("docker"), "dev_kfd": K(False)}}).value == "container-without-device"
    assert derived("derived.kfd_missing_reason", {**no_kfd, "driver": {"amdgpu_loaded": K(False)}}).value == "driver-not-loaded"
    assert derived("derived.kfd_missing_reason", {**no_kfd, "driver": {"pcie_atomics_rejected": K(True)}}).value == "pcie-atomics-rejected"
    assert derived("derived.kfd_missing_reason", no_kfd).value == "kfd-not-created"


def test_strix_halo_needs_614_oem_1014_or_newer() -> None:
    strix = {"gpus": {"agents": [agent(0, "gfx1151", True)]}}
    def too_old(release: str) -> object:
        return derived("derived.strix_halo_kernel_too_old", {**strix, "host": {"kernel_release": K(release)}}).value
    assert too_old("6.14.0-1013-oem") is True
    assert too_old("6.11.0-19-generic") is True
    assert too_old("6.14.0-1014-oem") is False
    assert too_old("6.17.0-5-generic") is False
    assert derived("derived.strix_halo_kernel_too_old", {"host": {"kernel_release": K("6.8.0-1-generic")}}).value is False
