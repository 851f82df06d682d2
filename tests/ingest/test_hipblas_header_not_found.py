"""An extension built against a ROCm torch that stops on <hipblas/hipblas.h> (torch's ATen/hip/Exceptions.h includes
it) is read in clang's, gcc's and a title's words, and on an AMD machine RD591 names the missing ROCm development
headers (TheRock's rocm[devel], or a system ROCm's hipBLAS development package); another header, or a CUDA machine,
is not this. The texts are written for the test in the shapes of ROCm/TheRock#2152, #4524 and #6379 and
pytorch/pytorch#196503."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

SIGNATURE = "hipblas_header_not_found"
CLANG = (
    "In file included from /github/home/.cache/torch_extensions/py313_cpu/dummy_allocator/main_hip.cpp:5:\n"
    "/__w/TheRock/TheRock/.venv/lib/python3.13/site-packages/torch/include/ATen/hip/Exceptions.h:4:10: "
    "fatal error: 'hipblas/hipblas.h' file not found\n"
)


@pytest.mark.parametrize(
    "text",
    [
        CLANG,
        "JIT extensions then fail to compile with `hipblas/hipblas.h: No such file or directory`.\n",
        "Linux Pytorch: `TestMemPool::test_snapshot_include_traces` fails to compile extension: `hipblas/hipblas.h` not found\n",
        "/opt/venv/lib/python3.12/site-packages/torch/include/ATen/hip/Exceptions.h:5:10: fatal error: hipblas/hipblas.h: No such file or directory\n",
    ],
)
def test_the_missing_hipblas_header_is_read_in_its_shapes(text: str) -> None:
    assert SIGNATURE in signature_errors(text)


def test_another_missing_header_is_not_this() -> None:
    assert SIGNATURE not in signature_errors("fatal error: 'hip/hip_runtime.h' file not found\n")


def test_on_an_amd_machine_the_missing_devel_headers_are_told() -> None:
    text = "torch 2.12.0+rocm7.14.0, gfx1100\nRuntimeError: Error building extension 'my_ext'\n" + CLANG
    assert "RD591" in problems_shown(text)


def test_a_cuda_machine_is_not_rd591s() -> None:
    text = "torch 2.4.0+cu124\nGPU 0: NVIDIA GeForce RTX 4080\nfatal error: 'hipblas/hipblas.h' file not found\n"
    assert "RD591" not in problems_shown(text)


def _finding(text: str, rule: str):
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate
    from ingest_helpers import ingest

    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    return next(f for f in findings if f.id == rule)


def test_a_hip_program_that_includes_hipblas_itself_is_not_told_it_is_a_torch_extension() -> None:
    # review66: the compiler's words are the same in a llama.cpp HIP build (ggml-org/llama.cpp#9815), where no torch
    # extension is built: RD591 names the build and the missing development files, not "an extension built against
    # this torch"
    text = (
        "RX 7900 XTX, ROCm 6.2, torch 2.5.1+rocm6.2 also installed\nBuilding llama.cpp with -DGGML_HIP=ON:\n"
        "/home/u/llama.cpp/ggml/src/ggml-cuda/vendors/hip.h:5:10: fatal error: 'hipblas/hipblas.h' file not found\n"
    )
    finding = _finding(text, "RD591")
    assert "extension built against this torch" not in finding.title
    assert "hipBLAS headers" in finding.title
