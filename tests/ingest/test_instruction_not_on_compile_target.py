"""The assembler's "instruction not supported on this GPU" for GPU code in a real source file says the code being
built uses an instruction the gfx target it is compiled for lacks (RD656 names the one AMD target the report shows,
RD657 speaks without one); a debug build or an assembler of another toolchain says something else, and the
assembler's own inputs and LLVM's tests are not read. The texts are written for the test in the shapes the reports
show: vllm-project/vllm#6565, ROCm/MIOpen#484 and #515, ROCm/composable_kernel#508, #1146 and #1759,
rocm-arch/rocm-arch#410 and #412, hashcat/hashcat#3920 and #3948; for clang's "needs target feature" on an amdgcn builtin,
facebookresearch/xformers#978 and #1026, ROCm/TheRock#3671."""

from __future__ import annotations

from typing import List

import pytest
from ingest_helpers import ingest, problems_shown, signature_errors

SIGNATURE = "hip_instruction_not_on_compile_target"
BUILTIN = "amdgcn_builtin_not_on_compile_target"
MESSAGE = "instruction not supported on this GPU"
INLINE_ASM_FAILURE = (
    "In file included from gridwise_convolution_implicit_gemm_v4r1.cpp:1:\n"
    f"./amd_inline_asm.hpp:24:21: error: {MESSAGE}\n"
    '    asm volatile("\\n \\\n'
    "                    ^\n"
    "<inline asm>:2:14: note: instantiated into assembly here\n"
    "             v_mac_f32 v65, v95, v99\n"
)


@pytest.mark.parametrize(
    "line",
    [
        f"  /root/vllm/build/temp.linux-x86_64-cpython-310/csrc/custom/custom_kernels.hip:404:17: error: {MESSAGE}",
        f"./amd_inline_asm.hpp:40:21: error: {MESSAGE}",
        f"D:/workspace/oidn/external/composable_kernel/include\\ck/utility/amd_inline_asm.hpp:212:21: error: {MESSAGE}",
        f"C:\\Users\\Jane Doe\\my ext\\csrc\\kernel.hip:10:3: error: {MESSAGE}",
        f"composable_kernel> /build/source/include/ck/utility/inner_product.hpp:51:21: error: {MESSAGE}",
        f"[composable_kernel] /w/ck/include/ck/utility/amd_inline_asm.hpp:51:21: error: {MESSAGE}",
        f"src/kernels/attention.cu:88: error: {MESSAGE}",
        f"C:\\src\\kernel.hip(88,5): error: {MESSAGE}",
        f"/src/ext/kernel.hip:12:5: error: {MESSAGE} (gfx942): v_cvt_scalef32_pk_bf16_fp4",
        f"> ./amd_inline_asm.hpp:24:21: error: {MESSAGE}",
    ],
)
def test_an_instruction_rejected_in_a_source_file_is_read(line: str) -> None:
    assert SIGNATURE in signature_errors(line + "\n")


@pytest.mark.parametrize(
    "text",
    [
        # hashcat's start-up probes of which instruction spellings the compiler takes (noise, not the failure)
        f"<inline asm>:1:2: error: {MESSAGE}\n        V_ADD_U32     v0, vcc, 0, 0;\n",
        # MIOpen's and Tensile's assembly: no source file
        f"<instantiation>:1:1: error: {MESSAGE}\nv_add_u32 v62, vcc, v35, v36\n",
        f"<stdin>:216:3: error: {MESSAGE}\n",
        f"Cijk_Ailk_Bljk_SB_MT128x016x16_ISA803.s:1272:1: error: {MESSAGE}\n",
        # LLVM's own tests: a check line, a lit run over a test file
        f"// GFX90A: error: {MESSAGE} (gfx90a): buffer_inv\n",
        f"// CHECK: /tmp/a.cpp:1:2: error: {MESSAGE}\n",
        f"/home/u/llvm-project/clang/test/CodeGenHIP/inline-asm.hip:12:3: error: {MESSAGE}\n",
        # the message in prose, without its file
        f"I get error: {MESSAGE} when I build it\n",
        f"The build of main.cpp fails: error: {MESSAGE}\n",
    ],
)
def test_the_assemblers_own_inputs_llvm_tests_and_prose_are_not_read(text: str) -> None:
    assert SIGNATURE not in signature_errors(text)


def _finding_text(text: str, rule: str) -> str:
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    findings = [f for f in evaluate(load_rules([], use_env=False), ingest(text).facts).findings if f.id == rule]
    assert findings, f"{rule} did not fire"
    return " ".join(str(part) for f in findings for part in (f.title, f.message))


def test_the_failure_names_the_gfx_target_the_report_shows() -> None:
    shown: List[str] = problems_shown("/opt/rocm/llvm/bin/clang++ -x hip -mcpu=gfx906 -O3 -c kernel.cpp\n" + INLINE_ASM_FAILURE)
    assert shown[:1] == ["RD656"]
    assert "gfx906" in _finding_text("/opt/rocm/llvm/bin/clang++ -x hip -mcpu=gfx906 -O3 -c kernel.cpp\n" + INLINE_ASM_FAILURE, "RD656")


def test_the_failure_names_the_gpu_of_a_device_line() -> None:
    text = "  Name:                    gfx1030\n  Marketing Name:          AMD Radeon RX 6800 XT\n\n" + INLINE_ASM_FAILURE
    assert problems_shown(text)[:1] == ["RD656"]
    assert "gfx1030" in _finding_text(text, "RD656")


def test_without_one_target_shown_the_code_still_lacks_its_target() -> None:
    assert problems_shown("gfx10 does not support the below instructions present in v4r1 and other kernels:\n" + INLINE_ASM_FAILURE)[:1] == ["RD657"]
    assert problems_shown("GPU: RX 7900 XTX and RX 6800 XT\n\n" + INLINE_ASM_FAILURE)[:1] == ["RD657"]


@pytest.mark.parametrize(
    "said",
    [
        "Compilation error in debug mode on the Visual Studio compiler",
        "cmake -DCMAKE_BUILD_TYPE=Debug -DGPU_TARGETS=gfx1030 ..",
        "Build failure for gfx908 when building without optimization flags",
    ],
)
def test_a_build_without_optimization_is_not_taken_for_a_missing_target(said: str) -> None:
    shown = problems_shown(said + "\nGPU: AMD Radeon RX 6800 XT\n```\n" + INLINE_ASM_FAILURE + "```\n")
    assert "RD656" not in shown and "RD657" not in shown


@pytest.mark.parametrize(
    "said",
    [
        "The build picks up the system clang and fails",
        "Which version of llvm-amdgpu are you using? It seems to be a problem on the compiler side.",
        "<inline asm>:1:2: error: instruction not supported on this GPU\n        V_ADDC_U32    v0, vcc, 0, 0, vcc;",
    ],
)
def test_an_assembler_of_another_toolchain_is_not_taken_for_a_missing_target(said: str) -> None:
    shown = problems_shown(said + "\n" + INLINE_ASM_FAILURE)
    assert "RD656" not in shown and "RD657" not in shown


def test_the_failure_names_the_target_clang_says_it_compiled_for() -> None:
    text = INLINE_ASM_FAILURE + "2 errors generated when compiling for gfx1030.\n"
    assert problems_shown(text)[:1] == ["RD656"]
    assert "gfx1030" in _finding_text(text, "RD656")


@pytest.mark.parametrize(
    "line",
    [
        "/home/u/xformers/third_party/composable_kernel_tiled/include/ck/tile_program/warp_tile/warp_gemm_attribute_mfma_impl_hip.hpp:116:17:"
        " error: '__builtin_amdgcn_mfma_f32_32x32x8bf16_1k' needs target feature mai-insts",
        "2026-02-27T06:39:17.7986248Z /__w/TheRock/rocm-systems/projects/rocprofiler-compute/sample/rocflop.cpp:75:22:"
        " error: '__builtin_amdgcn_mfma_f32_16x16x16f16' needs target feature mai-insts",
        "  csrc/kernels/dot.hip:30:12: error: '__builtin_amdgcn_sdot4' needs target feature dot1-insts",
    ],
)
def test_an_amdgcn_builtin_the_target_lacks_is_read(line: str) -> None:
    assert BUILTIN in signature_errors(line + "\n")


@pytest.mark.parametrize(
    "line",
    [
        # a CPU builtin: another compiler's target, not the GPU's
        "src/simd.cpp:12:5: error: '__builtin_ia32_vpdpbusd512' needs target feature avx512vnni",
        # a lit check line and prose
        "// CHECK: error: '__builtin_amdgcn_mfma_f32_32x32x8bf16_1k' needs target feature mai-insts",
        "it says __builtin_amdgcn_mfma_f32_32x32x8bf16_1k needs target feature mai-insts",
    ],
)
def test_other_builtins_checks_and_prose_are_not_read(line: str) -> None:
    assert BUILTIN not in signature_errors(line + "\n")


def test_an_mfma_builtin_built_for_an_rdna_target_names_that_target() -> None:
    text = (
        "/home/u/xformers/third_party/composable_kernel_tiled/include/ck/tile_program/warp_tile/warp_gemm_attribute_mfma_impl_hip.hpp:116:17:"
        " error: '__builtin_amdgcn_mfma_f32_32x32x8bf16_1k' needs target feature mai-insts\n"
        "        c_vec = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a_vec, b_vec, c_vec, 0, 0, 0);\n"
        "1 error generated when compiling for gfx1100.\n"
    )
    assert problems_shown(text)[:1] == ["RD656"]
    assert "gfx1100" in _finding_text(text, "RD656")


def test_the_one_build_target_list_shown_is_named() -> None:
    text = 'cmake .. -DGPU_TARGETS="gfx908;gfx90a;gfx1030;gfx1100" -DCMAKE_BUILD_TYPE=Release\n' + INLINE_ASM_FAILURE
    assert problems_shown(text)[:1] == ["RD658"]
    assert "gfx1030, gfx1100, gfx908, gfx90a" in _finding_text(text, "RD658")


def test_two_build_target_lists_name_none_of_them() -> None:
    text = "export PYTORCH_ROCM_ARCH=gfx906\nexport PYTORCH_ROCM_ARCH=gfx90a\n" + INLINE_ASM_FAILURE
    assert problems_shown(text)[:1] == ["RD657"]


@pytest.mark.parametrize(
    "text",
    [
        # rev59: the build said to succeed now, the error quoted as the past
        "ROCm 6.1, MI50 gfx906. The old build printed\ncsrc/custom_kernels.hip:404:17: error: instruction not supported on this GPU\n"
        "but after updating vLLM to 0.6 the build succeeds and everything works.\n",
        "ROCm 6.1, MI50 gfx906.\n\nBefore updating vLLM the build failed with:\n```\n"
        "csrc/custom_kernels.hip:404:17: error: instruction not supported on this GPU\n```\nNow it builds fine.\n",
        "ROCm 6.1, MI50 gfx906.\nFixed by upgrading vLLM. For reference:\n"
        "csrc/custom_kernels.hip:404:17: error: instruction not supported on this GPU\n",
    ],
)
def test_a_compile_error_quoted_beside_a_build_said_to_succeed_now_gets_no_target_finding(text: str) -> None:
    shown = problems_shown(text)
    assert not {"RD656", "RD657", "RD658"} & set(shown)


def test_a_build_that_still_fails_keeps_the_target_finding() -> None:
    text = ("ROCm 6.1, MI50 gfx906. After updating vLLM it still does not build:\n"
            "csrc/custom_kernels.hip:404:17: error: instruction not supported on this GPU\n")
    assert "RD656" in problems_shown(text)
