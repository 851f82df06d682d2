"""Error messages the field prints most often, read as their signature and judged in the category
their usual causes have (issue 23: most missed reports got no error or warning at all).

The lines are written for the test in the shapes several independent real reports print (the
reports are named on each row of rules/data/signatures.yaml); assertions are about signatures and
finding categories, never about a message's wording.
"""

from __future__ import annotations

from typing import List, Tuple

import pytest
from ingest_helpers import ingest

from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


def signatures(text: str) -> list:
    found = ingest(text).facts.symptoms.signatures
    return list(found.value or []) if found.is_known else []


def context(text: str) -> list:
    found = ingest(text).facts.symptoms.context
    return list(found.value or []) if found.is_known else []


def serious_findings(text: str) -> List[Tuple[str, str, str]]:
    findings = evaluate(load_rules([], use_env=False), ingest_text(text).facts).findings
    return [(f.id, f.severity, f.category) for f in findings if f.severity in ("error", "warning")]


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: HIP error: no kernel image is available for execution on the device",
        "  Tensor creation failed for torch.int8: HIP error: no kernel image is available for execution on the device",
        "[Issue]: \"HIP error - no kernel image is available for execution on the device \" when trying to use 2nd GPU.",
        "ROCm error: no kernel image is available for execution on the device",
    ],
)
def test_hip_words_for_no_binary_for_gpu_are_read(line: str) -> None:
    assert "hip_no_kernel_image" in signatures(line + "\n")


def test_the_cuda_twin_of_no_kernel_image_is_not_read_as_hip() -> None:
    # NVIDIA's driver prints the same words for its own GPUs: nothing here says the GPU is AMD's.
    assert "hip_no_kernel_image" not in signatures("CUDA error: no kernel image is available for execution on the device\n")


def test_no_kernel_image_alone_claims_no_cause() -> None:
    # A build without the GPU's kernels and a folder path with a space both print it.
    text = "Using device: cuda\nRuntimeError: HIP error: no kernel image is available for execution on the device\n"
    assert not any(category in ("gfx-unsupported", "gfx-override") for _, _, category in serious_findings(text))


@pytest.mark.parametrize(
    "path",
    [
        "/home/noversi/Desktop/Image Generators/automatic/venv/lib/python3.10/site-packages/torch/nn/modules/module.py",
        "/media/atiq/New Volume/projects/venv/lib/python3.12/site-packages/torch/__init__.py",
        "~/My Programs/ollama/lib/ollama/libggml-hip.so",
    ],
)
def test_no_kernel_image_from_a_folder_with_a_space_may_be_the_runtimes_path_bug(path: str) -> None:
    text = f'  File "{path}", line 1553, in _wrapped_call_impl\nRuntimeError: HIP error: no kernel image is available for execution on the device\n'
    found = serious_findings(text)
    assert found and found[0][0] == "RD549" and found[0][1] == "warning"


@pytest.mark.parametrize(
    "text",
    [
        "Installed to C:\\Program Files\\AMD\\ROCm\\6.2\\bin\n",
        "the venv is in /home/alice/venv and the models in /home/alice/models\n",
        "/opt/rocm/lib/libamdhip64.so: cannot open shared object file\n",
        "My models are in /home/bob/My Models/sd/ and the venv is /home/bob/sd/venv.\n",
        "saved to /home/bob/My Pictures/out/ then ran /home/bob/sd/lib/x.so\n",
    ],
)
def test_paths_without_a_spaced_linux_folder_are_not_read_as_one(text: str) -> None:
    assert "posix_path_with_space" not in context(text)


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check",
        "AssertionError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDINE_ARGS variable to disable this check",
    ],
)
def test_the_webuis_gpu_check_is_read_as_pytorch_finding_no_gpu(line: str) -> None:
    assert "webui_torch_gpu_check_failed" in context(line + "\n")


def test_the_webuis_option_alone_is_not_a_failed_check() -> None:
    text = "export COMMANDLINE_ARGS=\"--skip-torch-cuda-test --precision full --no-half\"\n"
    assert "webui_torch_gpu_check_failed" not in context(text)


def test_a_failed_webui_gpu_check_on_amd_without_a_rocm_build_asks_about_the_build() -> None:
    text = "GPU: AMD Radeon RX 6800 XT, ROCm 6.0\nRuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check\n"
    assert ("RD535", "warning", "torch-build") in serious_findings(text)


@pytest.mark.parametrize(
    "line",
    [
        "[127037.563935] amdgpu 0000:c5:00.0: amdgpu: MES failed to respond to msg=REMOVE_QUEUE",
        "Jun 28 18:15:32 host kernel: amdgpu 0000:c2:00.0: amdgpu: MES failed to respond to msg=MISC (WAIT_REG_MEM)",
        "May 26 18:09:55 fedora kernel: [drm:mes_v11_0_submit_pkt_and_poll_completion.constprop.0 [amdgpu]] *ERROR* MES failed to response msg=3",
        "amdgpu 0000:03:00.0: amdgpu: MES(0) failed to respond to msg=SUSPEND",
    ],
)
def test_an_unresponsive_mes_firmware_is_read(line: str) -> None:
    assert "amdgpu_mes_unresponsive" in signatures(line + "\n")


def test_an_unresponsive_mes_is_reported_as_a_driver_problem() -> None:
    text = "[ 3327.7] amdgpu 0000:03:00.0: amdgpu: MES failed to respond to msg=REMOVE_QUEUE\n[ 3327.7] amdgpu 0000:03:00.0: amdgpu: GPU reset begin!\n"
    assert any(category == "driver" for _, _, category in serious_findings(text))


def test_mes_start_up_lines_are_not_a_failure() -> None:
    text = "amdgpu 0000:c2:00.0: amdgpu: ring mes_kiq_3.1.0 uses VM inv eng 13 on hub 0\namdgpu: MES msg=ADD_QUEUE was emitted\n"
    assert "amdgpu_mes_unresponsive" not in signatures(text)


def test_a_gpu_hang_the_runtime_saw_is_read_without_naming_a_cause() -> None:
    text = "HW Exception by GPU node-1 (Agent handle: 0x5ab48bbcc960) reason :GPU Hang\nAborted (core dumped)\n"
    assert "hsa_gpu_hang" in signatures(text)
    # Its causes differ from thread to thread: no finding category is claimed for it.
    assert not any(f[0] == "RD599" for f in serious_findings(text))



@pytest.mark.parametrize(
    "line",
    [
        "No ROCm runtime is found, using ROCM_HOME='/opt/rocm'",
        "      No ROCm runtime is found, using ROCM_HOME='/opt/rocm-6.4.1'",
        r"No ROCm runtime is found, using ROCM_HOME='C:\Program Files\AMD\ROCm\5.7'",
        "An error was reported during training: NO ROCm runtime is found,using ROCM_HOME='/opt/rocm'.",
    ],
)
def test_a_rocm_install_beside_a_torch_that_is_not_rocm_is_read(line: str) -> None:
    assert "rocm_home_but_torch_not_rocm" in signatures(line + "\n")


def test_a_rocm_install_beside_a_torch_that_is_not_rocm_is_about_the_build() -> None:
    text = "GPU: Radeon RX 7900 XT\nNo ROCm runtime is found, using ROCM_HOME='/opt/rocm'\nRuntimeError: CUDA_HOME environment variable is not set\n"
    assert any(category == "torch-build" for _, _, category in serious_findings(text))


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: HIP error: invalid device ordinal",
        "(RayWorkerWrapper pid=4242) torch.AcceleratorError: CUDA error: invalid device ordinal",
        "hipSetDevice returned hipErrorInvalidDevice",
    ],
)
def test_a_gpu_index_the_process_cannot_see_is_read(line: str) -> None:
    assert "invalid_device_ordinal" in signatures(line + "\n")


_DEVICE_COUNT_101 = (
    "/opt/venv/lib/python3.10/site-packages/torch/cuda/__init__.py:88: UserWarning: HIP initialization: Unexpected "
    "error from hipGetDeviceCount(). Did you run some cuda functions before calling NumHipDevices() that might have "
    "already set an error? Error 101: hipErrorInvalidDevice (Triggered internally at ../c10/hip/HIPFunctions.cpp:110.)\n"
    "  return torch._C._cuda_getDeviceCount() > 0\n"
)


def test_torchs_device_count_warning_with_error_101_is_no_gpu_seen_not_an_index_asked_for() -> None:
    # older HIP runtimes returned hipErrorInvalidDevice from hipGetDeviceCount when no GPU was visible
    # (pytorch/pytorch#80405): nothing asked for an index, so it says nothing of the visibility variables
    found = signatures(_DEVICE_COUNT_101)
    assert "hip_error_no_device" in found and "invalid_device_ordinal" not in found
    assert not any(category == "env" for _, _, category in serious_findings(_DEVICE_COUNT_101))


def test_torchs_device_count_warning_wrapped_at_80_columns_is_still_no_gpu_seen() -> None:
    wrapped = "\n".join(_DEVICE_COUNT_101[i : i + 80] for i in range(0, len(_DEVICE_COUNT_101), 80))
    found = signatures(wrapped)
    assert "hip_error_no_device" in found and "invalid_device_ordinal" not in found


def test_a_gpu_index_the_process_cannot_see_is_about_the_visibility_variables() -> None:
    text = "vllm serve m --distributed-executor-backend ray --tensor-parallel-size 2\nRuntimeError: HIP error: invalid device ordinal\n"
    assert any(category == "env" for _, _, category in serious_findings(text))


@pytest.mark.parametrize(
    "line",
    [
        ":0:rocdevice.cpp            :2984: 159730272363 us: [pid:403868 tid:0x7f37b81ff640] Callback: Queue 0x7ef728200000 aborting with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0x29",
        ":0:rocdevice.cpp :2672: 0696142325 us: 5999 : [tid:0x7f676e4c7640] Device::callbackQueue aborting with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0x29",
    ],
)
def test_a_gpu_exception_that_aborted_the_queue_is_read_without_naming_a_cause(line: str) -> None:
    assert "hsa_queue_aborted" in signatures(line + "\n")
    assert not any(f[0] == "RD599" for f in serious_findings(line + "\n"))
