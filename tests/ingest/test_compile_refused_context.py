"""A compiler driver's own error line marks the report's GPU code as never built (gpu_code_compile_failed_shown);
collect_env's "Is debug build" field is not a debug build of the program (amdgpu_unoptimized_build_shown)."""
import pytest

from rocm_doctor.ingest import ingest_text


def _context(text: str) -> list:
    fact = ingest_text(text).facts.symptoms.context
    return list(fact.value or [])


@pytest.mark.parametrize(
    "line",
    [
        "clang++: error: unknown argument: '--use_fast_math'",  # facebookresearch/xformers#1162
        "  /opt/rocm/lib/llvm/bin/clang++: error: unknown argument: '-Xptxas'",
        "failed to execute:/opt/venv/lib/python3.13/site-packages/_rocm_sdk_core/lib/llvm/bin/clang++  --offload-arch=gfx1151 -c x.hip",  # Joluck/RWKV-PEFT#79
        "clang-7: error: unknown argument: '-fno-gpu-rdc'",  # ROCm/rocFFT#194
        "hipcc: error: no input files",
    ],
)
def test_a_compiler_drivers_error_line_marks_the_build_refused(line: str) -> None:
    assert "gpu_code_compile_failed_shown" in _context(line + "\n")


@pytest.mark.parametrize(
    "text",
    [
        "I wonder why clang++: error: shows up for other people\n",
        "The build works; clang++ compiled everything.\n",
        "error: invalid device function\n",
    ],
)
def test_prose_about_a_compiler_or_a_runtime_error_is_not_a_refused_build(text: str) -> None:
    assert "gpu_code_compile_failed_shown" not in _context(text)


def test_collect_envs_is_debug_build_field_is_not_a_debug_build() -> None:
    assert "amdgpu_unoptimized_build_shown" not in _context("Is debug build: False\n")
    assert "amdgpu_unoptimized_build_shown" in _context("I built it in debug mode.\n")
