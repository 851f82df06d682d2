"""The TheRock per-family index or package a report installs from, and the findings when its family was
built for another GPU (h35g: RD625, RD626). Shapes from ROCm/TheRock#3046 (uv's install line and progress),
#5954 (pip's install line), #2164 (family names)."""

from __future__ import annotations

from typing import List

import pytest
from ingest_helpers import ingest, serious_findings


def _families(text: str) -> List[str]:
    fact = ingest(text).facts.symptoms.therock_families
    return list(fact.value or []) if fact.is_known else []


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("pip install --index-url https://rocm.nightlies.amd.com/v2/gfx110X-all/ torch torchaudio torchvision\n", "gfx110X-all"),
        ("uv pip install --index-url=https://rocm.nightlies.amd.com/v2-staging/gfx1150 \\\n    torch==2.9.1+rocm7.11.0a20260112\n", "gfx1150"),
        ("python -m pip install --index-url https://d2awnip2yjpvqn.cloudfront.net/v2/gfx120X-all/ torch\n", "gfx120X-all"),
        ("rocm-sdk-libraries-gfx1151 ------------------------------ 169.53 MiB/253.10 MiB\n", "gfx1151"),
        ("| ROCm | `rocm-sdk-libraries-gfx110X-all 7.13.0a20260508` |\n", "gfx110X-all"),
        ("Looking in indexes: https://rocm.nightlies.amd.com/v2/gfx94X-dcgpu/\n", "gfx94X-dcgpu"),
    ],
)
def test_the_family_of_an_install_is_read(text: str, family: str) -> None:
    assert _families(text) == [family]


@pytest.mark.parametrize(
    "text",
    [
        "Should I install from https://rocm.nightlies.amd.com/v2/gfx1151/ or the other one?\n",
        "Try pip install --index-url https://rocm.nightlies.amd.com/v2/gfx110X-all/ torch instead.\n",
        "The nightlies live at https://rocm.nightlies.amd.com/v2/gfx110X-all/ for RDNA3.\n",
        "pip install --index-url https://rocm.nightlies.amd.com/whl-multi-arch/ torch[device-gfx1100]\n",
    ],
)
def test_a_question_advice_or_a_bare_link_is_no_install(text: str) -> None:
    assert _families(text) == []


def _ids(text: str) -> List[str]:
    return [rule for rule, _, _ in serious_findings(text)]


def test_a_family_without_any_target_of_the_gpu_group_is_the_cause() -> None:
    text = "My GPU is a Radeon RX 9070 XT.\npython -m pip install --index-url https://d2awnip2yjpvqn.cloudfront.net/v2/gfx110X-dgpu/ torch\n"
    assert "RD625" in _ids(text)
    assert "RD625" not in _ids(text.replace("gfx110X-dgpu", "gfx120X-all"))


def test_a_family_without_the_gpu_own_target_is_the_cause() -> None:
    text = "RX 7900 XTX on Ubuntu 24.04.\npip install --index-url https://rocm.nightlies.amd.com/v2/gfx1151/ torch torchvision\n"
    assert "RD626" in _ids(text)
    assert not {"RD625", "RD626"} & set(_ids(text.replace("gfx1151", "gfx110X-all")))


def test_two_families_named_decide_nothing() -> None:
    text = (
        "RX 9070 XT.\npip install --index-url https://rocm.nightlies.amd.com/v2/gfx120X-all/ torch\n"
        "pip install --index-url https://rocm.nightlies.amd.com/v2/gfx110X-dgpu/ torch\n"
    )
    assert not {"RD625", "RD626"} & set(_ids(text))


def test_a_target_the_family_gained_in_a_later_release_is_not_called_missing() -> None:
    # gfx103X-dgpu got gfx1031 (RX 6700 XT) with ROCm/TheRock#1629 (2026-02-12); a report rarely says which
    # nightly it installed, so a family's targets are those of any of its releases.
    text = "RX 6700 XT on Ubuntu 24.04.\npip install --index-url https://rocm.nightlies.amd.com/v2/gfx103X-dgpu/ torch\n"
    assert not {"RD625", "RD626"} & set(_ids(text))
    assert "RD626" in _ids(text.replace("gfx103X-dgpu", "gfx1030"))


def test_a_target_the_family_once_held_is_not_called_missing() -> None:
    # gfx110X-igpu held gfx1102 until ROCm/TheRock#172 moved it to gfx110X-dgpu.
    text = "Radeon RX 7600 on Ubuntu 24.04.\npip install --index-url https://rocm.nightlies.amd.com/v2/gfx110X-igpu/ torch\n"
    assert not {"RD625", "RD626"} & set(_ids(text))


@pytest.mark.parametrize(
    "text",
    [
        "I used to install from https://rocm.nightlies.amd.com/v2/gfx1151/ with pip, on my other machine.\n",
        "My friend ran pip install --index-url https://rocm.nightlies.amd.com/v2/gfx1151/ torch on his laptop.\n",
        "Do I need pip install --index-url https://rocm.nightlies.amd.com/v2/gfx1151/ torch for this\n",
        "The README says: pip install --index-url https://rocm.nightlies.amd.com/v2/gfx1151/ torch\n",
        "I did not use pip install --index-url https://rocm.nightlies.amd.com/v2/gfx1151/ torch at all.\n",
        "Before that I had installed rocm-sdk-libraries-gfx1151 by mistake; the gfx110X-all build works.\n",
        "For Strix Halo users: pip install --index-url https://rocm.nightlies.amd.com/v2/gfx1151/ torch\n",
        "Use pip install --index-url https://rocm.nightlies.amd.com/v2/gfx1151/ torch on gfx1151 machines only.\n",
    ],
)
def test_a_past_negated_retold_or_another_machines_install_is_no_install(text: str) -> None:
    assert _families(text) == []
    assert not {"RD625", "RD626"} & set(_ids("RX 7900 XTX on Ubuntu 24.04.\n" + text))


@pytest.mark.parametrize(
    "package",
    ["rocm-sdk-libraries-gfx1151 7.10.0a20251120", "amd-torch-device-gfx1151 2.9.1", "torch[device-gfx1151]"],
)
def test_a_gfx_in_a_package_name_is_no_gpu_of_this_machine(package: str) -> None:
    # ROCm/TheRock#3046: the package names the build installed, here next to an RX 7900 XTX
    text = "RX 7900 XTX on Ubuntu 24.04. pip list:\n" + package + "\n"
    assert sorted(str(a.gfx.value) for a in ingest(text).facts.gpus.agents if a.gfx.is_known) == ["gfx1100"]
    assert "RD515" not in _ids(text)
