"""A torch release printed by a tool without a local tag (2.4.0, not 2.4.0+rocm6.1) where PyTorch finds no
GPU: PyPI's build (CUDA on Linux, CPU on Windows), unless the torch may be a distribution's or conda's,
which print no tag either. Assertions are about context signatures, derived facts and rule ids, never
about wording.
"""

from __future__ import annotations

from typing import List

import pytest

from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.derived_facts.torch_install import UNTAGGED_PRINTED, untagged_torch_build
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

UNTAGGED = set(UNTAGGED_PRINTED)


def untagged_context(text: str) -> set:
    found = ingest_text(text).facts.symptoms.context
    return set(found.value or []) & UNTAGGED if found.is_known else set()


def rule_ids(text: str) -> List[str]:
    findings = evaluate(load_rules([], use_env=False), ingest_text(text).facts).findings
    return [f.id for f in findings if f.severity in ("error", "warning")]


@pytest.mark.parametrize(
    "printed",
    [
        "torch                    2.3.1\ntorchvision              0.18.1",  # pip list
        "torch==2.4.0\ntorchvision==0.19.0",  # pip freeze
        "PyTorch version: 2.4.0\nIs debug build: False",  # collect_env
        "Total VRAM 24560 MB, total RAM 64242 MB\npytorch version: 2.4.0",  # ComfyUI's start-up log
        "Successfully installed filelock-3.13.1 torch-2.4.0 torchvision-0.19.0",  # pip install
        "Requirement already satisfied: torch in ./venv/lib/python3.10/site-packages (2.7.1)",
        "Name: torch\nVersion: 2.5.1\nSummary: Tensors and Dynamic neural networks",  # pip show
        ">>> torch.__version__\n'2.4.0'",
        '$ python -c "import torch; print(torch.__version__, torch.cuda.is_available())"\n2.4.0 False',
    ],
)
def test_tool_output_of_an_untagged_release_is_recognised(printed: str) -> None:
    assert untagged_context(printed)


@pytest.mark.parametrize(
    "printed",
    [
        "torch                    2.4.0+rocm6.1",
        "torch==2.4.0+cu121",
        "PyTorch version: 2.1.0a0+git7ce932a",
        "PyTorch version: 2.1.0a0",
        "Successfully installed torch-2.0.1+rocm5.4.2 torchvision-0.15.2+rocm5.4.2",
        "Name: torch\nVersion: 2.6.0.dev20241014+rocm6.2",
        ">>> torch.__version__\n'2.4.0+rocm6.1'",
        "I run torch 2.4.0 on my RX 6800",
        "Found existing installation: torch 2.4.1",
        "ROCm 6.1\nTorch 2.4.0\nPython 3.10",  # versions typed in an issue template
        # rev49c: the same typed list aligned in columns; pip prints the name "torch" in lower case
        "OS          Ubuntu 22.04\nROCm        6.1\nTorch       2.4.0\nPython      3.10",
        "ROCm version: 6.1\nPyTorch version: 2.4.0\nPython version: 3.10",  # the same with the template's labels
        "--index-url https://download.pytorch.org/whl/rocm6.1\ntorch==2.4.0",  # a requirements file
    ],
)
def test_tagged_prerelease_or_retold_versions_are_not_read_as_untagged_output(printed: str) -> None:
    assert not untagged_context(printed)


LINUX_VENV = """RX 6800 on Ubuntu 22.04 with ROCm 6.1; torch does not see the GPU.
$ pip show torch
Name: torch
Version: 2.5.1
Location: /home/me/venv/lib/python3.10/site-packages
$ python -c "import torch; print(torch.cuda.is_available())"
False
"""


def test_untagged_pip_torch_on_linux_is_pypis_cuda_build_and_rd870_replaces_rd535() -> None:
    facts = ingest_text(LINUX_VENV).facts
    assert untagged_torch_build(facts, None).value == "cuda"
    ids = rule_ids(LINUX_VENV)
    assert "RD870" in ids and "RD535" not in ids


def test_untagged_torch_on_windows_is_pypis_cpu_build() -> None:
    text = LINUX_VENV.replace("Ubuntu 22.04", "Windows 11").replace(
        "/home/me/venv/lib/python3.10/site-packages", "C:\\Users\\me\\venv\\Lib\\site-packages"
    )
    assert untagged_torch_build(ingest_text(text).facts, None).value == "cpu"


@pytest.mark.parametrize(
    "change",
    [
        ("/home/me/venv/lib/python3.10/site-packages", "/usr/lib/python3.12/site-packages"),
        ("/home/me/venv/lib/python3.10/site-packages", "/home/me/miniconda3/envs/sd/lib/python3.10/site-packages"),
        ("/home/me/venv/lib/python3.10/site-packages", "/nix/store/abc-python3.12-torch-2.5.1/lib/python3.12/site-packages"),
        ("Version: 2.5.1", "Version: 2.5.1+rocm6.2"),
        ("Version: 2.5.1", "Version: 2.5.0a0"),
    ],
)
def test_a_torch_that_may_be_a_distribution_or_conda_package_or_is_tagged_is_not_called_pypis(change) -> None:
    text = LINUX_VENV.replace(*change)
    assert untagged_torch_build(ingest_text(text).facts, None).value is None
    assert "RD870" not in rule_ids(text)


def test_on_a_distribution_that_packages_torch_the_folder_must_show_a_pip_install() -> None:
    shown = "Arch Linux, RX 7900 XTX.\n$ pip list\ntorch        2.3.1\n>>> torch.cuda.is_available()\nFalse\n"
    assert not untagged_torch_build(ingest_text(shown).facts, None).is_known
    assert "RD870" not in rule_ids(shown)


def test_an_untagged_torch_that_finds_the_gpu_gets_no_finding_about_its_build() -> None:
    healthy = LINUX_VENV.replace('print(torch.cuda.is_available())"\nFalse', 'print(torch.cuda.is_available())"\nTrue')
    assert "RD870" not in rule_ids(healthy)


def test_a_rocm_tagged_torchvision_beside_the_untagged_torch_shows_a_pip_environment_on_arch() -> None:
    shown = (
        "Arch Linux, RX 7900 XTX.\n$ pip list\ntorch              2.4.0\ntorchvision        0.19.0+rocm6.1\n"
        ">>> torch.cuda.is_available()\nFalse\n"
    )
    assert untagged_torch_build(ingest_text(shown).facts, None).value == "cuda"


@pytest.mark.parametrize(
    "named",
    [
        "I installed python3-torch-rocm from apt.",
        "Arch's python-pytorch-opt-rocm package is installed.",
        "I built pytorch from source with PYTORCH_ROCM_ARCH=gfx1100.",
        "conda install pytorch torchvision -c conda-forge",
        "spack install py-torch+rocm",
    ],
)
def test_a_torch_named_as_not_pypis_build_is_not_called_pypis(named: str) -> None:
    # rev49c: a distribution's or conda's package or a source build prints a plain release whatever its build
    text = f"RX 7900 XTX, Ubuntu 24.04, ROCm 6.1. {named}\n$ pip list\ntorch                     2.4.0\nSegfault\n"
    assert not untagged_torch_build(ingest_text(text).facts, None).is_known
    assert "RD998" not in rule_ids(text)


def test_pip_installing_torch_in_a_conda_environment_is_still_pypis() -> None:
    text = "RX 7900 XTX, Ubuntu 22.04, ROCm 6.1. conda activate sd; pip install torch\n$ pip list\ntorch                     2.4.0\nSegfault\n"
    assert untagged_torch_build(ingest_text(text).facts, None).value == "cuda"
