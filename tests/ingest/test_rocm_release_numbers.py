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
