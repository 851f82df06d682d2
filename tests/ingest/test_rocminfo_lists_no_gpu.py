"""The reporter's words that rocminfo shows no GPU agent (signature rocminfo_lists_no_gpu_told).

Issue 23 (h30g probes): "rocminfo does not list the GPU", "rocminfo only lists the CPU agent" set no
context, so a kernel too old for an RX 9070 XT (RD560) went unsaid. The forms are those of independent
real reports (legacy-rocm-build#3897 "rocminfo doesn't show GPU", ROCT-Thunk-Interface#44 "shows no
devices", a WSL2 report's "rocminfo only shows CPU, no AMD GPU detected"); the texts are written for the
test.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown


def _contexts(text: str) -> list:
    return ingest(text).facts.symptoms.context.value or []


@pytest.mark.parametrize(
    "text",
    [
        "rocminfo doesn't show my GPU.",
        "rocminfo does not list the GPU.",
        "`rocminfo` only lists the CPU agent.",
        "rocminfo shows only my CPU.",
        "After installing ROCm 6.4.1, rocminfo shows CPU only.",
        "ROCm installed but rocminfo shows no GPU agent.",
    ],
)
def test_rocminfo_said_to_show_no_gpu_is_read_as_the_gpu_not_seen(text: str) -> None:
    found = _contexts(text)
    assert "rocminfo_lists_no_gpu_told" in found and "gpu_not_seen_said" in found


@pytest.mark.parametrize(
    "text",
    [
        "rocminfo shows the CPU and the GPU.",
        "rocminfo lists the CPU agent and gfx1201.",
        "rocminfo shows my GPU fine.",
        # an earlier state, another machine
        "Before the update rocminfo only showed the CPU, now it lists gfx1201.",
        "On my other machine rocminfo doesn't show the GPU.",
    ],
)
def test_rocminfo_showing_the_gpu_or_a_past_or_other_machine_is_not_read(text: str) -> None:
    assert "rocminfo_lists_no_gpu_told" not in _contexts(text)


def test_an_rdna4_card_on_the_68_kernel_whose_rocminfo_lists_only_the_cpu_is_said_to_need_a_newer_kernel() -> None:
    # Fedora packages no AMD amdgpu-dkms, so its own 6.8 amdgpu is the driver (on Ubuntu AMD's DKMS one may be)
    text = "RX 9070 XT on Fedora 40 with the stock 6.8 kernel, ROCm 6.4.1 installed. rocminfo only lists the CPU agent.\n"
    assert problems_shown(text)[:1] == ["RD560"]


def test_an_rdna4_card_on_a_kernel_that_drives_it_whose_rocminfo_lists_only_the_cpu_gets_no_kernel_finding() -> None:
    text = "RX 9070 XT on Ubuntu 24.04 with the 6.14 kernel, ROCm 6.4.1 installed. rocminfo only lists the CPU agent.\n"
    assert "RD560" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "ROCm 3.9.0 on Ubuntu 20.04 : Radeon 7 is not detected",  # legacy-rocm-build#1310
        "rocminfo not recognising gpu Radeon Pro WX 7100",  # legacy-rocm-build#804
        "Linux distros which can't even recognize RX 9070 XT",  # legacy-rocm-build#5102
        "My new Radeon RX 9060 XT isn't recognized.",
        "The AI PRO R9700 is not detected by ROCm 6.3.3.",
        # a title's bare participle, with or without the target in brackets (h31e)
        "Ubuntu 22.04 + ROCm 5.4.2, RX 480 not detected",  # legacy-rocm-build#2119
        "RX 7900 XTX (gfx1100) not detected on Arch-based distro",  # ollama/ollama#11420
        "RX 7800XT not being detected on Ubuntu on WSL2",  # legacy-rocm-build#4456
    ],
)
def test_a_gpu_named_by_its_model_said_not_to_be_seen_is_read_as_the_gpu_not_seen(text: str) -> None:
    found = _contexts(text)
    assert "gpu_model_not_seen_said" in found and "gpu_not_seen_said" in found


@pytest.mark.parametrize(
    "text",
    [
        "The RX 9070 XT is detected as gfx1201 and works.",
        "rocminfo detects the RX 9070 XT fine",
        "Is the RX 9070 XT not detected on ROCm 6.3?",
        "My old RX 580 wasn't detected, but the 9070 XT is.",
        "On my friend's PC the RX 7900 XTX isn't recognized.",
        # the bare participle asked, or followed by what it was detected as (h31e)
        "RX 6800 not detected on ROCm 6.2?",
        "RX 6800 not detected as gfx1030 but as gfx1031.",
    ],
)
def test_a_named_gpu_that_is_seen_asked_about_past_or_elsewhere_is_not_read_as_unseen(text: str) -> None:
    assert "gpu_model_not_seen_said" not in _contexts(text)


def test_an_rdna4_card_said_not_detected_in_a_title_on_the_68_kernel_is_said_to_need_a_newer_kernel() -> None:
    assert problems_shown("RX 9070 XT not detected on Arch Linux with the 6.8 kernel\n")[:1] == ["RD560"]


def test_an_rdna4_card_named_as_not_recognised_on_the_68_kernel_is_said_to_need_a_newer_kernel() -> None:
    text = "Fedora 40 with the 6.8 kernel and ROCm 6.4.1. My new Radeon RX 9060 XT isn't recognized.\n"
    assert problems_shown(text)[:1] == ["RD560"]


@pytest.mark.parametrize(
    "text",
    [
        # a property of a GPU rocminfo lists (r30a)
        "rocminfo doesn't show the GPU name correctly, it says gfx1030.",
        "rocminfo does not show the GPU temperature.",
        # what a doc or a condition says of rocminfo (r30a)
        "The docs say rocminfo only shows the CPU agent if the user is not in the render group.",
        "rocminfo only lists the CPU when the user lacks the render group.",
    ],
)
def test_a_listed_gpu_s_property_a_doc_or_a_condition_is_not_rocminfo_showing_no_gpu(text: str) -> None:
    assert "rocminfo_lists_no_gpu_told" not in _contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # the support question, not the GPU unseen (r30a)
        "I can't find the RX 6800 in the supported GPU list.",
        "I could not find the MI50 on AMD's compatibility matrix.",
        "I cannot find the RX 7600 XT in the ROCm documentation.",
    ],
)
def test_a_model_looked_for_in_a_document_is_not_the_gpu_unseen(text: str) -> None:
    assert "gpu_model_not_seen_said" not in _contexts(text)


def test_a_model_not_found_on_the_machine_is_still_read_as_unseen() -> None:
    assert "gpu_model_not_seen_said" in _contexts("ROCm can't detect the RX 6800 on my machine.")
