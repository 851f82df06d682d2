"""What programs with their own ROCm build print, and what their users write, when the GPU is left out:
`ollama ps` showing a model 100% on the CPU, ollama's "no compatible GPUs were discovered", lemonade's
"Unsupported GPU: gfxNNNN", LM Studio's ROCm engine marked not compatible, and the reporter's "graphics card
isn't being utilized" / "none of the GPU cores are being used" (rules/data/signatures.yaml)."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, report_contexts, signature_errors


@pytest.mark.parametrize(
    "line",
    [
        "codellama:latest        8fdf8f752f6e    5.1 GB  100% CPU        4 minutes from now",
        "> blackened/t-lite:latest    f7dfa19f99d5    15 GB    100% CPU     4096       4 minutes from now",
        "granite4:latest    4235724a127c    2.4 GB    100% CPU     4096       4 minutes from now",
    ],
)
def test_ollama_ps_with_the_model_all_on_the_cpu_is_read(line: str) -> None:
    assert "ollama_ps_cpu_only" in report_contexts(line)


@pytest.mark.parametrize(
    "line",
    [
        "qwen3:14b    bdbd181c33f2    10 GB    100% GPU     4096    4 minutes from now",
        "llama3:8b    365c0bd3c000    6.7 GB   48%/52% CPU/GPU    4 minutes from now",
    ],
)
def test_ollama_ps_with_layers_on_the_gpu_is_not_read(line: str) -> None:
    assert "ollama_ps_cpu_only" not in report_contexts(line)


def test_ollama_saying_it_found_no_compatible_gpu_is_read() -> None:
    line = 'time=2025-02-24T21:27:51.272+08:00 level=INFO source=gpu.go:377 msg="no compatible GPUs were discovered"'
    assert "ollama_no_compatible_gpus" in report_contexts(line)


@pytest.mark.parametrize(
    "text",
    [
        "Error: Cannot install llamacpp:rocm on this system: Unsupported GPU: gfx1152",
        "Error: Cannot install vllm:rocm on this system: Unsupported GPU: gfx950",
        "                    rocm        unsupported     Unsupported GPU: gfx1036                       -",
    ],
)
def test_lemonade_naming_a_target_it_has_no_rocm_build_for_is_read(text: str) -> None:
    assert "lemonade_rocm_unsupported_gpu" in signature_errors(text)


def test_lemonade_unsupported_without_a_target_is_not_read() -> None:
    assert "lemonade_rocm_unsupported_gpu" not in signature_errors("llamacpp   rocm        unsupported     Unsupported GPU")


@pytest.mark.parametrize(
    "text",
    [
        "6. View ROCm Linux as unavailable (ROCm llama.cpp (Linux) v1.50.2 Engine Not Compatible AMD ROCm accelerated llama.cpp engine)",
        "ROCm llama.cpp linux version 1.57.0 is not compatible",
        "```\nROCm llama.cpp (Linux)\nv1.50.2\nGPU survey unsuccessful\n```",
    ],
)
def test_lm_studio_marking_its_rocm_engine_not_compatible_is_read(text: str) -> None:
    assert "lmstudio_rocm_engine_not_compatible" in report_contexts(text)


def test_an_engine_survey_that_found_no_hip_device_is_another_cause() -> None:
    text = ("ROCm llama.cpp (Windows): GPU survey unsuccessful with message 'Error trying to query ROCm gpus: "
            "No hip devices found!'")
    assert "lmstudio_rocm_engine_not_compatible" not in report_contexts(text)


def test_a_survey_line_with_no_rocm_engine_in_the_block_is_not_read() -> None:
    assert "lmstudio_rocm_engine_not_compatible" not in report_contexts("GPU survey unsuccessful")


@pytest.mark.parametrize(
    "sentence",
    [
        "Now, I can see that my Graphics card isn't being utilized at all in radeontop",
        "when running a local model, none of the GPU or NPU cores are being used.",
    ],
)
def test_the_graphics_card_not_utilized_is_the_gpu_unused(sentence: str) -> None:
    assert "gpu_unused_told" in report_contexts(sentence)


def test_a_wish_instead_of_falling_back_to_the_cpu_is_not_the_program_on_the_cpu() -> None:
    sentence = "Adding gfx1152 support would let users of this hardware run LLMs with full ROCm acceleration instead of falling back to CPU or Vulkan."
    assert "torch_on_cpu_told" not in report_contexts(sentence)


@pytest.mark.parametrize("sentence", ["On Linux, **lmstudio with the ROCm backend (llama.cpp)** fails to detect my GPU",
                                      "lmstudio automatically on startup detected vulkan runtime"])
def test_lm_studio_written_as_one_word_is_named(sentence: str) -> None:
    assert "lm_studio_named" in report_contexts(sentence)


def test_lm_studio_model_folder_is_not_the_program() -> None:
    assert "lm_studio_named" not in report_contexts(r"C:\Users\me\.lmstudio\models\qwen.gguf")


# review rev48b: over-reads of the readers above


def test_a_survey_line_under_another_engine_is_not_the_rocm_engine() -> None:
    text = ("LM Studio on Linux, Radeon 780M.\nVulkan llama.cpp (Linux) v1.50.2\nGPU survey unsuccessful\n"
            "ROCm llama.cpp (Linux) v1.50.2\n")
    assert "lmstudio_rocm_engine_not_compatible" not in report_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "ROCm llama.cpp (Linux)\n\nv1.50.2\n\nGPU survey unsuccessful\n",
        "ROCm llama.cpp (Linux)\r\nv1.50.2\r\nGPU survey unsuccessful\r\n",
        "    ROCm llama.cpp (Linux)\n    v1.50.2\n    GPU survey unsuccessful\n",
    ],
)
def test_the_rocm_engine_block_copied_with_blank_lines_crlf_or_indent_is_read(text: str) -> None:
    assert "lmstudio_rocm_engine_not_compatible" in report_contexts(text)


def test_the_rocm_engine_not_compatible_before_an_update_is_not_read() -> None:
    text = ("LM Studio on Linux, Radeon 780M. Before the update, ROCm llama.cpp (Linux) v1.44.0 was Engine Not "
            "Compatible, now v1.50.2 works.")
    assert "lmstudio_rocm_engine_not_compatible" not in report_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        'Before updating lemonade I got "Cannot install llamacpp:rocm on this system: Unsupported GPU: gfx1151", after updating to 9.2 it works fine now.',
        "> Error: Cannot install llamacpp:rocm on this system: Unsupported GPU: gfx1151\nThat one is on my side too.",
        'Changelog 9.2: fixed "Cannot install llamacpp:rocm on this system: Unsupported GPU: gfx1151" for Strix Halo users.',
    ],
)
def test_lemonade_refusal_quoted_past_or_fixed_is_not_read(text: str) -> None:
    assert "lemonade_rocm_unsupported_gpu" not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    ["./llama-server -hf lmstudio-community/gemma-3-12b-it-GGUF", "downloaded `lmstudio-community/gemma-3-12b-it-GGUF`",
     "open the lmstudio/models folder"],
)
def test_the_lmstudio_community_models_and_paths_are_not_the_program(text: str) -> None:
    assert "lm_studio_named" not in report_contexts(text)


@pytest.mark.parametrize(
    "sentence",
    ["The GPU is not being used 100%, only about 60%.", "My graphics card isn't being utilized fully, GPU load is 50%.",
     "the GPU is not being used to its full potential"],
)
def test_a_gpu_used_in_part_is_not_the_gpu_unused(sentence: str) -> None:
    assert "gpu_unused_told" not in report_contexts(sentence)


@pytest.mark.parametrize(
    "line",
    [
        "llama3.1:70b               365c0bd3c000    42 GB     100% GPU     4 minutes from now",
        "llama3:8b    365c0bd3c000    6.7 GB   48%/52% CPU/GPU    4 minutes from now",
    ],
)
def test_ollama_ps_row_with_the_model_on_the_gpu_is_read(line: str) -> None:
    assert "ollama_ps_gpu_row" in report_contexts(line)


def test_ollama_ps_row_all_on_the_cpu_is_not_a_gpu_row() -> None:
    assert "ollama_ps_gpu_row" not in report_contexts("granite4:latest    4235724a127c    2.4 GB    100% CPU     4096       4 minutes from now")


def test_lemonades_refusal_alone_is_lemonades_not_pytorchs() -> None:
    # rev48h: the refusal names no "lemonade" and no "llamacpp-rocm"; RD527 (PyTorch's release wheels) spoke beside RD994
    shown = problems_shown("GPU: Radeon 860M (gfx1152)\nError: Cannot install llamacpp:rocm on this system: Unsupported GPU: gfx1152\n")
    assert shown == ["RD994"]


def test_lemonades_refusal_told_as_the_past_is_not_read() -> None:
    # rev48h: "I had" (the table's error_not_current) puts the line in the past
    text = "When I had lemonade 8.1 I got Error: Cannot install llamacpp:rocm on this system: Unsupported GPU: gfx1152 but 9.0 runs it."
    assert "lemonade_rocm_unsupported_gpu" not in signature_errors(text)


def test_lm_studios_engine_line_alone_is_lm_studios_not_a_self_built_llama_cpp() -> None:
    # rev48h: "ROCm llama.cpp" named llama.cpp, and RD564 (build llama.cpp for the target) spoke beside RD995
    assert problems_shown("GPU: Radeon 860M (gfx1152)\nROCm llama.cpp (Linux) v1.50.2 Engine Not Compatible\n") == ["RD995"]
