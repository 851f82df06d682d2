"""Commands that install nothing (``pip download``/``wheel``, ``pip install --dry-run``, ``pip index versions``,
``uv pip compile``/``pip-compile``) name torch builds that are candidates, not the torch installed: beside a ROCm torch
they must not make the report's torch a CUDA build (RD100/RD528 misfired on them). A real install still counts."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

from rocm_doctor.ingest.formats.install_log import not_installing_lines
from ingest_helpers import block

HEAD = "Ubuntu 22.04, RX 7900 XTX, ROCm 6.1. torch 2.3.0+rocm6.0 works.\n\n"
CU = "https://download.pytorch.org/whl/cu121"
WHEEL = "torch-2.3.0%2Bcu121-cp310-cp310-linux_x86_64.whl"

NOT_INSTALLING = {
    "pip-download": (
        f"$ pip download torch==2.3.0 --index-url {CU} -d wheels/\nCollecting torch==2.3.0\n"
        f"  Downloading {CU}/{WHEEL} (781.0 MB)\nSaved ./wheels/torch-2.3.0+cu121-cp310-cp310-linux_x86_64.whl\n"
        "Successfully downloaded torch\n"
    ),
    "pip-download-output-only": (
        f"Looking in indexes: {CU}\nCollecting torch\n  Downloading {CU}/{WHEEL} (781.0 MB)\n"
        "Saved ./torch-2.3.0+cu121-cp310-cp310-linux_x86_64.whl\nSuccessfully downloaded torch\n"
    ),
    "pip-dry-run": f"$ pip install --dry-run torch --index-url {CU}\nCollecting torch\n  Downloading {CU}/{WHEEL} (781.0 MB)\nWould install torch-2.3.0+cu121 triton-2.3.0\n",
    "pip-dry-run-report": f"$ python -m pip install --dry-run --report report.json torch --index-url {CU}\nWould install torch-2.3.0+cu121\n",
    "would-install-alone": "Would install nvidia-cublas-cu12-12.1.3.1 torch-2.3.0+cu121 triton-2.3.0\n",
    "uv-dry-run": f"$ uv pip install --dry-run torch --index-url {CU}\nResolved 1 package in 0.5s\nWould download 1 package\nWould install 1 package\n + torch==2.3.0+cu121\n",
    "pip-index-versions": f"$ pip index versions torch --index-url {CU}\ntorch (2.3.0+cu121)\nAvailable versions: 2.3.0+cu121, 2.2.2+cu121\n",
    "uv-pip-compile": f"$ uv pip compile requirements.in --index-url {CU} -o requirements.txt\nResolved 12 packages in 1.2s\ntorch==2.3.0+cu121\n    # via -r requirements.in\n",
    "pip-wheel": f"pip wheel torch==2.3.0 --index-url {CU} -w wheels\nSaved ./wheels/torch-2.3.0+cu121-cp310-cp310-linux_x86_64.whl\n",
}

INSTALLING = {
    "pip-install-cu121": f"$ pip install torch --index-url {CU}\nCollecting torch\n  Downloading {CU}/{WHEEL} (781.0 MB)\nSuccessfully installed torch-2.3.0+cu121 triton-2.3.0\n",
    "pip-install-report-without-dry-run": f"$ pip install --report install.json torch --index-url {CU}\nSuccessfully installed torch-2.3.0+cu121\n",
    "uv-install": f"$ uv pip install torch --index-url {CU}\nResolved 1 package in 0.5s\nInstalled 1 package in 1.2s\n + torch==2.3.0+cu121\n",
    "download-then-install": (
        f"pip download torch==2.3.0 --index-url {CU} -d wheels/\nSaved ./wheels/torch-2.3.0+cu121-cp310-cp310-linux_x86_64.whl\n"
        "Successfully downloaded torch\npip install wheels/torch-2.3.0+cu121-cp310-cp310-linux_x86_64.whl\n"
        "Processing ./wheels/torch-2.3.0+cu121-cp310-cp310-linux_x86_64.whl\nSuccessfully installed torch-2.3.0+cu121\n"
    ),
    # rev55pb: the output of a command that installs nothing ends at a line only an install prints, or at a command
    # run by its path, even without a blank line between them
    "dry-run-then-real-install-no-blank": (
        f"$ pip install --dry-run torch --index-url {CU}\nWould install torch-2.3.0+cu121\nthen ran it without --dry-run:\n"
        "Successfully installed torch-2.3.0+cu121\n"
    ),
    "download-then-install-by-venv-path": (
        f"pip download torch==2.3.0 --index-url {CU} -d wheels\nSaved ./wheels/torch-2.3.0+cu121-cp310-cp310-linux_x86_64.whl\n"
        "./venv/bin/pip install wheels/torch-2.3.0+cu121-cp310-cp310-linux_x86_64.whl\nInstalling collected packages: torch\n"
        "Successfully installed torch-2.3.0+cu121\n"
    ),
}


@pytest.mark.parametrize("log", list(NOT_INSTALLING.values()), ids=list(NOT_INSTALLING))
def test_a_command_that_installs_nothing_leaves_the_rocm_torch_the_one_installed(log: str) -> None:
    torch = ingest(HEAD + log).facts.torch
    assert torch.flavour.value == "rocm"
    assert torch.version.value == "2.3.0+rocm6.0"


@pytest.mark.parametrize("log", list(NOT_INSTALLING.values()), ids=list(NOT_INSTALLING))
def test_a_command_that_installs_nothing_gives_no_cuda_build_without_another_torch_named(log: str) -> None:
    head = "Ubuntu 22.04, RX 7900 XTX, ROCm 6.1. My torch is the ROCm build and works.\n\n"
    assert ingest(head + log).facts.torch.flavour.value != "cuda"


@pytest.mark.parametrize("log", list(INSTALLING.values()), ids=list(INSTALLING))
def test_a_real_install_of_a_cuda_torch_is_still_the_torch_installed(log: str) -> None:
    torch = ingest("Ubuntu 22.04, RX 7900 XTX, ROCm 6.1.\n\n" + log).facts.torch
    assert torch.flavour.value == "cuda"
    assert torch.version.value == "2.3.0+cu121"


def test_pip_index_versions_installed_line_is_still_read() -> None:
    text = f"pip index versions torch --index-url {CU}\ntorch (2.3.0+cu121)\nAvailable versions: 2.3.0+cu121\n  INSTALLED: 2.3.0+rocm6.0\n"
    found = not_installing_lines(block(text))
    assert found == {1, 2, 3}


def test_a_download_mentioned_in_prose_is_not_a_command() -> None:
    assert not_installing_lines(block("I used pip download to fetch torch 2.3.0+rocm6.0 and installed it offline.\n")) == set()


def test_a_training_log_saved_line_does_not_hide_an_install_log_fetch() -> None:
    """rev55pb: pip download's ``Saved`` names a package file; "Saved checkpoint to ./ckpt" is a program's own line."""
    text = (
        f"pip install torch --index-url {CU}\nCollecting torch\n  Downloading {CU}/{WHEEL} (781.0 MB)\n"
        "Installing collected packages: torch\n\nSaved checkpoint to ./ckpt\n"
    )
    assert not_installing_lines(block(text)) == set()
