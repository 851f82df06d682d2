"""Derived facts for pasted reports (rocm_doctor/judge/derived_facts/pasted.py)."""

from __future__ import annotations

from ingest_helpers import ingest

from rocm_doctor.judge.derived import DerivedValues

GGML = (
    "ggml_cuda_init: found 2 ROCm devices:\n"
    "  Device 0: AMD Radeon(TM) Graphics, gfx1036 (0x1036), VMM: no, Wave Size: 32\n"
    "  Device 1: AMD Radeon RX 9070 XT, gfx1201 (0x1201), VMM: no, Wave Size: 32\n"
)


def test_a_hip_listing_with_the_igpu_first_is_known_true() -> None:
    facts = ingest(GGML).facts
    assert DerivedValues(facts).machine("derived.hip_listing_igpu_first").value is True


def test_the_discrete_gpu_first_is_false_and_no_hip_listing_is_absent() -> None:
    swapped = GGML.replace("Device 0", "Device X").replace("Device 1", "Device 0").replace("Device X", "Device 1")
    assert DerivedValues(ingest(swapped).facts).machine("derived.hip_listing_igpu_first").value is False
    other = ingest("### GPU\n\nAMD Radeon RX 7900 XTX\n").facts
    assert DerivedValues(other).machine("derived.hip_listing_igpu_first").status == "absent"


def test_documented_override_reads_the_override_table() -> None:
    facts = ingest("### GPU\n\nAMD Radeon RX 6600 XT\n").facts
    values = DerivedValues(facts)
    assert values.gpu("gpu.documented_override", facts.gpus.agents[0]).value == "10.3.0"
    facts_1100 = ingest("### GPU\n\nAMD Radeon RX 7900 XTX\n").facts
    assert DerivedValues(facts_1100).gpu("gpu.documented_override", facts_1100.gpus.agents[0]).status == "absent"
