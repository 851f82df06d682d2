"""A laptop's discrete Radeon named by its number alone, four digits and M ("an amd 6800M", "the AMD 6700M GPU", "the
5600M HBM2 GPU"), is a GPU where the words around it speak of one, as a lower-case APU number is. The texts are
written for the test in the shapes of ROCm/legacy-rocm-build#1848, ollama/ollama#6152 and likelovewant/ollama-for-amd#124."""

from __future__ import annotations

from typing import List, Tuple

import pytest
from ingest_helpers import ingest, problems_shown


def _gpus(text: str) -> List[Tuple[str, str]]:
    return [(a.name.value, a.gfx.value) for a in ingest(text).facts.gpus.agents]


@pytest.mark.parametrize(
    "text, name, gfx",
    [
        ("I just got an Advantage Edition laptop (full AMD) with an amd 6800M.\n", "amd 6800M", "gfx1031"),
        ("ok, the AMD 6700M GPU is not supported, so I export the override\n", "AMD 6700M", "gfx1031"),
        ("My laptop's Radeon GPU is a 6650M and ROCm does not see it\n", "6650M", "gfx1032"),
        ("the amd 6850m xt in my laptop does not work with rocm\n", "amd 6850m xt", "gfx1031"),
    ],
)
def test_a_mobile_radeon_number_beside_gpu_words_is_the_gpu(text: str, name: str, gfx: str) -> None:
    assert _gpus(text) == [(name, gfx)]


def test_a_number_two_radeons_share_names_no_gpu() -> None:
    # Radeon Pro 5600M is gfx1011, Radeon RX 5600M gfx1010: the number alone does not say which
    assert _gpus("Ollama was the only package that detected the 5600M HBM2 GPU\n") == []


@pytest.mark.parametrize(
    "text",
    [
        "VRAM: 8192M, ROCm 6.2 installed\n",
        "I trained a 6800M parameter model on the GPU\n",
        "GPU memory used 6600M of 8G while ROCm ran\n",
        "The checkpoint file is 6800M\n",
        # an amount of memory on a line that names the GPU (review67)
        "ollama: the model requires 6600M of GPU memory, only 4000M free\n",
        "HIP allocated 6700M on the GPU\n",
        "ROCm 6.2 VRAM total 7600M, used 100M\n",
        "ollama gpu layers=33 size 6650M\n",
        "ROCm GPU_MAX=6800M set\n",
    ],
)
def test_a_size_or_a_quantity_is_not_a_gpu(text: str) -> None:
    assert _gpus(text) == []


def test_a_mobile_number_the_reporter_had_before_is_not_this_machines() -> None:
    assert _gpus("Previously I had an amd 6800M GPU, now an RX 7900 XTX\n") == [("RX 7900 XTX", "gfx1100")]


def test_the_6800m_laptop_gets_its_families_override() -> None:
    text = (
        "I just got an Advantage Edition laptop (full AMD) with an amd 6800M.\n"
        "To my surprise I couldn't get hip and rocm to work.\n"
    )
    assert "RD511" in problems_shown(text)


def test_a_swap_size_beside_a_named_gpu_adds_no_second_gpu() -> None:
    assert _gpus("Swap: 7600M total, GPU RX 7900 XTX\n") == [("RX 7900 XTX", "gfx1100")]
