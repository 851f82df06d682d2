"""Windows HIP runtimes that a program needs but cannot find, read from pastes (issue 23, RD880-RD881).

The wordings are the forms seen in several public reports (the signature rows of block h23w in
rules/data/signatures.yaml name them); none is one report's whole text.
"""

from __future__ import annotations


import pytest
from ingest_helpers import ingest, problems_shown, signature_contexts, signature_errors

from rocm_doctor.facts.value import known
from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.derived import Tables
from rocm_doctor.judge.derived_facts.platform import windows_hip_runtime
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


@pytest.mark.parametrize(
    "line",
    [
        "The code execution cannot proceed because amdhip64_6.dll was not found. Reinstalling the program may fix this problem.",
        "amd_comgr_2.dll and amdhip64_6.dll missing",
        "`cusparse.dll` explicitly requires `amdhip64_7.dll`, which impossible to run on hip 6",
        "it gave an error stating that amdhip64_6.dll is missing.",
        "Cannot load amdhip64_7.dll; Windows error=126",
        "Failed to load amdhip64.dll: The specified module could not be found.",
    ],
)
def test_a_missing_versioned_hip_runtime_dll_is_read_in_its_wordings(line: str) -> None:
    assert "hip_runtime_dll_not_found" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "I did take a look at system 32 and found amdhip64_6.dll there",
        r"HIP runtime: C:\Program Files\AMD\ROCm\6.1\bin\amdhip64_6.dll (6.1.40252)",
        "where.exe amdhip64*.dll",
    ],
)
def test_a_hip_runtime_dll_named_without_a_failure_is_not_read_as_missing(line: str) -> None:
    assert "hip_runtime_dll_not_found" not in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "set COMMANDLINE_ARGS=--use-zluda --medvram",
        r"zluda_with.exe -- C:\Program Files\Blender Foundation\Blender 4.0\blender-launcher.exe",
        "[INFO] ZLUDA version: 3.9.5",
    ],
)
def test_zluda_is_read_in_its_forms(line: str) -> None:
    assert "zluda_named" in signature_contexts(line)


def test_a_word_containing_zluda_is_not_zluda_context() -> None:
    assert "zluda_named" not in signature_contexts("see comfyui_zludarc for settings")


def test_a_missing_hip_runtime_dll_is_the_first_finding_and_no_catch_all_is_left() -> None:
    shown = problems_shown(
        "[INFO] ZLUDA version: 3.9.5\n"
        "The code execution cannot proceed because amdhip64_6.dll was not found.\n"
        "ERROR: Could not load DLL: Could not find module 'D:\\ComfyZ\\zluda\\nvcuda.dll' (or one of its dependencies).\n"
    )
    assert shown[0] == "RD880"
    assert "RD881" not in shown
    assert "RD599" not in shown


def test_a_dll_load_failure_under_zluda_points_at_the_hip_sdk_on_path() -> None:
    shown = problems_shown(
        "Fresh install - 7900 XTX - ZLUDA with HIP SDK 5.7\n"
        'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\ComfyUI-Zluda\\venv\\lib\\site-packages\\torch\\lib\\caffe2_nvrtc.dll" or one of its dependencies.\n'
    )
    assert shown[0] == "RD881"
    assert "RD599" not in shown


def test_a_launchers_ctypes_load_failure_under_zluda_is_not_told_as_path_only() -> None:
    # rev51a: a Python launcher loads ZLUDA with ctypes, which since Python 3.8 does not search PATH for a DLL's
    # dependencies (vladmandic/sdnext#4259: the HIP SDK was on PATH; the loader's search was the fix), so RD881
    # names where the loader looks (PATH, or the folder HIP_PATH names) instead of PATH alone
    text = (
        "Failed to load ZLUDA: Could not find module 'C:\\Users\\me\\sdnext\\.zluda\\nvcuda.dll' (or one of its "
        "dependencies). Try using the full path with constructor syntax.\n"
    )
    found = {f.id: f for f in evaluate(load_rules([], use_env=False), ingest(text).facts).findings}
    assert "RD881" in found
    message = found["RD881"].message
    assert "HIP_PATH" in message and "from PATH" not in message


@pytest.mark.parametrize(
    "text",
    [
        # advice, the past, a message gone, a question: no load failure on this machine now
        "If you get \"Could not find module 'C:\\SD\\.zluda\\nvcuda.dll' (or one of its dependencies)\", add the HIP SDK bin folder to PATH. I use ZLUDA.",
        "Before I installed the VC++ redistributable I got Could not find module 'C:\\SD\\.zluda\\nvcuda.dll' (or one of its dependencies). Now ZLUDA works.",
        "I no longer get Could not find module 'C:\\SD\\.zluda\\nvcuda.dll' (or one of its dependencies) since I set HIP_PATH. ZLUDA runs.",
        "Is \"Could not find module 'C:\\SD\\.zluda\\nvcuda.dll' (or one of its dependencies)\" a known ZLUDA problem?",
    ],
)
def test_ctypes_wording_told_as_advice_past_gone_or_asked_is_not_a_load_failure(text: str) -> None:
    assert "RD881" not in problems_shown(text + "\n")


def test_a_dll_load_failure_without_zluda_is_not_blamed_on_zluda() -> None:
    shown = problems_shown(
        'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\venv\\lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.\n'
    )
    assert "RD881" not in shown


@pytest.mark.parametrize(
    "line",
    [
        r"The procedure entry point hipDeviceSetLimit could not be found in the dynamic link library D:\Apps\ZLUDA\nvcuda.dll",
        r"`The procedure entry point hipGraphCreate could not be located in the dynamic link library ...\zluda\nvcuda.dll`",
        # drv60: the reporters' own words and a translated Windows (vosen/ZLUDA#142, patientx/ComfyUI-Zluda#332)
        r"at startup it gives out that the entry point ADL2_New_QueryPMLogData_Get, hipFuncGetAttribute was not found",
        r'ComfyUI doesn\'t start with the error like "Procedure entrance point "hipMemset_spt" not found in the DLL ...\zluda\nvcuda.dll".',
        r"Entry point hipDeviceSetLimit could not be found in amdhip64.dll",
    ],
)
def test_a_hip_entry_point_missing_from_the_runtime_is_read_in_the_loader_wordings(line: str) -> None:
    # the reporters' own words are read by hip_entry_point_not_found_told (rev60), the loader's dialog by the row itself
    assert {"hip_entry_point_not_found", "hip_entry_point_not_found_told"} & set(signature_errors(line))


@pytest.mark.parametrize(
    "line",
    [
        r"The procedure entry point roclabs_bfdot_64 could not be located in the dynamic link library (...\lib\ollama\hip_blas.dll)",
        r"The procedure entry point clCreateCommandQueueWithProperties could not be located in the dynamic link library E:\programs\x.exe",
        # drv60: the paraphrase needs a HIP function as the entry point and "not found" after it
        r"The entry point cuGetProcAddress_v2 was not found in nvcuda.dll (hip_blas.dll loaded fine)",
        r"Entry point hipGraphCreate is found now after the driver update",
        r"The entry point hipMalloc was found in amdhip64.dll",
    ],
)
def test_an_entry_point_that_is_not_a_hip_function_is_not_blamed_on_the_hip_runtime(line: str) -> None:
    assert not {"hip_entry_point_not_found", "hip_entry_point_not_found_told"} & set(signature_errors(line))


@pytest.mark.parametrize(
    "text",
    [
        # rev60: the reporters' wording read anywhere fired RD882 (an error) on the past, a fix applied, a question, advice
        "The entry point hipMemset_spt was not found before I updated the driver; now fixed.",
        "Is it true that the entry point hipGraphInstantiate is not found on older Adrenalin drivers? Asking for a guide.",
        "If you get that the entry point hipDeviceSetLimit was not found, update the Adrenalin driver.",
        "I used to get: entry point hipGraphCreate was not found. Adrenalin 24.7.1 solved it.",
        "In the docs: the entry point for hipLaunchKernel is not located in the header but in the runtime.",
    ],
)
def test_a_hip_entry_point_told_in_the_past_asked_or_advised_is_not_the_drivers_runtime_now(text: str) -> None:
    assert "RD882" not in problems_shown(text + "\n")


def test_a_hip_entry_point_told_as_the_current_failure_is_still_judged_as_the_drivers_runtime() -> None:
    shown = problems_shown("ZLUDA: at startup it gives out that the entry point ADL2_New_QueryPMLogData_Get, hipFuncGetAttribute was not found\n")
    assert "RD882" in shown


def test_a_missing_hip_entry_point_is_judged_as_the_drivers_runtime_being_too_old() -> None:
    shown = problems_shown(
        "When running applications using ZLUDA.exe, getting error -\n"
        "The procedure entry point hipGraphCreate could not be located in the dynamic link library C:\\zluda\\nvcuda.dll\n"
    )
    assert shown[0] == "RD882"
    assert "RD599" not in shown


@pytest.mark.parametrize(
    "line",
    [
        "AttributeError: module 'torch.distributed' has no attribute 'init_process_group'",
        "AttributeError: module 'torch.distributed' has no attribute 'is_initialized'",
        "ModuleNotFoundError: No module named 'torch._C._distributed_c10d'; 'torch._C' is not a package",
        'hasattr(torch._C, "_c10d_init")   returning false',
        "torch.distributed.is_available() returns False",
    ],
)
def test_a_torch_without_torch_distributed_is_read_in_its_wordings(line: str) -> None:
    assert "torch_distributed_missing" in signature_errors(line)


def test_a_working_distributed_call_is_not_read_as_missing() -> None:
    assert "torch_distributed_missing" not in signature_errors("torch.distributed.is_available() returns True")


@pytest.mark.parametrize("attribute", ["device_mesh", "tensor", "ProcessGroup"])
def test_an_attribute_an_older_or_stubbed_torch_lacks_is_not_read_as_no_distributed(attribute: str) -> None:
    # device_mesh is missing from a torch older than 2.2 built with distributed; ProcessGroup is a
    # stub in a build without it, so neither tells the build apart.
    line = f"AttributeError: module 'torch.distributed' has no attribute '{attribute}'"
    assert "torch_distributed_missing" not in signature_errors(line)


def test_device_mesh_missing_from_a_linux_rocm_torch_is_not_blamed_on_the_windows_wheels() -> None:
    shown = problems_shown(
        "My RX 7900 XTX, ROCm 6.2, torch 2.5.1+rocm6.2 and torchvision.\n"
        "AttributeError: module 'torch.distributed' has no attribute 'device_mesh'\n"
    )
    assert "RD883" not in shown


def test_a_rocm_torch_without_distributed_is_explained_by_the_windows_wheels() -> None:
    shown = problems_shown(
        'hasattr(torch._C, "_c10d_init") returning false\n'
        "\n"
        "Name: torch\n"
        "Version: 2.12.0a0+rocm7.13.0a20260313\n"
    )
    assert shown[0] == "RD883"
    assert "RD599" not in shown


@pytest.mark.parametrize(
    "line, release",
    [
        # the install folder in a path: a rocBLAS error, a PATH entry, a tool run from it (cs1o-sdinfo-33,
        # sdcpp-160, hip-3805, rocm-4390 in the corpora)
        (r"rocBLAS error: Cannot read C:\Program Files\AMD\ROCm\6.2\bin\/rocblas/library/TensileLibrary.dat: No such file or directory", "6.2"),
        (r"2. Add `C:\Program Files\AMD\ROCm\5.7\bin` to path", "5.7"),
        (r"PS C:\Users\me> & 'C:/Program Files/AMD/ROCm/6.1/bin/amdgpu-arch.exe'", "6.1"),
        (r'"C:\\Program Files\\AMD\\ROCm\\6.4\\bin\\hipInfo.exe"', "6.4"),
        # prose (rocm-4872, rocm-systems-1786, unsloth-6043)
        ("I cannot find a pytorch for HIP_SDK 6.2. Has anyone tried this?", "6.2"),
        ("ROCm 6.4 from the latest HIP SDK 6.4.", "6.4"),
        ("    HIP SDK: 7.1", "7.1"),
        ("installed the HIP SDK version 6.4.2 and the driver", "6.4"),
    ],
)
def test_the_hip_sdk_release_is_read_from_its_folder_and_from_prose(line: str, release: str) -> None:
    assert ingest_text(line).facts.windows.hip_sdk_versions.value == [release]


@pytest.mark.parametrize(
    "line",
    [
        "yay -S rocm-hip-sdk rocm-opencl-sdk",
        "rocm-hip-sdk 6.2.2-1",
        "see https://www.amd.com/en/developer/resources/rocm-hub/hip-sdk.html 6.1",
        "/opt/rocm/6.2/bin/rocminfo",
    ],
)
def test_a_linux_package_or_a_download_page_is_not_a_hip_sdk_release(line: str) -> None:
    assert not ingest_text(line).facts.windows.hip_sdk_versions.is_known


@pytest.mark.parametrize(
    "text, release",
    [
        # learn55c: ZLUDA users call the HIP SDK "HIP" and its release (patientx/ComfyUI-Zluda#162 and #66,
        # vladmandic/sdnext#3725)
        ("I Installed everything as stated wit HIP 6.2.4 and also used patchzluda2", "6.2"),
        ("installing with HIP 6.2.4 and ZLUDA-nightly-windows-rocm6-amd64.zip", "6.2"),
        ("[Issue] Zluda nightly with HIP 6.2", "6.2"),
    ],
)
def test_a_bare_hip_release_beside_zluda_is_the_hip_sdk_release(text: str, release: str) -> None:
    assert ingest_text(text).facts.windows.hip_sdk_versions.value == [release]


@pytest.mark.parametrize(
    "text",
    [
        # a labelled runtime version, hipcc's build number, a release without ZLUDA in the block
        "ZLUDA 3.9 on HIP version: 6.2.41133-dd7f95766",
        "ZLUDA build, HIP Version: 7.2.0-50a8893d67",
        "I installed HIP 6.2.4 and ROCm-free llama.cpp",
    ],
)
def test_a_hip_version_field_or_a_hip_release_without_zluda_is_not_read_as_the_hip_sdk(text: str) -> None:
    assert not ingest_text(text).facts.windows.hip_sdk_versions.is_known


@pytest.mark.parametrize("gpu, told", [("RX 9070 XT", True), ("RX 7900 XTX", False)])
def test_zluda_on_a_gpu_its_hip_sdk_lacks_is_told_and_a_listed_gpu_is_not(gpu: str, told: bool) -> None:
    # RD578: HIP SDK 6.2 lists gfx1100 but not the RX 9070 XT's gfx1201 (rules/data/rocm_support.yaml)
    text = f"Windows 11, {gpu}, ComfyUI-Zluda with HIP 6.2.4: it fails on the first image\n"
    assert ("RD578" in problems_shown(text)) is told


def test_zluda_on_hip_sdk_6_is_not_told_its_rdna2_gpu_lacks_the_rocm_7_2_windows_runtime() -> None:
    # the 7.2 table dropped gfx1030; HIP SDK 6.x's (6.4.2) lists it: the runtime in use decides
    zluda = "Windows 11, RX 6800 XT, ComfyUI-Zluda\nHIP SDK 6.4 installed\n"
    assert "RD205" not in problems_shown(zluda)
    assert "RD205" in problems_shown("Windows 11, RX 6800 XT, ComfyUI\ntorch 2.9.1+rocm7.2\n")


def test_a_gpu_only_the_hip_sdk_6_4_table_marks_unsupported_is_not_said_to_be_unsupported_by_rocm_7_2() -> None:
    # 6.4.2's table marks gfx906 unsupported, 7.2's does not list it: the finding cites the table in force
    facts = ingest_text("Windows 11, Radeon VII (gfx906), HIP SDK 6.4.\nC:\\Users\\me> ollama serve\n").facts
    found = [f for f in evaluate(load_rules(), facts).findings if f.id == "RD205"]
    assert found
    assert all("7.2" not in f.title for f in found)


def test_hip_sdk_releases_and_amdhip_dlls_named_in_two_blocks_are_both_listed_not_a_conflict() -> None:
    text = (
        "HIP SDK 6.4 installed.\n\n```\nC:\\Windows\\System32\\amdhip64_6.dll\n```\n\n"
        "Then I installed HIP SDK 7.1.\n\n```\nC:\\Windows\\System32\\amdhip64_7.dll\n```\n"
    )
    windows = ingest_text(text).facts.windows
    assert sorted(windows.hip_sdk_versions.value or []) == ["6.4", "7.1"]
    assert sorted(windows.amdhip_dlls.value or []) == ["amdhip64_6.dll", "amdhip64_7.dll"]


@pytest.mark.parametrize(
    "text",
    [
        # rev55c: community rocBLAS libraries for the GPU put into the HIP SDK (vladmandic/sdnext#4405 and #4182,
        # likelovewant/ROCmLibs-for-gfx1103-AMD780M-APU#17, githubcto/FramePack-ZLUDA#4)
        "Windows 11, RX 6700 XT, ComfyUI-Zluda, HIP SDK 6.2.4\nI replaced rocblas.dll and the library folder with the ROCmLibs for gfx1031\n",
        "> Windows 10, RX 6600, ZLUDA with HIP 6.2.4; copied the gfx1032 library\r\n> files into rocblas\\library\r\n",
    ],
)
def test_zluda_with_community_rocblas_libraries_put_in_is_not_told_its_hip_sdk_lacks_them(text: str) -> None:
    assert "RD578" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # rev55c: the 6.4.2 table kept has no RX 7600 row, and no Ryzen APU tab: it does not say they are missing
        "Windows 11, RX 7600, ComfyUI-Zluda with HIP SDK 6.4.2\nit fails on the first image\n",
        "Windows 11, Ryzen AI Max+ 395 with Radeon 8060S (gfx1151), ComfyUI-Zluda\nit fails on the first image\n",
        # the driver's amdhip64_7.dll is not the HIP SDK release
        "Windows 11, RX 6800 XT, ComfyUI-Zluda\nC:\\Windows\\System32\\amdhip64_7.dll\nit fails on the first image\n",
    ],
)
def test_zluda_is_not_told_its_hip_sdk_lacks_a_gpu_no_fully_kept_table_leaves_out(text: str) -> None:
    assert "RD578" not in problems_shown(text)


# rev55dt: the HIP runtime a Python wheel bundles (TheRock's and AMD's Windows wheels keep it in
# site-packages\_rocm_sdk_core\bin: ROCm/TheRock#1229, #1278) is not AMD's HIP SDK, whose Windows tables
# RD205 reads; a DLL of a HIP SDK install or of the display driver still is.
@pytest.mark.parametrize(
    "text",
    [
        "Windows 11, RX 6700 XT\nHIP Library Path: C:\\Applio-3.2.9\\env\\Lib\\site-packages\\_rocm_sdk_core\\bin\\amdhip64_7.dll\n"
        "MIOpen Error: No suitable algorithm was found to execute the required convolution\n",
        "Windows 11, RX 6700 XT\r\n> C:\\Users\\Jane Doe\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\site-packages\\"
        "_rocm_sdk_core\\bin\\amdhip64_7.dll\r\n",
        "Windows 11, RX 6700 XT\nloaded D:/venvs/comfy/Lib/site-packages/_rocm_sdk_core/bin/amdhip64_7.dll\n",
    ],
)
def test_a_wheels_bundled_hip_runtime_is_not_judged_by_the_hip_sdk_tables(text: str) -> None:
    assert "RD205" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "Windows 11, Radeon VII\nHIP runtime: C:\\Program Files\\AMD\\ROCm\\6.2\\bin\\amdhip64_6.dll\n",
        "Windows 11, RX 6700 XT\nC:\\Windows\\System32\\amdhip64_7.dll\nhipInfo finds no device\n",
    ],
)
def test_a_hip_sdk_or_driver_hip_runtime_is_still_judged_by_the_hip_sdk_tables(text: str) -> None:
    assert "RD205" in problems_shown(text)


def test_the_hip_runtime_in_use_leaves_out_a_wheels_dll_and_keeps_a_hip_sdk_dll() -> None:
    facts = ingest_text("Windows 11, RX 7900 XTX\nCannot load amdhip64_7.dll\n").facts
    wheel = "C:\\Program Files\\Python312\\Lib\\site-packages\\_rocm_sdk_core\\bin\\amdhip64_7.dll"
    sdk = "C:\\Program Files\\AMD\\ROCm\\6.2\\bin\\amdhip64_6.dll"
    for dlls, expected in (([wheel], None), ([wheel, sdk], ["6"]), ([sdk], ["6"])):
        windows = facts.windows.model_copy(update={"amdhip_dlls": known(dlls, "live")})  # the gatherer's full paths
        runtime = windows_hip_runtime(facts.model_copy(update={"windows": windows}), Tables())
        assert (runtime.value if runtime.is_known else None) == expected


def test_windows_10_with_a_wheels_rocm_7_runtime_is_still_outside_the_7_2_requirements() -> None:
    # RD731 reads the DLL's name whichever folder it is in
    text = "Windows 10, RX 9070 XT\nC:\\py\\Lib\\site-packages\\_rocm_sdk_core\\bin\\amdhip64_7.dll\n"
    assert "RD731" in problems_shown(text)


# third61: the display driver's HIP runtime loaded by a program that ships its own (RD110). Forms from
# vladmandic/sdnext#4516 (SD.Next's log and its title), ggml-org/llama.cpp#25807 (a reader's words),
# lmstudio-ai/lmstudio-bug-tracker#1906 (Windows' crash record; loading "ahead of" the application's own).
@pytest.mark.parametrize(
    "line",
    [
        r"HIP Library Path: C:\WINDOWS\System32\amdhip64_7.dll",
        r"Faulting module path: C:\Windows\System32\amdhip64_7.dll",
        r"In my case, llama.cpp was picking up the wrong `amdhip64_7.dll` from `C:\Windows\System32` instead of the one from my TheRock installation.",
        "[Issue]: Wrong amdhip64_7.dll loaded",
        r"Windows is loading the driver's System32\amdhip64_7.dll ahead of LM Studio's own HIP runtime.",
        "amdhip64_7.dll is loaded from System32, not from _rocm_sdk_core.",
    ],
)
def test_the_driver_hip_runtime_loaded_from_system32_is_read_in_its_forms(line: str) -> None:
    assert {"hip_runtime_loaded_from_system32", "hip_runtime_loaded_from_system32_told"} & signature_contexts(line)


@pytest.mark.parametrize(
    "line",
    [
        # the file only said to be there, or a listing of where it is
        r"C:\Windows\System32\amdhip64_7.dll",
        "I did take a look at system 32 and found amdhip64_7.dll there",
        # the wheel's own copy loaded (ROCm/legacy-rocm-build#5871's crash record)
        r"Module path: D:\text-generation-webui\venv\Lib\site-packages\_rocm_sdk_core\bin\amdhip64_7.dll",
        r"Faulting module path: D:\venv\Lib\site-packages\_rocm_sdk_core\bin\amdhip64_7.dll",
        # a question, the past, a fix
        "Is the wrong amdhip64_7.dll loaded from System32?",
        "It was loading amdhip64_7.dll from System32 before I copied it; now it works.",
        "Fixed: llama.cpp no longer picks up amdhip64_7.dll from System32.",
    ],
)
def test_a_system32_hip_runtime_not_shown_loaded_now_is_not_read_as_loaded(line: str) -> None:
    assert not {"hip_runtime_loaded_from_system32", "hip_runtime_loaded_from_system32_told"} & signature_contexts(line)


@pytest.mark.parametrize(
    "text",
    [
        # SD.Next beside TheRock's wheels (vladmandic/sdnext#4516)
        "When starting SD.Next with rocm: `HIP Library Path: C:\\WINDOWS\\System32\\amdhip64_7.dll`\n"
        "This is not the correct dll and the one provided in `_rocm_sdk_core` should be used.\n",
        # a self-built llama.cpp beside a TheRock SDK (ggml-org/llama.cpp#25807)
        "llama.cpp was picking up the wrong `amdhip64_7.dll` from `C:\\Windows\\System32` instead of the one from my TheRock installation.\n",
    ],
)
def test_the_driver_hip_runtime_loaded_beside_a_programs_own_is_reported(text: str) -> None:
    assert "RD110" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # ZLUDA and HIP SDK programs run on the driver's runtime: it is theirs
        "ZLUDA on Windows with HIP SDK 6.2, RX 6800.\nFaulting module path: C:\\Windows\\System32\\amdhip64_6.dll\n",
        # a healthy TheRock report that lists both copies
        "Works great! TheRock torch on Windows 11, RX 9070 XT.\nwhere amdhip64_7.dll\n"
        "C:\\Windows\\System32\\amdhip64_7.dll\nC:\\venv\\Lib\\site-packages\\_rocm_sdk_core\\bin\\amdhip64_7.dll\n",
        # someone else's machine, quoted
        "My friend said his SD.Next was loading the wrong amdhip64_7.dll from System32, on his TheRock install. Mine works fine.\n",
    ],
)
def test_the_driver_hip_runtime_is_not_blamed_where_it_is_the_programs_own_or_not_shown_loaded(text: str) -> None:
    assert "RD110" not in problems_shown(text)


_SYSTEM32_LOG = "```\nHIP Library Path: C:\\WINDOWS\\System32\\amdhip64_7.dll\n```\nUsing TheRock wheels: site-packages\\_rocm_sdk_core\\bin.\n"


# rev62: the System32 load told as fixed or only asked about is no load now
@pytest.mark.parametrize(
    "text",
    [
        _SYSTEM32_LOG + "Fixed it by updating SD.Next to the latest release, now it works.\n",
        "llama.cpp loaded amdhip64_7.dll from C:\\Windows\\System32, I fixed it by copying TheRock's dll next to llama-server.exe. _rocm_sdk_core\n",
        "What does HIP Library Path: C:\\WINDOWS\\System32\\amdhip64_7.dll mean? I use the _rocm_sdk_core wheels.\n",
        "Why does HIP Library Path: C:\\WINDOWS\\System32\\amdhip64_7.dll show up in the log with the _rocm_sdk_core wheels\n",
    ],
    ids=["works now after a fix", "fixed by copying", "asked", "asked without its mark"],
)
def test_the_driver_hip_runtime_load_told_fixed_or_asked_is_not_reported(text: str) -> None:
    assert "RD110" not in problems_shown(text)


# rev62: the file found in System32 is where it lies, not what a process loaded; LM Studio's name alone is no runtime of its own
@pytest.mark.parametrize(
    "text",
    [
        "I found amdhip64_7.dll in C:\\Windows\\System32 and also in _rocm_sdk_core\\bin.\n",
        "LM Studio crashes.\n```\nFaulting module path: C:\\Windows\\System32\\amdhip64_7.dll\n```\n",
    ],
    ids=["the file found", "LM Studio's crash record alone"],
)
def test_a_system32_runtime_found_or_an_lm_studio_crash_in_it_is_not_reported_as_the_wrong_runtime(text: str) -> None:
    assert "RD110" not in problems_shown(text)
