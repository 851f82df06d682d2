"""How reporters say that the torch on their AMD machine is a CUDA build (issue 23, class
cuda_wheel_on_amd): the program "asking for CUDA and an Nvidia GPU", "looking for NVIDIA drivers",
collect_env's build lines pasted alone. Assertions are about signatures, facts and finding
categories, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, report_contexts, serious_findings, signature_errors

WANTED = "nvidia_or_cuda_wanted_retold"


@pytest.mark.parametrize(
    "sentence",
    [
        # LykosAI/StabilityMatrix#1171
        "rocm package install of Comfyui keeps asking for CUDA and an Nvidia GPU but it is installed as rocm!",
        "I now keep getting asked for cuda again while it worked moments ago!",
        # LykosAI/StabilityMatrix#1058
        "AMD install does not detect mROC and just errors out asking for CUDA",
        "it keeps looking for an nvidia driver",
        "I just get stuck being asked for CUDA:",
        # Comfy-Org/ComfyUI#10680
        "ComfyUI is starting and is trying to detect an nVidia GPU when I have installed all the AMD dependancies",
        # Comfy-Org/ComfyUI#2058
        "Looking for NVIDIA drivers on an AMD GPU",
        # HAMM3REXTREME/ComfyUI-Installer#17
        "Wants NVIDIA GPU and driver no matter what",
        # Stability-AI/StableSwarmUI#269
        "comfy-install-linux.sh calls for NVIDIA even if AMD is selected during setup.",
        # Comfy-Org/ComfyUI#6649
        "Updating it has caused all versions to not run because now it requires Nvidia GPU, even though I specified ROCm",
        "ComfyUI needs Nvidia GPU even specifying ROCm",
        # AUTOMATIC1111/stable-diffusion-webui#15137
        "The AMD version requires an NVIDIA graphic card.",
        # lllyasviel/Fooocus#519
        "whenever a try to run the program it says a need NVIDIA drivers for my GPU i have the amdgpu drivers installed",
    ],
)
def test_the_program_asking_for_an_nvidia_gpu_or_cuda_is_read_in_reporters_words(sentence: str) -> None:
    assert WANTED in signature_errors(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "It no longer asks for CUDA after the reinstall.",
        "it doesn't look for nvidia anymore",
        "I was looking for nvidia drivers to remove them",
        "I'm looking for CUDA alternatives for my AMD card",
        "the app does not want an NVIDIA GPU",
        "It keeps complaining about CUDA: CUDA error: invalid device function",
        "torch.cuda.is_available() returns False",
        "It no longer requires an NVIDIA GPU since the ROCm build went in.",
        "The TensorRT node also requires an NVIDIA GPU, so I skipped it.",
        "I need an NVIDIA GPU for this, right?",
        "ROCm does not require nvidia drivers",
    ],
)
def test_a_negation_the_reporter_searching_or_a_cuda_error_is_not_the_program_asking_for_nvidia(sentence: str) -> None:
    assert WANTED not in signature_errors(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        # a feature's or another program's requirement, not the program asking for NVIDIA at run time
        "xformers requires an NVIDIA GPU, so I run without it.",
        "The TensorRT extension requires an NVIDIA GPU.",
        "bitsandbytes requires an NVIDIA GPU for 8-bit optimizers.",
        "I now know that xformers requires an NVIDIA GPU.",
        # a document, a CUDA-only project, a person's advice
        "According to the system requirements the program requires an NVIDIA GPU with 8 GB VRAM.",
        "This project requires an NVIDIA GPU because it uses custom CUDA kernels.",
        "Their website says I need an NVIDIA GPU.",
        "Everyone says I need an NVIDIA card for AI.",
        # a question or a modal without its question mark
        "Does this program require an NVIDIA GPU or can it run on AMD",
        "It doesn't seem to require an NVIDIA GPU anymore.",
    ],
)
def test_a_requirement_of_a_feature_a_document_or_a_question_is_not_the_program_asking_for_nvidia(sentence: str) -> None:
    assert WANTED not in signature_errors(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "ComfyUI now requires an NVIDIA GPU after the update.",
        "It needs an NVIDIA driver even though the Radeon is the only GPU.",
        "The install script says a need nvidia drivers.",
    ],
)
def test_a_requirement_set_against_the_amd_setup_or_said_by_the_program_is_read(sentence: str) -> None:
    assert WANTED in signature_errors(sentence)


def test_a_short_amd_report_whose_program_asks_for_cuda_gets_a_torch_build_finding() -> None:
    text = "RX 7900 XTX, Ubuntu 24.04.\nThe ComfyUI package keeps asking for CUDA and an Nvidia GPU but it is installed as rocm!\n"
    assert any(category == "torch-build" for _, _, category in serious_findings(text))


def test_the_retold_request_for_nvidia_steps_aside_where_the_report_shows_a_rocm_torch() -> None:
    text = (
        "RX 7900 XTX, Ubuntu 24.04. It keeps asking for an NVIDIA GPU.\n"
        "python -c 'import torch; print(torch.__version__)'\n2.5.1+rocm6.2\n"
    )
    assert not any(rule == "RD570" for rule, _, _ in serious_findings(text))


def test_collect_env_build_lines_pasted_alone_say_a_cuda_build() -> None:
    text = "RX 6800 on Ubuntu 22.04, torch does not see the GPU.\nCUDA used to build PyTorch: 12.1\nROCM used to build PyTorch: N/A\n"
    torch = ingest(text).facts.torch
    assert torch.flavour.is_known and torch.flavour.value == "cuda"


def test_collect_env_build_lines_pasted_alone_say_a_rocm_build() -> None:
    text = "CUDA used to build PyTorch: N/A\nROCM used to build PyTorch: 6.0.32830-d62f6a171\n"
    torch = ingest(text).facts.torch
    assert torch.flavour.is_known and torch.flavour.value == "rocm"
    assert torch.rocm_version.is_known and torch.rocm_version.value == "6.0"


def test_the_release_after_used_to_build_pytorch_is_not_read_as_the_torch_version() -> None:
    text = "RX 6800 on Ubuntu 22.04.\nCUDA used to build PyTorch: 12.1\nROCM used to build PyTorch: N/A\n"
    version = ingest(text).facts.torch.version
    assert not (version.is_known and str(version.value).startswith("12."))


ON_CPU = "torch_on_cpu_told"


@pytest.mark.parametrize(
    "sentence",
    [
        "[2024-12-19 13:27:10,911]::[InvokeAI]::INFO --> Using torch device: CPU",
        "InvokeAI super slow and says >> Using device_type cpu",
        "Webui launches normally, but uses CPU to generate images",
        "I expect it to use my AMD GPU and not my CPU. It is using CPU instead.",
        "Trying to run pytorch with CUDA. Can only run on CPU.",
        "it will default to using my CPU instead of GPU.",
        "the generation is still using the CPU, not the GPU.",
        "When loading, it still falls back to CPU, does not detect my GPU",
    ],
)
def test_the_program_running_on_the_cpu_is_read_in_logs_and_reporters_words(sentence: str) -> None:
    assert ON_CPU in report_contexts(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "set COMMANDLINE_ARGS=--use-cpu all --no-half",
        "I run it with --cpu and it is slow",
        "It no longer runs on the CPU.",
        "it uses both the CPU and GPU",
        "My CPU is a Ryzen 7 5800X",
        "The CPU usage is 100% while generating",
    ],
)
def test_a_cpu_flag_a_negation_or_a_cpu_named_in_passing_is_not_the_program_on_the_cpu(sentence: str) -> None:
    assert ON_CPU not in report_contexts(sentence)


def test_a_short_amd_report_that_runs_on_the_cpu_gets_a_torch_build_finding() -> None:
    text = "RX 6800 XT, Ubuntu 20.04. Webui launches normally, but uses CPU to generate images.\n"
    assert any(rule == "RD571" for rule, _, _ in serious_findings(text))


def test_an_ollama_report_that_runs_on_the_cpu_gets_no_torch_build_guess() -> None:
    text = "RX 6600, Ubuntu 22.04. ollama runs on the CPU instead of the GPU.\n"
    assert not any(rule == "RD571" for rule, _, _ in serious_findings(text))


def test_a_rocm_build_searching_for_cuda_cores_is_not_the_program_asking_for_nvidia() -> None:
    # AUTOMATIC1111/stable-diffusion-webui#7459: a ROCm torch without gfx1100 kernels
    sentence = "when attempting to initialise the webUI it will always attempt to search for CUDA cores"
    assert WANTED not in signature_errors(sentence)


@pytest.mark.parametrize("program", ["llama.cpp", "koboldcpp", "llama-server", "whisper.cpp"])
def test_a_program_built_on_llama_cpp_running_on_the_cpu_is_not_told_its_torch_is_no_rocm_build(program: str) -> None:
    # RD571's guess is about PyTorch programs; llama.cpp and its kin run no torch at all
    text = f"Radeon RX 7900 XTX on Ubuntu 24.04. I run {program} with ROCm and it runs on the CPU.\n"
    assert "RD571" not in [rule for rule, _, _ in serious_findings(text)]
    torch_program = "Radeon RX 7900 XTX on Ubuntu 24.04. I run ComfyUI and it runs on the CPU.\n"
    assert "RD571" in [rule for rule, _, _ in serious_findings(torch_program)]
