"""A torch that runs on the system's ROCm after the reporter upgraded that ROCm (RD887), and the release
an upgrade "to" names as the system's ROCm now (trm48, issue 23).

The forms are those of arch4edu/arch4edu#183 and #203 (Arch's python-pytorch-rocm), xuhuisheng/rocm-gfx803#13
(a community +git build), ROCm/tensorflow-upstream#444 and ollama/ollama#12111 ("upgraded ROCm to"); the texts
are written for the test.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown


def _rocm_version(text: str):
    fact = ingest(text).facts.rocm.version
    return fact.value if fact.is_known else None


@pytest.mark.parametrize(
    "text, version",
    [
        ("I upgraded ROCm to 6.2.2 today and the RX 7600 crashes.\n", "6.2.2"),
        ("after updating my ROCm to 6.1.3 the RX 6800 is gone\n", "6.1.3"),
        ("Yesterday I downgraded ROCm to version 6.1 on the W7900.\n", "6.1"),
        # rev48e: an 80-column wrap before or after "to"
        ("Since I upgraded ROCm\nto 6.2 on my Radeon VII, torch hangs.\n", "6.2"),
        ("Since I upgraded ROCm to\n6.2 on my Radeon VII, torch hangs.\n", "6.2"),
    ],
)
def test_the_release_rocm_was_moved_to_is_the_systems(text: str, version: str) -> None:
    assert _rocm_version(text) == version


@pytest.mark.parametrize(
    "text",
    [
        "Should I upgrade ROCm to 6.2? RX 6800\n",
        "I will update ROCm to 6.1 next week. RX 6800\n",
        "Try upgrading ROCm to 6.2 first. RX 6800\n",
        "I upgraded ROCm to 6.2 wheels for torch. RX 6800\n",
        "Previously I had updated ROCm to 6.1 on this RX 6800.\n",
    ],
)
def test_a_planned_asked_or_torch_build_move_is_not_the_systems_release(text: str) -> None:
    assert _rocm_version(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # rev48e: advice by a gerund, an imperative, another person, a project, an undone move, a container
        "Upgrading ROCm to 6.2 might fix it. RX 6800\n",
        "Don't update ROCm to 6.2, it breaks gfx1030. RX 6800\n",
        "My friend upgraded ROCm to 6.2 and his RX 6800 works.\n",
        "PyTorch upgraded ROCm to 6.2 in the 2.5 release. RX 6800\n",
        "Changelog: - Updated ROCm to 6.2.4 in the Docker image\n",
        "I upgraded ROCm to 6.2 but then went back to 6.1 because it broke everything. RX 6800\n",
        "Upgrading ROCm to 6.2 broke it, so I reverted to 6.1.3. RX 6800\n",
        "I upgraded ROCm to 6.2 in the container, the host still has 6.0. RX 6800\n",
        "On my other PC I upgraded ROCm to 6.2. RX 6800\n",
        "I switched ROCm to 6.2 nightly of torch. RX 6800\n",
    ],
)
def test_a_move_not_made_by_the_reporter_on_this_system_or_undone_is_not_the_systems_release(text: str) -> None:
    assert _rocm_version(text) is None


def test_a_move_kept_despite_a_torch_downgrade_is_the_systems_release() -> None:
    assert _rocm_version("I upgraded ROCm to 6.2 and downgrading torch did not help. RX 6800\n") == "6.2"


@pytest.mark.parametrize(
    "text",
    [
        "RX 7600, Arch Linux. I upgraded ROCm to 6.2.2 today and now python-pytorch-rocm 2.3.1-8 crashes with a segmentation fault.\n",
        "Since I upgraded ROCm to 6.2 on my Radeon VII, torch 2.4.0a0+gitabc1234 (built from source) hangs at the first matmul.\n",
        "After updating ROCm from 5.7 to 6.0 my pytorch fails on the RX 7900 XTX.\n>>> torch.__version__\n'2.2.0a0+git8ac9b20'\n",
    ],
)
def test_a_torch_on_the_system_rocm_after_an_upgrade_is_warned(text: str) -> None:
    assert "RD887" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # a pytorch.org wheel carries its own ROCm
        "I upgraded ROCm to 6.1 and pip list shows torch 2.3.0+rocm6.0; segmentation fault on RX 7900 XTX\n",
        # a distribution's torch without an upgrade
        "Arch Linux, RX 7600: python-pytorch-rocm 2.3.1-8 crashes with a segmentation fault.\n",
        # the upgrade is only planned
        "I will upgrade ROCm to 6.2 next week; torch 2.4.0a0+gitabc1234 (built from source) hangs on my Radeon VII.\n",
    ],
)
def test_other_torches_or_no_upgrade_are_not_warned(text: str) -> None:
    assert "RD887" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "Then my distro upgraded all ROCM libraries to 6.2.2 a couple weeks back, and it no longer works.\n",
        "ollama run fails on the 780M after update rocm-core from 6.0.2 to 6.2.2 on arch linux.\n",
        "I upgraded rocm-hip-runtime from 6.1.3 to 6.2.0 and clinfo fails.\n",
    ],
)
def test_a_distribution_or_package_upgrade_of_rocm_is_read(text: str) -> None:
    from ingest_helpers import signature_contexts

    assert "rocm_upgrade_told" in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "Should my distro upgrade ROCm to 6.2?\n",
        "If the system updated ROCm behind your back, rebuild.\n",
        "He upgraded rocm-core from 6.0.2 to 6.2.2 on his laptop.\n",
        # rev48e: a question about the distribution's upgrade
        "You should check whether apt upgraded rocm. torch 2.4.0a0+gitabc1234, RX 6800 hangs.\n",
        "The system updated ROCm? No, I did not touch it.\n",
    ],
)
def test_a_question_advice_or_another_persons_package_upgrade_is_not_read(text: str) -> None:
    from ingest_helpers import signature_contexts

    assert "rocm_upgrade_told" not in signature_contexts(text)
