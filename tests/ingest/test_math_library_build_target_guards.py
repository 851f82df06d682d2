"""Review rev52d of learn52d: a ROCm math library's build that refuses a GPU target (RD930/RD931), read only where
the build printed it now, and given to hipBLASLt (RD931) only where hipBLASLt refused it.

The log shapes are those of ROCm/TheRock#1062 (hipBLASLt, gfx1102), ROCm/rocm-libraries#2297 (rocBLAS, gfx1036 in a
gfx103X-all build), ROCm/TheRock#2042 (hipSPARSELt, gfx1201) and ROCm/TheRock#1443 (Tensile's CMake list quoted);
the prose around them is written for the test.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, serious_findings, signature_errors

HIPBLASLT_ROW = "hipblaslt_build_rejects_gfx_target"
GENERIC_ROW = "rocm_library_build_rejects_gfx_target"


def _signatures(text: str) -> list:
    value = ingest(text).facts.symptoms.signatures.value
    return list(value or [])


def _gfx(text: str) -> list:
    return sorted(a.gfx.value for a in ingest(text).facts.gpus.agents if a.gfx.is_known)


@pytest.mark.parametrize(
    "text",
    [
        # the file's name in a sentence or a link is no failure
        "The targets hipBLASLt builds for are in TensileliteSupportedArchitectures.cmake; my RX 7900 XTX (gfx1100) is "
        "in it and everything works.",
        "See https://github.com/ROCm/rocm-libraries/blob/develop/projects/hipblaslt/next-cmake/cmake/"
        "TensileliteSupportedArchitectures.cmake for the list.",
    ],
)
def test_the_tensilelite_file_name_alone_is_no_refused_build(text: str) -> None:
    assert HIPBLASLT_ROW not in _signatures(text)
    assert not [f for f in serious_findings(text) if f[1] == "error"]


def test_a_standalone_hipblaslt_configure_error_is_hipblaslts() -> None:
    text = (
        "CMake Error at cmake/TensileliteSupportedArchitectures.cmake:79 (message):\n"
        "  Unsupported GPU target: gfx1102\n\n"
        "  Supported targets are:\n"
        "  gfx908;gfx90a;gfx942;gfx950;gfx1100;gfx1101;gfx1103;gfx1150;gfx1151;gfx1200;gfx1201\n"
    )
    found = _signatures(text)
    assert HIPBLASLT_ROW in found and GENERIC_ROW in found
    assert "RD931" in [f[0] for f in serious_findings(text)]


@pytest.mark.parametrize(
    "text",
    [
        "- Fixed \"Unsupported GPU target: gfx1036\" in the rocBLAS configure of a gfx103X-all build",
        "The rocBLAS \"Unsupported GPU target: gfx1036\" is fixed now that Tensile lists it.",
        "Previously hipBLASLt stopped with Tensile::FATAL: Architecture gfx1151 not supported.",
    ],
)
def test_a_refusal_said_to_be_past_or_fixed_is_not_read(text: str) -> None:
    found = _signatures(text)
    assert HIPBLASLT_ROW not in found and GENERIC_ROW not in found


def test_an_applications_own_unsupported_target_message_is_no_math_library() -> None:
    text = "PS C:\\src\\app> .\\build.ps1 -GpuArch gfx1100\nUnsupported GPU target: gfx1100\nAt C:\\src\\app\\build.ps1:12 char:5\n"
    assert GENERIC_ROW not in _signatures(text)


def test_a_library_refusal_retold_in_prose_is_still_read() -> None:
    assert GENERIC_ROW in _signatures("rocBLAS configure fails with Unsupported GPU target: gfx1036 on my Windows build.")


def test_another_librarys_refusal_after_hipblaslt_is_not_hipblaslts() -> None:
    text = "I excluded hipBLASLt, and now rocBLAS configure stops with Unsupported GPU target: gfx1036."
    found = _signatures(text)
    assert GENERIC_ROW in found and HIPBLASLT_ROW not in found
    ids = [f[0] for f in serious_findings(text)]
    assert "RD930" in ids and "RD931" not in ids


def test_a_hipsparselt_refusal_is_the_generic_libraries_and_names_no_gpu() -> None:
    # ROCm/TheRock#2042's shape: the refused target and the two supported ones are the build's
    text = (
        "```\n[hipSPARSELt configure] CMake Error at cmake/hipsparselt_supported_architectures.cmake:42 (message):\n"
        "[hipSPARSELt configure]   Unsupported GPU target: gfx1201\n[hipSPARSELt configure] \n"
        "[hipSPARSELt configure]   Supported targets are:\n"
        "[hipSPARSELt configure]   gfx942;gfx950;gfx942:xnack+;gfx942:xnack-;gfx950:xnack+;gfx950:xnack-\n```\n"
    )
    found = _signatures(text)
    assert GENERIC_ROW in found and HIPBLASLT_ROW not in found
    assert _gfx(text) == []


# third61: rocPRIM's GFX9-only DPP broadcasts compiled for an RDNA target (RD111). The compiler's line as
# ROCm/legacy-rocm-build#2685, ROCm/rocPRIM#180 and #452, ROCm/rocm-examples#110 and ROCm/rocSPARSE#250 show it.
@pytest.mark.parametrize(
    "text",
    [
        "error: Illegal instruction detected: Invalid dpp_ctrl value: broadcasts are not supported on GFX10+\n"
        "renamable $vgpr45 = V_MOV_B32_dpp undef $vgpr45(tied-def 0), $vgpr12, 322, 15, 15, 0, implicit $exec\n"
        "6 errors generated when compiling for gfx1032.\n",
        "[3680/4568] Building HIPCC object caffe2/CMakeFiles/torch_hip.dir/operators/hip/torch_hip_generated_batch_sparse_to_dense_op.hip.o\n"
        "error: Illegal instruction detected: Invalid dpp_ctrl value: broadcasts are not supported on GFX10+\n",
        "Trying to build on gfx1036 a piece of code using (roc)Thrust fails due to\n\n"
        "    error: Illegal instruction detected: Invalid dpp_ctrl value: broadcasts are not supported on GFX10+\n",
    ],
)
def test_rocprims_dpp_broadcasts_compiled_for_an_rdna_target_are_reported(text: str) -> None:
    assert "rocprim_dpp_broadcast_on_rdna" in signature_errors(text)
    assert "RD111" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # another DPP refusal, not the broadcasts rocPRIM's old list produced
        "error: Illegal instruction detected: Invalid dpp_ctrl value: wavefront shifts are not supported on GFX10+\n",
        # told as past
        "I used to get 'Invalid dpp_ctrl value: broadcasts are not supported on GFX10+' before the update; ROCm 6.1 builds it.\n",
        # a guide's words on the instruction set, not a build's error
        "row_bcast:15 is a GFX9 DPP control; the GFX10 ISA dropped broadcasts.\n",
    ],
)
def test_other_dpp_words_are_not_read_as_rocprims_broadcasts(text: str) -> None:
    assert "RD111" not in problems_shown(text)


def test_a_question_about_the_dpp_broadcast_message_is_not_a_build_failure() -> None:
    text = 'Question: does "Invalid dpp_ctrl value: broadcasts are not supported on GFX10+" mean my gfx1032 is unsupported?\n'
    assert "RD111" not in problems_shown(text)


_DPP = "error: Illegal instruction detected: Invalid dpp_ctrl value: broadcasts are not supported on GFX10+\n"


# rev62: the message told as fixed, asked about, or quoted from LLVM's own source and tests is no build failing now
@pytest.mark.parametrize(
    "text",
    [
        "I got Invalid dpp_ctrl value: broadcasts are not supported on GFX10+ and fixed it by upgrading to ROCm 6.1.\n",
        "```\n" + _DPP + "```\nI fixed it by upgrading to ROCm 6.1.\n",
        "```\n" + _DPP + "```\nAfter installing ROCm 6.1 it builds fine.\n",
        "What does 'Invalid dpp_ctrl value: broadcasts are not supported on GFX10+' mean? I build for gfx1032\n",
        '```cpp\n    ErrInfo = "Invalid dpp_ctrl value: broadcasts are not supported on GFX10+";\n```\n',
        '```cpp\n      Error(S, "invalid dpp_ctrl value: broadcasts are not supported on GFX10+");\n```\n',
        "```\n// GFX10-ERR: :[[@LINE-1]]:{{[0-9]+}}: error: invalid dpp_ctrl value: broadcasts are not supported on GFX10+\n```\n",
    ],
    ids=["fixed on its line", "fixed by a change below", "builds after installing", "asked", "LLVM's verifier source",
         "LLVM's asm parser source", "a FileCheck line"],
)
def test_the_dpp_broadcast_message_told_fixed_asked_or_quoted_from_llvm_source_is_not_reported(text: str) -> None:
    assert "RD111" not in problems_shown(text)
