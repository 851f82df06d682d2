"""Programs that ship a ROCm build for a fixed target list say so in their own words; a URL naming a
GPU is no GPU of the machine. The texts are written for the test in the shapes the reports show
(lmstudio-ai/lmstudio-bug-tracker#352, #883, #1394; likelovewant/ollama-for-amd#124, #26)."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, signature_errors


@pytest.mark.parametrize(
    "text",
    [
        '[\n  {\n    "status": "No supported GPUs",\n    "message": "No compatible ROCm GPUs found on device"\n  }\n]\n',
        "The ROCm llama.cpp engine says: No compatible ROCm GPUs found on device\n",
    ],
)
def test_lm_studios_rocm_engine_refusal_is_read(text: str) -> None:
    assert "lmstudio_rocm_engine_no_supported_gpu" in signature_errors(text)


def test_lm_studios_refusal_of_an_apu_outside_its_list_is_the_engines_missing_target() -> None:
    text = (
        "RyzenAI 370 HX (gfx1150) based PC not recognized by the ROCm llama.cpp (Linux) engine, so it falls back to Vulkan.\n"
        '```json\n[{"status": "No supported GPUs", "message": "No compatible ROCm GPUs found on device"}]\n```\n'
    )
    assert problems_shown(text)[:1] == ["RD629"]


def test_lm_studios_refusal_beside_a_gpu_every_engine_lists_names_no_missing_target() -> None:
    text = 'GPU: RX 6800 XT\n"message": "No compatible ROCm GPUs found on device"\n'
    assert "RD629" not in problems_shown(text)


def test_no_supported_gpus_said_in_prose_is_not_lm_studios_message() -> None:
    assert "lmstudio_rocm_engine_no_supported_gpu" not in signature_errors("There are no supported GPUs in this laptop, sadly.\n")


def test_an_apu_named_in_a_link_is_no_integrated_gpu_of_the_machine() -> None:
    text = (
        "After the upgrade to HIP SDK 6.4.2, the 5600M GPU (gfx1011) is not detected any more by Ollama.\n"
        "Related issue: https://github.com/likelovewant/ROCmLibs-for-gfx1103-AMD780M-APU/issues/70\n"
    )
    agents = ingest(text).facts.gpus.agents
    assert [a.integrated.value for a in agents] == [False]


def test_an_apu_named_in_prose_is_still_read() -> None:
    text = "My laptop's APU is used instead of the RX 6600M.\n"
    assert any(a.integrated.value is True for a in ingest(text).facts.gpus.agents)
