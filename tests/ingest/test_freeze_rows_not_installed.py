"""Rows of ``name==version`` that are no installed state (prec55): a requirements file printed or its option line above
the pins, and an index's listing of the wheels it offers. Read as a ``pip freeze``, a torch index listing with
``triton==3.1.0`` beside ``pytorch-triton-rocm==3.1.0`` gave RD140's error ("a CUDA triton shadows pytorch-triton-rocm")
on a machine that had installed neither. ``pip freeze``'s own output, and the listing under ``pip list``, stay read."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings

PINS = "torch==2.5.1+rocm6.2\npytorch-triton-rocm==3.1.0\ntriton==3.1.0\n"
HEAD = "Ubuntu 22.04, RX 7900 XTX, ROCm 6.2.\n"


def _installed(text: str) -> dict:
    found = ingest(text).facts.packages.installed
    return dict(found.value) if found.is_known and found.value else {}


def _ids(text: str) -> set:
    return {finding[0] for finding in serious_findings(text)}


@pytest.mark.parametrize(
    "intro",
    [
        "$ cat requirements.txt\n--index-url https://download.pytorch.org/whl/rocm6.2\n",
        "$ cat requirements-rocm.txt\n",
        "The wheels available at https://download.pytorch.org/whl/ for this are:\n",
        "The rocm6.2 index lists:\n",
    ],
)
def test_pins_of_a_requirements_file_or_an_index_listing_are_not_installed_packages(intro: str) -> None:
    text = HEAD + intro + PINS
    assert "triton" not in _installed(text)
    assert "RD140" not in _ids(text)


@pytest.mark.parametrize(
    "intro",
    [
        "$ pip freeze | grep -E 'torch|triton'\n",
        "Installed packages:\n",
        "",
    ],
)
def test_pip_freeze_output_with_a_cuda_triton_beside_the_rocm_one_still_fires(intro: str) -> None:
    text = HEAD + intro + PINS
    assert _installed(text).get("triton") == "3.1.0"
    assert "RD140" in _ids(text)


@pytest.mark.parametrize(
    "intro",
    [
        # rev55p: a freeze written to the file it prints, and "available" said of the reporter's own environment
        "$ pip freeze > requirements.txt && cat requirements.txt",
        "These are the packages available in my env:",
        "pip freeze output (more than requirements.txt lists):",
    ],
)
def test_freeze_rows_under_an_intro_that_still_gives_them_as_installed_are_read(intro):
    text = "RX 7900 XTX, Ubuntu 22.04.\n\n```\n" + intro + "\npytorch-triton-rocm==3.1.0\ntorch==2.5.1+rocm6.2\ntriton==3.1.0\n```\n"
    assert "RD140" in _ids(text)
