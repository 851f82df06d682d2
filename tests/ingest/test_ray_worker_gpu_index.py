"""A process Ray started asks for a GPU index it cannot see (rule RD551, issue 23 class env_var_misuse): the error
read also where a report names it in prose (in backticks, or followed by "error(s)"), Ray read also from its opt-outs
(RAY_EXPERIMENTAL_NOSET_*_VISIBLE_DEVICES) and from Ray as an executor or backend in prose. Reports: vllm-project/vllm
#21522, #33308, ray-project/ray#58449, radixark/miles#1233. Assertions are about signature, context
and rule ids, never wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import serious_findings

from rocm_doctor.ingest import ingest_text


def _read(text: str) -> tuple:
    symptoms = ingest_text(text).facts.symptoms
    return symptoms.signatures.value or [], symptoms.context.value or []


@pytest.mark.parametrize("sentence", [
    "Users who install vLLM from wheels without these env vars get cryptic `invalid device ordinal` errors.",
    "Every TP rank >= 1 crashes with invalid device ordinal errors during scheduler init.",
])
def test_the_error_named_in_prose_is_read(sentence: str) -> None:
    assert "invalid_device_ordinal_named" in _read(sentence + "\n")[0]


@pytest.mark.parametrize("sentence", [
    "What does invalid device ordinal mean here",
    "## Invalid device ordinal",
])
def test_the_bare_words_in_a_question_or_heading_are_not_read(sentence: str) -> None:
    assert not {"invalid_device_ordinal", "invalid_device_ordinal_named"} & set(_read(sentence + "\n")[0])


@pytest.mark.parametrize("sentence", [
    "The official images ship with RAY_EXPERIMENTAL_NOSET_HIP_VISIBLE_DEVICES=1 pre-set.",
    "Visibility to GPU devices is altered when using Ray backend.",
    "The Ray integration in vLLM treats CUDA and ROCm platforms differently.",
])
def test_ray_is_read_from_its_opt_outs_and_from_prose(sentence: str) -> None:
    assert "ray_named" in _read(sentence + "\n")[1]


def test_a_ray_worker_s_invalid_ordinal_on_rocm_is_judged_and_not_on_nvidia() -> None:
    told = "vllm serve m --tensor-parallel-size 2 with the Ray backend fails:\nRuntimeError: HIP error: invalid device ordinal\n"
    assert "RD551" in [f[0] for f in serious_findings("2x MI250, ROCm 6.2.\n" + told)]
    nvidia = "2x RTX 4090, CUDA 12.4.\nvllm with the Ray backend fails:\nRuntimeError: CUDA error: invalid device ordinal\n"
    assert "RD551" not in [f[0] for f in serious_findings(nvidia)]


def test_the_same_error_without_ray_is_not_said_to_be_ray_s() -> None:
    text = "ROCm 6.2, one RX 7900 XTX.\ntorch.cuda.set_device(1)\nRuntimeError: HIP error: invalid device ordinal\n"
    assert "RD551" not in [f[0] for f in serious_findings(text)]


@pytest.mark.parametrize("text", [
    # rev59: a question, with Ray negated
    "What does `invalid device ordinal` mean? I don't use Ray workers, just a single python script, and it runs fine.",
    # the fix already applied
    "Setting RAY_EXPERIMENTAL_NOSET_HIP_VISIBLE_DEVICES=1 avoids the `invalid device ordinal` error, which I had before; "
    "now vLLM starts and serves fine.",
    # documentation quoted
    "The docs for the Ray backend mention `invalid device ordinal` errors if RAY_EXPERIMENTAL_NOSET_HIP_VISIBLE_DEVICES "
    "is unset. I set it. My problem is an OOM.",
    # another vendor's machine
    "ROCm 6.3 on the AMD box works. On the NVIDIA box with Ray workers I get invalid device ordinal errors.",
])
def test_the_error_named_in_a_question_a_fixed_past_docs_or_on_nvidia_is_not_a_ray_worker_s(text: str) -> None:
    assert "RD551" not in [f[0] for f in serious_findings("ROCm 6.3, MI250.\n" + text + "\n")]


def test_ray_negated_is_not_ray_named() -> None:
    assert "ray_named" not in _read("I don't use Ray workers, and there are no Ray actors.\n")[1]


@pytest.mark.parametrize("said", [
    # rev59: Ray said not to be used, the opt-out named as someone's suggestion
    "Someone suggested RAY_EXPERIMENTAL_NOSET_HIP_VISIBLE_DEVICES=1 but I don't use Ray at all.",
    "I am not using the Ray backend, just plain torchrun.",
])
def test_an_invalid_ordinal_where_ray_is_said_not_to_be_used_is_not_a_ray_worker_s(said: str) -> None:
    text = "ROCm 6.2, one RX 7900 XTX.\ntorch.cuda.set_device(1)\nRuntimeError: HIP error: invalid device ordinal\n" + said + "\n"
    assert "ray_named" not in _read(text)[1]
    assert "RD551" not in [f[0] for f in serious_findings(text)]



@pytest.mark.parametrize("line", [
    # ray63: the error a Ray task raised, re-raised in the driver (vllm-project/vllm#38108, ray-project/ray#26490, #4061)
    "ray.exceptions.RayTaskError(AcceleratorError):",
    "(TrainTrainable pid=45854) ray.exceptions.RayTaskError(RuntimeError): ray::BaseWorkerMixin.__execute()",
    "ray.worker.RayTaskError: ray_worker (pid=2873, host=b75ac73b9f01)",
])
def test_ray_is_read_from_the_error_a_ray_task_raised(line: str) -> None:
    assert "ray_named" in _read(line + "\n")[1]


@pytest.mark.parametrize("line", [
    # vLLM's own multiprocess workers print a (Name pid=N) prefix without Ray
    "(EngineCore_DP0 pid=53002) ERROR 11-07 09:43:49 [core.py:718] EngineCore failed to start.",
    "(VllmWorker rank=1 pid=812) INFO loading weights",
    "Runs fine with ray tracing enabled in the game.",
])
def test_vllm_s_process_prefixes_and_ray_tracing_are_not_ray(line: str) -> None:
    assert "ray_named" not in _read(line + "\n")[1]


_TUNER_FAILURE = (
    "$ python benchmarks/kernels/benchmark_moe.py --tp-size 8 --tune\n"
    "ray.exceptions.RayTaskError(AcceleratorError):\n"
    '  File "torch/accelerator/__init__.py", line 296, in __enter__\n'
    "torch.AcceleratorError: CUDA error: invalid device ordinal\n"
)


def test_a_ray_task_error_with_invalid_ordinal_on_amd_is_a_ray_worker_s_and_not_on_nvidia() -> None:
    assert "RD551" in [f[0] for f in serious_findings("8x AMD Instinct MI100 (gfx908), ROCm 7.2.\n" + _TUNER_FAILURE)]
    nvidia = "8x NVIDIA H100, CUDA 12.8, driver 570.\n" + _TUNER_FAILURE
    assert "RD551" not in [f[0] for f in serious_findings(nvidia)]


def test_a_ray_task_error_that_is_not_a_gpu_index_is_not_a_ray_worker_s() -> None:
    text = ("ROCm 6.3, MI250.\nray.exceptions.RayTaskError(ValueError): ray::Trainer.fit()\n"
            "ValueError: bad config key 'lr'\n")
    assert "RD551" not in [f[0] for f in serious_findings(text)]


def test_a_ray_task_error_told_as_fixed_is_not_a_ray_worker_s() -> None:
    text = ("ROCm 6.3, MI250.\nI used to get ray.exceptions.RayTaskError(RuntimeError) with HIP error: invalid device "
            "ordinal, but after setting RAY_EXPERIMENTAL_NOSET_HIP_VISIBLE_DEVICES=1 it is fixed and works now.\n")
    assert "RD551" not in [f[0] for f in serious_findings(text)]
