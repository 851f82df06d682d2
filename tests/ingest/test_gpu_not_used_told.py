"""The GPU told unused (cw48, class cuda_wheel_on_amd): a negated use of the GPU or its load told as zero is
read as gpu_not_used_told (rules/data/signatures.yaml), which RD571 takes, like "it runs on the CPU", as the
symptom of a torch that is no ROCm build. A question, a past state, another machine, the reporter's own
choice and a monitor's table are not read. Assertions are about context ids and finding categories."""

from __future__ import annotations

import pytest
from ingest_helpers import report_contexts, serious_findings

READER = "gpu_not_used_told"


@pytest.mark.parametrize(
    "sentence",
    [
        # ROCm/legacy-rocm-build#2708
        "It seems to only be using CPU and not touching the GPU",
        # vladmandic/sdnext#1275
        "either way, it never uses GPU acceleration.",
        # ace-step/ACE-Step-1.5#106
        "cant use my amd gpu need to use intel cpu",
        # ollama/ollama#10691 (the wording; the rule steps aside for ollama)
        "ollama isn't using the gpu",
        # ROCm/legacy-rocm-build#1217
        "GPU load 0% during the whole process",
        # OpenSenseNova/SenseNova-U1#281
        "推理时 GPU 0% 利用率、CPU 满载。",
        # tkipf/pygcn#40
        "When training with the default setting, GPU usage is 0% while CPU is 100%.",
        "My GPU is not being utilized at all.",
    ],
)
def test_a_negated_use_of_the_gpu_or_a_zero_load_is_the_gpu_unused(sentence: str) -> None:
    contexts = report_contexts(sentence)
    assert READER in contexts and "gpu_unused_told" in contexts


@pytest.mark.parametrize(
    "sentence",
    [
        "Does it not use the GPU?",
        "Before the update it did not use the GPU, now it does.",
        "On my friend's PC it doesn't use the GPU either.",
        "I do not use the GPU for display, only for compute.",
        "It not only uses the GPU but also the CPU.",
        "GPU usage is 100% while generating.",
        "GPU usage is 10% at idle",
        "GPU  Temp   AvgPwr  SCLK  MCLK  Fan  Perf  PwrCap  VRAM%  GPU%\n0    35.0c  51.191W  1300Mhz  300Mhz  16.86%  auto  152.0W  6%  0%",
        "It doesn't detect my GPU.",
    ],
)
def test_a_question_the_past_a_choice_a_table_or_a_gpu_not_seen_is_not_the_gpu_unused_now(sentence: str) -> None:
    assert READER not in report_contexts(sentence)


def test_the_gpu_unused_on_a_rocm_machine_is_a_torch_build_warning_and_never_an_error() -> None:
    text = "I installed ROCm 6.2 for my RX 7900 XTX. ComfyUI starts, but GPU usage is 0% while generating."
    found = serious_findings(text)
    assert any(category == "torch-build" and severity == "warning" for _, severity, category in found)
    assert all(severity != "error" for _, severity, _ in found)


def test_the_gpu_unused_with_a_rocm_torch_shown_is_not_blamed_on_the_torch_build() -> None:
    text = (
        "I installed ROCm 6.2 for my RX 7900 XTX. ComfyUI starts, but GPU usage is 0% while generating.\n"
        "torch 2.5.1+rocm6.2\n"
    )
    assert all(rule != "RD571" for rule, _, _ in serious_findings(text))


def test_the_cpu_in_the_plural_is_the_same_statement_of_the_program_on_the_cpu() -> None:
    # ryujaehun/pytorch-gpu-benchmark#16
    assert "torch_on_cpu_told" in report_contexts("With amd GPU, it can only use CPUs to do testing tasks.")


@pytest.mark.parametrize(
    "text, read",
    [
        # foges/whisper-dictation#9: the warning as Python prints it
        ('/venv/lib/python3.8/site-packages/whisper/transcribe.py:114: UserWarning: FP16 is not supported on CPU; using FP32 instead\n  warnings.warn("FP16 is not supported on CPU; using FP32 instead")', True),
        # shirayu/whispering#76
        ("transcriber._set_dtype:35 WARNING -> FP16 is not supported on CPU; using FP32 instead", True),
        # a script that silences the warning says nothing of where its model runs
        ('warnings.filterwarnings("ignore", message="FP16 is not supported on CPU; using FP32 instead")', False),
    ],
)
def test_whispers_fp16_warning_as_printed_is_the_model_on_the_cpu(text: str, read: bool) -> None:
    assert ("torch_on_cpu_told" in report_contexts(text)) is read


@pytest.mark.parametrize(
    "sentence",
    [
        # advice and conditions (rev48a)
        "You should check that it doesn't use the GPU.",
        "Make sure the GPU is not being utilized by another process.",
        "Check whether it doesn't use the GPU.",
        "If it is not using the GPU, try reinstalling torch.",
        # another GPU than the one the report is about
        "During the benchmark the integrated GPU usage is 0% and the RX 7900 is at 100%.",
        "It works on GPU. GPU util 0% on GPU 1 (unused second card), 100% on GPU 0.",
        "It does not use GPU 1, only GPU 0, which is fine.",
        # another program, or a use that is no compute
        "Blender isn't using the GPU for Cycles, but PyTorch works fine.",
        "Firefox doesn't use the GPU for video decode.",
        "Steam games can't use the GPU after installing ROCm.",
        "The Xorg server does not use the dGPU, it's on the iGPU.",
        "The video encoder can't use the GPU.",
        # a part of the work, the rest on the GPU
        "The tokenizer does not use the GPU, which is expected.",
        "The upscaler can't use the GPU, the rest works fine on the GPU.",
        "Everything works on the GPU except face restoration, which doesn't use the GPU.",
        # no load while nothing runs; a changelog; a relative clause
        "Generation works at 20 it/s. GPU usage 0% at idle.",
        "Works great. When idle, GPU load is 0%.",
        "GPU usage 0% before starting, 99% during generation - everything is fine.",
        "Changelog: fixed a bug where the VAE did not use the GPU.",
        "This PR makes it fall back gracefully on systems that cannot use the GPU.",
    ],
)
def test_advice_another_gpu_another_program_a_part_of_the_work_or_an_idle_gpu_is_not_the_gpu_unused(sentence: str) -> None:
    assert READER not in report_contexts("I have an RX 7900 XTX on ROCm 6.2. " + sentence)


@pytest.mark.parametrize(
    "text",
    [
        "ComfyUI starts and generates, but it does\nnot use the GPU at all, GPU usage stays at\n0% the whole time.",
        "ComfyUI starts, but it doesn't use the GPU.\r\n",
        "It worked fine, but since the update it doesn't use the GPU anymore.",
    ],
)
def test_the_gpu_unused_now_is_still_read_when_wrapped_in_crlf_or_after_an_update(text: str) -> None:
    assert READER in report_contexts("I have an RX 7900 XTX on ROCm 6.2. " + text)


def test_sdnexts_generator_device_set_to_cpu_is_not_the_program_on_the_cpu() -> None:
    # rev48a: SD.Next prints the "Generator device" setting (GPU/CPU/Unset); CPU is a common choice for seeds
    # that repeat across machines while the model runs on the GPU (modules/processing_helpers.py at b9e230c1)
    text = "RX 7900 XTX, ROCm 6.2\n10:00:01-000000 DEBUG    Torch generator: device=cpu seeds=[1234]\n"
    assert "torch_on_cpu_told" not in report_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "./webui.sh --use-cpu all\n10:00:01-000000 INFO     Engine: backend=Backend.DIFFUSERS compute=cpu device=cpu attention=\"Scaled-Dot-Product\" mode=no_grad\n",
        "python app.py --device cpu\ntranscribe.py:114: UserWarning: FP16 is not supported on CPU; using FP32 instead\n",
        "transcribe.py:112: UserWarning: Performing inference on CPU when CUDA is available\ntranscribe.py:114: UserWarning: FP16 is not supported on CPU; using FP32 instead\n",
        "python main.py --cpu\nComfyUI runs on the CPU.\n",
    ],
)
def test_the_cpu_asked_for_by_the_programs_option_is_no_torch_build_warning(text: str) -> None:
    found = serious_findings("I have an RX 7900 XTX on ROCm 6.2.\n" + text)
    assert all(rule != "RD571" for rule, _, _ in found)


def test_comfyuis_cpu_vae_option_is_not_the_cpu_asked_for_everything() -> None:
    assert "cpu_asked_on_command_line" not in report_contexts("python main.py --cpu-vae\nComfyUI runs on the CPU.\n")


def test_a_zero_gpu_load_beside_is_available_true_is_not_blamed_on_the_torch_build() -> None:
    # rev48a: on a machine without NVIDIA GPUs, is_available() True is a torch that sees the AMD GPU
    text = "RX 7900 XTX, ROCm 6.2.\n>>> torch.cuda.is_available()\nTrue\nTraining works but GPU usage is 0% while CPU is 100%.\n"
    assert all(rule != "RD571" for rule, _, _ in serious_findings(text))


@pytest.mark.parametrize(
    "text, read",
    [
        ("Building flash-attention uses all CPUs and takes an hour.", False),
        ("MAX_JOBS=4 because the compile is using all processors otherwise.", False),
        ("Generation on the GPU works; the dataloader uses all CPUs.", False),
        ("With amd GPU, it can only use CPUs to do testing tasks.", True),
    ],
)
def test_all_cpus_is_work_spread_over_the_cores_not_the_program_on_the_cpu(text: str, read: bool) -> None:
    # rev48a: the plural added in cw48 read "uses all CPUs" (a build, a data loader) as the model on the CPU
    assert ("torch_on_cpu_told" in report_contexts("RX 7900 XTX, ROCm 6.2. " + text)) is read
