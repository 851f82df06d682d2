"""Which torch build ran, as reporters say it in sentences (issue 23, classes cuda_wheel_on_amd and
wrong_torch_build; block h31b of rules/data/signatures.yaml). The REPL and script forms of
torch.version.hip are python_session's; these are the prose forms. Assertions are about signatures,
facts and finding categories, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, signature_contexts, signature_errors

HIP_NONE = "hip_none_told"


@pytest.mark.parametrize(
    "sentence",
    [
        # YanWenKun/ComfyUI-Docker#187
        "No env flag helps here, since a cu130 wheel has no HIP code at all (torch.version.hip is None), so the only way is a rocm build.",
        # vllm-project/vllm#38337
        "pip's build isolation installs the CUDA variant of PyTorch from PyPI, so `torch.version.hip` is `None` even though the system has ROCm",
        # pytorch/pytorch#99983 (the same construct on torch.version.cuda)
        "Finally, when I try and print torch.version.hip it returns ```None```.",
        "torch.version.hip prints None on my RX 6800",
        "torch.version.hip returns None",
        "print(torch.version.hip) -> None",
        "torch.version.hip => None, torch.__version__ => 2.1.0+cu121",
        "I checked and torch.version.hip is still None after running setup.sh",
        'python -c "import torch; print(torch.version.hip)" gives None',
        "RX 9070 XT, Fedora 42. torch.version.hip: None",
        "Is pytorch using ROCm? torch.version.hip is None and torch.version.cuda is 12.1.",
    ],
)
def test_torch_version_hip_said_to_be_none_is_read_in_reporters_words(sentence: str) -> None:
    assert HIP_NONE in signature_contexts(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "if torch.version.hip is None:",
        "assert torch.version.hip is not None",
        "torch.version.hip is not None, it prints 6.2.41133",
        "Please check whether torch.version.hip is None.",
        "Does torch.version.hip return None for you?",
        "On my other machine torch.version.hip prints None, but here it is 6.1",
        "torch.version.hip used to print None, fixed it by reinstalling from the rocm6.2 index",
        "return torch.version.hip is None",
        "torch.version.hip == None",
        "When torch.version.hip returns None you have the CUDA build; mine prints 6.2.41133 and works.",
        "Tip: if torch.version.hip is None, you installed the wrong wheel.",
    ],
)
def test_code_a_negation_a_question_or_a_past_state_is_not_torch_version_hip_said_none(sentence: str) -> None:
    assert HIP_NONE not in signature_contexts(sentence)


def test_torch_version_hip_said_none_is_the_fact_the_repl_form_gives() -> None:
    said = ingest("RX 6800 on Ubuntu 22.04. torch.version.hip prints None\n").facts.torch.hip_version
    printed = ingest("RX 6800 on Ubuntu 22.04.\n>>> torch.version.hip\nNone\n").facts.torch.hip_version
    assert said.status == printed.status == "absent"


@pytest.mark.parametrize(
    "text",
    [
        "torch.version.hip returns None on my RX 6800, ubuntu 22.04",
        "RX 7900 XTX, rocm 6.2. print(torch.version.hip) -> None",
        "Is pytorch using ROCm? torch.version.hip is None and torch.version.cuda is 12.1. I have a 7900xtx.",
    ],
)
def test_a_short_amd_report_saying_hip_is_none_gets_the_not_a_rocm_build_error(text: str) -> None:
    assert problems_shown(text)[:1] == ["RD829"]


@pytest.mark.parametrize(
    "text",
    [
        "RTX 4090 on ubuntu. torch.version.hip prints None and torch.version.cuda prints 12.1, all fine",
        "RX 6800 on ubuntu. Before, torch.version.hip printed None; after reinstalling from the rocm6.2 index it prints 6.2.41133 and everything works",
        "RX 7900 XTX under ZLUDA on Windows: torch.version.hip is None, as expected with ZLUDA",
    ],
)
def test_hip_said_none_on_an_nvidia_machine_in_the_past_or_under_zluda_is_no_torch_build_error(text: str) -> None:
    assert "RD829" not in problems_shown(text)


@pytest.mark.parametrize(
    "sentence",
    [
        # LykosAI/StabilityMatrix#1669
        "Installs CUDA version for Stable Diffusion Webui Reforge for my Radeon 7600XT even if Rocm version is selected. Fails to start after becase 'no nvidia GPU found'.",
        "it stops with `no nvidia driver found`",
        "then it says ‘no NVIDIA GPU detected’",
    ],
)
def test_the_cuda_builds_error_retold_in_single_quotes_or_backticks_is_read(sentence: str) -> None:
    assert "nvidia_driver_named_by_user" in signature_errors(sentence)


def test_a_short_amd_report_retelling_no_nvidia_gpu_in_single_quotes_gets_a_torch_build_error() -> None:
    text = (
        "Installs CUDA version for Stable Diffusion Webui Reforge for my Radeon 7600XT even if Rocm version is selected. "
        "Fails to start after becase 'no nvidia GPU found'.\nUbuntu 24.04 LTS.\n"
    )
    assert problems_shown(text)[:1] == ["RD500"]


def test_the_nvidia_driver_too_old_message_shows_a_cuda_build() -> None:
    # pytorch/pytorch#126004: the message on an RX 7900 XTX
    text = (
        "i have issues with Cuda, and i'm running with AMD RX 7900XTX\nRuntimeError:\n"
        "The NVIDIA driver on your system is too old (found version 11010). Please update your GPU driver\n"
    )
    facts = ingest(text).facts
    assert facts.torch.flavour.value == "cuda"
    assert problems_shown(text)[:1] == ["RD100"]


def test_the_nvidia_driver_too_old_message_on_an_nvidia_machine_is_no_amd_finding() -> None:
    # lllyasviel/Fooocus#1313: an RTX 3050 with driver 470
    text = (
        "RuntimeError: The NVIDIA driver on your system is too old (found version 11040).\n"
        "Ubuntu 21.04\nNvidia GeForce RTX 3050 laptop GPU\n"
    )
    assert not [rule for rule in problems_shown(text) if rule in ("RD100", "RD500", "RD528")]


def test_a_hip_driver_version_in_the_too_old_message_implies_no_build() -> None:
    text = "RX 7900 XTX\nThe NVIDIA driver on your system is too old (found version 60140092).\n"
    assert ingest(text).facts.torch.flavour.status != "known"


NON_ROCM_INSTALL = "non_rocm_torch_install_told"


@pytest.mark.parametrize(
    "sentence",
    [
        # LykosAI/StabilityMatrix#1669
        "Installs CUDA version for Stable Diffusion Webui Reforge for my Radeon 7600XT even if Rocm version is selected.",
        # AUTOMATIC1111/stable-diffusion-webui#9402
        "i see the rocm index in the indexes, but then it tries to download nvidia's pytorch2.",
        # AUTOMATIC1111/stable-diffusion-webui#8808
        "It's installed the wrong `torch` because it's not managed to use the rocm index and just grabbed normal pytorch.",
        # AUTOMATIC1111/stable-diffusion-webui#6440
        "when I got into the webui.bat file it tries to download the nvidia version instead of using the AMD version I believe.",
        "The ComfyUI installer pulled the CUDA build, now it runs on CPU.",
        "the update downloaded the nvidia variant again",
        # AUTOMATIC1111/stable-diffusion-webui#14994
        "`torch` is in `requirements.txt`, so when it gets installed, it pulls in the generic one without ROCM support.",
        # SkafteNicki/dtu_mlops#499
        "we'll accidentally use the `torch` that `uv` installs on top of the image which does not have ROCm support enabled.",
        "The torch that the installer downloaded doesn't have HIP support.",
    ],
)
def test_an_install_of_a_non_rocm_torch_is_read_in_reporters_words(sentence: str) -> None:
    assert NON_ROCM_INSTALL in signature_contexts(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "I did not install the CUDA version, pip list shows 2.5.1+rocm6.2",
        "If you have an NVIDIA card, install the CUDA version; for AMD use the rocm index.",
        "I installed CUDA version 12.1 for another project",
        "Should I download the CUDA version?",
        "I installed the normal pytorch for ROCm from the rocm6.2 index and it works",
        "Before, the installer pulled the CUDA build; now it takes the rocm one",
        "a plain pip install would download the CUDA version by default",
        "I installed the cuda version of the toolkit",
        "When you download the CUDA version on an AMD card it falls back to the CPU.",
        # a GPU or system without ROCm support is the gfx question, not the torch build
        "I installed torch from the rocm6.2 index but my GPU does not have ROCm support.",
        "torch installed fine, the RX 580 card lacks ROCm support in 6.x",
        # what an install would do (ROCm/pytorch#1533's wording) and a negation
        "running pip install torchaudio would reinstall torch without ROCm support.",
        "the torch I installed is not without ROCm support, pip list shows +rocm6.2",
    ],
)
def test_a_negation_advice_a_toolkit_a_question_or_the_past_is_not_an_install_of_a_non_rocm_torch(sentence: str) -> None:
    assert NON_ROCM_INSTALL not in signature_contexts(sentence)


def test_a_short_amd_report_saying_the_installer_took_the_cuda_build_gets_the_install_finding() -> None:
    text = "Installs CUDA version for Stable Diffusion Webui Reforge for my Radeon 7600XT even if Rocm version is selected.\nUbuntu 24.04 LTS.\n"
    assert problems_shown(text)[:1] == ["RD540"]


def test_an_install_of_the_cuda_build_said_on_a_rocm_torch_report_is_no_install_finding() -> None:
    text = "RX 7600 on Mint. The installer pulled the CUDA build.\n>>> torch.__version__\n'2.5.1+rocm6.2'\n"
    assert "RD540" not in problems_shown(text)


@pytest.mark.parametrize(
    ("rows", "flavour"),
    [
        # meta-pytorch/data#315: the two variants of the pytorch channel's package
        ("pytorch                   1.11.0              py3.8_cpu_0    pytorch\npytorch-mutex             1.0                         cpu    pytorch\n", "cpu"),
        ("pytorch                   1.11.0          py3.8_cuda11.3_cudnn8.2.0_0    pytorch\npytorch-mutex             1.0                        cuda    pytorch\n", "cuda"),
        ("[conda] pytorch                   2.0.1           py3.10_cuda11.8_cudnn8.7.0_0    pytorch\n", "cuda"),
        ("pytorch-mutex             1.0                         cpu    pytorch\n", "cpu"),
    ],
)
def test_a_conda_list_row_names_the_build_of_conda_pytorch(rows: str, flavour: str) -> None:
    text = "RX 6800 XT on Ubuntu 22.04\n$ conda list | grep pytorch\n" + rows
    assert ingest(text).facts.torch.flavour.value == flavour


def test_a_conda_row_of_pips_torch_names_no_build() -> None:
    text = "RX 6800 XT on Ubuntu 22.04\n$ conda list | grep torch\ntorch                     2.5.1+rocm6.2            pypi_0    pypi\n"
    assert ingest(text).facts.torch.flavour.value == "rocm"


def test_the_imported_torch_outranks_a_conda_row_in_the_same_environment() -> None:
    text = (
        "PyTorch version: 2.0.1+rocm5.4.2\nIs debug build: False\nCUDA used to build PyTorch: N/A\n"
        "ROCM used to build PyTorch: 5.4.22803-474e8620\nIs CUDA available: True\n\nVersions of relevant libraries:\n"
        "[pip3] torch==2.0.1+rocm5.4.2\n[conda] pytorch                   2.0.1           py3.10_cuda11.8_cudnn8.7.0_0    pytorch\n"
    )
    assert ingest(text).facts.torch.flavour.value == "rocm"


def test_a_conda_cuda_pytorch_on_an_amd_machine_gets_the_cuda_build_error() -> None:
    text = "RX 6800 XT on Ubuntu 22.04\n$ conda list | grep pytorch\npytorch                   2.0.1           py3.10_cuda11.8_cudnn8.7.0_0    pytorch\n"
    assert problems_shown(text)[:1] == ["RD100"]


def test_a_requirements_install_then_the_gpu_said_not_detected_gets_the_replaced_torch_warning() -> None:
    text = "RX 7900 XTX, Ubuntu. I ran pip install -r requirements.txt and now the GPU is not detected\n"
    assert problems_shown(text)[:1] == ["RD900"]


def test_the_gpu_said_not_detected_without_a_requirements_install_is_no_replaced_torch_warning() -> None:
    text = "RX 7900 XTX, Ubuntu. I installed torch from the rocm6.2 index and now the GPU is not detected\n"
    assert "RD900" not in problems_shown(text)


def test_a_question_about_installing_the_cuda_build_is_no_retold_install() -> None:
    assert "cuda_torch_install_retold" not in signature_errors("RX 6800: Should I install the CUDA version of torch or the ROCm one?")
    assert "RD540" not in problems_shown("RX 6800: Should I install the CUDA version of torch or the ROCm one?")


@pytest.mark.parametrize(
    "text",
    [
        "RX 7900 XTX on Ubuntu 22.04. I installed the ROCm version, not the CUDA version of torch. torch.cuda.is_available() returns True",
        "RX 7900 XTX on Ubuntu 22.04. The webui would install the CUDA version of torch, so I preinstalled the ROCm one.",
    ],
)
def test_a_cuda_install_denied_or_given_as_what_would_happen_is_no_retold_install(text: str) -> None:
    assert "cuda_torch_install_retold" not in signature_errors(text)
    assert "RD540" not in problems_shown(text)


def test_the_retold_install_of_the_cuda_build_is_still_read_beside_an_example() -> None:
    sentence = "installing it causes uninstallation of PyTorch for ROCm and install PyTorch for CUDA (e.g., 2.3.1+cu121)"
    assert "cuda_torch_install_retold" in signature_errors(sentence)


def test_a_question_about_installing_the_cuda_build_is_no_cuda_packages_install() -> None:
    assert "cuda_packages_install_told" not in signature_contexts("RX 6800: Should I install the CUDA version of torch or the ROCm one?")



@pytest.mark.parametrize(
    "text",
    [
        # lllyasviel/Fooocus#3737's words, with the GPU named
        "RX 6600 on Windows 11. Fooocus runs into error while loading saying that it cant find NVIDIA driver.",
        # runew0lf/RuinedFooocus#121's words, with the GPU named
        "I have an RX 7800 XT and I can't fix the runtime error cause of missing nvidia driver.",
    ],
)
def test_the_nvidia_driver_error_retold_as_a_missing_driver_shows_a_cuda_build_on_amd(text: str) -> None:
    assert problems_shown(text)[:1] == ["RD500"]


@pytest.mark.parametrize(
    "text",
    [
        "I have an RTX 3060 and an RX 6600. The error says it can't find the nvidia driver since the update.",
        "I have an RX 7800 XT. I can't find the nvidia driver download page, but I don't need it anyway.",
        "RX 7800 XT on Ubuntu. My laptop is missing nvidia drivers because it has a Radeon.",
    ],
)
def test_an_nvidia_machine_or_the_reporters_own_words_about_drivers_is_no_cuda_build_finding(text: str) -> None:
    assert "RD500" not in problems_shown(text)
