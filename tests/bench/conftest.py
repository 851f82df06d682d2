"""Shared fixtures for the benchmark tests: a target interpreter with torch, and the no-orphan guard."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Iterator, Optional

import pytest

from bench_helpers import surviving_workers

VENV_PYTHON = "/tmp/torchvenv/bin/python"


def _has_torch(python: str) -> bool:
    """Ask the interpreter itself (torch is never imported in the test process)."""
    probe = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('torch') else 1)"
    try:
        return subprocess.run([python, "-I", "-c", probe], timeout=60, capture_output=True).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _find_torch_python() -> Optional[str]:
    for candidate in (VENV_PYTHON, sys.executable):
        if os.path.exists(candidate) and _has_torch(candidate):
            return candidate
    return None


_TORCH_PYTHON = _find_torch_python()


@pytest.fixture(scope="session")
def torch_python() -> str:
    """An interpreter where torch imports (the worker's target)."""
    if _TORCH_PYTHON is None:
        pytest.skip(f"no interpreter with torch: neither {VENV_PYTHON} nor {sys.executable} has it")
    return _TORCH_PYTHON


@pytest.fixture
def no_orphans() -> Iterator[None]:
    """Fail the test if any worker process (or a grandchild naming the worker) survives it."""
    yield
    assert surviving_workers() == []
