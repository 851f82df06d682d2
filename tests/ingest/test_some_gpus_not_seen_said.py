"""Of several GPUs only some are seen: the reporter's words (signature some_gpus_not_seen_said), and beside GFX8
cards the PCIe-atomics case for the missing ones (RD630).

Spellings from four independent reports: "I have 6 GPUs installed, however only t[w]o seem to be recognized by
ROCm" (ROCm/legacy-rocm-build#587), "only 1 Vega card is usable for rocm" (legacy-rocm-build#237), "TDXMINER see only
4 of 6 devices" (legacy-rocm-build#431), "only find two RX 570s" (ethereum-mining/ethminer#1005). The negatives are
the CPU as the only device, a question, a past state, a choice of one GPU and every GPU seen.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, signature_contexts

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

SIGNATURE = "some_gpus_not_seen_said"


@pytest.mark.parametrize(
    "text",
    [
        "I have 6 GPUs installed, however only to seem to be recognized by ROCm.",
        "But only 1 Vega card is usable for rocm.",
        "And as a result TDXMINER see only 4 of 6 devices.",
        "ethminer --list-devices: only find two RX 570s",
        "only 2 of my 4 GPUs are detected by rocminfo",
    ],
)
def test_only_some_of_several_gpus_seen_is_read(text):
    assert SIGNATURE in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "ROCm 3.7, only detect CPU, not GPU",
        "Only the CPU is detected by rocminfo.",
        "I have 2 GPUs but only the CPU is detected.",
        "I have 2 GPUs and both are detected.",
        "Did rocminfo only find two GPUs?",
        "Before the update only 2 of my 6 GPUs were detected.",
        "I use only one GPU.",
        "rocminfo shows only one agent, the CPU.",
    ],
)
def test_the_cpu_alone_a_question_a_past_state_or_a_choice_is_not_read(text):
    assert SIGNATURE not in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "Only 2 of 4 fans are detected by the fan control tool.",
        "only two displays are detected; compute works on both.",
        "The tool only detects 2 of my 4 monitors.",
        "rocminfo only detects 2 agents.",
        "I have 4 GPUs but only 2 fans are detected.",
    ],
)
def test_a_count_of_fans_monitors_or_agents_is_not_a_count_of_gpus(text):
    assert SIGNATURE not in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "only 2 RX 580s are detected by rocminfo",
        "Only the first card is recognized.",
        "rocminfo only detects 2 of my 4 RX 570 cards.",
    ],
)
def test_a_count_of_named_cards_is_read(text):
    assert SIGNATURE in signature_contexts(text)


def serious(text: str):
    rules = load_rules([], use_env=False)
    findings = evaluate(rules, ingest(text + "\n").facts).findings
    return {f.id for f in findings if f.severity in ("error", "warning")}


RIG = (
    "I have 4 GPUs installed, however only two are recognized by ROCm.\n"
    "01:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Ellesmere [Radeon RX 470/480/570/570X/580/580X/590] (rev e7)\n"
    "02:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Ellesmere [Radeon RX 470/480/570/570X/580/580X/590] (rev e7)\n"
    "04:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Ellesmere [Radeon RX 470/480/570/570X/580/580X/590] (rev e7)\n"
    "05:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Ellesmere [Radeon RX 470/480/570/570X/580/580X/590] (rev e7)\n"
)


def test_polaris_cards_partly_seen_are_the_atomics_case():
    assert "RD630" in serious(RIG)


def test_vega_cards_partly_seen_are_not_the_gfx8_atomics_case():
    assert "RD630" not in serious(RIG.replace("Ellesmere [Radeon RX 470/480/570/570X/580/580X/590] (rev e7)", "Vega 10 XL/XT [Radeon RX Vega 56/64] (rev c1)"))


def test_polaris_cards_hidden_by_a_visibility_variable_are_not_the_atomics_case():
    assert "RD630" not in serious("export HIP_VISIBLE_DEVICES=0,1\n" + RIG)


def test_the_kernel_line_leaves_it_to_rd381():
    found = serious(RIG + "[    5.7] kfd kfd: skipped device 1002:67df, PCI rejects atomics\n")
    assert "RD381" in found and "RD630" not in found


def test_one_polaris_card_and_two_devices_listed_is_not_the_atomics_case():
    # rocminfo's devices are the CPU and the one GPU: nothing is missing.
    assert "RD630" not in serious("rocminfo lists only 2 devices.\n" + RIG.splitlines()[1] + "\n")


def test_an_nvidia_card_among_the_polaris_cards_is_not_the_atomics_case():
    nvidia = "06:00.0 VGA compatible controller: NVIDIA Corporation GP104 [GeForce GTX 1070] (rev a1)\n"
    text = "My rig has 2 RX 580 and a GTX 1070. ethminer sees only 2 of 3 GPUs.\n" + "\n".join(RIG.splitlines()[1:3]) + "\n" + nvidia
    assert "RD630" not in serious(text)


def test_a_card_amdgpu_failed_to_initialise_is_not_the_atomics_case():
    # Above 4G decoding off, a bad riser or card: amdgpu stops before KFD is asked.
    failed = "[    6.1] amdgpu 0000:05:00.0: amdgpu: Fatal error during GPU init\n"
    assert "RD630" not in serious(RIG + failed)


def _rd630_findings(text: str):
    rules = load_rules([], use_env=False)
    return [f for f in evaluate(rules, ingest(text + "\n").facts).findings if f.id == "RD630"]


def test_polaris_and_tonga_cards_partly_seen_give_one_atomics_finding_for_the_report():
    # prec55: one finding per report, not one per GFX8 card name
    tonga = "06:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Tonga PRO [Radeon R9 285/380] (rev f1)\n"
    assert len(_rd630_findings(RIG + tonga)) == 1


@pytest.mark.parametrize(
    "cause",
    [
        "Above 4G decoding was disabled in the BIOS.",
        "After I enabled Above 4G decoding in the BIOS all four show up.",
        "It turned out one riser was faulty.",
        "One of them is a dead card, I think the others are fine.",
    ],
)
def test_polaris_cards_partly_seen_with_another_cause_named_are_not_the_atomics_case(cause):
    # prec55: the reporter names an established cause other than atomics and no kernel line says atomics
    assert "gpus_missing_other_cause_told" in signature_contexts(cause)
    assert "RD630" not in serious(RIG + cause + "\n")


@pytest.mark.parametrize(
    "words",
    [
        "The cards sit on 1x risers.",
        "Should I enable Above 4G decoding?",
        "Is it a bad riser?",
        "The riser works fine, I swapped it.",
    ],
)
def test_risers_named_alone_or_another_cause_asked_leave_the_atomics_case(words):
    assert "gpus_missing_other_cause_told" not in signature_contexts(words)
    assert "RD630" in serious(RIG + words + "\n")


@pytest.mark.parametrize(
    "words",
    [
        # rev55p: a step tried that did not help, or a cause ruled out, is no other cause told
        "I enabled Above 4G decoding but still only 3 of 6 cards show.",
        "Enabling Above 4G decoding didn't help.",
        "I turned on Above 4G decoding and it did not fix it.",
        "Is a faulty riser possible?",
        "It's not a bad riser, I swapped them all.",
        "None of the cards is faulty, each works alone in slot 1.",
        "I ruled out a faulty riser by swapping.",
    ],
)
def test_another_cause_tried_without_effect_ruled_out_or_asked_leaves_the_atomics_case(words):
    assert "gpus_missing_other_cause_told" not in signature_contexts(words)
    assert "RD630" in serious(RIG + words + "\n")
