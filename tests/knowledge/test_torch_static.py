"""Reading torch's version string and torch/version.py without importing torch."""

from __future__ import annotations

import pytest

from rocm_doctor.knowledge.torch_static import (
    cuda_version_from_tag,
    distributor,
    local_tag,
    parse_version_py,
    public_version,
    rocm_version,
    torch_flavour,
)

VERSION_PY_213 = """from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'rocm', 'xpu']
__version__ = '2.13.0+cpu'
debug = False
cuda: Optional[str] = None
git_version = 'cf30153c4c131c8164ee7798e5022d810682e2cb'
hip: Optional[str] = None
rocm: Optional[str] = None
xpu: Optional[str] = None
"""


def test_version_py_annotated_assignments_are_read():
    values = parse_version_py(VERSION_PY_213)
    assert values["__version__"] == "2.13.0+cpu" and values["hip"] is None and values["cuda"] is None
    assert values["git_version"].startswith("cf30153c")


def test_version_py_is_never_executed(tmp_path):
    marker = tmp_path / "ran"
    text = f"import pathlib\npathlib.Path({str(marker)!r}).write_text('x')\nhip = compute()\ncuda = '12.4'\n"
    values = parse_version_py(text)
    assert not marker.exists()
    assert values == {"cuda": "12.4"}


def test_version_py_syntax_error_is_a_value_error():
    with pytest.raises(ValueError, match="not valid Python"):
        parse_version_py("hip = '6.2\n")


@pytest.mark.parametrize(
    ("version", "hip", "flavour", "rocm", "who"),
    [
        ("2.5.1+rocm6.2", "6.2.41133-dd7f95766", "rocm", "6.2", "pytorch.org"),
        ("2.6.0+rocm6.2.4", "6.2.41134-65d174c3e", "rocm", "6.2.4", "pytorch.org"),
        ("2.6.0+rocm6.4.1.git1ded221d", "6.4.43482-0f2d60242", "rocm", "6.4.1", "amd"),
        ("2.9.1+rocmsdk20260116", "7.2.26015-fc0010cf6a", "rocm", "7.2", "amd"),
        ("2.8.0a0+gitfc14c65", "6.4.43482-0f2d60242", "rocm", "6.4", "amd"),
        ("2.5.1+cu124", None, "cuda", None, "pytorch.org"),
        ("2.13.0+cpu", None, "cpu", None, "pytorch.org"),
        ("2.7.0+xpu", None, "xpu", None, "pytorch.org"),
        ("2.5.1", None, None, None, "pypi"),
        ("2.5.0a0+e000cf0ad9.nv24.10", None, None, None, None),
    ],
)
def test_flavour_rocm_version_and_distributor(version, hip, flavour, rocm, who):
    tag = local_tag(version)
    version_py = {"hip": hip, "cuda": None} if hip else None
    assert torch_flavour(tag, version_py) == flavour
    assert rocm_version(tag, hip) == rocm
    assert distributor(version, hip) == who


def test_plain_pypi_torch_flavour_comes_from_version_py():
    assert torch_flavour(None, {"hip": None, "cuda": "12.4"}) == "cuda"
    assert torch_flavour(None, {"hip": None, "cuda": None}) == "cpu"


def test_version_helpers():
    assert public_version("2.13.0+cpu") == "2.13.0"
    assert cuda_version_from_tag("cu124") == "12.4" and cuda_version_from_tag("cu118") == "11.8"
    assert cuda_version_from_tag("rocm6.2") is None
