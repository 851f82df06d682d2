"""sgl-kernel (SGLang's kernels) builds its ROCm kernels for gfx942 and gfx950 only and says so when it stops on
another target (sgl-kernel/setup_rocm.py at sglang 01b582cb). The texts are written for the test in the shapes of
sgl-project/sglang#9417 (gfx1100, the message quoted without the target's quotes) and #27519 (RX 7800 XT, gfx1101)."""

from __future__ import annotations

import pytest
from ingest_helpers import gpu, ingest, problems_shown, signature_contexts, signature_errors


@pytest.mark.parametrize(
    "text, gfx",
    [
        ("Warning: Unsupported GPU architecture detected 'gfx1101'. Expected 'gfx942' or 'gfx950'.\n", "gfx1101"),
        ('the new version failed to compile with the error "Unsupported GPU architecture detected gfx1100. '
         "Expected 'gfx942' or 'gfx950'.\"\n", "gfx1100"),
    ],
)
def test_sgl_kernels_refusal_is_read_with_the_target_it_names(text: str, gfx: str) -> None:
    assert "sgl_kernel_refuses_gpu_arch" in signature_errors(text)
    assert gpu(ingest(text))["gfx"] == gfx


def test_sgl_kernels_refusal_of_an_rdna3_card_is_a_library_list_without_the_target() -> None:
    text = (
        "GPU: AMD Radeon RX 7800 XT\n"
        "Warning: Unsupported GPU architecture detected 'gfx1101'. Expected 'gfx942' or 'gfx950'.\n"
    )
    assert problems_shown(text)[:1] == ["RD654"]


def test_an_explicit_amdgpu_target_that_sgl_kernel_goes_on_with_is_no_refusal() -> None:
    text = (
        "GPU: AMD Radeon RX 7800 XT\n"
        "Warning: Unsupported GPU architecture detected 'gfx1101'. Expected 'gfx942' or 'gfx950'.\n"
        "Warning: AMDGPU_TARGET='gfx1101' was set explicitly; continuing with an unsupported architecture. "
        "This configuration is untested upstream\n"
    )
    assert "sgl_kernel_unsupported_arch_forced" in signature_contexts(text)
    assert "RD654" not in problems_shown(text)


def test_another_programs_check_with_the_same_two_targets_is_not_sgl_kernels() -> None:
    text = "ValueError: hstu attention fwd unsupported arch: 'gfx1100' (expected 'gfx942' or 'gfx950')\n"
    assert "sgl_kernel_refuses_gpu_arch" not in signature_errors(text)
