"""A CUDA-only package (bitsandbytes before its ROCm backend) splitting torch.version.cuda, which a ROCm
build of torch leaves as None (issue 23, class cuda_wheel_on_amd; RD765). Assertions are about
signatures and finding categories, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import serious_findings, signature_errors

SPLIT = "cuda_version_read_on_rocm_torch"

HEADER = "System Info: rocm6.3, amdgpu gfx1030\n"
TRACEBACK = """\
```
Traceback (most recent call last):
  File "/venv/lib/python3.12/site-packages/bitsandbytes/cuda_specs.py", line 24, in get_cuda_version_tuple
    major, minor = map(int, torch.version.cuda.split("."))
AttributeError: 'NoneType' object has no attribute 'split'
```
"""


@pytest.mark.parametrize(
    "text",
    [
        # bitsandbytes-foundation/bitsandbytes#1513, #1212, ROCm/ROCm-docker#149: bitsandbytes' own line
        "Could not load bitsandbytes native library: 'NoneType' object has no attribute 'split'",
        # a forum paste turns the quotes
        "Could not load bitsandbytes native library: ‘NoneType’ object has no attribute ‘split’",
        # oobabooga/textgen#3339: the code line and the error quoted together
        '>major, minor = map(int, torch.version.cuda.split("."))\n>AttributeError: \'NoneType\' object has no attribute \'split\'',
        TRACEBACK,
    ],
)
def test_a_cuda_only_split_of_torch_version_cuda_is_read(text: str) -> None:
    assert SPLIT in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # the code line alone (a source listing, no failure)
        'major, minor = map(int, torch.version.cuda.split("."))',
        # another None without a split of torch.version.cuda
        "AttributeError: 'NoneType' object has no attribute 'split'",
        # bitsandbytes failing for another reason
        "Could not load bitsandbytes native library: libcudart.so.12: cannot open shared object file",
    ],
)
def test_other_none_errors_and_code_listings_are_not_read_as_the_split(text: str) -> None:
    assert SPLIT not in signature_errors(text)


def test_the_split_on_a_rocm_machine_is_a_torch_build_error() -> None:
    # an error, not only the catch-all warning every unexplained signature gets (RD599)
    assert "torch-build" in {category for _, severity, category in serious_findings(HEADER + TRACEBACK) if severity == "error"}


@pytest.mark.parametrize(
    "shown",
    [
        "torch 2.0.1+cpu",  # RD501's evidence
        "torch 2.1.0+cu121",  # a CUDA torch on the AMD machine is RD528's
        "GPU 0: NVIDIA GeForce RTX 3090",  # the CUDA torch may be for this GPU
    ],
)
def test_the_split_beside_a_cpu_or_cuda_torch_or_an_nvidia_gpu_is_not_blamed_on_a_cuda_only_package(shown: str) -> None:
    text = HEADER + TRACEBACK + "\n" + shown + "\n"
    assert "RD765" not in {rule for rule, _, _ in serious_findings(text)}
