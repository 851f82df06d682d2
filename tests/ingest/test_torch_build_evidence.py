"""What a report shows about the torch build without printing it (issue 23, classes
cuda_wheel_on_amd and package_mismatch): NVIDIA's CUDA packages an install brings, in pip's and uv's
lines and in reporters' words, and companions of another nightly than torch. Sources are on the
rows of rules/data/signatures.yaml and the rules in rules/torch_evidence.yaml; assertions are about
context ids and finding categories, never wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, report_contexts, serious_findings

from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

AMD = "RX 7900 XTX on Ubuntu 22.04 with ROCm 6.2.\n"


@pytest.mark.parametrize(
    "line",
    [
        "Collecting nvidia-cudnn-cu12==9.1.0.70 (from torch)",
        "  Downloading nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl (664.8 MB)",
        "  Using cached nvidia_cublas_cu12-12.1.3.1-py3-none-manylinux1_x86_64.whl (410.6 MB)",
        "Successfully installed filelock-3.13.1 nvidia-cublas-cu12-12.1.3.1 nvidia-nccl-cu12-2.20.5 torch-2.3.1",
        " + nvidia-cuda-runtime-cu12==12.4.127",
        "Requirement already satisfied: nvidia-nvjitlink-cu12 in ./venv/lib/python3.10/site-packages (from nvidia-cusolver-cu12==11.4.5.107->torch) (12.5.82)",
        "Installing collected packages: nvidia-cuda-nvrtc-cu11, nvidia-cudnn-cu11, torch",
        "StableSwarm will install CUDA-libraries and once everything is installed it fails",
        "even with the AMD option it will always download the Nvidia components of pytorch.",
        "Updating ComfyUI installs Nvidia packages and then it fails.",
        "In the current main state it grabs Torch CUDA, Triton, etc.",
        "When updating ComfyUI with an AMD card, it switches to CUDA instead of ROCM, and then fails",
        # learn54d: the vendor in two words, the stack as a whole, a demonstrative (mergekit#182, amd/gaia#2973,
        # absadiki/subsai#157), and "would" only after the install, as the reporter's aside
        "Mergekit seems to install NVIDIA CUDA dependencies no matter if you are on NVIDIA or a AMD card, however, that would really be great",
        "pip install amd-gaia unconditionally pulls in the full NVIDIA CUDA/torch stack",
        "it took a lot of time to install, partly because it was downloading all those `nvidia_` libraries.",
    ],
)
def test_an_install_of_nvidia_cuda_packages_is_read_in_pip_uv_and_reporters_words(line: str) -> None:
    assert "cuda_packages_install_told" in report_contexts(line)


@pytest.mark.parametrize(
    "line",
    [
        "Successfully uninstalled nvidia-cudnn-cu12-9.1.0.70",
        "  Found existing installation: nvidia-cublas-cu12 12.1.3.1",
        "pip uninstall -y nvidia-cudnn-cu12 nvidia-cublas-cu12",
        " - nvidia-cudnn-cu12==9.1.0.70",
        "I removed nvidia-cudnn-cu12 and reinstalled torch from the ROCm index",
        "I did not install nvidia packages, only the ROCm wheels.",
        "My old NVIDIA card used CUDA; now I have an AMD one.",
        "Instead of installing the cuda packages I used the rocm6.2 index.",
        "I made sure to avoid installing the nvidia packages.",
        "No need to install the nvidia packages on AMD.",
        "Without installing the cuda libraries, it works.",
        "I know a plain pip install torch installs the CUDA version of torch, so I used the rocm6.2 index.",
        "By default pip downloads the cuda torch, that's why I used the rocm index.",
        "Otherwise it would install the cuda libraries.",
        "to prevent it from installing the cuda packages",
        "otherwise pip will install the CUDA version of pytorch",
        # a document's instruction, or one for NVIDIA hardware
        "The guide says to install the CUDA version of torch for NVIDIA cards. I used rocm6.2.",
        "The README tells you to install the cuda packages first.",
        # "would" before the install says what it would do (learn54d)
        "pip would then download the CUDA torch for you.",
        "Otherwise it would pull in the full NVIDIA CUDA stack.",
        "You don't need to install all those nvidia libraries on AMD.",
        "I did not install the NVIDIA CUDA libraries.",
        # rev54d: NVIDIA hardware named with "my", a changelog's "no longer", the past's "used to"
        "the installer pulls in NVIDIA CUDA deps on my NVIDIA box",
        "Changelog: no longer installs NVIDIA CUDA dependencies on AMD.",
        "v0.24: the installer no longer pulls in the full NVIDIA CUDA stack on AMD hardware.",
        "Before the update it used to install all those nvidia libraries; now it installs the ROCm torch.",
    ],
)
def test_removing_or_denying_nvidia_packages_is_not_an_install_of_them(line: str) -> None:
    assert "cuda_packages_install_told" not in report_contexts(line)


@pytest.mark.parametrize(
    "line",
    [
        "If you are on nvidia it will install the cuda packages.",
        "If you're on NVIDIA, it installs the CUDA packages; on AMD it picks ROCm.",
        "On nvidia the installer will install the cuda packages.",
        "NVIDIA users: the script installs the CUDA packages.",
        "Users with an NVIDIA card get the cuda packages; it installs the cuda libraries for them.",
        "You should use the ROCm build; don't let it install the cuda packages.",
    ],
)
def test_what_an_install_does_on_nvidia_hardware_or_must_not_do_is_not_an_install_here(line: str) -> None:
    assert "cuda_packages_install_told" not in report_contexts(AMD + line)


@pytest.mark.parametrize(
    "line",
    [
        "The AMD option of the installer installs the cuda packages anyway.",
        "It installs the NVIDIA libraries even though I chose AMD.",
        "It downloads the nvidia packages whether I am on NVIDIA or AMD.",
    ],
)
def test_an_install_of_nvidia_packages_on_this_amd_machine_is_still_read(line: str) -> None:
    assert "cuda_packages_install_told" in report_contexts(AMD + line)


def test_an_install_log_that_brings_cuda_runtime_wheels_on_amd_is_a_torch_build_problem() -> None:
    log = AMD + (
        "Collecting torch\n"
        "Collecting nvidia-cudnn-cu12==9.1.0.70 (from torch)\n"
        "Successfully installed nvidia-cublas-cu12-12.1.3.1 nvidia-cudnn-cu12-9.1.0.70 torch-2.3.1\n"
    )
    assert ("RD760", "warning", "torch-build") in serious_findings(log)


def test_cuda_runtime_wheels_beside_a_rocm_torch_shown_now_are_not_called_its_build() -> None:
    log = AMD + "Successfully installed nvidia-nccl-cu12-2.20.5 torch-2.5.1+rocm6.2\n"
    assert not any(found[0] == "RD760" for found in serious_findings(log))


def test_companions_of_another_nightly_date_than_torch_are_a_packages_problem() -> None:
    listing = AMD + "torch==2.9.0a0+rocm7.0.0rc20250812\ntorchvision==0.24.0a0+rocm7.0.0rc20250815\n"
    assert ("RD761", "warning", "packages") in serious_findings(listing)


def test_companions_of_the_same_nightly_date_are_not_flagged() -> None:
    listing = AMD + "torch==2.6.0.dev20241014+rocm6.2\ntorchvision==0.20.0.dev20241014+rocm6.2\n"
    assert not any(found[0] == "RD761" for found in serious_findings(listing))


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/rocm6.0", True),
        ("Looking in indexes: https://download.pytorch.org/whl/nightly/rocm6.2, https://pypi.org/simple", True),
        ("Looking in indexes: https://pypi.tuna.tsinghua.edu.cn/simple, https://download.pytorch.org/whl/rocm5.4.2", True),
        ("Looking in indexes: https://download.pytorch.org/whl/rocm6.3", False),
        ("Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cu121", False),
        ("Looking in indexes: https://download.pytorch.org/whl/rocm6.3, https://repo.radeon.com/rocm/manylinux/rocm-rel-6.3/", False),
    ],
)
def test_pips_list_of_indexes_tells_a_rocm_index_searched_beside_another(line: str, read: bool) -> None:
    assert ("pip_searched_another_index_beside_rocm" in report_contexts(line + "\nCollecting torch\n")) is read


@pytest.mark.parametrize(
    "after",
    [
        "Collecting einops\n  Downloading einops-0.8.0-py3-none-any.whl (43 kB)\nSuccessfully installed einops-0.8.0\n",
        "Collecting torchsde\nRequirement already satisfied: pytorch-triton-rocm in ./venv/lib/python3.10/site-packages\n",
    ],
)
def test_two_indexes_searched_for_an_install_that_does_not_touch_torch_are_not_read(after: str) -> None:
    log = AMD + "Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/rocm6.2\n" + after
    assert "pip_searched_another_index_beside_rocm" not in report_contexts(log)
    assert not any(found[0] == "RD762" for found in serious_findings(log))


def test_a_log_where_pip_searched_pypi_beside_rocm_and_fetched_no_rocm_torch_is_a_torch_build_problem() -> None:
    log = AMD + "Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/rocm6.0\nCollecting torch\n"
    assert ("RD762", "warning", "torch-build") in serious_findings(log)


def test_a_rocm_index_pip_searched_beside_another_is_no_evidence_of_a_rocm_torch() -> None:
    log = AMD + "Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/rocm6.0\nCollecting torch\n"
    assert ingest(log).facts.torch.flavour.value != "rocm"


def test_a_rocm_index_pip_searched_alone_still_tells_the_rocm_build() -> None:
    log = AMD + "Looking in indexes: https://download.pytorch.org/whl/rocm6.2\nCollecting torch\n"
    assert ingest(log).facts.torch.flavour.value == "rocm"


KEPT = (
    "$ pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/rocm6.3\n"
    "Looking in indexes: https://download.pytorch.org/whl/rocm6.3\n"
    "Requirement already satisfied: torch in /home/me/comfyvenv/lib/python3.13/site-packages (2.7.1)\n"
    "Requirement already satisfied: torchvision in /home/me/comfyvenv/lib/python3.13/site-packages (0.22.1)\n"
)


def test_an_install_that_kept_pypis_torch_but_fetched_a_companion_is_not_said_to_have_installed_nothing() -> None:
    log = AMD + KEPT + "Collecting torchaudio\n  Downloading https://download.pytorch.org/whl/rocm6.3/torchaudio-2.7.1%2Brocm6.3-cp313-cp313-linux_x86_64.whl (1.6 MB)\n"
    findings = evaluate(load_rules([], use_env=False), ingest_text(log).facts).findings
    message = next(f.message for f in findings if f.id == "RD763")
    assert "installed nothing" not in message


def test_an_install_from_the_rocm_index_that_kept_pypis_torch_is_a_torch_build_problem() -> None:
    facts = ingest(AMD + KEPT).facts
    assert "rocm_install_kept_other_torch" in report_contexts(AMD + KEPT)
    assert facts.torch.flavour.value != "rocm"
    assert ("RD763", "warning", "torch-build") in serious_findings(AMD + KEPT)


@pytest.mark.parametrize(
    "log",
    [
        # the ROCm build is what pip kept
        KEPT.replace("(2.7.1)\n", "(2.7.1+rocm6.3)\n", 1),
        # a distribution's ROCm torch seen through --system-site-packages carries no tag
        KEPT.replace("/home/me/comfyvenv/lib/python3.13/site-packages (2.7.1)", "/usr/lib/python3.13/site-packages (2.7.1)", 1),
        # PyPI searched too: RD762 and RD502 judge that
        KEPT.replace("--index-url", "--extra-index-url").replace("indexes: ", "indexes: https://pypi.org/simple, "),
    ],
)
def test_a_kept_rocm_or_distribution_torch_is_not_called_a_kept_other_build(log: str) -> None:
    assert "rocm_install_kept_other_torch" not in report_contexts(AMD + log)


PIP_SHOW = (
    "$ pip show torch torchaudio\n"
    "Name: torch\n"
    "Version: {torch}\n"
    "Summary: Tensors and Dynamic neural networks in Python with strong GPU acceleration\n"
    "Home-page: https://pytorch.org/\n"
    "Location: {location}\n"
    "Requires: filelock, jinja2, {requires}sympy\n"
    "Required-by: torchaudio\n"
    "---\n"
    "Name: torchaudio\n"
    "Version: {audio}\n"
    "Summary: An audio package for PyTorch\n"
)


def test_pip_show_gives_torch_its_version_location_and_companions() -> None:
    text = PIP_SHOW.format(torch="2.7.1+rocm6.3", location="/home/me/.local/lib/python3.12/site-packages", requires="", audio="2.8.0+rocm6.3")
    facts = ingest(AMD + text).facts
    assert facts.torch.version.value == "2.7.1+rocm6.3"
    assert facts.torch.flavour.value == "rocm"
    assert facts.torch.location.value == "/home/me/.local/lib/python3.12/site-packages"
    assert facts.torch.torchaudio_version.value == "2.8.0+rocm6.3"
    assert ("RD144", "warning", "packages") in serious_findings(AMD + text)


def test_a_torch_that_requires_nvidia_runtime_wheels_is_a_cuda_build() -> None:
    text = PIP_SHOW.format(torch="2.5.1", location="/home/me/venv/lib/python3.10/site-packages", requires="nvidia-cublas-cu12, nvidia-cudnn-cu12, ", audio="2.5.1")
    assert ingest(AMD + text).facts.torch.flavour.value == "cuda"
    assert any(found[2] == "torch-build" and found[1] == "error" for found in serious_findings(AMD + text))


def test_an_untagged_torch_without_nvidia_requirements_is_not_given_a_build() -> None:
    text = PIP_SHOW.format(torch="2.2.0", location="/usr/lib/python3.11/site-packages", requires="", audio="2.2.0")
    facts = ingest(AMD + text).facts
    assert facts.torch.version.value == "2.2.0"
    assert facts.torch.flavour.value != "cuda"


def test_a_name_field_without_pips_version_line_is_not_a_pip_show_record() -> None:
    text = "  Name:                    gfx1100\n  Uuid:                    GPU-1234\n  Version: 1.1\n"
    assert ingest(AMD + text).facts.torch.version.value is None


REQUIREMENTS_LOG = (
    "(3.12.venv) $ pip install -r D:\\projects\\ComfyUI\\requirements.txt\n"
    "Requirement already satisfied: torch in d:\\venv\\lib\\site-packages (from -r requirements.txt (line 4)) (2.9.0a0+rocm7.0.0rc20250820)\n"
    "Collecting torchvision (from -r requirements.txt (line 6))\n"
    "  Using cached {wheel}.metadata (6.1 kB)\n"
)


@pytest.mark.parametrize(
    ("wheel", "read"),
    [
        ("torchvision-0.23.0-cp312-cp312-win_amd64.whl", True),
        ("https://download.pytorch.org/whl/cu121/torchvision-0.18.1%2Bcu121-cp312-cp312-win_amd64.whl", True),
        ("torchvision-0.24.0a0%2Brocm7.0.0rc20250820-cp312-cp312-win_amd64.whl", False),
        ("https://download.pytorch.org/whl/rocm6.2/torchvision-0.20.1%2Brocm6.2-cp312-cp312-linux_x86_64.whl", False),
    ],
)
def test_a_fetched_companion_that_is_not_a_rocm_build_is_read(wheel: str, read: bool) -> None:
    assert ("companion_wheel_not_rocm_fetched" in report_contexts(REQUIREMENTS_LOG.format(wheel=wheel))) is read


def test_pypis_torchvision_fetched_beside_a_rocm_torch_is_a_packages_problem() -> None:
    log = REQUIREMENTS_LOG.format(wheel="torchvision-0.23.0-cp312-cp312-win_amd64.whl")
    assert ("RD764", "warning", "packages") in serious_findings(log)


def test_a_torch_pip_installed_without_a_local_tag_is_not_refined_into_an_earlier_rocm_mention() -> None:
    text = (
        "RX 7900 XTX, Ubuntu 22.04. I installed torch 2.3.1+rocm6.0 from the ROCm index and it worked.\n"
        "Then I installed a custom node's requirements:\n"
        "```\n$ pip install -r requirements.txt\nSuccessfully installed einops-0.8.0 torch-2.3.1 torchvision-0.18.1\n```\n"
    )
    torch = ingest(text).facts.torch
    assert torch.version.value == "2.3.1"
    assert torch.flavour.value != "rocm"


@pytest.mark.parametrize(
    "text",
    [
        # prose shorthand beside a prose tag: the same torch, said more exactly
        "RX 7900 XTX. I use torch 2.3.1; it is 2.3.1+rocm6.0 from the ROCm index.\n",
        # the tool prints the tag itself
        "RX 7900 XTX. I use torch 2.3.1.\nSuccessfully installed torch-2.3.1+rocm6.0\n",
    ],
)
def test_a_rocm_tag_that_refines_a_loose_or_agrees_with_an_exact_version_is_kept(text: str) -> None:
    torch = ingest(text).facts.torch
    assert torch.version.value == "2.3.1+rocm6.0"
    assert torch.flavour.value == "rocm"


@pytest.mark.parametrize("package", ["nvidia-curand-cu12", "nvidia-nvtx-cu12", "nvidia-cuda-cupti-cu12", "nvidia-cublas-cu12"])
def test_every_nvidia_runtime_wheel_a_cuda_torch_requires_counts_in_an_installed_list(package: str) -> None:
    # One list of NVIDIA's runtime wheels serves the pip show reader and the installed-list fact.
    from rocm_doctor.pipeline import derive

    listing = f"```\nPackage    Version\n---------- -------\n{package} 12.1.0.106\nfilelock   3.13.1\n```\n"
    found = derive(ingest_text(AMD + listing).facts).machine("derived.nvidia_cuda_packages")
    assert found.is_known and found.value == [package]


def test_a_working_zluda_setup_gets_no_cuda_build_error() -> None:
    # ZLUDA runs PyTorch's CUDA build on the AMD GPU on purpose: the device name says so, and
    # "it cannot use the AMD GPU" would be false (found by the session's second reader).
    report = (
        "ZLUDA setup on Windows 11, RX 6800 XT\n>>> import torch\n>>> torch.__version__\n'2.3.0+cu118'\n"
        ">>> torch.cuda.get_device_name(0)\n'AMD Radeon RX 6800 XT [ZLUDA]'\n>>> torch.cuda.is_available()\nTrue\n"
    )
    assert not {"RD100", "RD528"} & set(problems_shown(report))


@pytest.mark.parametrize(
    "text",
    [
        "Should I run\npip install https://download.pytorch.org/whl/cu121/torch-2.3.0%2Bcu121-cp311-cp311-linux_x86_64.whl\nor the rocm one?",
        "If you have an NVIDIA card, run:\npip install torch==2.3.0+cu121 --index-url https://download.pytorch.org/whl/cu121",
        "Would it help to run pip install https://download.pytorch.org/whl/cu121/torch-2.3.0%2Bcu121-cp311-cp311-linux_x86_64.whl",
        "pip install torch==2.3.0+cu121 --index-url https://download.pytorch.org/whl/cu121\nWould that work on my AMD card?",
        "pip install torch==2.3.0+cu121 --index-url https://download.pytorch.org/whl/cu121\nIs this the right command?",
    ],
    ids=["question-around-the-command", "readme-advice", "question-on-the-line", "would-that-work-after", "is-this-right-after"],
)
def test_an_install_command_asked_about_or_advised_does_not_say_the_torch_in_use(text: str) -> None:
    facts = ingest(AMD + text).facts
    assert facts.torch.flavour.status != "known"
    assert "torch-build" not in [category for _, _, category in serious_findings(AMD + text)]


def test_an_install_command_that_was_run_still_says_the_torch_build() -> None:
    text = "I ran\npip install https://download.pytorch.org/whl/cu121/torch-2.3.0%2Bcu121-cp311-cp311-linux_x86_64.whl\nand now the GPU is not found"
    assert ingest(AMD + text).facts.torch.flavour.value == "cuda"


@pytest.mark.parametrize(
    "log",
    [
        "Downloading torch-2.4.0-cp310-cp310-manylinux1_x86_64.whl (797.2 MB)\n",
        "  Using cached torch-2.6.0-cp312-cp312-manylinux1_x86_64.whl.metadata (28 kB)\n",
    ],
    ids=["wheel", "metadata"],
)
def test_a_pypi_linux_wheel_fetched_on_an_amd_machine_that_finds_no_gpu_is_a_torch_build_problem(log: str) -> None:
    text = AMD + "torch.cuda.is_available() returns False.\n" + log
    assert "RD827" in problems_shown(text)
    assert "torch_wheel_not_rocm_fetched" in report_contexts(text)


def test_a_pypi_wheel_fetched_beside_an_nvidia_gpu_is_no_torch_build_finding() -> None:
    text = "RTX 3090 on Ubuntu 22.04, torch.cuda.is_available() returns False.\nDownloading torch-2.4.0-cp310-cp310-manylinux1_x86_64.whl (797.2 MB)\n"
    assert "torch-build" not in [category for _, _, category in serious_findings(text)]


def test_an_untagged_macos_wheel_is_not_read_as_a_build_that_is_not_rocm() -> None:
    text = "RX 6800 on a Mac Pro with macOS 13.\nCollecting torch\n  Downloading torch-2.4.0-cp312-none-macosx_11_0_arm64.whl (62.1 MB)\n"
    assert "torch_wheel_not_rocm_fetched" not in report_contexts(text)


@pytest.mark.parametrize(
    ("text", "flavour"),
    [
        ("I ran:\npip install torch==2.3.1+rocm6.0 --index-url https://download.pytorch.org/whl/rocm6.0\nAny ideas?", "rocm"),
        ("I installed with\npip install torch==2.3.1+cu121 --index-url https://download.pytorch.org/whl/cu121\nWhy is it not using the GPU?", "cuda"),
        ("For reference, this is how I installed it:\npip install torch==2.3.1+rocm6.0 --index-url https://download.pytorch.org/whl/rocm6.0", "rocm"),
        ("For completeness, I installed it like this:\npip install torch==2.3.1+cu121 --index-url https://download.pytorch.org/whl/cu121", "cuda"),
        ("In case it matters:\npip install torch==2.3.1+cu121 --index-url https://download.pytorch.org/whl/cu121", "cuda"),
        ("For context:\npip install torch==2.3.1+rocm6.0 --index-url https://download.pytorch.org/whl/rocm6.0", "rocm"),
        ("If it helps, the install command was:\npip install torch==2.3.1+cu121 --index-url https://download.pytorch.org/whl/cu121", "cuda"),
    ],
    ids=[
        "question-of-its-own-after", "why-question-after", "how-i-installed-it-before", "for-completeness-i-installed-before",
        "in-case-it-matters-before", "for-context-before", "if-it-helps-before",
    ],
)
def test_an_install_command_the_author_says_was_run_says_the_torch_build(text: str, flavour: str) -> None:
    assert ingest(AMD + text).facts.torch.flavour.value == flavour


INDEX_LINE = "pip install torch torchvision --index-url https://download.pytorch.org/whl/rocm6.0\n"


@pytest.mark.parametrize(
    "after",
    [
        # the reporter's words, on the index's line or after it (LykosAI/StabilityMatrix#1132)
        "I used the ROCm index https://download.pytorch.org/whl/rocm6.0, but it still downloads the CUDA version of torch.\n",
        INDEX_LINE + "It always downloads the Nvidia components of pytorch.\n",
        # pip's own lines: NVIDIA's cu12 runtime wheels only PyPI's CUDA torch depends on
        INDEX_LINE + "Collecting nvidia-cudnn-cu12==9.1.0.70 (from torch)\n",
    ],
)
def test_a_rocm_index_followed_by_a_non_rocm_install_does_not_say_the_torch_is_rocm(after: str) -> None:
    report = AMD + after
    assert ingest(report).facts.torch.flavour.value != "rocm"
    assert {"RD540", "RD760"} & {finding[0] for finding in serious_findings(report)}


@pytest.mark.parametrize(
    "report",
    [
        # the CUDA install came first; the ROCm index is what replaced it
        "It installed the CUDA version of torch, so I reinstalled it:\n" + INDEX_LINE,
        # nothing told about what came after the index
        INDEX_LINE + "The web UI starts.\n",
        # a CUDA install denied
        INDEX_LINE + "It did not install the CUDA version of torch.\n",
        # a CUDA install told after the index, but of the past or of another machine (r37b)
        INDEX_LINE + "Before that, the webui had installed the CUDA version of torch.\n",
        INDEX_LINE + "Previously it installed the CUDA version of torch.\n",
        INDEX_LINE + "On my other machine with an RTX 3090 I installed the CUDA version of torch.\n",
    ],
)
def test_a_rocm_index_without_a_non_rocm_install_after_it_still_tells_the_rocm_build(report: str) -> None:
    assert ingest(AMD + report).facts.torch.flavour.value == "rocm"
