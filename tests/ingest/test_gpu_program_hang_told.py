"""A GPU compute program said to hang is read as gpu_program_hang_told, and beside a Vega 10 behind a CPU without
PCIe atomics it is the SDMA-off case (RD689).

Wordings from independent reports: "Luxmark ... hangs after the 120 second benchmark finishes"
(ROCm/legacy-rocm-build#501), "clinfo hangs forever" (#482), "clinfo hangs, opencl apps hang" (#1335), "hipMemcpy
hangs on second calls" (#2781), "some gpu will freez in the first opencl call" (fireice-uk/xmr-stak#1902). The
negatives: a hang denied, gone or fixed, a question, the desktop or the machine as the subject.
"""

from __future__ import annotations

import pytest
from ingest_helpers import serious_findings, signature_contexts

HANG = "gpu_program_hang_told"


@pytest.mark.parametrize(
    "text",
    [
        "Luxmark just shows a black picture as output, and hangs after the 120 second benchmark finishes.",
        "Installation goes fine, but clinfo hangs forever and OpenCL doesn't work",
        "clinfo hangs, opencl apps hang",
        "hipMemcpy hangs on second calls on 5700G",
        "some gpu will freez in the first opencl call where the kernel arguments are set",
    ],
)
def test_a_gpu_program_said_to_hang_is_read(text):
    assert HANG in signature_contexts(text + "\n")


@pytest.mark.parametrize(
    "text",
    [
        "clinfo no longer hangs after the update",
        "It doesn't hang anymore with clinfo",
        "Does clinfo hang for you too?",
        "My ubuntu hangs immediately.",
        "Fixed: clinfo hangs on Vega",
        "I ran the benchmark and the desktop froze",
    ],
)
def test_a_hang_denied_fixed_asked_or_of_the_desktop_is_not_read(text):
    assert HANG not in signature_contexts(text + "\n")


def ids(text: str):
    return {rule for rule, _severity, _category in serious_findings(text + "\n")}


REPORT_501 = (
    "I'm testing ROCM on a 990FX+AMD FX 8320 platform. The computer has two MSI Vega 56 Airboost in the x16 slots.\n"
    "Luxmark just shows a black picture as output, and hangs after the 120 second benchmark finishes.\n"
)


def test_a_vega_behind_an_fx_cpu_whose_opencl_program_hangs_is_the_sdma_off_case():
    assert "RD689" in ids(REPORT_501)


@pytest.mark.parametrize(
    "text",
    [
        # SDMA already off
        REPORT_501 + "export HSA_ENABLE_SDMA=0\n",
        # a CPU with PCIe atomics
        REPORT_501.replace("990FX+AMD FX 8320", "X570 + AMD Ryzen 7 3700X"),
        # a Polaris card is the GFX8 case (RD620), not this one
        REPORT_501.replace("two MSI Vega 56 Airboost", "two RX 580"),
        # no hang told
        REPORT_501.splitlines()[0] + "\nLuxmark finishes and the score is fine.\n",
    ],
)
def test_sdma_off_is_not_said_when_set_with_atomics_for_polaris_or_without_a_hang(text):
    assert "RD689" not in ids(text)


# rev54a: the words inside a link's address and a hang as the condition of advice are not the reporter's hang.
@pytest.mark.parametrize(
    "text",
    [
        "See https://github.com/ROCm/ROCm/issues/501-luxmark-hangs-with-vega for the old thread.",
        "The wiki says: if clinfo hangs, try HSA_ENABLE_SDMA=0.",
        "Export HSA_ENABLE_SDMA=0 in case the miner freezes.",
    ],
)
def test_a_hang_in_a_link_address_or_as_a_condition_of_advice_is_not_read(text):
    assert HANG not in signature_contexts(text + "\n")


def test_a_first_person_condition_that_hangs_is_still_read():
    assert HANG in signature_contexts("If I run clinfo it hangs forever.\n")


# rev54a: AMD's hardware page (ROCm/ROCm.github.io hardware.md at e04a4ff) limits SDMA off to ROCm 1.8.x; a named 1.9
# release or a PyTorch wheel built for a later ROCm is not that stack.
@pytest.mark.parametrize(
    "stack",
    [
        "ROCm 1.9.2, Ubuntu 18.04.\n",
        "PyTorch version: 2.3.0+rocm5.7\nROCM used to build PyTorch: 5.7.31921\n",
    ],
)
def test_sdma_off_is_not_said_for_rocm_1_9_or_a_later_torch_wheel(stack):
    assert "RD689" not in ids(REPORT_501 + stack)
