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


def test_an_explicit_amdgpu_target_leaves_no_unexplained_refusal_either() -> None:
    # rev60: RD654 stepped aside, but the refusal was still read, and RD599 warned of an error nothing explained
    text = (
        "Warning: Unsupported GPU architecture detected 'gfx1101'. Expected 'gfx942' or 'gfx950'.\n"
        "Warning: AMDGPU_TARGET='gfx1101' was set explicitly; continuing with an unsupported architecture.\n"
    )
    assert "sgl_kernel_refuses_gpu_arch" not in signature_errors(text)
    assert "RD599" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # rev60: a fix applied, the past, a question
        "I patched setup_rocm.py so it no longer stops with \"Unsupported GPU architecture detected 'gfx1101'. "
        "Expected 'gfx942' or 'gfx950'\" and now it builds on my RX 7800 XT.\n",
        "Will sgl-kernel print \"Unsupported GPU architecture detected 'gfx1100'. Expected 'gfx942' or 'gfx950'\" on a 7900 XTX?\n",
        "I used to get Unsupported GPU architecture detected gfx1100. Expected gfx942 or gfx950 - it is fixed in the new image.\n",
    ],
)
def test_sgl_kernels_refusal_told_as_fixed_past_or_asked_is_not_read(text: str) -> None:
    assert "sgl_kernel_refuses_gpu_arch" not in signature_errors(text)
    assert "RD654" not in problems_shown(text)


def test_the_explicit_target_check_reads_a_long_block_in_well_under_a_second() -> None:
    import time

    from rocm_doctor.ingest import signatures as table

    row = next(s for s in table.signatures() if s.id == "sgl_kernel_refuses_gpu_arch")
    text = ("AMDGPU_TARGET='gfx1101' was set " * 7000)[:200_000]
    started = time.perf_counter()
    row.context.search(text)
    assert time.perf_counter() - started < 0.5
