"""The kernel driver and the Windows display driver as reports name them (issue 23, driver_too_old).

Each form is the shape several independent real reports use (the sources are named per test);
the texts are written for the test, not copied from one report. Assertions are about facts.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest


def signatures(text: str) -> list:
    found = ingest(text).facts.symptoms.signatures
    return list(found.value or []) if found.is_known else []


@pytest.mark.parametrize(
    "text, release",
    [
        # ollama#7107, AMD Software's own name for the release
        ("The latest Adrenalin Edition 24.9.1 slows everything down.\n", "24.9.1"),
        # ollama#7425, ROCm/legacy-rocm-build#5829
        ("I'm using Adrenalin 24.10.1 and the model sits in RAM.\n", "24.10.1"),
        ("AMD Chat broke in AMD Adrenalin 25.12.1.\n", "25.12.1"),
        # ROCm/hip#3644, ollama#7715: an update names the release now installed after "to"
        ("I updated my driver from 24.9.1 to 24.10.1 (latest available version).\n", "24.10.1"),
        ("After updating amd drivers to v-24.10.1 it stopped using VRAM.\n", "24.10.1"),
        ("I have updated to the latest Adrenalin Drivers (26.1.1).\n", "26.1.1"),
    ],
)
def test_an_adrenalin_release_named_in_prose_is_the_windows_driver(text: str, release: str) -> None:
    assert ingest(text).facts.windows.driver_version.value == release


@pytest.mark.parametrize(
    "text",
    [
        "amdgpu-pro driver 21.50.2 on Ubuntu 20.04\n",  # AMD's Linux driver numbering
        "I am not using driver 24.9.1 any more\n",
        "Driver Version: 32.0.12011.1036\n",  # the WMI version, another numbering
        "the Pro edition driver that comes with the HIP SDK works\n",
    ],
)
def test_numbers_that_are_not_an_adrenalin_release_are_not_read_as_one(text: str) -> None:
    assert not ingest(text).facts.windows.driver_version.is_known


def test_two_different_adrenalin_releases_leave_the_driver_unknown() -> None:
    text = "It broke in Adrenalin 25.12.1.\n\nLater: updated to Adrenalin 26.1.1, works now.\n"
    assert not ingest(text).facts.windows.driver_version.is_known


@pytest.mark.parametrize(
    "text",
    [
        # DKMS 3.x (ROCm/legacy-rocm-build#5905, #5111)
        "Autoinstall of module amdgpu/6.16.13-2278356.24.04 for kernel 6.18.7-061807-generic (x86_64)\n"
        "Building module(s)......(bad exit status: 2)\nFailed command:\n'make' KERNELVER=6.18.7-061807-generic\n",
        # Ubuntu's dkms apport hook (legacy-rocm-build#449, #546, #4619)
        "Loading new amdgpu-1.9-211 DKMS files...\n"
        "ERROR (dkms apport): kernel package linux-headers-4.17.0-041700-generic is not supported\n",
    ],
)
def test_the_newer_dkms_wordings_of_an_amdgpu_build_failure_are_read(text: str) -> None:
    assert "amdgpu_dkms_build_failed" in signatures(text)


def test_a_dkms_3_build_failure_of_another_module_is_not_amdgpus() -> None:
    text = "Autoinstall of module nvidia/550.54 for kernel 6.8.0-45-generic (x86_64)\nBuilding module(s)......(bad exit status: 2)\n"
    assert "amdgpu_dkms_build_failed" not in signatures(text)
