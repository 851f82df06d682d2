"""``rocm-doctor check`` on the real machine, with the shipped rule database."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest


@pytest.mark.live_machine
def test_check_on_this_machine_without_an_amd_gpu_exits_0(run_cli) -> None:
    if importlib.util.find_spec("rocm_doctor.facts.gpu") is None:
        pytest.skip("the GPU gatherer (rocm_doctor.facts.gpu) is not in this tree yet")
    if Path("/sys/class/kfd").exists():
        pytest.skip("this machine has a KFD device: the test is for CPU-only machines")
    result = run_cli("check", "--no-torch")
    assert result.exit_code == 0, result.stderr
    assert "No AMD GPU was found on this machine." in result.stdout
