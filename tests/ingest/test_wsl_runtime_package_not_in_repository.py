"""apt's words for an amdgpu repository without hsa-runtime-rocr4wsl-amdgpu (the ROCr runtime of the wsl use case)
are read as wsl_runtime_package_not_in_repository, and RD727 says the installer release has no WSL runtime; the
package named in advice or a condition, as installed, as a past error, on another person's machine, or another
package missing is not this. The texts are written for the test in the shapes of ROCm/legacy-rocm-build#3051, #3563,
#3924, #5361 and #5509."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

SIGNATURE = "wsl_runtime_package_not_in_repository"
APT = "E: Unable to locate package hsa-runtime-rocr4wsl-amdgpu\n"


@pytest.mark.parametrize(
    "text",
    [
        APT,
        "Reading state information... Done\nE: Unable to locate package hsa-runtime-rocr4wsl-amdgpu\nE: Unable to locate package hsa-runtime-rocr4wsl-amdgpu\n",
        "E: Package 'hsa-runtime-rocr4wsl-amdgpu' has no installation candidate\n",
        "running amdgpu-install -y --usecase=wsl,rocm --no-dkms prompts missing Unable to locate package hsa-runtime-rocr4wsl-amdgpu\n",
    ],
)
def test_apts_words_for_the_missing_wsl_runtime_are_read(text: str) -> None:
    assert SIGNATURE in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "E: Unable to locate package rocm-hip-runtime\n",
        "ii  hsa-runtime-rocr4wsl-amdgpu  1.14.0.60103-1787201.22.04  amd64  AMD Heterogeneous System Architecture HSA runtime for WSL\n",
        "As a workaround, install the hsa-runtime-rocr4wsl-amdgpu package from the 6.3 pool by hand.\n",
        "If you see E: Unable to locate package hsa-runtime-rocr4wsl-amdgpu, use the installer of a WSL release.\n",
        "With 6.2.3 I got E: Unable to locate package hsa-runtime-rocr4wsl-amdgpu, so I used the 6.1.3 installer, which installed fine.\n",
        "The 'Unable to locate package hsa-runtime-rocr4wsl-amdgpu' error is solved with the 6.1.3 installer.\n",
        "A friend on his machine gets E: Unable to locate package hsa-runtime-rocr4wsl-amdgpu, mine installed it.\n",
    ],
)
def test_the_package_installed_advised_past_or_elsewhere_or_another_package_missing_is_not_this(text: str) -> None:
    assert SIGNATURE not in signature_errors(text)


def test_the_wsl_use_case_failing_on_the_package_is_told_first() -> None:
    text = (
        "Ubuntu 22.04.4 LTS on WSL2, Radeon RX 7700 XT, ROCm 6.1\n"
        "$ sudo amdgpu-install -y --usecase=wsl,rocm --no-dkms\n" + APT
    )
    shown = problems_shown(text)
    assert shown and shown[0] == "RD727"
