"""torch's "No available kernel" from scaled_dot_product_attention on an AMD machine is RD552's: the math fallback was
switched off and AOTriton had no (or only experimental) fused kernels for the GPU. The message is read in torch's own
spelling (two spaces before "Aborting"), in a traceback, and quoted in a table or a sentence; torch's debug lines that
say the input was refused (head size, dtype) keep RD552 back unless the AOTriton gate is shown too; a CUDA machine is
not RD552's. The texts are written for the test in the shapes these reports show: ROCm/TheRock#1908 and #1364,
kijai/ComfyUI-segment-anything-2#40, unsloth/unsloth#8821, pytorch/pytorch#138864, facebookresearch/sam2#48."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_contexts, signature_errors

SIGNATURE = "sdpa_no_available_kernel"
REFUSED = "sdpa_input_refused_by_fused_kernels"
GATE_LINE = (
    "C:\\app\\run.py:72: UserWarning: Flash attention was not compiled for current AMD GPU architecture. "
    "Attempting to run on architecture gfx1103 (Triggered internally at B:\\src\\torch\\aten\\src\\ATen\\native\\"
    "transformers\\hip\\sdp_utils.cpp:301.)\n"
)


@pytest.mark.parametrize(
    "text",
    [
        "RuntimeError: No available kernel.  Aborting execution.\n",
        "RuntimeError: No available kernel. Aborting execution.\n",
        "    out = F.scaled_dot_product_attention(q, k, v)\nRuntimeError: No available kernel. Aborting execution.\n",
        "✗ Flash Attention still failed with override: No available kernel. Aborting execution.\n",
        "  unset   flash: No available kernel    mem_efficient: No available kernel\n",
        "**SDPA fails with error: No available kernel**\n",
    ],
)
def test_torchs_no_available_kernel_is_read_in_its_shapes(text: str) -> None:
    assert SIGNATURE in signature_errors(text)


def test_the_input_refused_by_the_fused_kernels_is_read_as_context() -> None:
    refused = (
        "UserWarning: Flash attention requires q,k,v to have the same last dimension and to be less than or equal "
        "to 256. Got Query.size(-1): 512, Key.size(-1): 512, Value.size(-1): 512 instead.\n"
    )
    dtype = "UserWarning: Expected query, key and value to all be of dtype: {Half, BFloat16}. Got Query dtype: float\n"
    assert REFUSED in signature_contexts(refused)
    assert REFUSED in signature_contexts(dtype)
    assert REFUSED not in signature_contexts("RuntimeError: No available kernel.  Aborting execution.\n")


def test_on_an_amd_gpu_the_missing_kernel_is_told_first() -> None:
    text = "GPU: AMD Radeon 780M (gfx1103)\ntorch 2.9.0+rocmsdk20251116\n" + GATE_LINE + "RuntimeError: No available kernel.  Aborting execution.\n"
    assert problems_shown(text)[:1] == ["RD552"]


def test_a_rocm_torch_without_the_gate_line_is_enough() -> None:
    text = "I run a 6800XT on linux\npytorch version: 2.7.0.dev20250105+rocm6.2.4\nNo available kernel. Aborting execution\n"
    assert "RD552" in problems_shown(text)


def test_an_input_the_fused_kernels_refuse_is_not_blamed_on_the_gpu() -> None:
    text = (
        "torch 2.5.0+rocm6.2, AMD Instinct MI300X\n"
        "UserWarning: Flash attention requires q,k,v to have the same last dimension and to be less than or equal to 256. "
        "Got Query.size(-1): 512, Key.size(-1): 512, Value.size(-1): 512 instead.\n"
        "RuntimeError: No available kernel.  Aborting execution.\n"
    )
    assert "RD552" not in problems_shown(text)


def test_a_cuda_machine_is_not_rd552s() -> None:
    text = "torch 2.4.0+cu124\nGPU 0: NVIDIA GeForce RTX 4080\nRuntimeError: No available kernel. Aborting execution.\n"
    assert "RD552" not in problems_shown(text)
