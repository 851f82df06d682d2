"""A pasted package listing that is not the whole environment proves nothing about the packages it does not show.

``pip list | grep torch`` is what install guides and maintainers ask for, and collect_env prints only its "relevant
libraries": neither shows ``rocm-sdk-core``, so a rule that needs it missing (RD742, RD747) must wait, not say it is
not installed. A ``pip list`` with its header (which a filter drops) or a ``pip freeze`` right under its own command
is the whole environment, and there a missing name is missing.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings

TORCH = "torch                    2.10.0+rocm7.14.0a20260101\n"
VISION = "torchvision              0.25.0+rocm7.14.0a20260101\n"
HEADER = "Package                  Version\n------------------------ --------------------------\n"


def _complete(text: str):
    fact = ingest(text).facts.packages.complete
    return fact.value if fact.is_known else None


def _rules(text: str):
    return {rule for rule, _, _ in serious_findings(text)}


@pytest.mark.parametrize(
    "text",
    [
        "$ pip list | grep torch\n" + TORCH + VISION,
        "$ pip3 list | grep -i -E 'torch|rocm'\n" + TORCH + VISION,
        "PS C:\\> pip list | findstr torch\n" + TORCH + VISION,
        "$ pip list\n" + HEADER + TORCH + VISION + "[...]\n",
        "$ pip freeze | grep torch\ntorch==2.10.0+rocm7.14.0a20260101\ntorchvision==0.25.0+rocm7.14.0a20260101\n",
        "torch==2.10.0+rocm7.14.0a20260101\ntorchvision==0.25.0+rocm7.14.0a20260101\n",
    ],
    ids=["grep", "grep-extended", "findstr", "cut-mark", "freeze-grep", "freeze-without-command"],
)
def test_a_filtered_or_cut_listing_is_not_the_whole_environment_and_a_package_it_lacks_is_not_called_missing(text: str) -> None:
    assert _complete(text) is False
    assert "RD742" not in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "$ pip list\n" + HEADER + "numpy                    2.1.0\n" + TORCH + VISION,
        HEADER + TORCH + VISION,
        "$ python -m pip freeze\nnumpy==2.1.0\ntorch==2.10.0+rocm7.14.0a20260101\ntorchvision==0.25.0+rocm7.14.0a20260101\n",
        "$ uv pip freeze\ntorch==2.10.0+rocm7.14.0a20260101\ntorchvision==0.25.0+rocm7.14.0a20260101\n",
    ],
    ids=["pip-list", "pip-list-headed-without-command", "python-m-pip-freeze", "uv-pip-freeze"],
)
def test_a_whole_listing_without_rocm_sdk_core_beside_a_rocm_7_14_torch_is_rd742(text: str) -> None:
    assert _complete(text) is True
    assert "RD742" in _rules(text)


def test_collect_env_relevant_libraries_are_a_part_of_the_environment() -> None:
    text = (
        "PyTorch version: 2.10.0+rocm7.14.0a20260101\n"
        "Is debug build: False\n"
        "ROCM used to build PyTorch: 7.14.0\n"
        "\n"
        "Versions of relevant libraries:\n"
        "[pip3] numpy==2.1.0\n"
        "[pip3] torch==2.10.0+rocm7.14.0a20260101\n"
        "[pip3] torchvision==0.25.0+rocm7.14.0a20260101\n"
    )
    assert _complete(text) is not True
    assert "RD742" not in _rules(text)
