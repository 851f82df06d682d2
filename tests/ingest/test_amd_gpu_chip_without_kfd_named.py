"""lspci or lshw naming an AMD GPU chip the kernel's KFD has no case for (context amd_gpu_chip_without_kfd_named, RD303).

Reports: ROCm/legacy-rocm-build#662 (lspci, Topaz XT), #538 (lshw in German, Curacao XT / Trinidad XT), #1804 (lshw,
Mars XTX), #528 (Sun XT). The chips and names: kfd_device.c kgd2kfd_probe at 002c6ca7, amdgpu_drv.c's pciidlist at
00544006, pci.ids at 006181e2.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_contexts

CONTEXT = "amd_gpu_chip_without_kfd_named"

ROCMINFO_4104 = "hsa api call failure at line 900, file: /src/rocminfo/rocminfo.cc. Call returned 4104\n"


@pytest.mark.parametrize(
    "line",
    [
        "01:00.0 Display controller [0380]: Advanced Micro Devices, Inc. [AMD/ATI] Topaz XT [Radeon R7 M260/M265 / M340/M360 / M440/M445] [1002:6900] (rev c1)",
        "       Produkt: Curacao XT / Trinidad XT [Radeon R7 370 / R9 270X/370X]",
        "       product: Mars XTX [Radeon HD 8790M]",
        "01:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Oland (rev 87)",
        "Cape Verde PRO / Venus LE / Tropo PRO-L [Radeon HD 8830M / R7 250 / R7 M465X]",
    ],
    ids=["lspci-topaz", "lshw-de-curacao", "lshw-mars", "lspci-bare-oland", "three-names"],
)
def test_a_gpu_named_by_a_chip_kfd_never_supports_is_read(line: str) -> None:
    assert CONTEXT in signature_contexts(line + "\n")


@pytest.mark.parametrize(
    "line",
    [
        "01:00.1 Audio device: Advanced Micro Devices, Inc. [AMD/ATI] Oland/Hainan/Cape Verde/Pitcairn HDMI Audio [Radeon HD 7000 Series]",
        "00:11.0 SATA controller: Advanced Micro Devices, Inc. [AMD/ATI] Kabini/Mullins SATA Raid/AHCI Mode",
        "01:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Hawaii PRO [Radeon R9 290/390] (rev 80)",
        "00:01.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Wani [Radeon R5/R6/R7 Graphics] (rev c8)",
        "The sun came out and the mars [radeon] joke",
    ],
    ids=["hdmi-audio-function", "sata-function", "hawaii-has-a-kfd-case", "carrizo-has-a-kfd-case", "words"],
)
def test_other_functions_supported_chips_and_plain_words_are_not_read(line: str) -> None:
    assert CONTEXT not in signature_contexts(line + "\n")


TOPAZ_LSPCI = (
    "$ lspci -nn | grep -i vga\n"
    "00:02.0 VGA compatible controller [0300]: Intel Corporation UHD Graphics 620 [8086:5917] (rev 07)\n"
    "01:00.0 Display controller [0380]: Advanced Micro Devices, Inc. [AMD/ATI] Topaz XT [Radeon R7 M260/M265 / M340/M360 / M440/M445] [1002:6900] (rev c1)\n"
    "$ /opt/rocm/bin/rocminfo\n" + ROCMINFO_4104
)


def test_rocminfo_failing_beside_an_unsupported_chip_is_explained_by_the_chip() -> None:
    shown = problems_shown("```\n" + TOPAZ_LSPCI + "```\n")
    assert shown and shown[0] == "RD303"


RX6800_ROCMINFO_AND_OLAND = (
    "$ lspci | grep -i vga\n"
    "03:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 21 [Radeon RX 6800/6800 XT / 6900 XT] [1002:73bf] (rev c1)\n"
    "04:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Oland PRO [Radeon R7 240/340 / Radeon 520] [1002:6613] (rev 87)\n"
)


def test_an_identified_supported_amd_gpu_beside_the_old_chip_keeps_rd303_quiet() -> None:
    # other62: the RX 6800 (1002:73bf, gfx1030 in the device table) is the GPU the runtime can use
    assert "RD303" not in problems_shown("```\n" + RX6800_ROCMINFO_AND_OLAND + "```\n")


def test_the_kernel_s_own_refusal_leaves_the_finding_to_rd691() -> None:
    text = "```\n" + TOPAZ_LSPCI + "[    3.1] kfd kfd: amdgpu: TOPAZ  not supported in kfd\n```\n"
    shown = problems_shown(text)
    assert "RD691" in shown and "RD303" not in shown


def test_the_identified_count_counts_only_amd_gpus_with_a_gfx_target() -> None:
    from ingest_helpers import ingest

    from rocm_doctor.judge.derived_facts.gpus import amd_gpu_count, amd_identified_count

    facts = ingest("```\n" + RX6800_ROCMINFO_AND_OLAND + "```\n").facts
    assert amd_gpu_count(facts, None).value == 2
    assert amd_identified_count(facts, None).value == 1


def test_the_identified_count_is_zero_when_the_only_amd_gpu_is_the_old_chip() -> None:
    from ingest_helpers import ingest

    from rocm_doctor.judge.derived_facts.gpus import amd_identified_count

    oland_only = "```\n04:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Oland PRO [Radeon R7 240/340 / Radeon 520] [1002:6613] (rev 87)\n```\n"
    identified = amd_identified_count(ingest(oland_only).facts, None)
    assert identified.is_known and identified.value == 0
