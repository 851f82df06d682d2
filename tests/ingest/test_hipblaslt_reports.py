"""Reports of hipBLASLt failing: the finding that explains hipBLASLt's messages is read first."""

from __future__ import annotations

from ingest_helpers import ingest

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.judge.report import CheckResult
from rocm_doctor.pipeline import evaluate

RULES = load_rules([], use_env=False)

# The lines hipBLASLt prints when its library folder has no files for the GPU (tensile_host.cpp),
# then what the caller sees.
NO_KERNELS = (
    "rocblaslt warning: No paths matched /opt/rocm/lib/hipblaslt/library/*gfx906*co. Make sure that HIPBLASLT_TENSILE_LIBPATH is set correctly.\n"
    "hipBLASLt error: Heuristic Fetch Failed!\n"
    "RuntimeError: CUDA error: HIPBLAS_STATUS_NOT_SUPPORTED when calling `hipblasLtMatmul(...)`\n"
)


def _check(text: str) -> CheckResult:
    return evaluate(RULES, ingest(text).facts)


def test_hipblaslts_follow_on_errors_are_explained_by_its_missing_kernels() -> None:
    result = _check(NO_KERNELS)
    problems = [f for f in result.findings if f.severity != "info"]
    assert problems and problems[0].id == "RD524"
    assert not any(f.id == "RD599" for f in result.findings)


def test_a_hipblaslt_failure_on_a_gpu_its_rocm_release_has_no_kernels_for_is_explained_first() -> None:
    report = (
        "### GPU\n\nAMD Radeon RX 7900 XTX\n\n### ROCm Version\n\nROCm 6.1.2 (AMD's packages, /opt/rocm-6.1.2)\n\n"
        "```\nrocblaslt error: Could not initialize Tensile host:\nstd::bad_cast\nSegmentation fault (core dumped)\n```\n"
    )
    result = _check(report)
    problems = [f for f in result.findings if f.severity != "info"]
    assert problems and problems[0].id == "RD167" and problems[0].category == "blas"
    assert not any(f.id == "RD599" for f in result.findings)


def test_a_hipblaslt_failure_is_left_undecided_where_the_rocm_is_not_shown_to_be_amds_packages() -> None:
    report = (
        "### GPU\n\nAMD Radeon RX 7900 XTX\n\n### ROCm Version\n\nROCm 6.1.2\n\n"
        "```\nrocblaslt error: Could not initialize Tensile host:\nstd::bad_cast\n```\n"
    )
    assert not any(f.id == "RD167" for f in _check(report).findings)


def test_a_hipblaslt_failure_is_left_unexplained_where_that_release_has_the_gpus_kernels() -> None:
    report = (
        "### GPU\n\nAMD Radeon RX 7900 XTX\n\n### ROCm Version\n\nROCm 6.2.0\n\n"
        "```\nrocblaslt error: Could not initialize Tensile host:\nstd::bad_cast\n```\n"
    )
    assert not any(f.id == "RD167" for f in _check(report).findings)


def test_a_blas_status_error_after_hipblaslts_missing_library_is_explained_by_it() -> None:
    report = (
        'rocblaslt error: Cannot read "/opt/app/rocm/hipblaslt/library/TensileLibrary_lazy_gfx1030.dat": No such file or directory\n'
        "RuntimeError: CUDA error: CUBLAS_STATUS_INVALID_VALUE when calling `cublasLtMatmulAlgoGetHeuristic(ltHandle, ...)`\n"
    )
    result = _check(report)
    problems = [f for f in result.findings if f.severity != "info"]
    assert problems and problems[0].id == "RD524"
    assert not any(f.id == "RD599" for f in result.findings)


def test_an_igpu_known_only_from_the_cpu_model_is_never_judged_for_hipblaslt_kernels() -> None:
    report = (
        "### CPU\n\nAMD Ryzen 9 7950X\n\n### GPU\n\nAMD Radeon RX 6800 XT\n\n### ROCm Version\n\nROCm 6.1.2 in /opt/rocm-6.1.2\n\n"
        "```\nrocblaslt error: Could not initialize Tensile host:\nstd::bad_cast\n```\n"
    )
    judged = [f.gpu for f in _check(report).findings if f.id == "RD167"]
    assert judged == [0]


# PyTorch's fall-back warning (Context.cpp TORCH_WARN_ONCE) in the shapes real reports paste it:
# a Python UserWarning line (ROCm/legacy-rocm-build#5643, #4440, ROCm/rocm-libraries#780), the C++
# warning prefix (pytorch/pytorch#138067) and the same wrapped before "Overriding".
FALLBACK_WARNINGS = [
    "<stdin>:6: UserWarning: Attempting to use hipBLASLt on an unsupported architecture! Overriding blas backend to hipblas (Triggered internally at /pytorch/aten/src/ATen/Context.cpp:373.)\n",
    "[W1016 17:27:46.690175963 Context.cpp:301] Warning: Attempting to use hipBLASLt on an unsupported architecture! Overriding blas backend to hipblas (function operator())\n",
    "UserWarning: Attempting to use hipBLASLt on an unsupported architecture!\nOverriding blas backend to hipblas\n",
]


def test_pytorchs_hipblaslt_fallback_warning_is_no_error() -> None:
    for text in FALLBACK_WARNINGS:
        result = _check("### GPU\n\nAMD Instinct MI100\n\n```\n" + text + "```\n")
        assert not any(f.severity == "error" for f in result.findings), text
        first = [f for f in result.findings if f.severity != "info"][0]
        assert first.id == "RD980" and first.category == "blas"


def test_the_addmm_runtime_error_with_the_same_words_is_still_an_error() -> None:
    for text in (
        "RuntimeError: Attempting to use hipBLASLt on a unsupported architecture!\n",
        "!!! Exception during processing !!! Attempting to use hipBLASLt on a unsupported architecture!\n",
    ):
        result = _check(text)
        assert any(f.id == "RD505" and f.severity == "error" for f in result.findings)
        assert not any(f.id == "RD980" for f in result.findings)


def test_the_fallback_finding_does_not_say_nothing_failed_where_the_report_shows_a_crash() -> None:
    # the warning is no failure, but it says nothing of the rest of the report (here a HIP error)
    text = "```\n" + FALLBACK_WARNINGS[0] + "Traceback (most recent call last):\nRuntimeError: HIP error: invalid device function\n```\n"
    fallback = [f for f in _check(text).findings if f.id == "RD980"]
    assert fallback
    assert all("Nothing failed" not in f.message and "Nothing needs fixing" not in " ".join(x.text for x in f.fixes) for f in fallback)


# learn53g: an environment variable whose name holds "hipblaslt" is a setting the reporter names, not hipBLASLt's
# message (ROCm/rocm-libraries#8645, lemonade-sdk/llamacpp-rocm#10, lmstudio-ai/lmstudio-bug-tracker#1163).
def _signatures(text: str) -> list:
    fact = ingest(text).facts.symptoms.signatures
    return list(fact.value) if fact.is_known else []


def test_a_hipblaslt_variable_named_near_the_word_error_is_not_read_as_hipblaslts_failure() -> None:
    for line in (
        "- rocBLAS (forced via `TORCH_BLAS_PREFER_HIPBLASLT=0 DISABLE_ADDMM_HIP_LT=1 ROCBLAS_USE_HIPBLASLT=0`) breaks"
        " at M >= 3M. Both produce identical error magnitudes at large M.",
        "When I set the `ROCBLAS_USE_HIPBLASLT=1` environment variable, the following error is thrown:",
        "I also tried ROCBLAS_VERBOSE_HIPBLASLT_ERROR=1 to see more.",
        "HIPBLASLT_LOG_MASK=32 python matmul.py failed to print anything useful",
    ):
        assert "hipblaslt_error" not in _signatures(line), line


def test_hipblaslts_own_error_lines_are_still_read_beside_such_a_variable() -> None:
    for line in (
        "hipBLASLt error: Heuristic Fetch Failed!",
        "rocblaslt error: Could not initialize Tensile host:",
        "With ROCBLAS_USE_HIPBLASLT=1 I get: hipBLASLt error: Heuristic Fetch Failed!",
        "[hipBLASLt configure] CMake Error at CMakeLists.txt:120",
    ):
        assert "hipblaslt_error" in _signatures(line), line


def test_a_healthy_report_of_a_gemm_kernel_bug_that_names_the_blas_variables_gets_no_blas_finding() -> None:
    report = (
        "On gfx1201 (AMD Radeon AI PRO R9700, RDNA4), `torch.mm` in float64 returns wrong results for M >= 2,000,000.\n"
        "- **Affects both BLAS backends** — hipBLASLt (default) breaks at M ≥ 2M; rocBLAS (forced via "
        "`TORCH_BLAS_PREFER_HIPBLASLT=0 DISABLE_ADDMM_HIP_LT=1 ROCBLAS_USE_HIPBLASLT=0`) breaks at M ≥ 3M. Both "
        "produce identical error magnitudes at large M.\n- **Reproduces on ROCm 7.1 and 7.2**\n"
    )
    result = _check(report)
    assert not any(f.severity == "error" for f in result.findings)
    assert not any(f.category == "blas" and f.severity == "warning" for f in result.findings)
