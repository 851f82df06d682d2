"""The report's own diagnosis that /dev/kfd or /dev/dri belongs to the render group where the set-up expects or grants
video is a permissions finding (RD753, signature gpu_node_render_not_video_told): ROCm/MIOpen#1636, ROCm/rocMLIR#556,
RadeonOpenCompute/ROCm_Documentation#39, ROCm/rocminfo#34. A condition, advice, a question, a past state, a line that
says the user holds render or names both groups together, or that it works now, is not read. Assertions are about
categories and the signature, not wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings


def _read(text: str) -> bool:
    return "gpu_node_render_not_video_told" in (ingest(text).facts.symptoms.signatures.value or [])


@pytest.mark.parametrize(
    "sentence",
    [
        "For ubuntu-20.04 the default group of /dev/dri and /dev/kfd is render but CI expects them to be in video group.",
        "Some CI hosts have /dev/kfd under that group instead of 'video'.",
        "I ended up with /dev/kfd owned by group `render` instead of group `video`.",
        "On this host /dev/dri/renderD128 belongs to render, not video, and our job only adds video.",
    ],
)
def test_device_files_said_to_be_render_against_video_are_a_permissions_finding(sentence: str) -> None:
    report = f"{sentence}\n"
    assert _read(report)
    assert "permissions" in [category for _, _, category in serious_findings(report)][:1]


@pytest.mark.parametrize(
    "sentence",
    [
        "MIOpen CI fails if /dev/dri and /dev/kfd has render group instead of video group.",
        "You should know that /dev/kfd is owned by render instead of video on newer distros.",
        "/dev/kfd should be owned by render instead of video on Ubuntu 22.04.",
        "Does /dev/kfd belong to render instead of video on Ubuntu 22.04?",
        "Previously /dev/kfd was owned by render instead of video on my old machine.",
        "/dev/kfd is owned by render instead of video, so I added myself to render.",
        "/dev/kfd is owned by render but I am in video and render.",
        "/dev/kfd is owned by render instead of video, and after a new login it works fine now.",
        "According to the wiki, /dev/kfd belongs to render instead of video.",
        "Add the user to render and video to access /dev/kfd.",
    ],
)
def test_a_condition_advice_a_question_or_a_user_already_in_render_is_not_read(sentence: str) -> None:
    assert not _read(f"{sentence}\n")


def test_a_healthy_report_that_names_both_groups_gets_no_permissions_finding() -> None:
    report = (
        "$ ls -l /dev/kfd\ncrw-rw---- 1 root render 235, 0 Jan 1 00:00 /dev/kfd\n"
        "$ groups\nme adm video render\n"
        "My user is in render and video and /dev/kfd is owned by render; rocminfo lists gfx1100.\n"
    )
    assert not _read(report)
    assert "permissions" not in [category for _, _, category in serious_findings(report)]


def test_device_files_said_owned_by_render_by_a_user_in_video_and_render_is_not_read_as_told_ownership() -> None:
    report = "/dev/kfd is owned by render but I am in video and render. torch.cuda.is_available() returns False.\n"
    facts = ingest(report).facts
    assert "gpu_node_owned_by_render_told" not in (facts.symptoms.context.value or [])
    assert "gpu_node_render_not_video_told" not in (facts.symptoms.signatures.value or [])
