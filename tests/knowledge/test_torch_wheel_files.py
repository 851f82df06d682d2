"""A torch wheel's file name says its build: the local tag, else PyPI's build for the platform tag."""

from __future__ import annotations

from typing import Optional

import pytest

from rocm_doctor.errors import InputError
from rocm_doctor.knowledge.torch_wheel_files import parse_platform, wheel_build


@pytest.mark.parametrize(
    ("name", "build", "not_rocm"),
    [
        ("torch-2.4.0-cp310-cp310-manylinux1_x86_64.whl", "cuda", True),
        ("torch-2.7.1-cp312-cp312-manylinux_2_28_x86_64.whl", "cuda", True),
        ("torch-2.4.0-cp312-cp312-win_amd64.whl", "cpu", True),
        ("https://download.pytorch.org/whl/cu121/torch-2.3.0%2Bcu121-cp311-cp311-linux_x86_64.whl", "cuda", True),
        ("torch-2.5.1+cpu-cp311-cp311-win_amd64.whl", "cpu", True),
        ("torch-2.4.0+rocm6.3.4.git7cecbf6d-cp312-cp312-linux_x86_64.whl", "rocm", False),
        ("torch-2.9.1+rocmsdk20251203-cp312-cp312-win_amd64.whl", "rocm", False),
        # a release PyPI's file of which was not checked is still no ROCm build
        ("torch-1.1.0-cp36-cp36m-manylinux1_x86_64.whl", None, True),
        # not judged: no ROCm on macOS, no ROCm build for aarch64, a platform tag PyPI refuses
        ("torch-2.4.0-cp312-none-macosx_11_0_arm64.whl", None, False),
        ("torch-2.9.0-cp312-cp312-manylinux_2_28_aarch64.whl", None, False),
        ("torch-2.4.0-cp310-cp310-linux_x86_64.whl", None, False),
        # a source build or one of AMD's previews: the tag does not say
        ("torch-2.8.0a0+gitfc14c65-cp312-cp312-win_amd64.whl", None, False),
    ],
)
def test_the_build_comes_from_the_local_tag_else_the_platform_tag(name: str, build: Optional[str], not_rocm: bool) -> None:
    found = wheel_build(name)
    assert found is not None
    assert (found.build, found.not_rocm) == (build, not_rocm)


@pytest.mark.parametrize(
    "text",
    ["Downloading torch (755.2MiB)", "torchvision-0.19.0-cp310-cp310-manylinux1_x86_64.whl", "pip install torch", "torch-2.4.0.tar.gz"],
)
def test_text_naming_no_torch_wheel_says_nothing(text: str) -> None:
    assert wheel_build(text) is None


def test_platform_tags_are_read_not_guessed() -> None:
    assert parse_platform("manylinux2014_x86_64") == ("linux", "x86_64", True)
    assert parse_platform("manylinux_2_28_aarch64") == ("linux", "aarch64", True)
    assert parse_platform("linux_x86_64") == ("linux", "x86_64", False)
    assert parse_platform("win_amd64") == ("windows", "amd64", True)
    assert parse_platform("macosx_11_0_arm64") == ("macos", "arm64", True)
    assert parse_platform("any") is None


def test_a_table_row_without_a_public_source_is_refused() -> None:
    table = {"platforms": [{"os": "linux", "machine": "x86_64", "build": "cuda", "releases": ">=2.0"}]}
    with pytest.raises(InputError):
        wheel_build("torch-2.4.0-cp310-cp310-manylinux1_x86_64.whl", table)


def test_a_long_line_is_read_in_linear_time() -> None:
    line = "Downloading " + "torch-1" * 200_000 + " (1 MB)"
    assert wheel_build(line) is None
