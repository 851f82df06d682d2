"""A package or extension made for another torch build or release than the torch beside it (block h33a).

Issue 23, class package_mismatch (scored as packages). Each form is the shape several independent real
reports use (named per case); the texts are written for the test, not copied from one report, and the
assertions are about the signature read and the finding a maintainer reads first.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, report_contexts, serious_findings, signature_contexts, signature_errors

LIBRARY = "extension_needs_other_torch_build_library"
REPLACED = "package_install_replaced_torch_told"
MISMATCH = "torch_companion_mismatch_told"


@pytest.mark.parametrize(
    "text",
    [
        # a PyPI torchaudio beside a custom ROCm torch (evshiron/rocm_lab#1, pytorch/pytorch#139410)
        "OSError: libtorch_cuda.so: cannot open shared object file: No such file or directory\n",
        # the c10 half of the same build (xuhuisheng/rocm-gfx803#23)
        "ImportError: libc10_cuda.so: cannot open shared object file: No such file or directory\n",
        # torch 1.10-1.12 split its CUDA library in two (TEAMuP-dev/audacitorch#9)
        "OSError: libtorch_cuda_cpp.so: cannot open shared object file: No such file or directory\n",
        # the other way round: a ROCm build beside a CUDA torch (pytorch/audio#2525)
        "OSError: libtorch_hip.so: cannot open shared object file: No such file or directory\n",
    ],
)
def test_a_missing_library_of_another_torch_build_is_read(text: str) -> None:
    assert LIBRARY in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # NVIDIA's own runtime, not one of torch's libraries (cuda_library_missing reads it)
        "OSError: libcudart.so.12: cannot open shared object file: No such file or directory\n",
        # a ROCm library of the runtime
        "ImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory\n",
        # the library named, nothing missing
        "ls torch/lib shows libtorch_hip.so and libc10_hip.so\n",
    ],
)
def test_other_missing_libraries_are_not_read_as_another_torch_build(text: str) -> None:
    assert LIBRARY not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "./build/infer: error while loading shared libraries: libtorch_hip.so: cannot open shared object file: No such file or directory\n",
        "./example-app: error while loading shared libraries: libc10_cuda.so: cannot open shared object file: No such file or directory\n",
    ],
)
def test_a_program_the_loader_cannot_start_for_a_libtorch_library_is_not_read_as_a_package_of_another_build(text: str) -> None:
    assert LIBRARY not in signature_errors(text)


def test_torchaudio_asking_for_libtorch_cuda_beside_a_rocm_torch_is_a_packages_error_first() -> None:
    report = (
        "RX 6800 on Ubuntu 22.04, torch 2.5.1+rocm6.2 from the rocm6.2 index, torchaudio from pip.\n"
        "  File \"/venv/lib/python3.10/site-packages/torch/_ops.py\", line 1350, in load_library\n"
        "    ctypes.CDLL(path)\n"
        "OSError: libtorch_cuda.so: cannot open shared object file: No such file or directory\n"
    )
    assert serious_findings(report)[0] == ("RD545", "error", "packages")


@pytest.mark.parametrize(
    "text",
    [
        # the installer of a library takes the ROCm torch out (xuhuisheng/rocm-gfx803#12)
        "when i try to install this library, the installer first remove PyTorch gfx803 compatible and then reinstall pytorch",
        # a companion named as the one that removes it (ROCm/pytorch#411)
        "The latest torchvision, 0.3.0, is installing PyTorch 1.1.0 (CPU version) and removing ROCm/PyTorch",
        "when I pip install torchaudio it uninstalls my rocm pytorch and installs the normal one",
        "installing xformers removed the ROCm version of torch and pulled the CUDA one",
        # pip named as the one that did it, in the past tense (not the command `pip uninstall torch`)
        "i installed torchaudio with pip and now torch is the cuda version, pip uninstalled my rocm torch",
        # passive
        "After `pip install torchvision` my torch 2.3.0+rocm6.0 got replaced by torch 2.4.0 from pypi",
        # what pip does each time (facebookresearch/xformers#802)
        "when I use pip install xformers, it will re-install the torch==2.4.1 with rocm6.1 I have",
        # pip fetching another build or release of torch for the package (facebookresearch/sam2#562,
        # InternLM/lmdeploy#3549: a wheel file installed "with pip")
        "I have torch==2.4.0+rocm6.3.2, but when I execute pip install sam2, it still tries to download other versions of torch.",
        "when I install lmdeploy-0.8.0+cu118-cp311-cp311-manylinux2014_x86_64.whl with pip, it will try to download and reinstall cpu version of torch",
        "when I pip install flash-attn it downloads and installs torch again",
        # "will try to" says what the install does, not advice (rev53h: the wording of InternLM/lmdeploy#3549)
        "when I pip install torchaudio, it will try to uninstall my rocm torch and install the one from PyPI",
        # another question after the statement, on the same line (facebookresearch/xformers#802 as posted)
        "when I use pip install xformers, it will re-install the torch==2.0.1 with cuda-11.x.  Does it support the latest cuda and torch?",
    ],
)
def test_an_install_of_another_package_that_replaced_torch_is_read(text: str) -> None:
    assert REPLACED in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # a hypothetical (ROCm/pytorch#1533 says it of what would happen; its pip log says the rest)
        "running `pip install torchaudio` would reinstall `torch` without ROCm support.",
        # advice, a negation, a question, the past
        "pip install torchaudio --no-deps so that it does not replace torch",
        "installing torchaudio did not remove my torch",
        "Does installing torchvision replace my rocm torch?",
        # a download of torch that is no replacement: a fresh environment's first install, the reporter's own download,
        # torch's own wheel installed
        "pip install sam2 downloads torch 2.5.1 and its nvidia packages.",
        "I downloaded another version of torch and installed it.",
        "I install torch-2.5.1+rocm6.2-cp310-cp310-linux_x86_64.whl and it replaced the cpu version of torch.",
        # a question about the replacement itself, after the install named
        "If I pip install xformers, does it reinstall torch?",
        "pip install torchaudio: will it remove my rocm torch",
        # a healthy outcome on the line (rev48g: RD983 says the statement on any report)
        "Ubuntu 22.04, CPU only. I installed xformers and it downloaded torch again (2.1.0, the same version), all good, inference runs fine.",
        "uv pip install torchvision reinstalls torch each time, that is expected since I pin it. No problem here, just a note.",
        "Before, installing torchaudio used to replace my torch, now it works.",
        # the reporter did the removing
        "I installed torchvision and then I removed the old torch",
        "I reinstalled torch after removing torchvision",
        # commands, not a statement
        "RUN pip install torch torchvision --extra-index-url https://download.pytorch.org/whl/cu121 RUN pip uninstall torch torchvision -y",
        # an application's install replacing torch is the torch-build retelling, not a package's
        "installing ComfyUI replaced my rocm torch with the cuda one",
        "When I install the webui it removes my rocm pytorch",
        "pip install -r requirements.txt replaced my rocm torch with the cuda one",
        # told as solved: a working setup's history, not its state
        "installing torchvision replaced my rocm torch, so I reinstalled it from the ROCm index and now it works.",
        "pip install torchaudio uninstalled my rocm torch; I fixed it with --no-deps.",
        # a contracted negation, the reporter's own reinstall after a companion's error, advice (r33b)
        "I installed torchvision from the rocm index and it didn't replace my torch, is_available() is True.",
        "import torchvision fails with an nms error, so I tried to reinstall torch but same error.",
        "The solution: pip install torchvision, then reinstall torch from the rocm index.",
        # advice with "try" or "try to" before the verb (learn52h/fin52h: unslothai/unsloth#5180, SunOner/sunone_aimbot#35,
        # jackroos/VL-BERT#26), also glued to the clause before by a JSON log's escaped newlines (unsloth#5180)
        r"This usually means torch/torchvision/torchaudio were installed from default PyPI wheels instead of ROCm wheels.\nDetected ROCm version hint: 7.1\nTry reinstalling PyTorch wheels with:",
        "If the torchvision import fails, try reinstalling torch from the rocm index.",
        "import torchvision fails with an nms error, try to reinstall torch from the rocm index.",
        "Couldn't load the torchvision ops; try to reinstall torch: first pip uninstall torch torchvision torchaudio",
    ],
)
def test_no_package_install_replacing_torch_is_read_where_none_is_told(text: str) -> None:
    assert REPLACED not in signature_contexts(text)


def test_torchaudio_install_that_removed_the_rocm_torch_is_a_packages_error_on_an_amd_report() -> None:
    report = (
        "RX 580 with a gfx803 build of torch 1.11 from the rocm-gfx803 project.\n"
        "When I pip install torchaudio it uninstalls my ROCm pytorch and installs the normal one, so the GPU is not used anymore.\n"
    )
    assert serious_findings(report)[0] == ("RD546", "error", "packages")


def test_a_package_install_that_replaced_torch_told_without_an_amd_gpu_is_a_packages_warning() -> None:
    report = "when I use pip install xformers, it will re-install the torch==2.0.1 with cuda-11.x, even if I have torch 2.1.0.\n"
    assert serious_findings(report)[0] == ("RD983", "warning", "packages")


def test_a_package_install_told_beside_pips_own_log_leaves_it_to_the_log_reader() -> None:
    report = (
        "RX 7900 XTX, ROCm 6.2. pip install torchaudio removed my rocm torch:\n"
        "Collecting torchaudio\n"
        "  Downloading torchaudio-2.4.0-cp310-cp310-manylinux1_x86_64.whl.metadata (6.4 kB)\n"
        "Collecting torch==2.4.0 (from torchaudio)\n"
        "  Downloading torch-2.4.0-cp310-cp310-manylinux1_x86_64.whl.metadata (26 kB)\n"
    )
    assert REPLACED in report_contexts(report)
    assert "RD546" not in problems_shown(report)


@pytest.mark.parametrize(
    "text",
    [
        # ROCm/TheRock#1257
        "automatically installed `torch==20250812` together with `torchvision==20250815`, but as I can see, they aren't compatible.",
        # pmj110119/RenderOcc#46's order: torch, the verdict, the companion
        "Torch version 2.4.1+rocm6.1 is not compatible with torchvision 0.20.1+rocm6.2.",
        # pytorch/pytorch#23218's order: the verdict first
        "That should be caused by the mismatch version between pytorch-nightly and torchvision 0.3.0.",
        "My torchvision is incompatible with the installed torch.",
        "torch 2.5.1+rocm6.2 and torchvision 0.19.1 don't match",
        # the triton torch pins (vllm-project/vllm#16664, triton-lang/triton#3359)
        "Another package is pulling in triton version 3.3 which doesn't match with the version that torch comes with (3.2).",
        "This part fails due to the version requirement mismatch between `torch` and `triton`.",
    ],
)
def test_torch_and_a_companion_said_to_mismatch_is_read(text: str) -> None:
    assert MISMATCH in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # torchvision's own hint (torchvision_custom_ops_not_loaded reads the message)
        "RuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and torchvision versions are incompatible.",
        # denials (pytorch/pytorch#88852), a question, advice, the past
        "As far as I'm aware, these are compatible versions of torch and torchvision.",
        "I made sure torch and torchvision are not mismatched.",
        "Is torchvision 0.20 compatible with torch 2.5?",
        "Make sure torch and torchvision versions are compatible.",
        "Previously torch and torchvision were mismatched but I fixed that.",
        # a mismatch of something else
        "after installing torch and torchvision I get a CUDA version mismatch",
        # told as solved
        "torch and torchvision were not compatible, after reinstalling both from the same index everything works.",
        # torch named after the verdict about something else
        "torchvision is incompatible with my GPU, but torch works",
        # "no" before "version mismatch" (r33b)
        "There is no version mismatch between torch and torchvision, both come from the rocm6.1 index.",
        "It is not a mismatch of torch and torchvision: both are 2.4 builds.",
    ],
)
def test_no_companion_mismatch_is_read_where_none_is_told(text: str) -> None:
    assert MISMATCH not in signature_contexts(text)


def test_a_companion_mismatch_told_on_an_amd_report_is_a_packages_warning() -> None:
    report = (
        "RX 9060 XT on Windows 11, TheRock gfx120X-all index.\n"
        "pip installed torch together with torchvision, but as I can see, they aren't compatible.\n"
    )
    assert serious_findings(report)[0] == ("RD547", "warning", "packages")


WINDOWS_PROCEDURE = "extension_procedure_missing_windows"


@pytest.mark.parametrize(
    "text",
    [
        # torchaudio's library through torch.ops.load_library (lllyasviel/stable-diffusion-webui-forge#252)
        '  File "C:\\\\AI\\\\venv\\\\lib\\\\site-packages\\\\torch\\\\_ops.py", line 852, in load_library\n'
        "    ctypes.CDLL(path)\n"
        "OSError: [WinError 127] The specified procedure could not be found\n",
        # the message in the system's language (modelscope/FunASR#1542)
        '  File "C:\\\\env\\\\lib\\\\site-packages\\\\torch\\\\_ops.py", line 933, in load_library\n'
        "    ctypes.CDLL(path)\n"
        "OSError: [WinError 127] 找不到指定的程序。\n",
    ],
)
def test_a_missing_procedure_while_torch_loads_a_package_library_is_read(text: str) -> None:
    assert WINDOWS_PROCEDURE in signature_errors(text)


def test_a_missing_procedure_in_torchs_own_dlls_at_import_is_not_read_as_a_package() -> None:
    text = (
        '  File "C:\\\\sd\\\\venv\\\\lib\\\\site-packages\\\\torch\\\\__init__.py", line 132, in <module>\n'
        "    raise err\n"
        'OSError: [WinError 127] The specified procedure could not be found. Error loading '
        '"C:\\\\sd\\\\venv\\\\lib\\\\site-packages\\\\torch\\\\lib\\\\caffe2_nvrtc.dll" or one of its dependencies.\n'
    )
    assert WINDOWS_PROCEDURE not in signature_errors(text)


WINDOWS_NOT_FOUND = "extension_library_not_found_windows"


@pytest.mark.parametrize(
    "text",
    [
        # ctypes' words for WinError 126 on torchaudio's library, alone (suno-ai/bark#239)
        "FileNotFoundError: Could not find module 'G:\\\\Py310\\\\Lib\\\\site-packages\\\\torchaudio\\\\lib\\\\libtorchaudio.pyd' "
        "(or one of its dependencies). Try using the full path with constructor syntax.\n",
        # a folder with spaces, forward slashes, the message wrapped at 80 columns (pytorch/pytorch#97464)
        "FileNotFoundError: Could not find module 'D:/AI Tools/my env/Lib/site-packages/torchaudio/lib/libtorchaudio.pyd'\n"
        "(or one of its dependencies). Try using the full path with constructor syntax.\n",
        # torchaudio 0.x kept its library at the package's top (_torchaudio.pyd)
        "FileNotFoundError: Could not find module 'C:\\\\env\\\\lib\\\\site-packages\\\\torchaudio\\\\_torchaudio.pyd' (or one of its dependencies).\n",
        "FileNotFoundError: Could not find module '_torchaudio.pyd' (or one of its dependencies).\n",
        # wrapped at 80 columns inside a path with spaces (rev48g)
        "FileNotFoundError: Could not find module 'D:\\AI Tools\\my stable diffusion install\\venv\\Lib\\site-packages\\\n"
        "torchaudio\\lib\\libtorchaudio.pyd' (or one of its dependencies). Try using the full path with constructor syntax.\n",
    ],
)
def test_torchaudios_library_or_a_torch_dll_it_links_not_found_on_windows_is_read(text: str) -> None:
    assert WINDOWS_NOT_FOUND in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # torchcodec's FFmpeg-dependent library: a missing FFmpeg, not another torch
        "FileNotFoundError: Could not find module 'D:\\\\Comfy\\\\site-packages\\\\torchcodec\\\\libtorchcodec_core7.dll' (or one of its dependencies).\n",
        # torch's own DLL at import (windows_dll_load_failed reads it)
        'OSError: [WinError 126] The specified module could not be found. Error loading '
        '"C:\\\\sd\\\\venv\\\\lib\\\\site-packages\\\\torch\\\\lib\\\\c10.dll" or one of its dependencies.\n',
        # the file named without the error
        "torchaudio\\\\lib holds libtorchaudio.pyd and its dependencies are listed by dumpbin\n",
        # the message as an advice's case, and on another person's machine (rev48g: the match began inside the path,
        # where the error messages' sentence guards could not see "If you get" before it)
        "If you get FileNotFoundError: Could not find module 'C:\\venv\\Lib\\site-packages\\torchaudio\\lib\\libtorchaudio.pyd' "
        "(or one of its dependencies), reinstall torchaudio.\n",
        "My friend gets FileNotFoundError: Could not find module 'C:\\venv\\Lib\\site-packages\\torchaudio\\lib\\libtorchaudio.pyd' "
        "(or one of its dependencies).\n",
    ],
)
def test_other_modules_not_found_on_windows_are_not_read_as_torchaudio_of_another_torch(text: str) -> None:
    assert WINDOWS_NOT_FOUND not in signature_errors(text)


def test_torchaudios_library_not_found_on_windows_is_a_packages_warning_first() -> None:
    report = (
        "pip install torch -f https://download.pytorch.org/whl/cpu/torch_stable.html\n"
        "pip install torchaudio\n"
        "FileNotFoundError: Could not find module 'C:\\\\venv\\\\Lib\\\\site-packages\\\\torchaudio\\\\lib\\\\libtorchaudio.pyd' "
        "(or one of its dependencies). Try using the full path with constructor syntax.\n"
    )
    assert serious_findings(report)[0] == ("RD981", "warning", "packages")


REINSTALL = "rocm_torch_reinstall_needed_told"


@pytest.mark.parametrize(
    "text",
    [
        # an app update that puts its own torch back each time (LykosAI/StabilityMatrix#1570)
        "Each time the launcher updates the app I have to uninstall torch and then reinstall my ROCm torch.\n",
        # a custom node's requirements (MrForExample/ComfyUI-AnimateAnyone-Evolved#22)
        "After installing the node you will need to reinstall the AMD pytorch again.\n",
        # the ROCm packages named as "the ones for rocm" (LykosAI/StabilityMatrix#307)
        "The only way it runs is if I uninstall the torch packages and reinstall the ones for ROCm.\n",
        # a generic "you" after the step that replaced it, and "must" without "to"
        "Every time you update the app you have to reinstall the ROCm torch.\n",
        "After installing the requirements I must reinstall the rocm torch.\n",
    ],
)
def test_a_rocm_torch_that_has_to_be_put_back_by_hand_is_read(text: str) -> None:
    assert REINSTALL in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # torch named without its build: nothing says the ROCm build was replaced
        "I had to reinstall torch after the update.\n",
        # resolved: the ROCm torch is back
        "I had to reinstall the ROCm torch and now everything works.\n",
        # advice conditional on the reader's machine
        "If you see this error you need to reinstall the ROCm torch.\n",
        # a question, with or without its mark
        "Do I have to reinstall the rocm torch after every update?\n",
        "Do I need to reinstall the ROCm torch\n",
        # advice to the reader, not the reporter's chore
        "You need to reinstall the ROCm torch.\n",
        # another person's chore
        "He has to reinstall the ROCm torch every time.\n",
        "Users have to reinstall the ROCm torch after every update.\n",
        # a negation: the chore is gone
        "I don't have to reinstall the ROCm torch anymore.\n",
        "I no longer need to reinstall the ROCm torch.\n",
        # a one-time past fix: the ROCm torch is back
        "I had to reinstall the ROCm torch once after installing the node.\n",
        "I had to reinstall the ROCm torch and that did the trick.\n",
    ],
)
def test_a_reinstall_without_the_rocm_build_not_the_reporters_chore_or_already_done_is_not_read(text: str) -> None:
    assert REINSTALL not in signature_contexts(text)


def test_a_rocm_torch_replaced_by_each_update_is_a_torch_build_warning_on_an_amd_report() -> None:
    report = (
        "GPU: Radeon 8060S (Strix Halo), Linux\n"
        "\n"
        "Every time I update ComfyUI I have to uninstall torch and reinstall my ROCm torch.\n"
    )
    assert serious_findings(report)[0] == ("RD696", "warning", "torch-build")
