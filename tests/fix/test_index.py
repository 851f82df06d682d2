"""--verify-index against a real HTTP server on 127.0.0.1 serving a small PEP 503 index."""

from __future__ import annotations

import socket
from typing import Iterator

import pytest

from rocm_doctor.fix.index import target_tags, verify_on_index, verify_url
from .localindex import build_wheel, serve, write_simple_index


@pytest.fixture(scope="module")
def index_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("index")
    wheels = root / "wheels"
    wheels.mkdir()
    for version in ("2.12.1+rocm7.2", "2.13.0+rocm7.1", "2.13.0+rocm7.2"):
        build_wheel(wheels, "torch", version, {"torch/__init__.py": ""}, tag="cp312-cp312-manylinux_2_28_x86_64")
    build_wheel(wheels, "torchvision", "0.28.0+rocm7.2", {"torchvision/__init__.py": ""}, tag="cp311-cp311-linux_x86_64")
    write_simple_index(root, wheels)
    for base in serve(root):
        yield f"{base}/simple/"


LINUX_312 = target_tags("3.12", "linux")


def test_an_existing_wheel_for_this_python_and_platform_is_accepted(index_url: str) -> None:
    verdict = verify_on_index(index_url, "torch", "2.13", LINUX_312, local_prefix="rocm7.2")
    assert verdict.status == "found"
    assert verdict.version == "2.13.0+rocm7.2"
    assert "torch-2.13.0+rocm7.2-cp312-cp312-manylinux_2_28_x86_64.whl" in verdict.detail


def test_a_version_the_index_does_not_have_is_refused(index_url: str) -> None:
    verdict = verify_on_index(index_url, "torch", "2.14", LINUX_312)
    assert verdict.status == "missing"
    assert "no wheel of torch 2.14" in verdict.detail


def test_a_wheel_for_another_python_is_refused(index_url: str) -> None:
    assert verify_on_index(index_url, "torchvision", "0.28", LINUX_312).status == "missing"
    assert verify_on_index(index_url, "torchvision", "0.28", target_tags("3.11", "linux")).status == "found"


def test_a_linux_wheel_does_not_satisfy_windows(index_url: str) -> None:
    assert verify_on_index(index_url, "torch", "2.13", target_tags("3.12", "windows")).status == "missing"


def test_a_package_the_index_does_not_list_is_missing(index_url: str) -> None:
    verdict = verify_on_index(index_url, "torchaudio", None, LINUX_312)
    assert verdict.status == "missing"


def test_a_direct_wheel_url_is_checked_by_tag_and_by_the_server(index_url: str) -> None:
    base = index_url.replace("/simple/", "/files/")
    ok = verify_url(base + "torch-2.13.0%2Brocm7.2-cp312-cp312-manylinux_2_28_x86_64.whl", "torch", LINUX_312)
    assert ok.status == "found"
    gone = verify_url(base + "torch-9.9.9-cp312-cp312-manylinux_2_28_x86_64.whl", "torch", LINUX_312)
    assert gone.status == "missing"
    wrong = verify_url(base + "torch-2.13.0-cp312-cp312-win_amd64.whl", "torch", LINUX_312)
    assert wrong.status == "missing" and "does not fit" in wrong.detail


def test_an_unreachable_index_is_not_verified_with_the_reason() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    verdict = verify_on_index(f"http://127.0.0.1:{port}/simple/", "torch", "2.13", LINUX_312)
    assert verdict.status == "not-verified"
    assert "could not reach" in verdict.detail
