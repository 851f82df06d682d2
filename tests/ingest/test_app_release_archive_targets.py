"""A prebuilt release archive whose name says its gfx targets shows the build's list as a build command
does (rules/data/ggml_builds.yaml archives); on Windows, where no override lends a family target, a GPU
outside that list has no code (RD996). The texts are written for the test in the shapes the reports show
(ggml-org/llama.cpp#11906, leejet/stable-diffusion.cpp#292)."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, signature_contexts


def targets(text: str) -> list:
    found = ingest(text).facts.symptoms.build_targets
    return list(found.value or []) if found.is_known else []


@pytest.mark.parametrize(
    "text, listed",
    [
        ("### Name and Version\n\nllama-b4730-bin-win-hip-x64-gfx1030\n", ["gfx1030"]),
        ("I unzipped llama-b4500-bin-win-hip-x64-gfx1100.zip and ran llama-cli.exe\n", ["gfx1100"]),
        ('Yet when I run sd.exe from "[sd-master-9c51d87-bin-win-rocm5.5-x64.zip](https://example.invalid/x.zip)"\n', ["gfx1100;gfx1102;gfx1030"]),
    ],
)
def test_a_release_archive_name_gives_the_builds_target_list(text: str, listed: list) -> None:
    assert targets(text) == listed


@pytest.mark.parametrize(
    "text",
    [
        "You could try llama-b4730-bin-win-hip-x64-gfx1100 instead.\n",
        "Before the update I used llama-b4730-bin-win-hip-x64-gfx1030.\n",
        "llama-b6346-bin-win-hip-radeon-x64\n",
        "sd-master-9c51d87-bin-win-avx2-x64.zip\n",
    ],
)
def test_an_archive_given_as_advice_in_the_past_or_without_targets_in_its_name_gives_no_list(text: str) -> None:
    assert targets(text) == []


def test_stable_diffusion_cpp_windows_archive_shows_a_windows_release() -> None:
    assert "ggml_windows_release_shown" in signature_contexts("sd-master-9c51d87-bin-win-rocm5.5-x64.zip\n")


@pytest.mark.parametrize(
    "text",
    [
        "llamafile 0.8.6 does not use my RX 6600\n",
        "ggml_cuda_init: found 1 ROCm devices:\n  Device 0: AMD Radeon RX 6600, compute capability 10.3, VMM: no\n",
        "ggml_init_cublas: found 1 ROCm devices:\n  Device 0: AMD Radeon Graphics, compute capability 10.3\n",
    ],
)
def test_llamafile_and_ggmls_own_rocm_device_line_name_a_ggml_program(text: str) -> None:
    assert "ggml_program_named" in signature_contexts(text)


def test_a_family_target_archive_on_windows_has_no_code_for_a_sibling_gpu() -> None:
    text = (
        "RX 6600. Windows 10.\n"
        "I run sd.exe from sd-master-9c51d87-bin-win-rocm5.5-x64.zip\n"
        "CUDA error: invalid device function\n"
    )
    assert "RD996" in problems_shown(text)


def test_the_same_list_on_linux_leaves_the_override_to_lend_the_family_target() -> None:
    text = "RX 6600 on Ubuntu 22.04, built with -DAMDGPU_TARGETS=gfx1030\nCUDA error: invalid device function\n"
    assert "RD996" not in problems_shown(text)


def test_an_override_set_on_windows_is_left_to_the_override_rule() -> None:
    text = (
        "Radeon 780M, Windows 11, HSA_OVERRIDE_GFX_VERSION=11.0.0\n"
        "cmake -B build -DGGML_HIP=ON -DAMDGPU_TARGETS=gfx1100\n"
        "ROCm error: invalid device function\n"
    )
    assert "RD996" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "  current device: 0, in function ggml_cuda_mul_mat_q at D:/a/koboldcpp-rocm/koboldcpp-rocm/ggml/src/ggml-cuda/mmq.cu:128\n",
        "D:/a/llama.cpp/llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu:87: ROCm error\n",
        "D:/a/llamacpp-rocm/llamacpp-rocm/llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu:97: ROCm error\n",
    ],
)
def test_a_windows_runners_build_path_in_a_ggml_error_shows_a_windows_release(text: str) -> None:
    assert "ggml_windows_release_shown" in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "/home/runner/work/llama.cpp/llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu:87: ROCm error\n",
        "/home/me/llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu:97: ROCm error\n",
        "D:/llama.cpp/build/ggml/src/ggml-cuda/ggml-cuda.cu:97: ROCm error\n",
    ],
)
def test_a_linux_runners_or_the_reporters_own_build_path_shows_no_windows_release(text: str) -> None:
    assert "ggml_windows_release_shown" not in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "RX 6600 on Windows 11. Should I use llama-b4730-bin-win-hip-x64-gfx1030?\n",
        "Does sd-master-9c51d87-bin-win-rocm5.5-x64.zip support the RX 6600 (gfx1032)?\n",
        "I downloaded llama-b4730-bin-win-hip-x64-gfx1030 but have not run it. Is llama-b4730-bin-win-hip-x64-gfx1100 the right one?\n",
    ],
)
def test_an_archive_asked_about_in_a_question_gives_no_list(text: str) -> None:
    # review rev50b: a yes/no question about an archive is no sign the reporter ran it
    found = targets(text)
    assert "gfx1100" not in found and "gfx1100;gfx1102;gfx1030" not in found


@pytest.mark.parametrize(
    "text, listed",
    [
        ("Why does llama-b4730-bin-win-hip-x64-gfx1030 crash with invalid device function on my RX 6600?\n", ["gfx1030"]),
        ("I run llama-b4730-bin-win-hip-x64-gfx1030.zip. Is this a bug?\n", ["gfx1030"]),
    ],
)
def test_a_why_question_or_a_question_in_the_next_sentence_keeps_the_list(text: str, listed: list) -> None:
    assert targets(text) == listed


@pytest.mark.parametrize(
    "text",
    [
        'RX 7800 XT, Windows 11. cmake -B build -DGGML_HIP=ON -DGPU_TARGETS="gfx1100;gfx11-generic"\nROCm error: invalid device function\n',
        "cmake -B build -DGGML_HIP=ON -DAMDGPU_TARGETS=gfx1030,gfx10-3-generic\n",
    ],
)
def test_a_target_list_that_goes_on_with_a_generic_target_is_not_read_in_part(text: str) -> None:
    # review rev50b: read as [gfx1100], the list gave RD996 'no code for gfx1101' where gfx11-generic has it
    assert targets(text) == []
    assert "RD996" not in problems_shown(text) and "RD795" not in problems_shown(text)


def test_a_per_target_llama_archive_of_a_target_llama_cpp_never_shipped_gives_no_list() -> None:
    # review rev50b: only gfx1030, gfx1100 and gfx1101 archives were released one target each; another name is
    # a fork's or a renamed build, whose list the name does not show
    assert targets("I run llama-b4730-bin-win-hip-x64-gfx1032.zip on my RX 6600\n") == []


@pytest.mark.parametrize(
    "text",
    [
        "system_info: n_threads = 8 / 16 | AVX = 1 | AVX2 = 1 | FMA = 1 | LLAMAFILE = 1 | OPENMP = 1 |\n",
        "CPU : SSE3 = 1 | SSSE3 = 1 | LLAMAFILE=1 | REPACK = 1 |\n",
        "[ 10%] Building CXX object ggml/src/CMakeFiles/ggml-cpu.dir/ggml-cpu/llamafile/sgemm.cpp.o\n",
    ],
)
def test_llama_cpps_llamafile_flag_and_source_file_are_not_the_llamafile_program(text: str) -> None:
    # review rev50b: llama-cpp-python prints the flag inside PyTorch apps, which then lost RD870
    assert "ggml_program_named" not in signature_contexts(text)


def test_a_windows_path_to_llamafile_exe_still_names_it() -> None:
    assert "ggml_program_named" in signature_contexts("C:\\llamafile\\llamafile.exe -ngl 99\n")


def test_an_archive_list_beside_works_fine_gives_no_error_and_beside_a_failure_does() -> None:
    # review rev50b: RD795 (an error) fired on a report that named the gfx1030 archive and said it works
    fine = "RX 7900 XTX, Windows 11. llama-b4730-bin-win-hip-x64-gfx1030.zip works fine, 80 t/s.\n"
    failing = "RX 7900 XTX, Windows 11, llama-b4730-bin-win-hip-x64-gfx1030\nROCm error: invalid device function\n"
    assert "RD795" not in problems_shown(fine) and "RD996" not in problems_shown(fine)
    assert "RD795" in problems_shown(failing)


@pytest.mark.parametrize(
    "text",
    [
        "I switched from sd-master-9c51d87-bin-win-rocm5.5-x64 to the vulkan build.\n",
        "I deleted llama-b4730-bin-win-hip-x64-gfx1030 and now use the vulkan one.\n",
        "llama-b4730-bin-win-hip-x64-gfx1030 used to work, now I run llama-b4730-bin-win-vulkan-x64.\n",
        "Not using llama-b4730-bin-win-hip-x64-gfx1030 anymore.\n",
    ],
)
def test_an_archive_the_reporter_left_gives_no_list(text: str) -> None:
    # review rev50b: the archive a report moved away from is not the build that runs
    assert targets(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "I switched to llama-b4730-bin-win-hip-x64-gfx1030 and get invalid device function.\n",
        "I tried llama-b4730-bin-win-hip-x64-gfx1030, it fails with invalid device function.\n",
    ],
)
def test_an_archive_switched_to_or_tried_still_gives_its_list(text: str) -> None:
    assert targets(text) == ["gfx1030"]


@pytest.mark.parametrize(
    "text",
    [
        "Assets:\nsd-master-9c51d87-bin-win-avx2-x64.zip\nsd-master-9c51d87-bin-win-rocm5.5-x64.zip\nsd-master-9c51d87-bin-win-vulkan-x64.zip\n",
        "I have sd-master-9c51d87-bin-win-rocm5.5-x64.zip and sd-master-9c51d87-bin-win-vulkan-x64.zip unpacked; the GPU is not used.\n",
    ],
)
def test_a_block_naming_several_windows_archives_gives_no_list(text: str) -> None:
    # review rev50b: a release page's downloads, or several archives at hand, do not show which one ran
    assert targets(text) == []


def test_an_archive_and_its_own_download_link_count_once() -> None:
    text = '[sd-master-9c51d87-bin-win-rocm5.5-x64.zip](https://github.com/leejet/stable-diffusion.cpp/releases/download/master-9c51d87/sd-master-9c51d87-bin-win-rocm5.5-x64.zip)\n'
    assert targets(text) == ["gfx1100;gfx1102;gfx1030"]


@pytest.mark.parametrize(
    "text",
    [
        "Windows 11, RX 6600. I run llama.cpp from llama-b4730-bin-win-hip-x64-gfx1030.zip and it works. ollama from the installer runs on CPU only, no GPU detected.\n",
        "llama.cpp from llama-b4730-bin-win-hip-x64-gfx1030.zip works fine on the GPU. LM Studio however does not use the GPU at all.\n",
    ],
)
def test_an_archive_said_to_work_gives_no_list(text: str) -> None:
    # review rev50d: the failure told is another program's (RD996 'no code for gfx1032' fired)
    assert targets(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "llama-b4730-bin-win-hip-x64-gfx1030.zip works on the CPU but not on the GPU.\n",
        "llama-b4730-bin-win-hip-x64-gfx1030 worked until yesterday, now it crashes.\n",
        "Nothing works with llama-b4730-bin-win-hip-x64-gfx1030.zip on my RX 6600.\n",
        "llama-b4730-bin-win-hip-x64-gfx1030.zip stopped working after the driver update.\n",
    ],
)
def test_an_archive_said_to_work_only_in_part_gives_its_list(text: str) -> None:
    assert targets(text) == ["gfx1030"]
