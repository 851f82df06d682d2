"""Which distribution's own kernel a release names (rules/data/kernel_gpu_support.yaml, own_amdgpu_kernels; drv60).

The spellings are the ones real reports show (each row of the table names its reports): a kernel release that
names Arch or Fedora means the kernel's own amdgpu drives the GPU, since AMD packages no amdgpu-dkms there."""

from __future__ import annotations

import pytest

from rocm_doctor.judge.derived_facts.kernel_gpu import own_amdgpu_kernel_distro
from rocm_doctor.judge.derived import Tables


@pytest.mark.parametrize(
    "release, distro",
    [
        ("6.7.4-arch1-1", "arch"),  # Comfy-Org/ComfyUI#2842
        ("6.9.3-arch1-1", "arch"),  # netblue30/firejail#6364
        ("5.5.8-arch1-1", "arch"),  # rocm-arch/rocm-arch#55
        ("7.0.12-zen1-1-zen", "arch"),  # Comfy-Org/ComfyUI#14501
        ("6.17.7-300.fc43.x86_64", "fedora"),  # invoke-ai/InvokeAI#8655
        ("7.0.11-200.fc44.x86_64", "fedora"),  # legacy-rocm-build#6358
        ("6.17.8-200.nobara.fc43.x86_64", "fedora"),  # Nobara builds Fedora's kernel RPMs
    ],
)
def test_a_release_of_a_distribution_without_amd_dkms_names_it(release: str, distro: str) -> None:
    assert own_amdgpu_kernel_distro(release, Tables()) == distro


@pytest.mark.parametrize(
    "release",
    [
        "6.8.0-45-generic",  # Ubuntu: AMD builds amdgpu-dkms for it
        "6.14.0-1013-oem",
        "5.14.0-570.12.1.el9_6.x86_64",  # RHEL
        "6.1.0-18-amd64",  # Debian
        "6.6.87.2-microsoft-standard-WSL2",
        "6.8.9",  # a bare number says no distribution
        "6.18.35-1-lts",  # Arch's linux-lts and Alpine's both print -lts: not read
        "6.8.12-4-pve",
    ],
)
def test_other_releases_name_no_such_distribution(release: str) -> None:
    assert own_amdgpu_kernel_distro(release, Tables()) is None
