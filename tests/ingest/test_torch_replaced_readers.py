"""Reports that show a requirements install replacing the ROCm torch, and torch then failing to use
the GPU (issue 23, the wrong-torch-build family): the shapes several real reports print
(rules/data/signatures.yaml names them on each row). Assertions are about signatures, context and
finding categories, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import report_contexts, serious_findings


@pytest.mark.parametrize(
    "line",
    [
        "$ pip install -r requirements.txt",
        "(venv) $ pip install --quiet -r requirements.txt",
        "$ python -m pip install -r requirements.txt",
        "python3.10 -m pip install --upgrade -r requirements_versions.txt",
        "pip3 install --requirement=requirements-dev.txt",
        "uv pip install -r ./ComfyUI/requirements.txt",
        'pip install -r "C:\\Program Files\\ComfyUI\\requirements.txt"',
        "Collecting comfyui-frontend-package==1.51.9 (from -r requirements.txt (line 1))",
    ],
)
def test_a_requirements_install_is_read_in_its_pip_and_uv_spellings(line: str) -> None:
    assert "requirements_install" in report_contexts(line)


@pytest.mark.parametrize(
    "line",
    [
        "pip install -r requirements.txt --index-url https://download.pytorch.org/whl/rocm6.2",
        "pip install torch torchvision --index-url https://download.pytorch.org/whl/rocm6.2",
        "see requirements.txt for the list",
    ],
)
def test_no_requirements_install_is_read_where_the_command_takes_a_rocm_index_or_none_runs(line: str) -> None:
    assert "requirements_install" not in report_contexts(line)


def test_a_traceback_cut_after_torch_cuda_lazy_init_says_the_gpu_could_not_be_initialised() -> None:
    text = (
        '  File "/home/u/app/.venv/lib/python3.10/site-packages/torch/cuda/__init__.py", line 410, in _lazy_init\n'
        "    torch._C._cuda_init()\n"
    )
    assert "torch_cuda_init_failed" in report_contexts(text)


def test_is_available_printed_with_false_on_the_next_line_is_read_as_no_gpu() -> None:
    text = "```\n$ python3 -c 'import torch; print(torch.cuda.is_available())'\nFalse\n```\n"
    assert "cuda_unavailable_printed" in report_contexts(text)


def test_is_available_printed_with_true_is_not_read_as_no_gpu() -> None:
    text = "```\n$ python3 -c 'import torch; print(torch.cuda.is_available())'\nTrue\n```\n"
    assert "cuda_unavailable_printed" not in report_contexts(text)


@pytest.mark.parametrize(
    "session",
    [
        ">>> print(torch.cuda.is_available())\nTrue\n>>> print(torch.backends.mps.is_available())\nFalse\n",
        ">>> print(torch.cuda.is_available())\nTrue\n>>> print(torch.cuda.is_bf16_supported())\nFalse\n",
        "$ python3 -c 'import torch; print(torch.cuda.is_available()); print(torch.cuda.is_bf16_supported())'\nTrue\nFalse\n",
    ],
)
def test_a_false_printed_by_another_call_than_is_available_is_not_read_as_no_gpu(session: str) -> None:
    assert "cuda_unavailable_printed" not in report_contexts("```\n" + session + "```\n")


def test_is_available_printed_false_after_another_output_line_is_read_as_no_gpu() -> None:
    text = "```\n$ python3 -c 'import torch; print(torch.__version__); print(torch.cuda.is_available())'\n2.5.1+cu124\nFalse\n```\n"
    assert "cuda_unavailable_printed" in report_contexts(text)


REQUIREMENTS_THEN_NO_GPU = (
    "I'm on an AMD Radeon card with ROCm 6.2.\n"
    "```\n"
    "$ python3 -m venv venv\n"
    "$ source venv/bin/activate\n"
    "(venv) $ pip install -r requirements.txt\n"
    "(venv) $ python3 -c 'import torch; print(torch.cuda.is_available())'\n"
    "False\n"
    "```\n"
)


def test_a_requirements_install_then_no_gpu_on_an_amd_report_gets_a_torch_build_warning() -> None:
    assert ("RD900", "warning", "torch-build") in serious_findings(REQUIREMENTS_THEN_NO_GPU)


def test_a_requirements_install_with_a_rocm_torch_shown_gets_no_torch_build_warning() -> None:
    text = REQUIREMENTS_THEN_NO_GPU.replace("False\n", "False\n>>> torch.__version__\n'2.5.1+rocm6.2'\n")
    assert "RD900" not in [finding[0] for finding in serious_findings(text)]


def test_a_requirements_install_on_a_machine_with_an_nvidia_gpu_gets_no_torch_build_warning() -> None:
    # a Ryzen's iGPU makes the report AMD's, but the NVIDIA GPU shown may be the one meant: no ROCm build to replace
    text = (
        "CPU: AMD Ryzen 9 7950X 16-Core Processor\n"
        "```\n$ pip install -r requirements.txt\n$ python -c \"import torch; print(torch.cuda.is_available())\"\nFalse\n```\n\n"
        "```\nPyTorch version: 2.5.1\nROCM used to build PyTorch: N/A\nOS: Ubuntu 22.04.4 LTS (x86_64)\n"
        "GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4090\nNvidia driver version: 550.54.14\n```\n"
    )
    assert "RD900" not in [finding[0] for finding in serious_findings(text)]
