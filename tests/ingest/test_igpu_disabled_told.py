"""The reporter says the processor's iGPU is disabled or turned off (signature igpu_disabled_told), and RD470's
warning (a Raven Ridge / Picasso gfx902 iGPU inferred from the CPU model beside a discrete GPU) standing aside for
it, and for a visibility variable the report already sets.

Spellings from four independent reports: "disabling the integrated graphics in BIOS doesn't seem to help"
(ROCm/legacy-rocm-build#740), "on my machine disabling the iGPU in the BIOS doesn't seem to have any effect"
(pytorch/pytorch#119637), "for now I'll keep the iGPU disabled" (ROCm/legacy-rocm-build#5871), "now, iGPU DISABLED"
(patientx-cfz/comfyui-rocm#115). The negatives are advice, a condition, a question, a negation, a past state, another
person's machine and a re-enable.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, signature_contexts

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

SIGNATURE = "igpu_disabled_told"


@pytest.mark.parametrize(
    "text",
    [
        "Unfortunately, disabling the integrated graphics in BIOS doesn't seem to help.",
        "However, on my machine disabling the iGPU in the BIOS doesn't seem to have any effect, unfortunately.",
        "I tried device 1 and 0 and nothing worked, for now I'll keep the iGPU disabled.",
        "Interestingly, now, iGPU DISABLED, if I use HIP_VISIBLE_DEVICES=1 , it throws an error about no CUDA device.",
        "I have disabled the integrated graphics in the BIOS.",
        "CPU: Ryzen 5 3400G (integrated graphics disabled in UEFI)",
        "IGD: Disabled",
        "Integrated Graphics set to Disabled in the BIOS.",
    ],
)
def test_the_igpu_said_disabled_now_is_read(text):
    assert SIGNATURE in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "Try disabling the iGPU in the BIOS.",
        "You should have the iGPU disabled.",
        "The ROCm docs recommend having the iGPU disabled in the BIOS.",
        "Is the iGPU disabled?",
        "Should I disable the iGPU in BIOS?",
        "If I disable the iGPU in BIOS I get no display at all.",
        "When I have disabled the integrated graphics through BIOS the discrete GPU works flawlessly.",
        "I haven't disabled the iGPU yet.",
        "The iGPU is not disabled, I use it for the display.",
        "I never disabled the iGPU.",
        "Previously the iGPU was disabled in the BIOS.",
        "My friend has the iGPU disabled in his BIOS.",
        "I had the iGPU disabled in BIOS but a BIOS update re-enabled it.",
        "The dGPU is disabled in the BIOS.",
        "Secure boot disabled in BIOS.",
    ],
)
def test_advice_a_condition_a_negation_the_past_or_another_machine_is_not_read(text):
    assert SIGNATURE not in signature_contexts(text)


def _findings(text: str):
    return {f.id: f.severity for f in evaluate(load_rules([], use_env=False), ingest(text).facts).findings}


SETUP = "Ubuntu 22.04, Ryzen 5 3400G, RX 6600, torch 2.3.0+rocm6.0.\n"
ERROR = "RuntimeError: HIP error: invalid device function\n"
FAILING = SETUP + ERROR


def test_a_picasso_apu_beside_a_dgpu_is_rd470s_warning():
    found = _findings(FAILING)
    assert found.get("RD470") == "warning"
    assert "RD541" not in found


@pytest.mark.parametrize(
    "said",
    [
        "I have disabled the integrated graphics in the BIOS.",
        "Disabling the iGPU in the BIOS didn't help.",
    ],
)
def test_the_igpu_said_disabled_stands_rd470_and_rd541_down(said):
    found = _findings(FAILING + said + "\n")
    assert "RD470" not in found and "RD541" not in found


@pytest.mark.parametrize("setting", ["$ export HIP_VISIBLE_DEVICES=1", "I run with ROCR_VISIBLE_DEVICES=1."])
def test_a_visibility_variable_set_before_the_error_leaves_rd541s_note(setting):
    found = _findings(SETUP + setting + "\n" + ERROR)
    assert "RD470" not in found
    assert found.get("RD541") == "info"  # the note the name speaks of (read57: was not checked)
    assert found.get("RD541") == "info"
