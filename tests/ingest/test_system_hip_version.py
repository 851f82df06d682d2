"""The system's HIP (hipcc/hipconfig output) stands for the system's ROCm release where rocm.version is not
read, for ROCm 5.x and 6.x whose HIP carries the release (trm48, issue 23).

Forms of ROCm/ROCm#3598, Dao-AILab/flash-attention#1307 and ROCm/ROCm#4369 (hipcc/hipconfig output pasted
beside torch's own version); the texts are written for the test.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown

from rocm_doctor.judge.derived_facts.torch import system_rocm_series


def _system_series(text: str):
    fact = system_rocm_series(ingest(text).facts, None)
    return fact.value if fact.is_known else None


@pytest.mark.parametrize(
    "text, series",
    [
        ("$ hipconfig --version\n6.2.41133-dd7f95766\n", "6.2"),
        # hipcc's output pasted under torch's version (one block)
        (
            "torch version: 2.3.0+rocm6.0\nhipcc --version\nHIP version: 5.7.31921-d1770ee1b\n"
            "AMD clang version 17.0.0 (https://github.com/RadeonOpenCompute/llvm-project roc-5.7.1 23382 f3e174a1d286)\n",
            "5.7",
        ),
    ],
)
def test_the_systems_hip_gives_its_rocm_series(text: str, series: str) -> None:
    assert _system_series(text) == series


def test_rocm_version_read_outranks_the_hip_version() -> None:
    text = "$ cat /opt/rocm/.info/version\n6.1.3-122\n$ hipconfig --version\n6.2.41133-dd7f95766\n"
    assert _system_series(text) == "6.1"


def test_a_hip_7_version_does_not_name_the_rocm_release() -> None:
    # TheRock's ROCm 7 previews carry HIP 7.1 (pytorch/pytorch#168097): the series is not the release's
    assert _system_series("$ hipconfig --version\n7.1.25344-b46750915f\n") is None


def test_torchs_hip_is_not_the_systems() -> None:
    text = ">>> import torch\n>>> torch.version.hip\n'6.2.41133-dd7f95766'\n"
    assert _system_series(text) is None


def test_a_wheel_of_another_rocm_than_the_systems_hip_is_named() -> None:
    text = "$ hipconfig --version\n6.2.41133-dd7f95766\ntorch.version.hip: 5.7.31921-d1770ee1b\nRX 7900 XT: Segmentation fault (core dumped)\n"
    assert "RD580" in problems_shown(text)


@pytest.mark.parametrize(
    "hip, series",
    # HIP's version file / hipvars.pm at ROCm's release tags (rocm-5.0.0: HIP_BASE_VERSION 5.0; rocm-6.1.2: 6.1.40093)
    [("5.0.13601-ded05588", "5.0"), ("6.1.40093-bd86f1708", "6.1"), ("4.4.21432-f9dccde4", None)],
)
def test_hip_5_and_6_name_their_rocm_release_and_older_hip_does_not(hip: str, series) -> None:
    assert _system_series(f"$ hipconfig --version\n{hip}\n") == series
