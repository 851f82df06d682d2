"""Error messages as other releases of their source print them, and as real reports quote them (issue 23, item 1).

Each case is a wording a signature row did not read before it was widened; the row's comment names the source
at a tag and the reports that quote the wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import signature_errors


@pytest.mark.parametrize(
    "line",
    [
        # rocBLAS's tensile_host.cpp (rocm-4.0.0 to rocm-6.2.0) when hipGetDeviceCount fails
        "rocBLAS error: Could not initialize Tensile host: No devices found",
        # ollama's runner retells it inside its own log line (ollama/ollama#6423, Jeffser/Alpaca#585)
        'level=ERROR source=sched.go:456 msg="error loading llama server" error="llama runner process has terminated: '
        'error:Could not initialize Tensile host: No devices found"',
        # ollama's docker log as ollama/ollama#6423 quotes it
        "Error: llama runner process has terminated: error:Could not initialize Tensile host: No devices found",
        # hipBLASLt's copy of the same host (library/src/amd_detail/rocblaslt/src/tensile_host.cpp at rocm-6.2.0)
        "rocblaslt error: Could not initialize Tensile host: No devices found",
    ],
)
def test_rocblas_tensile_host_without_devices_reads_as_hip_no_device(line: str) -> None:
    assert "hip_error_no_device" in signature_errors(line)


def test_tensile_host_failing_on_an_exception_is_not_a_missing_device() -> None:
    # rocBLAS's other "Could not initialize Tensile host:" prints the exception on the next line: a library that
    # failed to load (a Windows HIP SDK's regex_error, hipBLASLt's std::bad_cast), not a device the runtime lacks.
    pasted = "rocBLAS error: Could not initialize Tensile host:\nregex_error(error_backref): The expression contained an invalid back reference.\n"
    assert "hip_error_no_device" not in signature_errors(pasted)
    assert "hip_error_no_device" not in signature_errors("rocblaslt error: Could not initialize Tensile host:\nstd::bad_cast\n")


def test_tensile_host_message_in_advice_is_not_this_machines_error() -> None:
    advice = 'If you see "rocBLAS error: Could not initialize Tensile host: No devices found", add your user to the render group.'
    assert "hip_error_no_device" not in signature_errors(advice)


@pytest.mark.parametrize(
    "line",
    [
        # torch/__init__.py appends 'Error loading "<dll>" or one of its dependencies.' to whatever error Windows'
        # loader gave: a missing procedure (127) ...
        'OSError: [WinError 127] The specified procedure could not be found. Error loading '
        '"C:\\Stable\\webui-forge\\venv\\lib\\site-packages\\torch\\lib\\caffe2_nvrtc.dll" or one of its dependencies.',
        # ... or a DLL whose initialisation failed (1114), in the system's language
        'OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading '
        '"C:\\AV\\automatic\\venv\\lib\\site-packages\\torch\\lib\\cufft64_10.dll" or one of its dependencies.',
        'OSError: [WinError 1114] 动态链接库(DLL)初始化例程失败。 Error loading "D:\\envs\\g\\lib\\site-packages\\torch\\lib\\c10.dll" '
        "or one of its dependencies.",
    ],
)
def test_torch_dll_load_failure_reads_whatever_the_windows_error_code(line: str) -> None:
    assert "windows_dll_load_failed" in signature_errors(line)


def test_a_dll_blocked_by_policy_is_not_a_dll_that_failed_to_resolve() -> None:
    blocked = ('OSError: [WinError 4551] An Application Control policy has blocked this file. Error loading '
               '"C:\\x\\torch\\lib\\torch_python.dll" or one of its dependencies.')
    assert "windows_dll_load_failed" not in signature_errors(blocked)


@pytest.mark.parametrize(
    "line",
    [
        # HCC's runtime (include/kalmar_runtime.h, KalmarContext::get_default_dev) when its device list holds only the
        # CPU device: a hipcc/hcc program's output as ROCm/ROCm#284 and ROCm/ROCm-docker#30 quote it
        "There is no device can be used to do the computation",
        # the same after a framework's own log line (caffe inside a ROCm 1.7 container)
        "I1228 04:53:44.488523    29 caffe.cpp:217] Using GPUs 0\nThere is no device can be used to do the computation",
        # in prose, quoted
        'We bump into a "There is no device can be used to do the computation". The docker-instance is run as root.',
    ],
)
def test_hcc_runtime_without_a_gpu_reads_as_hip_no_device(line: str) -> None:
    assert "hip_error_no_device" in signature_errors(line)


def test_hcc_no_device_message_in_advice_is_not_this_machines_error() -> None:
    advice = 'If you see "There is no device can be used to do the computation", add your user to the video group.'
    assert "hip_error_no_device" not in signature_errors(advice)
