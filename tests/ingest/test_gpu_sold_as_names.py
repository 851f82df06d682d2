"""GPU names read from prose through the names AMD's libdrm gives each device (rules/data/gpus.yaml `names`), and the
NVIDIA laptop parts that share an APU's number, which name no AMD GPU."""

from __future__ import annotations

from typing import List, Tuple

import pytest
from ingest_helpers import ingest


def gpus(text: str) -> List[Tuple[str, object]]:
    agents = ingest(text + "\n").facts.gpus.agents
    return [(str(a.gfx.value) if a.gfx.is_known else "", a.integrated.value if a.integrated.is_known else None) for a in agents]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("My laptop has a Ryzen 5 6600H with Radeon 660M graphics.", ("gfx1035", True)),
        ("My laptop: 660M graphics, torch cannot see it.", ("gfx1035", True)),
        ("My GPU is an RX 6700M.", ("gfx1031", False)),
        ("I have an RX 7650 GRE and torch fails.", ("gfx1102", False)),
        ("GPU: AMD Radeon 8040S", ("gfx1151", True)),
        ("Running it on my Steam Deck with SteamOS.", ("gfx1033", True)),
    ],
)
def test_a_name_libdrm_sells_a_gpu_as_names_its_gpu(text: str, expected: Tuple[str, bool]) -> None:
    assert gpus(text) == [expected]


def test_a_name_sold_on_two_chips_names_no_gfx() -> None:
    assert all(gfx == "" for gfx, _ in gpus("My RX 6750 GRE fails to run torch."))


@pytest.mark.parametrize(
    "text",
    ["My old laptop has a GTX 660M.", "My laptop has an NVIDIA GeForce 840M.", "I have a GTX 780M laptop.", "I have an RTX 3060M"],
)
def test_an_nvidia_laptop_part_sharing_an_apus_number_is_no_amd_gpu(text: str) -> None:
    assert gpus(text) == []
