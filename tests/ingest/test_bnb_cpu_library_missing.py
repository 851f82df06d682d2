"""bitsandbytes falling back to a CPU library it does not have ("libbitsandbytes_cpu.so: cannot open shared object
file") is, on an AMD machine, a bitsandbytes built for another torch (RD679, signature bnb_cpu_library_missing):
ROCm/bitsandbytes#30, #35; ROCm's fork names the case in cextension.py (41f21d4). Beside a CUDA torch the same line
follows a failed CUDA setup (bitsandbytes#1190) and is not read as an AMD package mismatch. Assertions are about categories.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings

_MISSING = (
    "OSError: /opt/conda/envs/py_3.10/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cpu.so: "
    "cannot open shared object file: No such file or directory"
)


@pytest.mark.parametrize(
    "head",
    [
        "GPU: MI250, ROCm 6.1.0, built with cmake -DCOMPUTE_BACKEND=hip",
        "Radeon RX 7900 XTX on Ubuntu 22.04 with ROCm 6.3",
        "torch 2.4.0+rocm6.1 on an AMD GPU",
    ],
)
def test_the_cpu_library_missing_on_an_amd_machine_is_a_package_finding(head: str) -> None:
    report = f"{head}\nCould not load bitsandbytes native library: {_MISSING}\n"
    assert "bnb_cpu_library_missing" in (ingest(report).facts.symptoms.signatures.value or [])
    assert "packages" in [category for _, _, category in serious_findings(report)]


def test_the_cpu_library_missing_beside_a_cuda_torch_is_not_an_amd_package_finding() -> None:
    report = f"NVIDIA GeForce RTX 3060, torch 2.3.0+cu121\n{_MISSING}\n"
    assert "RD679" not in [rule for rule, _, _ in serious_findings(report)]


def test_a_loaded_cpu_library_is_not_a_missing_one() -> None:
    report = "ROCm 6.2, RX 6800\nThe installed version of bitsandbytes was compiled without GPU support.\n"
    assert "bnb_cpu_library_missing" not in (ingest(report).facts.symptoms.signatures.value or [])


@pytest.mark.parametrize(
    "line",
    [
        'Changelog 0.45.5: fixed "libbitsandbytes_cpu.so: cannot open shared object file" when the wheel lacked it.',
        "Why does bitsandbytes look for libbitsandbytes_cpu.so: cannot open shared object file?",
    ],
)
def test_the_file_named_outside_the_raised_error_is_not_read(line: str) -> None:
    report = f"RX 6800, ROCm 6.1, torch 2.4.0+rocm6.1\n{line}\n"
    assert "bnb_cpu_library_missing" not in (ingest(report).facts.symptoms.signatures.value or [])


def test_the_cpu_library_missing_when_torch_sees_no_gpu_is_not_a_package_finding() -> None:
    report = f"RX 6800, ROCm 6.1, torch 2.4.0+rocm6.1\n>>> torch.cuda.is_available()\nFalse\n{_MISSING}\n"
    assert "RD679" not in [rule for rule, _, _ in serious_findings(report)]
