"""The GPU's free-memory query (hipMemGetInfo) refused with "invalid argument": the kernel driver under a newer ROCm.

Issue 23, class driver_too_old. Four real reports, each traced to the kernel driver: pytorch/pytorch#117847 and
ROCm/tensorflow-upstream#2289 (ROCm containers newer than the host's driver), robertrosenbusch/gfx803_rocm#49
(Ubuntu 22.04's 5.x kernel under a ROCm 6.4 container), ollama/ollama#9302 (an Ubuntu 5.15 kernel update). The
texts are written for the test in each library's wording; the assertions are about the signature read and the
finding shown first.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

MIOPEN_TF = "gpu_free_memory_query_invalid"
GGML = "ggml_free_memory_query_invalid"


@pytest.mark.parametrize(
    ("text", "signature"),
    [
        # MIOpen asks hipMemGetInfo before a convolution's workspace (pytorch/pytorch#117847's form)
        (
            "root@node:/work# python unet.py\n"
            "MIOpen Error: /src/extlibs/MLOpen/src/hip/handlehip.cpp:643: Failed getting available memory: invalid argument\n"
            "RuntimeError: miopenStatusUnknownError\n",
            MIOPEN_TF,
        ),
        # TensorFlow's ROCm executor (ROCm/tensorflow-upstream#2289's form)
        (
            "2024-01-10 20:25:42.726550: E tensorflow/compiler/xla/stream_executor/rocm/rocm_driver.cc:1294] "
            "failed to query device memory info: HIP_ERROR_InvalidValue\n",
            MIOPEN_TF,
        ),
        # ggml's error over two lines, ROCm named (ollama/ollama#9302's form)
        (
            "rocminfo | grep gfx\n  Name: gfx1030\n"
            "ROCm error: invalid argument\n"
            "  current device: 0, in function ggml_backend_cuda_device_get_memory at ggml/src/ggml-cuda/ggml-cuda.cu:2740\n"
            "  hipMemGetInfo(free, total)\n",
            GGML,
        ),
        # ollama's one-line form after the runner died (robertrosenbusch/gfx803_rocm#49's form)
        (
            "rocminfo | grep gfx\n  Name: gfx803\n"
            "Error: llama runner process has terminated: error:invalid argument current device: 0, "
            "in function ggml_backend_cuda_device_get_memory at /ollama/ggml-cuda.cu:2902\n",
            GGML,
        ),
    ],
)
def test_the_refused_free_memory_query_is_read_and_blamed_on_the_kernel_driver(text: str, signature: str) -> None:
    assert signature in signature_errors(text)
    assert problems_shown(text)[:1] == ["RD951"]


@pytest.mark.parametrize(
    "text",
    [
        # CUDA's spellings of the same lines: an NVIDIA GPU's query
        "E external/xla/stream_executor/cuda/cuda_driver.cc:1294] failed to query device memory info: CUDA_ERROR_INVALID_VALUE\n",
        "nvidia-smi\nNVIDIA GeForce RTX 3090\nCUDA error: invalid argument\n"
        "  current device: 0, in function ggml_backend_cuda_device_get_memory at ggml-cuda.cu:2740\n"
        "  cudaMemGetInfo(free, total)\n",
        # another error in the same function is not the refused query
        "rocminfo\n  Name: gfx1030\nROCm error: out of memory\n"
        "  current device: 0, in function ggml_backend_cuda_device_get_memory at ggml-cuda.cu:2740\n",
        # another person's machine, and advice
        "On my friend's machine it fails with MIOpen Error: handlehip.cpp:643: Failed getting available memory: invalid argument\n",
        'If you see "Failed getting available memory: invalid argument", update the host driver.\n',
        # the error quoted as a past state the reporter says is gone
        "It used to fail with `MIOpen Error: handlehip.cpp:643: Failed getting available memory: invalid argument` "
        "but after the host driver update it works now.\n",
    ],
)
def test_other_memory_query_errors_and_quoted_ones_are_not_blamed_on_the_driver(text: str) -> None:
    assert "RD951" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "OS: Windows 11\nMIOpen Error: C:/src/handlehip.cpp:643: Failed getting available memory: invalid argument\n",
        "Linux DESKTOP 5.15.153.1-microsoft-standard-WSL2 #1 SMP x86_64 GNU/Linux\n"
        "MIOpen Error: handlehip.cpp:643: Failed getting available memory: invalid argument\n",
    ],
)
def test_the_refused_query_on_windows_or_wsl_is_not_blamed_on_an_amdgpu_kernel_driver(text: str) -> None:
    assert MIOPEN_TF in signature_errors(text)
    assert "RD951" not in problems_shown(text)
