"""A GPU named in prose is this machine's only in a sentence that says so.

The statement scope of the signatures (``scope: statement``) reads a statement only of the current
state; GPU mentions get the same scope: another person's GPU, one a yes/no question asks about, one
wished for or left behind is no device of the reporting machine. The texts are written for the test.
"""

from __future__ import annotations

from typing import List

import pytest
from ingest_helpers import ingest, problems_shown


def gfx_read(text: str) -> List[str]:
    return sorted(str(a.gfx.value) for a in ingest(text).facts.gpus.agents if a.gfx.is_known)


@pytest.mark.parametrize(
    "text",
    [
        "My friend's RX 9070 XT works on kernel 6.11. Mine is an RX 6800.",
        "A colleague with a 9070 XT says it works. I have an RX 6800.",
        "My brother has an RX 9070 XT and it works for him; I have an RX 6800.",
        "Does the RX 9070 XT work on kernel 6.8? I have an RX 6800.",
        "Is gfx1201 supported on ROCm 6.2? My card is an RX 6800.",
        "My old RX 9070 XT is in a drawer now. The machine has an RX 6800.",
    ],
)
def test_a_gpu_of_another_person_or_asked_about_gives_way_to_the_one_the_reporter_has(text: str) -> None:
    assert gfx_read(text) == ["gfx1030"]


@pytest.mark.parametrize(
    "text",
    [
        "I'm thinking of buying a 9070 XT, will it work on Ubuntu 24.04?",
        "Should I get an RX 9070 XT or an RTX 5070 for Stable Diffusion?",
        "I wish I had a 9070 XT.",
        "I upgraded from an RX 9070 XT last year.",
        "I used to have a 9070 XT.",
        "Previously I had an RX 9070 XT.",
    ],
)
def test_a_gpu_wished_for_or_left_behind_is_never_this_machines(text: str) -> None:
    assert gfx_read(text) == []


@pytest.mark.parametrize(
    "text, gfx",
    [
        ("I bought a 9070 XT last week and rocminfo shows nothing.", ["gfx1201"]),
        ("How do I get the RX 9070 XT to work with ROCm?", ["gfx1201"]),
        ("Why is my RX 9070 XT not found by torch?", ["gfx1201"]),
        ("After upgrading to an RX 9070 XT, rocminfo lists only the CPU.", ["gfx1201"]),
        ("I replaced my RX 580 with an RX 9070 XT.", ["gfx1201"]),
        # alone, the doubtful mention is the best reading there is
        ("My friend's 9070 XT works on kernel 6.11 but mine doesn't.", ["gfx1201"]),
        ("Is the RX 9070 XT supported? rocminfo shows no GPU.", ["gfx1201"]),
    ],
)
def test_a_gpu_the_reporter_has_is_read_in_a_question_or_a_change(text: str, gfx: List[str]) -> None:
    assert gfx_read(text) == gfx


def test_another_persons_newer_gpu_does_not_make_the_kernel_too_old_for_the_reporters() -> None:
    for text in (
        "Ubuntu 24.04 with 6.8 kernel, rocminfo does not detect my GPU. Mine is an RX 6800, my friend's RX 9070 XT works fine on his PC.\n",
        "Ubuntu 24.04 with 6.8 kernel. My friend's RX 9070 XT works. Mine is an RX 6800 and rocminfo does not detect the GPU.\n",
    ):
        assert "RD560" not in problems_shown(text), text


def test_a_gpu_thought_of_buying_does_not_make_the_kernel_too_old() -> None:
    text = "I'm thinking of buying a 9070 XT. Ubuntu 24.04 with 6.8 kernel, RX 6800, torch.cuda.is_available() returns False.\n"
    assert "RD560" not in problems_shown(text)


def test_an_old_gpu_the_reporter_had_gets_no_finding_about_its_support() -> None:
    text = "My old RX 580 worked fine with ROCm 5.7. Now I have an RX 7900 XTX and torch 2.5.1+rocm6.2 crashes in a model.\n"
    assert gfx_read(text) == ["gfx1100"]


def test_a_gpu_in_another_persons_reported_words_gives_way_to_the_reporters() -> None:
    text = 'In that issue someone wrote "torch.cuda.is_available() returns False on my RX 6700 XT". I have an RX 7900 XTX.\n'
    assert gfx_read(text) == ["gfx1100"]


def test_a_report_quoting_another_issue_gets_no_finding_about_the_quoted_machine() -> None:
    text = (
        'Same as #1234. In that issue someone wrote "torch.cuda.is_available() returns False on my RX 6700 XT, '
        'HSA_OVERRIDE_GFX_VERSION=10.3.0 fixed it". I have an RX 7900 XTX and it works, but generation is slow compared to Windows.\n'
    )
    assert problems_shown(text) == []


def test_another_persons_cpu_brings_no_igpu_to_this_machine() -> None:
    text = "My friend's laptop (Ryzen 7 7840U) has the problem. My desktop has an RX 7900 XTX.\n"
    assert gfx_read(text) == ["gfx1100"]


def test_a_cpu_thought_of_buying_is_no_part_of_this_machine() -> None:
    facts = ingest("I'm thinking of buying a Ryzen AI Max+ 395 laptop for ROCm. Is it supported?\n").facts
    assert not facts.gpus.agents and not facts.cpu.model.is_known


def test_an_error_a_sentence_puts_on_another_persons_machine_gets_no_finding() -> None:
    text = (
        "My friend's laptop (Ryzen 7 7840U) shows \"HIP error: invalid device function\", but my desktop with an "
        "RX 7900 XTX and torch 2.5.1+rocm6.2 is fine. Any idea what he should do?\n"
    )
    assert problems_shown(text) == []


def test_the_same_error_the_reporter_gets_is_read() -> None:
    text = "My desktop with an RX 6600 and torch 2.5.1+rocm6.2 shows \"HIP error: invalid device function\".\n"
    assert "RD503" in problems_shown(text) or "RD504" in problems_shown(text)


def test_a_gpu_and_a_setting_a_document_names_are_not_this_machines() -> None:
    text = (
        'The docs say "HSA_OVERRIDE_GFX_VERSION=10.3.0 is required for RX 6700 XT". I have an RX 6800 XT, which is '
        "gfx1030 and works without it. Just noting the docs are confusing.\n"
    )
    facts = ingest(text).facts
    assert gfx_read(text) == ["gfx1030"]
    assert not facts.env.settings.is_known or not facts.env.settings.value
    assert problems_shown(text) == []


def test_an_error_the_report_says_it_used_to_get_is_not_read_as_printed_now() -> None:
    text = 'This used to fail with "hipErrorNoBinaryForGpu" on ROCm 5.6, but after updating to ROCm 6.0 and torch 2.3.0+rocm6.0 it works on my RX 7600.\n'
    facts = ingest(text).facts
    assert "hip_no_binary_for_gpu" not in (facts.symptoms.signatures.value or [])


def test_an_error_still_printed_after_a_past_one_is_read() -> None:
    text = 'It used to fail with a segfault, but now it still fails with "hipErrorNoBinaryForGpu" on my RX 6600.\n'
    assert "hip_no_binary_for_gpu" in (ingest(text).facts.symptoms.signatures.value or [])


def test_a_gpu_swapped_out_gets_no_finding_about_an_override_for_both() -> None:
    text = "Previously I had an RX 6600, now an RX 7900 XTX. After the swap, torch.cuda.is_available() returns False.\n"
    assert gfx_read(text) == ["gfx1100"] and "RD840" not in problems_shown(text)


def test_a_gpu_asked_about_is_kept_beside_only_the_igpu_a_cpu_carries() -> None:
    text = "Does the RX 9070 XT work with ROCm 6.4? My CPU is a Ryzen 7 7800X3D and rocminfo shows only the CPU.\n"
    assert gfx_read(text) == ["gfx1036", "gfx1201"]


def test_an_error_the_sentence_says_is_solved_is_not_read_as_printed_now() -> None:
    text = (
        'For anyone searching: "HIP error: invalid device function" on gfx1031 is solved by '
        "HSA_OVERRIDE_GFX_VERSION=10.3.0. Works for me now on my RX 6700 XT.\n"
    )
    assert "hip_invalid_device_function" not in (ingest(text).facts.symptoms.signatures.value or [])
    assert problems_shown(text) == []


def test_an_error_whose_sentence_does_not_say_it_is_solved_is_read() -> None:
    text = 'I get "HIP error: invalid device function" on gfx1031; setting the override was not the fix.\n'
    assert "hip_invalid_device_function" in (ingest(text).facts.symptoms.signatures.value or [])


def test_an_error_wrapped_at_80_columns_whose_sentence_says_it_is_fixed_is_not_read() -> None:
    # the sentence around a message wrapped onto the next line is the same sentence (YanWenKun/ComfyUI-Docker#67)
    one_line = (
        "1. Error `docker: Error response from daemon: Unable to find group video: no matching entries in group file.`"
        "  This is fixed in Dockerfile.\n"
    )
    wrapped = (
        "1. Error `docker: Error response from daemon: Unable to find group video: no\n"
        "matching entries in group file.`  This is fixed in Dockerfile.\n"
    )
    for text in (one_line, wrapped):
        assert "container_group_not_in_image" not in (ingest(text).facts.symptoms.signatures.value or [])
    still = "docker: Error response from daemon: Unable to find group render: no\nmatching entries in group file.\n"
    assert "container_group_not_in_image" in (ingest(still).facts.symptoms.signatures.value or [])


@pytest.mark.parametrize(
    "text",
    [
        # another machine of the reporter's, named after or before the GPU (r34b)
        "It works on my RX 9070 XT machine at work. At home I have an RX 6800.",
        "On my other PC I have an RX 9070 XT. This one has an RX 6800.",
        "My work laptop has an RX 9070 XT; here I have an RX 6800.",
    ],
)
def test_a_gpu_of_another_machine_of_the_reporters_gives_way_to_the_one_this_report_runs_on(text: str) -> None:
    assert gfx_read(text) == ["gfx1030"]


def test_an_nvidia_gpu_of_the_reporters_work_machine_keeps_the_cuda_build_finding() -> None:
    text = (
        "RX 6800 XT on Ubuntu 22.04. It works on my RTX 4090 machine at work.\n"
        "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\n"
    )
    assert "RD500" in problems_shown(text)
