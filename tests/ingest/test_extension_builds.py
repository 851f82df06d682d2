"""An extension or triton built for another torch build than the one installed (block h31c).

Issue 23, classes package_mismatch and torch_rocm_mismatch. Each form is the shape several
independent real reports use (named per case); the texts are written for the test, not copied
from one report, and the assertions are about the signature read and the findings shown.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, signature_contexts, signature_errors

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


@pytest.mark.parametrize(
    "text",
    [
        # xformers' own two lines (easydiffusion/easydiffusion#1603: cu118 wheel beside rocm5.4.2)
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        "    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.0.1+rocm5.4.2)\n"
        "    Python  3.8.17 (you have 3.8.5)\n",
        # a Ray worker's prefix on every line (vllm-project/vllm#2217)
        "(RayWorkerVllm pid=4411)     PyTorch 2.1.1+cu121 with CUDA 1201 (you have 2.1.1+rocm5.6)\n",
        # another torch release on each side, a TheRock torch (unslothai/unsloth#11639)
        "    PyTorch 2.10.0+cu128 with CUDA 1208 (you have 2.11.0+rocm7.13.0)\n",
    ],
)
def test_xformers_built_for_a_cuda_torch_beside_a_rocm_torch_is_read(text: str) -> None:
    assert "xformers_cuda_build_beside_rocm_torch" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # built from source for the same ROCm torch: the extension failed for another reason (ROCm/xformers#60)
        "    PyTorch 2.5.1+rocm6.2 with CUDA None (you have 2.5.1+rocm6.2)\n",
        # a CUDA xformers beside a CUDA or CPU torch is no AMD machine's mismatch
        "    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)\n",
        "    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.1.0+cu121)\n",
    ],
)
def test_xformers_lines_without_a_cuda_build_beside_a_rocm_torch_are_not_read(text: str) -> None:
    assert "xformers_cuda_build_beside_rocm_torch" not in signature_errors(text)


def test_a_cuda_xformers_beside_a_rocm_torch_is_a_packages_finding() -> None:
    report = (
        "RX 7900 XTX, Ubuntu 24.04, torch 2.5.1+rocm6.2 from the rocm6.2 index, then pip install xformers.\n"
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        "    PyTorch 2.5.1+cu124 with CUDA 1204 (you have 2.5.1+rocm6.2)\n"
    )
    assert "RD671" in problems_shown(report)


CPU_TORCH = "xformers_cuda_build_beside_cpu_torch"


@pytest.mark.parametrize(
    "text",
    [
        # another release on the right, CPU build (facebookresearch/xformers#971)
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        "    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.0+cpu)\n",
        # the same release, CPU build, a log prefix (open-mmlab/PIA#30)
        "12:00:01 WARNING    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)\n",
        # quoted in the reporter's own sentence on an AMD machine (GVCLab/PersonaLive#52)
        "> PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.0+cpu)\n",
    ],
)
def test_xformers_built_for_a_cuda_torch_beside_a_cpu_torch_is_read(text: str) -> None:
    assert CPU_TORCH in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # GPU builds on both sides
        "    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.1.0+cu121)\n",
        "    PyTorch 2.5.1+rocm6.2 with CUDA None (you have 2.5.1+rocm6.2)\n",
        "    PyTorch 2.1.1+cu121 with CUDA 1201 (you have 2.1.1+rocm5.6)\n",
        # a CPU-ish word that is not the version's local label
        "    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpuinfo)\n",
    ],
)
def test_xformers_lines_with_a_gpu_torch_on_the_right_are_not_a_cpu_torch(text: str) -> None:
    assert CPU_TORCH not in signature_errors(text)


def test_a_cuda_xformers_beside_a_cpu_torch_is_a_torch_build_finding() -> None:
    report = (
        "python -m xformers.info\n"
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        "    PyTorch 2.2.0+cu121 with CUDA 1201 (you have 2.2.0+cpu)\n"
    )
    assert "RD982" in problems_shown(report)


@pytest.mark.parametrize(
    "text",
    [
        # upstream 0.47-0.49 (bitsandbytes#1799, #2014)
        "bitsandbytes library load error: Configured ROCm binary not found at "
        "/home/u/venv/lib/python3.12/site-packages/bitsandbytes/libbitsandbytes_rocm62.so\n",
        # 0.43's wording for a source build (comfyanonymous/ComfyUI_bitsandbytes_NF4#1)
        "Could not find the bitsandbytes CUDA binary at PosixPath('/venv/bitsandbytes/libbitsandbytes_rocm61.so')\n",
        # the ROCm fork's multi-backend branch, a PosixPath repr
        "Could not find the bitsandbytes ROCm binary at PosixPath('/opt/bnb/bitsandbytes/libbitsandbytes_rocm61.so')\n",
        # the ROCm fork before ROCm 6.1, the library without hipBLASLt
        "Could not find the bitsandbytes ROCm binary at PosixPath('/opt/bnb/bitsandbytes/libbitsandbytes_rocm57_nohipblaslt.so')\n",
    ],
)
def test_bitsandbytes_missing_its_library_for_torchs_rocm_release_is_read(text: str) -> None:
    assert "bnb_rocm_library_not_found" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # a CUDA library missing is not a ROCm release's
        "Could not find the bitsandbytes CUDA binary at PosixPath('/venv/bitsandbytes/libbitsandbytes_cuda121.so')\n",
        # the library found and loaded
        "Loading bitsandbytes native library from: /venv/bitsandbytes/libbitsandbytes_rocm62.so\n",
    ],
)
def test_other_bitsandbytes_library_lines_are_not_a_missing_rocm_library(text: str) -> None:
    assert "bnb_rocm_library_not_found" not in signature_errors(text)


def test_a_bitsandbytes_library_missing_for_torchs_rocm_is_a_torch_rocm_mismatch() -> None:
    report = (
        "Built bitsandbytes from source with the system ROCm 6.4 on my RX 9070 XT; torch is 2.7.1+rocm6.3.\n"
        "bitsandbytes library load error: Configured ROCm binary not found at "
        "/home/u/bitsandbytes/bitsandbytes/libbitsandbytes_rocm63.so\n"
    )
    assert problems_shown(report)[:1] == ["RD672"]


@pytest.mark.parametrize(
    "text",
    [
        # HIP 7.10 named rocm80, a source build (bitsandbytes#1799, ROCm/bitsandbytes#91)
        "bitsandbytes library load error: Configured ROCm binary not found at "
        "/home/u/bitsandbytes/bitsandbytes/libbitsandbytes_rocm80.so\n",
        # HIP 7.14 named rocm84, the 0.49.2 wheel (bitsandbytes#2014)
        "RuntimeError: Configured ROCm binary not found at "
        "/opt/app-root/lib64/python3.12/site-packages/bitsandbytes/libbitsandbytes_rocm84.so\n",
        # the ROCm fork's wording with a PosixPath repr, HIP 7.12 (#1890's rocm82)
        "Could not find the bitsandbytes ROCm binary at PosixPath('/opt/theRock/bnb/libbitsandbytes_rocm82.so')\n",
    ],
)
def test_a_rocm8n_bitsandbytes_library_is_read_as_the_misnamed_minor(text: str) -> None:
    found = signature_errors(text)
    assert "bnb_rocm_library_misnamed_minor" in found and "bnb_rocm_library_not_found" in found


@pytest.mark.parametrize(
    "text",
    [
        # a real release's library (rocm64, rocm72) missing is RD672's
        "Configured ROCm binary not found at /venv/bitsandbytes/libbitsandbytes_rocm64.so\n",
        "Configured ROCm binary not found at /venv/bitsandbytes/libbitsandbytes_rocm72.so\n",
        # a rocm8N library loaded is no failure; a CUDA 12.8 library is not ROCm's
        "Loading bitsandbytes native library from: /venv/bitsandbytes/libbitsandbytes_rocm84.so\n",
        "Configured CUDA binary not found at /venv/bitsandbytes/libbitsandbytes_cuda128.so\n",
    ],
)
def test_other_bitsandbytes_library_names_are_not_the_misnamed_minor(text: str) -> None:
    assert "bnb_rocm_library_misnamed_minor" not in signature_errors(text)


def test_a_misnamed_rocm8n_library_is_a_packages_finding_not_a_torch_rocm_mismatch() -> None:
    report = (
        "ROCm version: 7.14, GPU: MI350P\n"
        "Successfully installed bitsandbytes-0.49.2\n"
        "bitsandbytes library load error: Configured ROCm binary not found at "
        "/opt/app-root/lib64/python3.12/site-packages/bitsandbytes/libbitsandbytes_rocm84.so\n"
    )
    shown = problems_shown(report)
    assert shown[:1] == ["RD953"] and "RD672" not in shown


def test_a_misnamed_rocm8n_library_alone_is_explained_not_left_to_the_catch_all() -> None:
    # the bare message (bitsandbytes#1799's paste): RD953 explains the "binary not found" error it is read in
    report = (
        "bitsandbytes library load error: Configured ROCm binary not found at\n"
        "/home/u/bitsandbytes/bitsandbytes/libbitsandbytes_rocm80.so\n"
    )
    shown = problems_shown(report)
    assert shown[:1] == ["RD953"] and "RD599" not in shown


def test_a_cpu_only_bitsandbytes_beside_a_rocm_torch_is_a_packages_finding() -> None:
    report = (
        "RX 6900 XT, torch 2.0.1+rocm5.4.2\n"
        "UserWarning: The installed version of bitsandbytes was compiled without GPU support. "
        "8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.\n"
    )
    assert "RD673" in problems_shown(report)


def test_a_cpu_only_bitsandbytes_beside_a_cuda_torch_is_not_called_a_rocm_problem() -> None:
    report = (
        "torch 2.1.0+cu121\n"
        "UserWarning: The installed version of bitsandbytes was compiled without GPU support.\n"
    )
    assert "RD673" not in problems_shown(report)


@pytest.mark.parametrize(
    "text",
    [
        # bitsandbytes#1461
        "ROCm 6.3 has been released, but bitsandbytes no longer works due to the mismatch of installed ROCm "
        "and the PyTorch wheel ROCm version.\n",
        # the same in the other order
        "It fails because of a mismatch between the torch ROCm version and the system ROCm.\n",
        # Comfy-Org/ComfyUI#16215
        "The nightly url pulled wheels that were compiled with ROCm 7.13 and conflicted with the system ROCm 10.\n",
        # a source build and the system's release (bitsandbytes PR #1878's situation, told by its user)
        "RuntimeError: HIP error: invalid argument. I built pytorch against ROCm 6.0 but /opt/rocm is 6.1\n",
        "My torch was compiled with a different ROCm version than the system.\n",
    ],
)
def test_torch_built_for_another_rocm_than_the_system_is_read_when_told(text: str) -> None:
    assert "torch_rocm_differs_from_system_told" in signature_contexts(text)


def test_a_told_mismatch_without_both_versions_is_a_torch_rocm_mismatch_finding() -> None:
    report = "RuntimeError: HIP error: invalid argument. I built pytorch against ROCm 6.0 but /opt/rocm is 6.1\n"
    assert problems_shown(report)[:1] == ["RD674"]


@pytest.mark.parametrize(
    "text",
    [
        # a question, a past state, a denial, a description of when it happens
        "Does torch need to match the system ROCm? Is PyTorch built with a different ROCm version than the system a problem?\n",
        "Before, my torch was built with a different ROCm version than the system; now both are 6.2.\n",
        "There is no mismatch of installed ROCm and the PyTorch wheel ROCm version here.\n",
        "When PyTorch is built with a different ROCm version than the system (e.g. torch+rocm7.0 on ROCm 7.2), "
        "bitsandbytes fails to find the native library.\n",
        # a condition: what happens in general
        "If PyTorch is built with a different ROCm version than the system, bitsandbytes fails to find the library.\n",
        "In case torch was built for a different ROCm than the system, rebuild bitsandbytes.\n",
        # a pip torch with its bundled ROCm beside an older system ROCm, working: no mismatch told
        "pip install torch --index-url https://download.pytorch.org/whl/rocm6.2\n"
        "I have ROCm 6.0 installed in /opt/rocm and training works fine on my 7900 XTX.\n",
    ],
)
def test_no_told_mismatch_without_a_statement_of_the_current_state(text: str) -> None:
    assert "torch_rocm_differs_from_system_told" not in signature_contexts(text)
    assert "RD674" not in problems_shown(text)


def test_a_told_mismatch_with_both_versions_read_is_left_to_the_versions() -> None:
    report = "torch 2.5.1+rocm6.2 on ROCm 6.4.1: the mismatch of installed ROCm and the PyTorch wheel ROCm version breaks it.\n"
    shown = problems_shown(report)
    assert "RD674" not in shown and "RD580" in shown


@pytest.mark.parametrize(
    "text",
    [
        # pip >= 20.3 on one line, a ROCm torch and its pytorch-triton-rocm pin
        "torch 2.5.1+rocm6.2 requires pytorch-triton-rocm==3.1.0, but you have pytorch-triton-rocm 3.0.0 which is incompatible.\n",
        # the environment markers, wrapped onto the next line (triton-lang/triton#5058)
        'torch 2.6.0+rocm6.2.4 requires pytorch-triton-rocm==3.2.0; platform_system == "Linux" and platform_machine == "x86_64",\n'
        "but you have pytorch-triton-rocm 3.1.0 which is incompatible.\n",
        # PyPI's triton over a ROCm torch's pin (vllm-project/vllm#16664's situation)
        "torch 2.6.0+rocm6.2.4 requires pytorch-triton-rocm==3.2.0, but you have triton 3.3.0 which is incompatible.\n",
        # older pip (vllm-project/vllm#3426)
        'torch 2.1.2 has requirement triton==2.1.0; platform_system == "Linux", but you\'ll have triton 2.2.0 which is incompatible.\n',
    ],
)
def test_pip_saying_torch_pins_another_triton_is_read(text: str) -> None:
    assert "torch_pins_other_triton" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # a companion's pin on torch is another signature's (companion_pins_other_torch)
        "torchvision 0.20.1 requires torch==2.5.1, but you have torch 2.6.0 which is incompatible.\n",
        # another package's triton pin is not torch's
        "xformers 0.0.29 requires triton==3.1.0, but you have triton 3.2.0 which is incompatible.\n",
    ],
)
def test_other_pip_conflicts_are_not_torchs_triton_pin(text: str) -> None:
    assert "torch_pins_other_triton" not in signature_errors(text)


def test_a_rocm_torch_with_another_triton_is_a_packages_finding_and_a_cuda_one_is_not() -> None:
    rocm = "torch 2.5.1+rocm6.2 requires pytorch-triton-rocm==3.1.0, but you have pytorch-triton-rocm 3.0.0 which is incompatible.\n"
    cuda = "torch 2.5.1+cu121 requires triton==3.1.0, but you have triton 3.0.0 which is incompatible.\n"
    assert "RD675" in problems_shown(rocm)
    assert "RD675" not in problems_shown(cuda)


@pytest.mark.parametrize(
    "text",
    [
        # pytorch/builder#1468
        "if LD_LIBRARY_PATH is set in the environment to point to the ROCm installation, it will override the "
        "RUNPATH setting for the PyTorch libraries in the wheel package\n",
        # ROCm/TheRock#1011
        "Target environment had an LD_LIBRARY_PATH set with a prior version of ROCm in it. ROCm wheels use RUNPATH, "
        "which can be overridden by LD_LIBRARY_PATH.\n",
        # JuliaGPU/AMDGPU.jl#1062, with Markdown marks
        "TheRock's libraries carry `DT_RUNPATH`, which the loader searches only *after* `LD_LIBRARY_PATH`.\n",
        # a user's own words
        "The problem was LD_LIBRARY_PATH including /opt/rocm/lib from an older ROCm install.\n",
        "My LD_LIBRARY_PATH points to another ROCm, 5.7.\n",
    ],
)
def test_ld_library_path_naming_another_rocm_ahead_of_the_bundled_one_is_read(text: str) -> None:
    assert "ld_library_path_rocm_over_bundled_told" in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # LD_LIBRARY_PATH empty, asked about, or needed for the wheel's own libraries
        "echo $LD_LIBRARY_PATH is empty. Do I need to set LD_LIBRARY_PATH to /opt/rocm/lib?\n",
        "import torch fails unless LD_LIBRARY_PATH includes /opt/rocm/lib/rocm_sysdeps/lib\n",
        # a question, and a past state
        "Does LD_LIBRARY_PATH override the RUNPATH of the torch wheels?\n",
        "Before the fix my LD_LIBRARY_PATH pointed to another ROCm; it is clean now.\n",
        # a negation between LD_LIBRARY_PATH and the override
        "My LD_LIBRARY_PATH is empty, so it cannot override the RUNPATH.\n",
        "LD_LIBRARY_PATH does not override the RUNPATH here since I unset it.\n",
        "I unset LD_LIBRARY_PATH so that it doesn't override RUNPATH, it still crashes.\n",
    ],
)
def test_ld_library_path_words_that_do_not_say_another_rocm_is_loaded_first_are_not_read(text: str) -> None:
    assert "ld_library_path_rocm_over_bundled_told" not in signature_contexts(text)


def test_ld_library_path_with_a_prior_rocm_is_a_torch_rocm_mismatch_finding() -> None:
    report = (
        "torch 2.5.1+rocm6.2 from pip crashes with a segfault at import.\n"
        "The cluster's module sets an LD_LIBRARY_PATH with an older ROCm in it.\n"
    )
    assert "RD676" in problems_shown(report)


@pytest.mark.parametrize(
    "text",
    [
        # Comfy-Org/desktop#1630, saddam213/AmuseAI#6: a drive letter, a space in a folder name
        "RuntimeError: Configured ROCm binary not found at D:\\apps\\Comfy Desktop\\.venv\\Lib\\site-packages\\bitsandbytes\\libbitsandbytes_rocm72.dll\n",
        "bitsandbytes library load error: Configured ROCm binary not found at "
        "C:\\Users\\u\\AppData\\Local\\Amuse\\PythonRuntime\\Lib\\site-packages\\bitsandbytes\\libbitsandbytes_rocm72.dll\n",
    ],
)
def test_bitsandbytes_missing_its_windows_rocm_dll_is_a_packages_finding_not_a_rocm_mismatch(text: str) -> None:
    assert "bnb_rocm_dll_not_found" in signature_errors(text)
    assert "bnb_rocm_library_not_found" not in signature_errors(text)
    shown = problems_shown(text)
    assert shown[:1] == ["RD677"] and "RD672" not in shown


@pytest.mark.parametrize(
    "text",
    [
        # ctypes' OSError after bitsandbytes' own line, a rocm62 library (bitsandbytes#1550)
        "Could not load bitsandbytes native library: /home/u/env/lib/python3.11/site-packages/bitsandbytes/"
        "libbitsandbytes_rocm62.so: undefined symbol: _Z36__device_stub__kOptimizer32bit1StateI12hip_bfloat16"
        "Li2EEvPT_S2_PfS3_ffffffiffbi\n",
        # the OSError alone, a source build from multi-backend-refactor (bitsandbytes#1519)
        "OSError: /home/u/src/bitsandbytes/bitsandbytes/libbitsandbytes_rocm63.so: undefined symbol: "
        "_Z36__device_stub__kOptimizer32bit1StateI12hip_bfloat16Li2EEvPT_S2_PfS3_ffffffiffbi\n",
        # told in a sentence (ROCm/bitsandbytes#67)
        "The error is libbitsandbytes_rocm64.so: undefined symbol: "
        "_Z36__device_stub__kOptimizer32bit1StateI12hip_bfloat16Li2EEvPT_S2_PfS3_ffffffiffbi\n",
        # quoted with '> ' and wrapped after the library's name
        "> Could not load bitsandbytes native library: /home/u/bnb/bitsandbytes/libbitsandbytes_rocm63.so:\n"
        "> undefined symbol: _Z36__device_stub__kOptimizer32bit1StateI12hip_bfloat16Li2EEvPT_S2_PfS3_ffffffiffbi\n",
        # CRLF line ends
        "OSError: /home/u/bnb/libbitsandbytes_rocm64.so: undefined symbol: "
        "_Z36__device_stub__kOptimizer32bit1StateI12hip_bfloat16Li2EEvPT_S2_PfS3_ffffffiffbi\r\nROCm 6.4\r\n",
    ],
)
def test_a_bitsandbytes_rocm_library_missing_its_own_kernel_is_read(text: str) -> None:
    assert "bnb_rocm_library_lacks_own_kernel" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # the C++ library's symbol, a toolchain mismatch (ROCm/bitsandbytes#54)
        "OSError: /run/u/bitsandbytes/libbitsandbytes_rocm61.so: undefined symbol: _ZNSt3__15ctypeIcE2idE\n",
        # torch's symbol: the library was built against another torch
        "OSError: /venv/bitsandbytes/libbitsandbytes_rocm64.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n",
        # an ATen operator of torch: built against another torch
        "ImportError: /venv/bitsandbytes/libbitsandbytes_rocm62.so: undefined symbol: "
        "_ZN2at4_ops5empty4callEN3c108ArrayRefINS2_6SymIntEEE\n",
        # a HIP library's function, not a kernel stub of bitsandbytes
        "OSError: /venv/bitsandbytes/libbitsandbytes_rocm64.so: undefined symbol: hipblasLtMatmul\n",
        # a CUDA library of bitsandbytes is not the ROCm build
        "OSError: /venv/bitsandbytes/libbitsandbytes_cuda121.so: undefined symbol: "
        "_Z36__device_stub__kOptimizer32bit1StateI6__halfLi2EEvPT_S2_PfS3_ffffffiffbi\n",
        # the library loaded: no failure
        "Loading bitsandbytes native library from: /venv/bitsandbytes/libbitsandbytes_rocm64.so\n",
    ],
)
def test_other_bitsandbytes_load_failures_are_not_a_missing_own_kernel(text: str) -> None:
    assert "bnb_rocm_library_lacks_own_kernel" not in signature_errors(text)


def test_a_missing_own_kernel_is_told_as_a_packages_note_and_not_as_a_rocm_mismatch() -> None:
    report = (
        "RX 7900 XTX, ROCm 6.3, PyTorch 2.8.0.dev20250325+rocm6.3\n"
        "git clone -b multi-backend-refactor https://github.com/bitsandbytes-foundation/bitsandbytes.git\n"
        "cmake -DCOMPUTE_BACKEND=hip -S .\n"
        "Could not load bitsandbytes native library: /mnt/ssd/bitsandbytes/bitsandbytes/libbitsandbytes_rocm63.so: "
        "undefined symbol: _Z36__device_stub__kOptimizer32bit1StateI12hip_bfloat16Li2EEvPT_S2_PfS3_ffffffiffbi\n"
    )

    found = {f.id: f.severity for f in evaluate(load_rules([], use_env=False), ingest(report).facts).findings}
    assert found.get("RD909") == "info" and "RD672" not in found
    assert not any(sev == "error" for sev in found.values())


def test_the_missing_own_kernel_fix_builds_upstream_main_and_dates_the_rocm_fork_branch() -> None:
    # upstream main took the ROCm backend in PR #1683 (June 2025); the fork branch of #1608 (April 2025)
    # is told as what worked then, not as the first advice, and every thread it leans on is referenced
    rule = next(r for r in load_rules([], use_env=False) if r.id == "RD909")
    text = rule.fixes[0].text
    assert text.index("upstream's main branch") < text.index("rocm_enabled_multi_backend")
    assert "April 2025" in text
    urls = {ref.url for ref in rule.references}
    assert {
        "https://github.com/bitsandbytes-foundation/bitsandbytes/pull/1683",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1955",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1608",
    } <= urls


@pytest.mark.parametrize(
    "text",
    [
        # bitsandbytes 0.50's logger line, a HIP 7.16 torch beside DLLs for 7.13-7.15 (shootthesound/Fizgig#103)
        "No prebuilt binary for ROCm 7.16, loading ROCm 7.15 instead. Set BNB_ROCM_VERSION to override.\n",
        # with Python logging's prefix, a Linux wheel whose newest 7.x library below 7.13 is 7.2
        "WARNING:bitsandbytes.cextension:No prebuilt binary for ROCm 7.13, loading ROCm 7.2 instead. "
        "Set BNB_ROCM_VERSION to override.\n",
        # the lowest library above torch's release, quoted in a sentence with CRLF line ends
        "> it prints No prebuilt binary for ROCm 6.3, loading ROCm 6.4 instead.\r\nthen runs\r\n",
    ],
)
def test_bitsandbytes_falling_back_to_another_rocm_minor_is_read(text: str) -> None:
    assert "bnb_rocm_library_fallback" in signature_errors(text)
    assert "bnb_rocm_library_not_found" not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # the CUDA form of the same fallback is no AMD machine's
        "No prebuilt binary for CUDA 12.9, loading CUDA 12.8 instead. Set BNB_CUDA_VERSION to override.\n",
        # the override's own line: the user chose the library, bitsandbytes did not fall back
        "WARNING: BNB_ROCM_VERSION=715 environment variable detected; loading libbitsandbytes_rocm715.dll.\n",
        # an installer's words about another package
        "No prebuilt binary for this platform, building from source instead\n",
    ],
)
def test_other_bitsandbytes_selection_lines_are_not_a_rocm_fallback(text: str) -> None:
    assert "bnb_rocm_library_fallback" not in signature_errors(text)


def test_a_bitsandbytes_rocm_fallback_is_a_mismatch_warning_and_never_an_error() -> None:
    # the fallback library loads (patientx-cfz/comfyui-rocm#113: it works): a warning, not a failure
    report = (
        "torch 2.13.0+rocm10.1.0a on Windows, RX 9070 XT\n"
        "No prebuilt binary for ROCm 7.16, loading ROCm 7.15 instead. Set BNB_ROCM_VERSION to override.\n"
    )
    found = {f.id: (f.severity, f.category) for f in evaluate(load_rules([], use_env=False), ingest(report).facts).findings}
    assert found.get("RD679") == ("warning", "torch-rocm-mismatch")
    assert "RD672" not in found and "RD599" not in found
    assert not any(sev == "error" for sev, _ in found.values())
