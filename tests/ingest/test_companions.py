"""What the stack loads beside torch and ROCm (issue 23, class other): the amdsmi Python package
against its libamd_smi and torch, MES firmware on RDNA 3.5 GPUs, the Visual C++ runtime on Windows.

Each form is the shape several independent real reports print (named per case); the texts are
written for the test, not copied from one report, and the assertions are about the signature
read and the finding shown first.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, signature_errors

from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


@pytest.mark.parametrize(
    "text",
    [
        # ctypes binding a function of an older /opt/rocm-X.Y library (ROCm/amdsmi#186, #98)
        "AttributeError: /opt/rocm-7.0.1/lib/libamd_smi.so: undefined symbol: amdsmi_get_gpu_partition_metrics_info\n",
        "AttributeError: /opt/rocm-6.4.0/lib/libamd_smi.so: undefined symbol: amdsmi_get_gpu_busy_percent. Did you mean: 'amdsmi_get_gpu_fan_speed'?\n",
        # the same through import torch, a PyPI amdsmi newer than the venv's ROCm (RLinf/RLinf#1507)
        "ImportError: undefined symbol: amdsmi_get_cpu_affinity_with_scope\n",
        # a versioned soname of a pip-installed ROCm
        "AttributeError: /venv/lib/python3.12/site-packages/_rocm_sdk_core/lib/libamd_smi.so.26: undefined symbol: amdsmi_get_gpu_kfd_info\n",
        # the CLI newer than the package it imports (modular/rules_mojo#14)
        "AttributeError: module 'amdsmi.amdsmi_interface' has no attribute 'amdsmi_get_gpu_kfd_info'. Did you mean: 'amdsmi_get_gpu_asic_info'?\n",
    ],
)
def test_an_amdsmi_package_binding_a_function_its_library_lacks_is_read(text: str) -> None:
    assert "amdsmi_binding_symbol_missing" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # a HIP runtime function: another ROCm under an extension (RD942's case)
        "ImportError: /tmp/torchinductor_root/triton/0/x/hip_utils.so: undefined symbol: hipGetDevicePropertiesR0600\n",
        # amdsmi starting without a driver: no binding mismatch
        "AMDSMI_STATUS_DRIVER_NOT_LOADED\n",
        # the Python package that is not there at all
        "ModuleNotFoundError: No module named 'amdsmi'\n",
        # libamd_smi itself missing a symbol of a library it loads (libdrm_amdgpu, librocm_smi64)
        "OSError: /opt/rocm-6.2.0/lib/libamd_smi.so: undefined symbol: amdgpu_query_gpuvm_fault_info\n",
        "OSError: /opt/rocm/lib/libamd_smi.so.24: undefined symbol: _ZN3amd3smi14AMDSmiProcessor7get_gpu_idEv\n",
    ],
)
def test_other_amdsmi_and_symbol_errors_are_not_a_binding_mismatch(text: str) -> None:
    assert "amdsmi_binding_symbol_missing" not in signature_errors(text)


def test_an_amdsmi_package_from_another_rocm_is_the_first_finding() -> None:
    report = (
        "Ubuntu 22.04, ROCm 7.0.1, MI300X\n\n"
        "$ amd-smi\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.9/site-packages/amdsmi/amdsmi_wrapper.py", line 2639, in <module>\n'
        "    amdsmi_get_gpu_partition_metrics_info = _libraries['libamd_smi.so'].amdsmi_get_gpu_partition_metrics_info\n"
        "AttributeError: /opt/rocm-7.0.1/lib/libamd_smi.so: undefined symbol: amdsmi_get_gpu_partition_metrics_info\n"
    )
    assert problems_shown(report)[:1] == ["RD780"]


@pytest.mark.parametrize(
    "text",
    [
        # torch.cuda's device count, as vladmandic/sdnext#3181, AUTOMATIC1111/stable-diffusion-webui#15874
        # and crystian/ComfyUI-Crystools#111 print it
        "NameError: name 'amdsmi' is not defined\n",
        # a rich traceback's last line, indented
        "    NameError: name 'amdsmi' is not defined\n",
        'NameError: name "amdsmi" is not defined\n',
    ],
)
def test_torch_reaching_for_an_amdsmi_that_did_not_import_is_read(text: str) -> None:
    assert "torch_amdsmi_name_error" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "NameError: name 'amdsmi_init' is not defined\n",
        "NameError: name 'torch' is not defined\n",
    ],
)
def test_other_name_errors_are_not_the_amdsmi_path(text: str) -> None:
    assert "torch_amdsmi_name_error" not in signature_errors(text)


def test_torch_missing_amdsmi_does_not_claim_pynvml_where_the_torch_is_a_nightly_that_needs_none() -> None:
    # a 2.4 nightly from before pytorch#127528 reached for amdsmi with no pynvml installed (webui#15874)
    report = (
        "torch 2.4.0.dev20240523+rocm6.1\n"
        "NameError: name 'amdsmi' is not defined\n"
    )
    findings = evaluate(load_rules([], use_env=False), ingest_text(report).facts).findings
    message = next(f.message for f in findings if f.id == "RD781")
    assert "127528" in message
    assert "made torch take that path" not in message


def test_torch_missing_amdsmi_is_the_first_finding_and_shows_a_rocm_build() -> None:
    report = (
        "Linux Mint 21.3, RX 7800 XT, ROCm 6.1.1\n"
        "torch 2.4.0.dev20240528+rocm6.1\n\n"
        "Traceback (most recent call last):\n"
        '  File "/home/u/venv/lib/python3.10/site-packages/torch/cuda/__init__.py", line 634, in _raw_device_count_amdsmi\n'
        "    except amdsmi.AmdSmiException as e:\n"
        "NameError: name 'amdsmi' is not defined\n"
    )
    assert problems_shown(report)[:1] == ["RD781"]


def test_the_amdsmi_name_error_shows_a_rocm_build_of_torch() -> None:
    # Only torch.cuda's ROCm branch (torch.version.hip set) counts GPUs through amdsmi.
    facts = ingest("RuntimeError while starting\nNameError: name 'amdsmi' is not defined\n").facts
    assert facts.torch.flavour.value == "rocm"


@pytest.mark.parametrize(
    "text",
    [
        # amd-smi's loader line for libdrm, as NixOS/nixpkgs#453789 (libdrm.so.2), ROCm/rocm-systems#2987 and
        # ROCm/rocm-systems#8427 (libdrm_amdgpu.so.1) print it
        "Fail to open libdrm.so.2: libdrm.so.2: cannot open shared object file: No such file or directory\n",
        "Fail to open libdrm_amdgpu.so.1: libdrm_amdgpu.so.1: cannot open shared object file: No such file or directory\n",
        # the unversioned name, among amd-smi's output
        "$ amd-smi static\nFail to open libdrm_amdgpu.so: libdrm_amdgpu.so: cannot open shared object file: No such file or directory\nGPU: 0\n",
    ],
)
def test_amd_smi_that_cannot_load_libdrm_is_read(text: str) -> None:
    assert "amdsmi_libdrm_not_loadable" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # another program's "Fail to open" of a file, and libdrm missing for another program's link
        "Fail to open config.yaml: No such file or directory\n",
        "./radeontop: error while loading shared libraries: libdrm_amdgpu.so.1: cannot open shared object file: No such file or directory\n",
        # a ROCm library amd-smi's loader could not open is not libdrm (the loader-path rules speak)
        "Fail to open librocm_smi64.so.1: librocm_smi64.so.1: cannot open shared object file: No such file or directory\n",
    ],
)
def test_other_fail_to_open_lines_are_not_amd_smi_without_libdrm(text: str) -> None:
    assert "amdsmi_libdrm_not_loadable" not in signature_errors(text)


def test_amd_smi_without_libdrm_is_the_first_finding() -> None:
    report = (
        "NixOS unstable, rocmPackages.amdsmi\n\n"
        "$ amd-smi\n"
        "Fail to open libdrm.so.2: libdrm.so.2: cannot open shared object file: No such file or directory\n"
        "usage: amd-smi [-h]  ...\n"
    )
    assert problems_shown(report)[:1] == ["RD784"]


@pytest.mark.parametrize(
    "text",
    [
        # amdgpu_firmware_info, as legacy-rocm-build#5616 prints it
        "MES feature version: 1, firmware version: 0x00000083\n",
        # reporters' shorthand (legacy-rocm-build#5724's title and comments)
        "amdgpu firmware (MES 0x83) causing GPU Hang\n",
        "I was still showing MES version 83 despite being on the latest packages.\n",
    ],
)
def test_mes_firmware_0x83_is_read_in_its_printed_and_spoken_forms(text: str) -> None:
    assert "amdgpu_mes_firmware_0x83" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "MES feature version: 1, firmware version: 0x00000080\n",
        "MES_KIQ feature version: 6, firmware version: 0x00000083\n",
        "MES feature version: 1, firmware version: 0x00000830\n",
        "The MES firmware is version 0x82 now.\n",
    ],
)
def test_other_mes_versions_are_not_0x83(text: str) -> None:
    assert "amdgpu_mes_firmware_0x83" not in signature_errors(text)


def test_mes_0x83_on_an_rdna35_apu_is_the_first_finding_and_explains_the_fault() -> None:
    report = (
        "Framework 13, Ryzen AI 9 HX 370 w/ Radeon 890M, Fedora 43\n"
        "$ sudo cat /sys/kernel/debug/dri/1/amdgpu_firmware_info | grep MES\n"
        "MES_KIQ feature version: 6, firmware version: 0x0000006c\n"
        "MES feature version: 1, firmware version: 0x00000083\n"
        "Memory access fault by GPU node-1 (Agent handle: 0x5c0d) on address (nil). Reason: Page not present or supervisor privilege.\n"
    )
    assert problems_shown(report)[:1] == ["RD750"]


def test_mes_0x83_without_an_rdna35_gpu_is_no_finding() -> None:
    report = "RX 7900 XTX (gfx1100)\nMES feature version: 1, firmware version: 0x00000083\n"
    assert "RD750" not in problems_shown(report)


@pytest.mark.parametrize(
    "text",
    [
        # torch/__init__.py's own words (qllokirin/ATRI-plugin#3, chatchat-space/Langchain-Chatchat#3687)
        "Microsoft Visual C++ Redistributable is not installed, this may lead to the DLL load failure.\n",
        # Windows' loader dialog, both wordings (mlverse/torch#36's DLL)
        "The code execution cannot proceed because VCRUNTIME140_1.dll was not found. Reinstalling the program may fix this problem.\n",
        "The program can't start because MSVCP140.dll is missing from your computer.\n",
    ],
)
def test_a_visual_cpp_runtime_that_did_not_load_is_read(text: str) -> None:
    assert "vc_runtime_missing" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # the DLL found: a listing, not a failure
        "C:\\Windows\\System32\\vcruntime140_1.dll\n",
        "LoadLibrary C:\\work\\py312\\vcruntime140_1.dll\n",
        # another DLL missing
        "The code execution cannot proceed because amdhip64_6.dll was not found.\n",
        # the condition of advice quoted from a README or a reply
        "The README says: If you get VCRUNTIME140_1.dll was not found, install the Visual C++ redistributable.\n",
        "In case you see 'Microsoft Visual C++ Redistributable is not installed', run vc_redist.x64.exe\n",
    ],
)
def test_other_dll_lines_are_not_a_missing_visual_cpp_runtime(text: str) -> None:
    assert "vc_runtime_missing" not in signature_errors(text)


def test_a_missing_visual_cpp_runtime_explains_the_dll_load_failure_first() -> None:
    report = (
        "Microsoft Visual C++ Redistributable is not installed, this may lead to the DLL load failure.\n"
        "                 It can be downloaded at https://aka.ms/vs/16/release/vc_redist.x64.exe\n"
        "Traceback (most recent call last):\n"
        '  File "C:\\Users\\me\\venv\\Lib\\site-packages\\torch\\__init__.py", line 139, in <module>\n'
        "    raise err\n"
        'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\Users\\me\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.\n'
    )
    assert problems_shown(report)[:1] == ["RD783"]
