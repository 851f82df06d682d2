"""A version given for ROCm that no ROCm release has is not read as the installed ROCm (fix54a).

ROCm 5 ended at 5.7 and ROCm 6 at 6.4 (AMD's release series, rules/data/amdgpu_driver.yaml ``series``); a
"ROCm: 6.10.5" is the amdgpu kernel module's own version (the table's ``releases`` pair 6.10.5 with ROCm 6.3),
as rocminfo's "ROCk module version 6.10.5 is loaded" beside it says (ollama/ollama#9999). Unknown is not false:
such a number leaves the release unknown; real releases (6.2.4, TheRock's 7.10) are still read.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown

from rocm_doctor.knowledge.rocm_releases import not_a_rocm_release


@pytest.mark.parametrize("version", ["6.10.5", "6.12.12", "6.16.6", "6.5", "5.16.9"])
def test_minor_beyond_a_closed_rocm_major_is_no_rocm_release(version: str) -> None:
    assert not_a_rocm_release(version)


@pytest.mark.parametrize("version", ["6.4.3", "6.2.4", "6.0", "5.7.1", "7.2.1", "7.10.0", "7.14", "5.0", "3.10", "2.10", "rocm"])
def test_real_or_undecidable_rocm_releases_are_not_refused(version: str) -> None:
    assert not not_a_rocm_release(version)


_MODULE_VERSION_AS_ROCM = (
    "## Environment\n"
    "OS: Ubuntu 24.04 LTS\n"
    "ROCm: 6.10.5\n"
    "GPU: Radeon 890M (gfx1150)\n\n"
    "```\n"
    "ROCk module version 6.10.5 is loaded\n"
    "=====================\n"
    "HSA System Attributes\n"
    "=====================\n"
    "Runtime Version:         1.14\n"
    "```\n"
)


def test_amdgpu_module_version_in_a_rocm_field_leaves_the_rocm_release_unknown() -> None:
    facts = ingest(_MODULE_VERSION_AS_ROCM).facts
    assert facts.rocm.version.status == "unknown"
    assert facts.driver.amdgpu_version.value == "6.10.5"


def test_amdgpu_module_version_in_a_rocm_field_gives_no_driver_gap_warning() -> None:
    assert "RD384" not in problems_shown(_MODULE_VERSION_AS_ROCM)


@pytest.mark.parametrize("release", ["6.2.4", "7.10.0"])
def test_a_real_rocm_release_in_a_rocm_field_is_still_read(release: str) -> None:
    facts = ingest(f"OS: Ubuntu 24.04 LTS\nROCm: {release}\nGPU: RX 7900 XTX\n").facts
    assert facts.rocm.version.value == release


def test_a_real_rocm_release_beside_the_module_version_is_read_without_a_conflict() -> None:
    # rev54x: "ROCm: 6.10.5" (the module) beside "ROCm version: 6.3.3" was a conflict on main; now the release wins
    facts = ingest("OS: Ubuntu 22.04\nROCm: 6.10.5\nROCm version: 6.3.3\n").facts
    assert facts.rocm.version.value == "6.3.3"


@pytest.mark.parametrize(
    "text, release",
    [
        ("OS: Ubuntu 22.04\nsudo apt install ./amdgpu-install_6.4.60401-1_all.deb\n", "6.4.1"),
        ("OS: Ubuntu 22.04\nii  rocm-core  6.4.1.60401-83~22.04  amd64  ROCm Runtime software stack\n", "6.4.1"),
        ("OS: Ubuntu 24.04\n$ dkms status\namdgpu/6.10.5-2109964.24.04, 6.8.0-45-generic, x86_64: installed\nROCm: 6.3.1\n", "6.3.1"),
    ],
)
def test_package_versions_and_dkms_lines_keep_the_real_rocm_release(text: str, release: str) -> None:
    # rev54x: amdgpu-install/rocm-core package numbers (6.4.60401) and a dkms line naming amdgpu/6.10.5 do not disturb it
    assert ingest(text).facts.rocm.version.value == release
