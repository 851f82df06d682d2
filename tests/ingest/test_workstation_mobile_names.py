"""Workstation and mobile GPU names read from prose get their gfx from rules/data/gpus.yaml (h35g): a mobile
part's own "M XT" suffix, the "W####M" workstation laptops and the Polaris/Vega "WX ####" cards, with the
device rows pci.ids names at the table's pinned commit."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

from rocm_doctor.knowledge.gpu_table import lookup_pci


def _gpus(text: str):
    return [(str(a.name.value), str(a.gfx.value)) for a in ingest(text).facts.gpus.agents if a.name.is_known and a.gfx.is_known]


@pytest.mark.parametrize(
    ("name", "gfx"),
    [
        ("RX 6850M XT", "gfx1031"),
        ("RX 7600M XT", "gfx1102"),
        ("Radeon Pro W5700", "gfx1010"),
        ("Radeon Pro W5500M", "gfx1012"),
        ("Radeon PRO W6600M", "gfx1032"),
        ("Radeon Pro WX 7100", "gfx803"),
        ("Radeon PRO WX 9100", "gfx900"),
        ("Radeon PRO W6300", "gfx1034"),
        ("Radeon Pro WX 3200", "gfx803"),
    ],
)
def test_a_workstation_or_mobile_name_in_prose_gets_its_gfx(name: str, gfx: str) -> None:
    found = _gpus(f"My GPU is an AMD {name} and torch fails on it.\n")
    assert [g for _, g in found] == [gfx]


@pytest.mark.parametrize(("device_id", "gfx"), [("6861", "gfx900"), ("67c4", "gfx803"), ("7312", "gfx1010"), ("73e1", "gfx1032"), ("7423", "gfx1034")])
def test_the_added_device_ids_carry_the_gfx_of_their_chip(device_id: str, gfx: str) -> None:
    model = lookup_pci(device_id)
    assert model is not None and model.gfx == gfx


def test_a_name_the_table_does_not_know_gives_no_gpu() -> None:
    assert _gpus("My GPU is an AMD Radeon Pro WX 8200 and torch fails.\n") == []  # pci.ids at the pinned commit has no such name


def _all_gfx(text: str):
    return sorted(str(a.gfx.value) for a in ingest(text).facts.gpus.agents if a.gfx.is_known)


@pytest.mark.parametrize(
    "table",
    [
        "RDNA3 discrete GPUs, all supported:\n- gfx1100 \u2014 RX 7900 XTX / 7900 XT\n- gfx1101 \u2014 RX 7800 XT / 7700 XT\n- gfx1102 \u2014 RX 7600\n",
        "| target | cards |\n|---|---|\n| gfx1030 | RX 6800 XT, RX 6900 XT |\n| gfx1032 | RX 6600 |\n",
        "Which target is which:\ngfx1100: Radeon RX 7900 XTX\ngfx1201: Radeon RX 9070 XT\n",
    ],
)
def test_a_table_mapping_targets_to_cards_names_no_gpu_of_this_machine(table: str) -> None:
    # ROCm/legacy-rocm-build#6049: a 780M machine lists every RDNA3 target with its cards
    text = "My laptop: Ryzen 9 7940HS with the Radeon 780M (gfx1103).\n\n" + table
    assert _all_gfx(text) == ["gfx1103"]


def test_a_card_named_before_its_target_is_still_read() -> None:
    text = "GPU 0: RX 7900 XTX (gfx1100)\nGPU 1: RX 7800 XT (gfx1101)\n"
    assert _all_gfx(text) == ["gfx1100", "gfx1101"]


def test_a_device_id_the_kernel_driver_does_not_bind_carries_no_verified_gfx() -> None:
    # 698f (pci.ids: WX 3100 / Barco MXRT 4700) is not in amdgpu_drv.c's pciidlist: no KFD reports its target
    model = lookup_pci("698f")
    assert model is not None and not model.verified
