"""Native Windows: the HIP SDK's rocBLAS and the webui start-up checks, as reports spell them (block h33e)."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, signature_contexts, signature_errors

from rocm_doctor.knowledge import rocm_support as rs


@pytest.mark.parametrize(
    ("line", "gfx"),
    [
        # sdnext#4405: HIP SDK 6.4, both separators in one path
        (r"rocBLAS error: Could not load C:\Program Files\AMD\ROCm\6.4\bin\/rocblas/library/TensileLibrary_lazy_gfx1103.dat", "gfx1103"),
        # the prefix on the line before, as the report pasted it
        (r"Could not load C:\Program Files\AMD\ROCm\6.1\bin\/rocblas/library/TensileLibrary_lazy_gfx1103.dat", "gfx1103"),
        (r'rocBLAS error: Could not load "C:/Program Files/AMD/ROCm/5.7/bin/rocblas/library/TensileLibrary_gfx90c.dat"', "gfx90c"),
        (r"rocBLAS error: Could not load D:\Apps\ROCm 6.2\bin\rocblas\library\TensileLibrary_lazy_gfx1031.dat", "gfx1031"),
        ("rocBLAS error: Could not load /opt/rocm-6.0.0/lib/rocblas/library/TensileLibrary_lazy_gfx1030.dat", "gfx1030"),
    ],
)
def test_an_unloadable_rocblas_tensile_library_is_read_in_every_path_spelling(line: str, gfx: str) -> None:
    result = ingest(line + "\nrocBLAS error: Could not initialize Tensile library\n")
    assert "rocblas_tensile_library_unloadable" in result.facts.symptoms.signatures.value
    assert result.facts.gpus.agents[0].gfx.value == gfx


@pytest.mark.parametrize(
    "line",
    [
        # hipBLASLt's and hipSPARSELt's own loaders name their own library folders
        'rocblaslt error: Could not load "TensileLibrary_lazy_gfx1101.dat"',
        "rocblaslt error: Could not load /usr/local/lib/ollama/rocm/hipblaslt/library/TensileLibrary_lazy_gfx1201.dat",
        # a missing file is rocBLAS's "Cannot read", another signature
        r"rocBLAS error: Cannot read C:\Program Files\AMD\ROCm\6.2\bin\/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch : gfx1201",
    ],
)
def test_other_libraries_and_a_missing_file_are_not_an_unloadable_rocblas_library(line: str) -> None:
    assert "rocblas_tensile_library_unloadable" not in signature_errors(line)


def test_the_hip_sdk_table_says_which_gpus_have_its_libraries() -> None:
    assert rs.windows_sdk_supported("gfx1103", "6.4") is False  # not listed: not supported
    assert rs.windows_sdk_supported("gfx1031", "6.2") is False  # listed for the runtime only
    assert rs.windows_sdk_supported("gfx1100", "6.4") is True
    assert rs.windows_sdk_supported("gfx1030", "6.1") is True
    assert rs.windows_sdk_supported("gfx90c", "5.7") is None  # the 5.7.1 table is kept partial (mislabelled targets)
    assert rs.windows_sdk_supported("gfx1102", "6.4") is True  # RX 7600 (XT), a row cut-off excerpts lost


def test_a_gpu_the_hip_sdk_has_no_rocblas_kernels_for_is_named_when_its_library_does_not_load() -> None:
    report = (
        "Windows 11, Radeon 780M, HIP SDK 6.4.2 with ZLUDA.\n\n"
        r"rocBLAS error: Could not load C:\Program Files\AMD\ROCm\6.4\bin\/rocblas/library/TensileLibrary_lazy_gfx1103.dat"
        "\n\nrocBLAS error: Could not initialize Tensile library\n"
    )
    assert problems_shown(report)[0] == "RD572"


def test_an_unloadable_library_of_a_gpu_the_hip_sdk_supports_is_not_called_unsupported() -> None:
    report = (
        "Windows 11, RX 7900 XTX, HIP SDK 6.2.\n"
        r"rocBLAS error: Could not load C:\Program Files\AMD\ROCm\6.2\bin\rocblas\library\TensileLibrary_lazy_gfx1100.dat"
        "\n"
    )
    assert "RD572" not in problems_shown(report)


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check",
        'raise RuntimeError("PyTorch is not able to access CUDA")\nRuntimeError: PyTorch is not able to access CUDA',
        "At step 6, during launching webui-user.bat I get the error PyTorch is not able to access CUDA.",
    ],
)
def test_the_webui_start_up_check_is_read_in_the_wording_of_a1111_and_forge(line: str) -> None:
    assert "webui_torch_gpu_check_failed" in signature_contexts(line)


def test_forges_start_up_check_on_windows_with_an_amd_gpu_names_the_torch_build() -> None:
    report = "Windows 11\nGPU: Radeon RX 9070\nLaunching webui-user.bat stops: RuntimeError: PyTorch is not able to access CUDA\n"
    assert problems_shown(report)[0] == "RD535"


@pytest.mark.parametrize(
    "line",
    [
        "hiprtcAddNameExpression is missing from HIPRTC shared library.",
        "``hiprtcAddNameExpression is missing from HIPRTC shared library``.",
        "hipFuncGetAttribute is missing from HIP shared library.",
        "hiprtcCompileProgram is missing from HIPRTC shared library.",
    ],
)
def test_a_function_missing_from_the_hip_libraries_is_read(line: str) -> None:
    assert "hip_library_function_missing" in signature_errors(line)


@pytest.mark.parametrize(
    ("text", "windows"),
    [
        ("`` .\\hashcat.exe -m 0 -a 0 hashes.txt rockyou.txt``\n", True),
        ("PS D:\\tools> .\\webui-user.bat\n", True),
        ("> .\\run.ps1 --listen\n", True),
        ("$ ./hashcat -m 0 hashes.txt\n", False),
        ("see the file .\\notes.txt\n", False),
    ],
)
def test_a_program_started_from_the_current_folder_with_a_backslash_is_windows(text: str, windows: bool) -> None:
    assert ("windows_program_run_from_folder" in signature_contexts(text)) is windows


def test_hashcats_missing_hiprtc_function_on_windows_points_at_the_drivers_hip_runtime() -> None:
    report = (
        "`` .\\hashcat.exe -m 0 -a 0 hashes.txt rockyou.txt``\n``hashcat (v6.2.5) starting``\n\n"
        "``hiprtcAddNameExpression is missing from HIPRTC shared library``.\n"
        "``* Device #1: AMD Radeon RX 5700 XT, 8064/8176 MB (6732 MB allocatable), 20MCU``\n"
    )
    assert problems_shown(report)[0] == "RD573"


def test_the_same_message_on_linux_is_not_blamed_on_a_windows_driver() -> None:
    report = "Ubuntu 22.04, ROCm 5.2, RX 6800\n$ ./hashcat -I\nhiprtcCompileProgram is missing from HIPRTC shared library.\n"
    assert "RD573" not in problems_shown(report)


def test_a_zluda_webui_whose_gpu_check_fails_is_not_told_to_install_a_rocm_torch() -> None:
    report = "Forge with ZLUDA on an RX 7900 XTX (Windows 10), HIP SDK 6.2: RuntimeError: PyTorch is not able to access CUDA\n"
    assert "RD535" not in problems_shown(report)


def test_a_windows_command_named_in_running_prose_does_not_make_a_linux_report_windows() -> None:
    text = (
        "I'm on Ubuntu 22.04 with an RX 6800. The README says Windows users start it with .\\webui-user.bat, "
        "I use ./webui.sh.\ntorch 2.4.1+rocm6.1, HIP error: invalid device function\n"
    )
    assert "windows_program_run_from_folder" not in signature_contexts(text)
    assert ingest(text).facts.host.os.value == "linux"


@pytest.mark.parametrize(
    ("text", "os"),
    [
        # likelovewant/ollama-for-amd#124, vladmandic/sdnext#4405, unslothai/unsloth#6043: the Windows product with its release
        ("I tested Ollama 0.11.10 with HIP SDK 6.2.4 and the GPU is not detected.\n", "windows"),
        ("Installed hip sdk 6.4.2, then the ROCm libraries for my GPU.\n", "windows"),
        ("HIP SDK: 7.1\n", "windows"),
        # Linux's meta package of the same name, and the words without a release, say nothing of the platform
        ("sudo apt install rocm-hip-sdk 6.2.4\n", None),
        ("yay -S rocm-hip-sdk rocm-opencl-sdk\n", None),
        ("Does the HIP SDK support my GPU?\n", None),
        # another person's setup
        ("My friend used to run it with HIP SDK 6.2.4 but I am on Ubuntu 24.04.\n", "linux"),
    ],
)
def test_the_hip_sdk_with_a_release_number_is_read_as_windows(text: str, os: "str | None") -> None:
    host_os = ingest(text).facts.host.os
    assert (host_os.value if host_os.status == "known" else None) == os
