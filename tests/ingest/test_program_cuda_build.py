"""A program built against NVIDIA's CUDA runtime on a machine meant to use an AMD GPU (block cw49, RD997).

Issue 23, classes cuda_wheel_on_amd and wrong_torch_build. The messages are the CUDA runtime's and the CUDA
toolkit's own (any program built for CUDA prints them: torch, tensorflow, onnxruntime, ggml, cutorch); the
texts are written for the test in the shapes independent real reports show (named per case).
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

SIGNATURE = "cuda_runtime_message"


@pytest.mark.parametrize(
    "text",
    [
        # pip's torch on an AMD APU (pytorch/pytorch#51213), THC's wording
        "cuda runtime error (35) : CUDA driver version is insufficient for CUDA runtime version at /pytorch/aten/src/THC/THCGeneral.cpp:47\n",
        # onnxruntime's CUDA call on Windows, wrapped differently
        "CUDA failure 35: CUDA driver version is insufficient for CUDA runtime version ; GPU=0 ; hostname=PC\n",
        # tensorflow-gpu on a ROCm machine (ROCm/legacy-rocm-build#442)
        "ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory\n",
        # onnxruntime's CUDA provider (tpys/FuXi#5)
        "Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or directory\n",
        # a CUDA-only package in a ROCm environment (sgl-project/sglang#2584)
        "OSError: libcudart.so.12: cannot open shared object file: No such file or directory\n",
        # cuDNN's split libraries
        "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object file: No such file or directory\n",
        # the same libraries on Windows
        "Could not load library cudnn_ops_infer64_8.dll. Error code 126\n",
        "RuntimeError: Library cublas64_12.dll is not found or cannot be loaded\n",
        # the runtime finds no device (cutorch on a Mobility Radeon: torch/ezinstall#96; tensorflow's driver API)
        "THCudaCheck FAIL file=/tmp/cutorch/lib/THC/THCGeneral.c line=20 error=38 : no CUDA-capable device is detected\n",
        "E tensorflow/stream_executor/cuda/cuda_driver.cc:314] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n",
        # ggml built for CUDA
        "ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected\n",
    ],
)
def test_a_cuda_runtime_message_is_read_in_each_shape(text: str) -> None:
    assert SIGNATURE in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # the HIP build of ggml names ROCm, and HIP's own string says ROCm
        "ggml_cuda_init: failed to initialize ROCm: no ROCm-capable device is detected\n",
        # ggml's error macro says CUDA in HIP builds too
        "CUDA error: invalid device function\n  current device: 0, in function ggml_cuda_compute_forward at ggml/src/ggml-cuda.cu:2288\n",
        # the driver library alone: programs with several backends probe it and go on
        "CUDA: Not detected: Failed to open dynamic library 'nvcuda.dll': The specified module could not be found.\n",
        "link_cuda_dso: warning: libcuda.so.1: cannot open shared object file: No such file or directory: failed to load library\n",
        # a torch library of another build is another construct (extension_needs_other_torch_build_library)
        "OSError: libtorch_cuda.so: cannot open shared object file: No such file or directory\n",
        # a ROCm library missing
        "ImportError: librocblas.so.0: cannot open shared object file: No such file or directory\n",
        # rev49c: TensorFlow's import-time warning, which it says to ignore without a GPU set up (PyPI's tensorflow
        # beside a ROCm torch prints it on import and goes on)
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory\n",
    ],
)
def test_hip_messages_and_probes_of_the_driver_library_are_not_read(text: str) -> None:
    assert SIGNATURE not in signature_errors(text)


def test_a_cuda_library_missing_on_an_amd_gpu_names_the_program_as_a_cuda_build() -> None:
    text = (
        "I have an AMD Radeon RX 7800 XT on Ubuntu 22.04.\n"
        "[E:onnxruntime:Default, provider_bridge_ort.cc:1744 TryGetProviderInfo_CUDA] Failed to load library "
        "libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or directory\n"
    )
    shown = problems_shown(text)
    assert shown and shown[0] == "RD997"
    # the finding explains the older reader's signature too: no "nothing here explains" beside it
    assert "RD599" not in shown


@pytest.mark.parametrize(
    "text",
    [
        # an NVIDIA GPU in the report: the CUDA build may be the right one (a driver or toolkit problem there)
        "NVIDIA GeForce RTX 3060, I also tried rocm before\nRuntimeError: CUDA driver version is insufficient for CUDA runtime version\n",
        # ZLUDA brings its own CUDA libraries on purpose
        "RX 6800 on Ubuntu with ZLUDA\nlibcublas.so.11: cannot open shared object file: No such file or directory\n",
        # no AMD machine in sight
        "libcudart.so.12: cannot open shared object file: No such file or directory\n",
    ],
)
def test_a_cuda_runtime_message_is_not_judged_without_an_amd_only_machine(text: str) -> None:
    assert "RD997" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # Forge's launcher (lllyasviel/stable-diffusion-webui-forge#995)
        "RuntimeError: Your device does not support the current version of Torch/CUDA! Consider download another version: \nhttps://github.com/lllyasviel/stable-diffusion-webui-forge/releases/tag/latest\n",
        # retold (likelovewant/stable-diffusion-webui-forge-on-amd#7)
        'I was met with this error: **"Your current gpu does not support the current version of Torch/CUDA, please consider installing another version"**\n',
        # Forge Neo's newer check and its driver branch (CS1o/Stable-Diffusion-Info#63)
        'RuntimeError: PyTorch is not able to access GPU\n',
        'SystemError: Please update your GPU driver to support cu130 ; or manually install older PyTorch\n',
    ],
)
def test_forge_launchers_gpu_checks_read_as_the_webui_check(text: str) -> None:
    from ingest_helpers import signature_contexts

    assert "webui_torch_gpu_check_failed" in signature_contexts(text)


def test_forge_check_on_an_amd_gpu_says_the_torch_is_not_shown_as_rocm() -> None:
    text = (
        "I have an AMD RX 9070 with the latest driver.\n"
        'SystemError: Please update your GPU driver to support cu130 ; or manually install older PyTorch\n'
    )
    assert "RD535" in problems_shown(text)


def test_an_untagged_torch_printed_on_an_amd_machine_is_named_pypis_build_without_a_symptom() -> None:
    text = (
        "AMD Radeon RX 7800 XT, Linux Mint.\n"
        "pip list | grep torch\n"
        "torch                     2.4.0\n"
        "torchvision               0.19.0\n"
        "ComfyUI crashes when loading a model\n"
    )
    assert "RD998" in problems_shown(text)


def test_an_untagged_torch_printed_with_the_cpu_run_told_is_rd870s() -> None:
    text = (
        "AMD Radeon RX 7800 XT, Linux Mint.\n"
        "pip list | grep torch\n"
        "torch                     2.4.0\n"
        "torchvision               0.19.0\n"
        "ComfyUI says it is running on CPU\n"
    )
    shown = problems_shown(text)
    assert "RD870" in shown and "RD998" not in shown


@pytest.mark.parametrize(
    "text",
    [
        "Facing the same issue with AMD video card. Torch not compiled with CUDA enabled\n",
        "Does AMD's graphics card work? Torch not compiled with CUDA enabled\n",
        "On my amd graphic card: Torch not compiled with CUDA enabled\n",
    ],
)
def test_the_amd_card_in_its_everyday_words_makes_the_cpu_build_finding(text: str) -> None:
    assert "RD501" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "I use a non-AMD video card. Torch not compiled with CUDA enabled\n",
        "My processor is AMD but the graphics card is an NVIDIA one. Torch not compiled with CUDA enabled\n",
    ],
)
def test_an_amd_card_denied_or_an_amd_processor_is_no_amd_machine(text: str) -> None:
    from ingest_helpers import report_contexts

    assert "rocm_stack_mentioned" not in report_contexts(text)


@pytest.mark.parametrize(
    "seen",
    [
        '$ python -c "import torch; print(torch.cuda.is_available())"\nTrue\n',
        ">>> torch.cuda.get_device_name(0)\n'AMD Radeon RX 6800'\n",
    ],
)
def test_an_untagged_torch_seen_to_find_the_amd_gpu_is_not_called_pypis(seen: str) -> None:
    # rev49c: PyPI's build cannot find an AMD GPU; a torch that does is a ROCm build whose version carries no tag
    text = "RX 6800 on Ubuntu 22.04 with ROCm 6.1; generation is slow.\n>>> torch.__version__\n'2.5.1'\n" + seen
    assert "RD998" not in problems_shown(text)


@pytest.mark.parametrize(
    "named",
    ["running SD.Next with DirectML", "onnxruntime-directml 1.19"],
)
def test_directml_told_in_any_form_keeps_the_untagged_torch_findings_quiet(named: str) -> None:
    # rev49c: on DirectML the program imports PyPI's CPU-only torch and still computes on the GPU
    text = f"RX 6800, Windows 11, {named}\n$ pip list | grep torch\ntorch                     2.4.0\nIt crashes when loading the model\n"
    shown = problems_shown(text)
    assert "RD998" not in shown and "RD870" not in shown


@pytest.mark.parametrize(
    "line",
    [
        # llamafile tries ggml-cuda.so after ggml-rocm.so (mozilla-ai/llamafile#547)
        "link_cuda_dso: warning: libcublas.so.12: cannot open shared object file: No such file or directory: failed to load library\n",
        # ggml's backend loader (GGML_BACKEND_DL builds, ollama) probes its CUDA backend and goes on
        "load_backend: failed to load /usr/lib/ollama/cuda_v12/libggml-cuda.so: libcudart.so.12: cannot open shared object file: No such file or directory\n",
        "failed to load ./libggml-cuda.so: libcudart.so.12: cannot open shared object file: No such file or directory\n",
    ],
)
def test_a_multi_backend_loader_probing_its_cuda_backend_is_not_read(line: str) -> None:
    # rev49c: the program has a ROCm backend beside the CUDA one; a failed probe is no CUDA build
    assert SIGNATURE not in signature_errors(line)


def test_a_cuda_message_in_an_ollama_report_is_no_cuda_build() -> None:
    # rev49c: ollama ships CUDA and ROCm runners and probes the CUDA ones on every machine (ollama/ollama#5000)
    text = "RX 7900 XTX, ollama 0.9 on Ubuntu with ROCm\nggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected\n"
    assert "RD997" not in problems_shown(text)


_CUDA_COLLECT_ENV = (
    "PyTorch version: 1.9.0+cu111\n"
    "Is debug build: False\n"
    "CUDA used to build PyTorch: 11.1\n"
    "ROCM used to build PyTorch: N/A\n"
    "\n"
    "OS: Ubuntu 18.04.5 LTS (x86_64)\n"
    "Is CUDA available: True\n"
    "CUDA runtime version: 11.1.105\n"
    "HIP runtime version: N/A\n"
    "MIOpen runtime version: N/A\n"
)


def test_collect_envs_empty_rocm_fields_are_no_amd_machine() -> None:
    # rev52b: collect_env prints these lines on every machine; RD528 called pytorch/audio#1749 (NVIDIA) a CUDA torch on AMD
    from ingest_helpers import report_contexts

    assert "rocm_stack_mentioned" not in report_contexts(_CUDA_COLLECT_ENV)
    assert "rocm_stack_mentioned" not in report_contexts(_CUDA_COLLECT_ENV.replace("\n", "\r\n"))
    assert "RD528" not in problems_shown(_CUDA_COLLECT_ENV)
    # a ROCm build's values, and the reporter's own words, still say ROCm
    assert "rocm_stack_mentioned" in report_contexts("ROCM used to build PyTorch: 6.2.41133-dd7f95766\n")
    assert "RD528" in problems_shown("I am on ROCm 6.2 with an RX 7900 XTX.\n" + _CUDA_COLLECT_ENV)
