"""AMD GPU names read in the spellings people type, and words of the same shape that name no GPU.

Each spelling accepted here is used in at least three independent real reports (cited beside the pattern in
rocm_doctor/ingest/formats/mentions.py and the table row in rules/data/gpus.yaml). The negatives are what the same
shapes mean elsewhere: CPU models, distances, phones, variables, power supplies, older FirePro cards, NVIDIA parts.
The rewrite that respells names for the metamorphic test (tests/ingest/metamorphic.py) is pinned here too.
"""

from __future__ import annotations

import re
from typing import List

import pytest
from ingest_helpers import ingest
from metamorphic import gpu_name_spellings


def gfx_list(text: str) -> List[str]:
    return [str(a.gfx.value) for a in ingest(text + "\n").facts.gpus.agents if a.gfx.is_known]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I have an rx 7900 xtx and torch fails.", "gfx1100"),
        ("I have an RX7900XTX and torch fails.", "gfx1100"),
        ("I have a 7900 xtx and torch fails.", "gfx1100"),
        ("I have a 7900XTX and torch fails.", "gfx1100"),
        ("Training on an mi300x fails with a HIP error.", "gfx942"),
        ("Our MI300x node fails.", "gfx942"),
        ("I have a system with an mi50 in it.", "gfx906"),
        ("using instinct mi50 graphic card", "gfx906"),
        ("I run an AMD Mi50.", "gfx906"),
        ("several mi100s in one box", "gfx908"),
        ("I have several MI100s.", "gfx908"),
        ("an mi250x node", "gfx90a"),
        ("I have Radeon PRO w7900 (and nothing else)", "gfx1100"),
        ("the w6800 gpu is listed as supported", "gfx1030"),
        ("I have a pro w7900.", "gfx1100"),
        ("My RX 5500 XT needs an override.", "gfx1012"),
        ("My RX 5500xt cannot work.", "gfx1012"),
        ("My laptop has 780M graphics.", "gfx1103"),
        ("We use an AMD V620 VM on Azure.", "gfx1030"),
        ("the V710 instances", "gfx1101"),
        # GCN 2-4 cards by their R9, FirePro and Radeon PRO WX names (gfx44): the kernel's KFD targets
        ("My GPU is an AMD Radeon R9 290 and torch does not use it.", "gfx701"),
        ("FirePro W9100 card", "gfx701"),
        ("Start ollama on an AMD Firepro w7100 gpu.", "gfx802"),
        ("Amethyst XT [Radeon R9 M295X]", "gfx802"),
        ("I have an R9 Fury X.", "gfx803"),
        ("I work with a Radeon PRO WX 3100.", "gfx803"),
    ],
)
def test_each_spelling_of_an_amd_gpu_name_names_its_gpu(text: str, expected: str) -> None:
    assert gfx_list(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "I drove 50 mi to work.",
        "My Xiaomi Mi 11 phone.",
        "my xiaomi mi11 phone",
        "Set mi50 = 3 in the script.",
        "My Xeon w2135 workstation.",
        "a 1000w PSU",
        "My CPU is an AMD R9 5900X.",
        "an R7 5800X3D and 32 GB",
        "I have a 7600.",
        "I have a 6800.",
        "I have a 6600 and 32 GB.",
        "I ran 680m today.",
        "ROCm 6.2.0 and torch 2.5.1",
        "nvidia V100",
        "my GeForce RTX 3090 and a GTX 1080",
        "docker pull rocm/vllm-dev:nightly-mi300x and run it",
        "see /data/mi300/results.txt",
        "size Standard_NG32ads_V620_v1",
        "set V620 = 3 in the config",
    ],
)
def test_words_shaped_like_gpu_names_name_no_amd_gpu(text: str) -> None:
    assert gfx_list(text) == []


@pytest.mark.parametrize("text", ["I have a Ryzen 5 7600 and Ubuntu 24.04.", "My CPU is a 7600X."])
def test_a_cpu_model_number_is_never_read_as_the_radeon_of_that_number(text: str) -> None:
    assert "gfx1102" not in gfx_list(text)  # the RX 7600's target


def test_the_gpu_name_rewrite_respells_prose_and_is_the_same_every_run() -> None:
    text = "I have an AMD Radeon RX 7900 XTX and an AMD Instinct MI300X.\nMy Radeon PRO W7900 and Radeon PRO V620 too.\n"
    once = gpu_name_spellings(text)
    assert once == gpu_name_spellings(text)
    assert "AMD Radeon RX 7900 XTX" not in once and "AMD Instinct MI300X" not in once and "Radeon PRO W7900" not in once
    assert "Radeon PRO V620" not in once and "V620" in once


@pytest.mark.parametrize(
    "text",
    [
        "```\nAMD Radeon RX 7900 XTX\n```\n",
        "  Marketing Name:          AMD Radeon RX 7900 XTX\n",
        "PS C:\\Users\\me> (Get-WmiObject win32_VideoController).Name\nAMD Radeon(TM) Graphics\nAMD Radeon RX 7900 XTX\n",
        "[   12.345] amdgpu: AMD Radeon RX 6800 XT\n",
        "Out[6]: 'AMD Radeon RX 6700 XT'\n",
        "name = AMD Radeon RX 6600 XT\n",
        "I ran ``Device #1: AMD Radeon RX 5700 XT`` here\n",
        "See https://example.org/AMD-Radeon-RX-7900-XTX for it\n",
        "AMD Radeon R9 390X and FirePro W9100\n",
        "My laptop has an RX 6600M.\n",
    ],
)
def test_the_gpu_name_rewrite_leaves_program_output_and_other_names_alone(text: str) -> None:
    assert gpu_name_spellings(text) == text


def test_the_gpu_name_rewrite_never_drops_the_rx_from_a_name_without_a_suffix() -> None:
    # a bare "6600" is as much a CPU, a year or a size as a Radeon
    for number in ("580", "570", "6600", "6700", "6800", "7600", "9060"):
        respelled = gpu_name_spellings(f"My GPU is an RX {number}.\n")
        assert re.search(r"RX ?" + number, respelled, re.IGNORECASE), respelled


@pytest.mark.parametrize(
    "text, expected",
    [("### GPU\n\nmi300x\n", ["gfx942"]), ("GPU: pro w7900", ["gfx1100"]), ("* GPU: 2x mi50", ["gfx906", "gfx906"])],
)
def test_a_labelled_gpu_field_takes_the_same_spellings(text: str, expected: List[str]) -> None:
    assert gfx_list(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Motherboard BIOS V520 from 2023.",
        "My monitor is an LG V520 panel.",
        "Firmware package V710 installed.",
        "amdgpu: SMU driver if version V620 mismatch",
    ],
)
def test_a_bare_radeon_pro_cloud_number_is_no_gpu_unless_the_text_says_so(text: str) -> None:
    # read as a GPU, a BIOS or monitor "V520" named a phantom gfx1011 beside the real card (errors on mixed GPUs)
    assert gfx_list(text) == []


@pytest.mark.parametrize("text, expected", [("Running on Azure (AMD V620).", "gfx1030"), ("a PRO V620 card", "gfx1030"), ("RX 6900/6800/W6800/V620 all work", "gfx1030"), ("two V710 GPUs", "gfx1101")])
def test_a_radeon_pro_cloud_number_is_read_after_amd_in_a_card_list_or_before_a_gpu_word(text: str, expected: str) -> None:
    assert set(gfx_list(text)) == {expected}


def test_the_gpu_name_rewrite_leaves_a_bare_cloud_number_as_written() -> None:
    # the readers take a bare "V620" for no GPU: respelled as "AMD V620" it would add one the text did not name
    for text in ("The BIOS is V620 and my Radeon PRO V710 works.\n", "My Radeon PRO V710 works and the BIOS is V620.\n"):
        assert "BIOS is V620" in gpu_name_spellings(text)
