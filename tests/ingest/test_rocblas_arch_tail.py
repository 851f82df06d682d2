"""rocBLAS's missing-Tensile-library message read from its own tail ("<strerror> for GPU arch : gfxNNNN")
where a title, a quote or the reporter cut its head (h35g). Shapes from ROCm/legacy-rocm-build#2719,
leejet/stable-diffusion.cpp#160 and githubcto/FramePack-ZLUDA#4."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

SIGNATURE = "tensile_library_missing_arch"


def _read(text: str):
    facts = ingest(text).facts
    signatures = facts.symptoms.signatures.value or []
    gfx = [str(agent.gfx.value) for agent in facts.gpus.agents if agent.gfx.is_known]
    return signatures, gfx


@pytest.mark.parametrize(
    ("text", "gfx"),
    [
        ("[Issue]: Illegal seek for GPU arch : gfx1103\n", "gfx1103"),
        ("rocBLAS error: {...} No such file or directory for GPU arch : gfx1031\n", "gfx1031"),
        ("ocBLAS error: TensileLibrary.dat: No such file or directory for GPU arch : gfx1201\n", "gfx1201"),
        ("I get rocBLAS error: Cannot read .../rocblas/library/TensileLibrary.dat for GPU arch : gfx1102 as soon as it starts\n", "gfx1102"),
        ("a matmul dies with `Illegal seek for GPU arch : gfx1013` on the official wheel\n", "gfx1013"),
    ],
)
def test_rocblas_message_tail_names_the_missing_target(text: str, gfx: str) -> None:
    signatures, targets = _read(text)
    assert SIGNATURE in signatures
    assert gfx in targets


def test_full_rocblas_message_still_reads_the_target_and_the_untargeted_form() -> None:
    full = "rocBLAS error: Cannot read D:\\AI Tools\\sd\\venv\\Lib\\site-packages\\torch\\lib\\rocblas\\library\\TensileLibrary.dat: No such file or directory for GPU arch : gfx1031\n"
    signatures, targets = _read(full)
    assert SIGNATURE in signatures and "gfx1031" in targets
    signatures, _ = _read("rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory\n")
    assert SIGNATURE in signatures


@pytest.mark.parametrize(
    "text",
    [
        "cat: /etc/foo: No such file or directory\n",
        "ls: cannot access 'x': No such file or directory for now\n",
        "rocblaslt error: Cannot read /opt/rocm/lib/hipblaslt/library/TensileLibrary_lazy_gfx1101.dat: No such file or directory\n",
        "python: can't open file 'run.py': [Errno 2] No such file or directory\n",
    ],
)
def test_other_missing_file_messages_are_not_rocblas_missing_target(text: str) -> None:
    signatures, _ = _read(text)
    assert SIGNATURE not in signatures
