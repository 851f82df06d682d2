"""flash-attn's ROCm (Composable Kernel) fork checks the GPU before each attention call and accepts only gfx90x and
gfx94x: "FlashAttention only supports AMD MI200 GPUs or newer." (the check quoted in ROCm/flash-attention#24). The texts
are written for the test in the shapes of vllm-project/vllm#3040 (RX 7900 XTX, the message in prose; a 7900 XT in the
same thread) and of colorpepper/vllm-project_vllm README2.md (the bare RuntimeError line from vLLM's ROCm image)."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, signature_errors

SIGNATURE = "flash_attn_rocm_runtime_refuses_gpu"


@pytest.mark.parametrize(
    "text",
    [
        "I get the error `RuntimeError: FlashAttention only supports AMD MI200 GPUs or newer.`  when I try to run vllm "
        "on my RX 7900 XTX.\n",
        "RuntimeError: FlashAttention only supports AMD MI200 GPUs or newer.\n",
        "ERROR 05-10 13:09:40 engine.py:366] RuntimeError: Error in model execution (input dumped to "
        "/tmp/err_execute_model_input.pkl): FlashAttention only supports AMD MI200 GPUs or newer.\n",
    ],
)
def test_the_run_time_refusal_is_read_in_prose_log_and_traceback(text: str) -> None:
    assert SIGNATURE in signature_errors(text)


def test_the_refusal_on_an_rdna3_card_is_the_first_finding() -> None:
    text = (
        "I get the error `RuntimeError: FlashAttention only supports AMD MI200 GPUs or newer.` when I try to run vllm "
        "on my RX 7900 XTX.\n"
    )
    assert problems_shown(text)[:1] == ["RD659"]
    assert "RD599" not in problems_shown(text)


def test_the_cuda_builds_ampere_message_is_not_the_rocm_refusal() -> None:
    text = "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n"
    assert SIGNATURE not in signature_errors(text)


def test_an_mi250x_named_beside_the_message_is_not_judged_refused() -> None:
    # gfx90a passes the check: the message came from another GPU or machine
    text = (
        "GPU: AMD Instinct MI250X\n"
        "RuntimeError: FlashAttention only supports AMD MI200 GPUs or newer.\n"
    )
    assert "RD659" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "I used to get FlashAttention only supports AMD MI200 GPUs or newer on my RX 7900 XTX; BUILD_FA=0 fixed it.\n",
        "After rebuilding with BUILD_FA=0 the error 'FlashAttention only supports AMD MI200 GPUs or newer' is gone "
        "on my RX 7900 XTX.\n",
        "Will vLLM print FlashAttention only supports AMD MI200 GPUs or newer on a 7900 XTX?\n",
    ],
)
def test_the_refusal_told_as_past_fixed_or_asked_is_not_read(text: str) -> None:
    assert SIGNATURE not in signature_errors(text)
    assert "RD659" not in problems_shown(text)


def test_the_gpu_of_the_refusal_is_the_one_the_report_names() -> None:
    text = "RuntimeError: FlashAttention only supports AMD MI200 GPUs or newer.\nGPU: Radeon RX 7900 XT\n"
    assert ingest(text).facts.gpus.agents[0].gfx.value == "gfx1100"
    assert "RD659" in problems_shown(text)


def test_an_igpu_inferred_from_the_cpu_model_alone_is_not_judged_refused() -> None:
    text = "CPU: AMD Ryzen 7 7840U\nRuntimeError: FlashAttention only supports AMD MI200 GPUs or newer.\n"
    assert "RD659" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        'RX 7900 XTX. The check is TORCH_CHECK(is_gfx90x || is_gfx94x, "FlashAttention only supports AMD MI200 GPUs or newer.");\n',
        'RX 7900 XTX. Looking at the source: raise RuntimeError("FlashAttention only supports AMD MI200 GPUs or newer.")\n',
    ],
)
def test_the_checks_source_line_quoted_is_no_refusal(text: str) -> None:
    # review67: code quoted from the fork (as ROCm/flash-attention#24 quotes the check) is not the program run
    assert SIGNATURE not in signature_errors(text)
    assert "RD659" not in problems_shown(text)
