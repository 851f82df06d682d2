"""A ROCm release named as a requirement or a floor is not the system's installed release.

"requires ROCm 6.0 or later", "needs at least ROCm 6.1", "ROCm 5.5 is oldest for PyTorch 2.1" and torch.cuda's
"amdsmi driver can't be loaded, requires >=ROCm5.6 installation" name what a program asks for. Read as the
installed release beside the real one, the two clashed and blanked rocm.version. Shapes from real reports where a
requirement stands beside the system's release: ROCm/rocprofiler-compute#64 ("require rocm 5.2.0 or newer" beside
rocm/5.1.0 in use), ROCm/numba-hip#5 (support restricted "to >= ROCm 6.3.0" beside ROCm 6.1 installed),
ROCm/hipfort#12 ("We need ROCm 3.5" beside ROCm 3.3.0 in use), ROCm/rocWMMA#491 ("require at least ROCm version ...
The detected ROCm version is ..."), pytorch/pytorch#171126 (the amdsmi message); unsloth-8402's installer warning
in tests/corpus.
"""

from __future__ import annotations

from typing import Optional

import pytest
from ingest_helpers import ingest


def _rocm(text: str) -> Optional[str]:
    fact = ingest(text).facts.rocm.version
    return fact.value if fact.is_known else None


@pytest.mark.parametrize(
    "text",
    [
        "This plugin requires ROCm 6.0 or later.",
        "The build needs ROCm 6.0 minimum.",
        "You need at least ROCm 6.1 for this card.",
        "RuntimeError: amdsmi driver can't be loaded, requires >=ROCm5.6 installation",
        "# ROCm 5.5 is oldest for PyTorch 2.1",
        "We restricted the support to >= ROCm 6.3.0 because this is what we test.",
        "Minimum ROCm version: 6.2",
        "ROCm 6.2 is required for gfx1100.",
        "ROCm 6.4 is the newest supported release.",
        "The wheels require ROCm 6.0+",
        "It needs ROCm version 6.3 release or newer",
    ],
)
def test_a_requirement_alone_is_never_the_installed_release(text: str) -> None:
    assert _rocm(text) is None


@pytest.mark.parametrize(
    "text, installed",
    [
        # unsloth-8402's installer warning: the detected release is the system's, the 6.0+ one the gate's
        ("[WARN] ROCm rocm5.7 detected but PyTorch ROCm wheels require ROCm 6.0+ -- falling back to CPU-only PyTorch", "5.7"),
        ("Ubuntu 22.04.3, with ROCM 5.7.1\n# ROCm 5.5 is oldest for PyTorch 2.1", "5.7.1"),
        ("ROCm 3.3.0 is currently in use on the system. We need ROCm 3.5.", "3.3.0"),
        ("Latest installation I had to test was ROCM 6.1.\nWe restricted the support to >= ROCm 6.3.0.", "6.1"),
        ("I have ROCm 6.1 installed but the library requires ROCm 6.3 or newer", "6.1"),
        ("ROCm 6.0.2 here.\nRuntimeError: amdsmi driver can't be loaded, requires >=ROCm5.6 installation", "6.0.2"),
    ],
)
def test_the_system_release_beside_a_requirement_is_still_read(text: str, installed: str) -> None:
    assert _rocm(text) == installed


@pytest.mark.parametrize(
    "text, installed",
    [
        ("I have ROCm 6.0 installed", "6.0"),
        ("running ROCm 6.2 on Ubuntu 24.04", "6.2"),
        ("ROCm 6.2 required a reboot after the install", "6.2"),  # a past verb with its object: said of the installed one
        ("I am running ROCm 6.2, which meets the ROCm 6.0 minimum", "6.2"),
    ],
)
def test_an_installed_release_said_in_words_is_still_read(text: str, installed: str) -> None:
    assert _rocm(text) == installed


@pytest.mark.parametrize(
    "text",
    [
        "I have ROCm 6.1 installed but the library requires\nROCm 6.3 or\nlater",
        "> I have ROCm 6.1 installed but the library requires\n> ROCm 6.3 or\n> later",
        "    I have ROCm 6.1 installed but the library requires ROCm 6.3 or later",
        "I have rocm6.1 installed but the library requires rocm6.3 or later",
        "I have ROCm v6.1 installed but the library requires ROCm v6.3 or later",
    ],
)
def test_a_wrapped_quoted_or_respelled_requirement_stays_unread(text: str) -> None:
    assert _rocm(text) == "6.1"
