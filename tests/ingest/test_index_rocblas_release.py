"""A pytorch.org ROCm index whose ROCm predates the GPU's rocBLAS kernels (h35g: RD627): RDNA4 on the
rocm6.2.4 index, where torch 2.7 has gfx12 code objects but ROCm 6.2's rocBLAS has no Tensile library for them."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings


def _ids(text: str):
    return [rule for rule, _, _ in serious_findings(text)]


def test_rdna4_on_the_rocm624_index_has_no_rocblas_kernels() -> None:
    text = "Radeon RX 9070 on Fedora; I did pip install torch --index-url https://download.pytorch.org/whl/rocm6.2.4 but nothing runs on the GPU\n"
    assert "RD627" in _ids(text)


def test_a_newer_index_or_an_rdna3_card_or_a_shown_torch_is_not_this_finding() -> None:
    base = "Radeon RX 9070 on Fedora; I did pip install torch --index-url https://download.pytorch.org/whl/rocm6.2.4 but nothing runs on the GPU\n"
    assert "RD627" not in _ids(base.replace("rocm6.2.4", "rocm6.3"))
    assert "RD627" not in _ids(base.replace("Radeon RX 9070", "Radeon RX 7900 XTX"))
    assert "RD627" not in _ids(base + "torch.__version__ is 2.7.1+rocm6.2.4\n")


@pytest.mark.parametrize(
    "sentence",
    [
        "Should I install with pip install torch --index-url https://download.pytorch.org/whl/rocm6.2.4 or wait?",
        "I used to install torch with pip from https://download.pytorch.org/whl/rocm6.2.4, now I build it.",
        "My friend ran pip install torch --index-url https://download.pytorch.org/whl/rocm6.2.4 on his card.",
        "Do I need pip install torch --index-url https://download.pytorch.org/whl/rocm6.2.4 for this",
    ],
)
def test_an_index_asked_about_used_before_or_by_someone_else_is_no_install(sentence: str) -> None:
    # RD627 is an error: the index must be the one this machine installed from
    text = "Radeon RX 9070 XT on Ubuntu 24.04. " + sentence + "\n"
    assert "RD627" not in _ids(text)
    fact = ingest(text).facts.symptoms.wheel_indexes
    assert not (fact.is_known and fact.value)
