"""A torch release named as another package's requirement is not the torch installed.

"xformers requires PyTorch 2.8.0", "The latest xformers (v0.0.23) requires PyTorch v2.1.1", "AMD ROCm 6.2 requires
torch-2.4.1", "flash_attention depends on PyTorch 2.0" name what a package asks for. Read as the installed torch,
the requirement became torch.version (xformers#1312 read 2.8.0 beside its 2.7.1). Shapes from real reports where a
torch requirement stands beside another torch: facebookresearch/xformers#1312 (PyTorch 2.8.0 required, 2.7.1 the
newest AMD wheel), vllm-project/vllm#2045 (xformers 0.0.23 requiring PyTorch v2.1.1), instructlab/instructlab#2446
(ROCm 6.2 requiring torch-2.4.1 beside a bound at torch-2.4.0), EmbeddedLLM/vllm#8 (flash_attention depending on
another PyTorch than vLLM's).
"""

from __future__ import annotations

from typing import Optional

import pytest
from ingest_helpers import ingest


def _torch(text: str) -> Optional[str]:
    fact = ingest(text).facts.torch.version
    return fact.value if fact.is_known else None


@pytest.mark.parametrize(
    "text",
    [
        "However, xformers requires PyTorch 2.8.0.",
        "The latest xformers (v0.0.23) requires PyTorch v2.1.1.",
        "AMD ROCm 6.2 requires torch-2.4.1 for this image.",
        "flash_attention depends on PyTorch 2.0.1 built for ROCm 5.4.",
        "This extension needs at least torch 2.4.0.",
        "The wheel needs torch==2.5.1 exactly.",
        "torch 2.4+ is required for this node.",
        "vLLM relies on torch 2.9.0 here.",
    ],
)
def test_a_torch_requirement_alone_is_never_the_installed_torch(text: str) -> None:
    assert _torch(text) is None


@pytest.mark.parametrize(
    "text, installed",
    [
        ("I have torch 2.7.1 installed. However, xformers requires PyTorch 2.8.0.", "2.7.1"),
        ("xformers requires torch 2.8.0, but my env has torch 2.7.1+rocm6.4.2", "2.7.1+rocm6.4.2"),
        ("The plugin requires torch 2.4.0 or newer; I run torch 2.5.1", "2.5.1"),
    ],
)
def test_the_installed_torch_beside_a_requirement_is_still_read(text: str, installed: str) -> None:
    assert _torch(text) == installed


@pytest.mark.parametrize(
    "text, installed",
    [
        ("I have torch 2.5.1 installed", "2.5.1"),
        ("torch 2.6.0 required a restart of the notebook", "2.6.0"),  # said of the installed one, no requirement word before
        ("pytorch version: 2.9.1+rocm7.2.0.git7e1940d4", "2.9.1+rocm7.2.0.git7e1940d4"),
        ("The requirement is met, I installed torch 2.8.0", "2.8.0"),
    ],
)
def test_an_installed_torch_said_in_words_is_still_read(text: str, installed: str) -> None:
    assert _torch(text) == installed
