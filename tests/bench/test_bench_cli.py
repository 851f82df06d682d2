"""``rocm-doctor bench`` end to end on the CPU device with a real torch in the target interpreter."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from bench_helpers import hook_env

pytestmark = pytest.mark.usefixtures("no_orphans")

QUICK_TESTS = ["init", "copy_integrity", "compute_integrity", "bandwidth", "gemm", "attention"]


def _bench(*args: str, hook: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rocm_doctor", "bench", *args],
        capture_output=True, text=True, timeout=300, env=dict(hook_env(hook), COLUMNS="160", NO_COLOR="1"),
    )


def test_quick_level_on_the_cpu_runs_every_test_and_prints_the_summary(torch_python: str) -> None:
    done = _bench("--level", "quick", "--device", "cpu", "--python", torch_python)
    assert done.returncode == 0, done.stdout + done.stderr
    for name in QUICK_TESTS:
        assert f"\n{name} " in done.stdout
    assert "Device: cpu" in done.stdout
    assert "bf16_tflops" in done.stdout and "d2d_gbs" in done.stdout
    assert "sustained over" in done.stdout  # a GEMM figure names its measurement window
    assert "Traceback" not in done.stderr


def test_json_output_carries_every_classified_test_and_a_wrong_one_makes_the_exit_code_nonzero(torch_python: str) -> None:
    # One run with one fault (each run starts torch and measures for seconds): the healthy run's exit code 0 is
    # pinned by the human-output test above.
    done = _bench("--device", "cpu", "--python", torch_python, "--json",
                  hook="zero:copy_integrity/d2h_4KiB_pageable_sync")
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    assert document["schema"] == "rocm-doctor/bench/1"
    assert list(document["tests"]) == QUICK_TESTS
    assert document["failing"] == ["copy_integrity"] and document["device"] == "cpu"
    assert document["tests"]["copy_integrity"]["status"] == "wrong"
    assert document["tests"]["copy_integrity"]["metrics"]["all_zeros"] is True
    assert all(t["status"] == "ok" for name, t in document["tests"].items() if name != "copy_integrity")
    gemm = document["tests"]["gemm"]["metrics"]
    assert gemm["bf16_window_seconds"] >= 0.5 and gemm["bf16_trials"] >= 3  # quick: 0.5 s after the warm-up


def test_bench_targets_the_active_virtual_environment_as_check_does(tmp_path) -> None:
    # Installed with pipx or uv tool, rocm-doctor runs in its own interpreter; with a venv activated,
    # bench must run the worker in that venv, chosen by the same decision as check, fix and facts.
    import venv

    active = tmp_path / "active"
    venv.create(active, with_pip=False)
    env = dict(hook_env(), VIRTUAL_ENV=str(active), COLUMNS="160", NO_COLOR="1")
    done = subprocess.run([sys.executable, "-m", "rocm_doctor", "bench", "--device", "cpu", "--json"],
                          capture_output=True, text=True, timeout=300, env=env)
    document = json.loads(done.stdout)
    assert document["python"] == str(active / "bin" / "python3"), done.stderr
    assert document["python_selected_by"] == f"the active virtual environment (VIRTUAL_ENV={active})"
    human = subprocess.run([sys.executable, "-m", "rocm_doctor", "bench", "--device", "cpu"],
                           capture_output=True, text=True, timeout=300, env=env)
    assert f"Target: {active / 'bin' / 'python3'} (the active virtual environment" in human.stdout


def test_a_missing_interpreter_is_a_one_line_input_error() -> None:
    done = _bench("--python", "/nonexistent/python3")
    assert done.returncode == 2
    assert "no such interpreter" in done.stderr and "Traceback" not in done.stderr


def test_no_test_run_is_not_a_pass(tmp_path) -> None:
    # An interpreter without torch: every test fails to start, so nothing was measured.
    import venv

    venv.create(tmp_path / "venv", with_pip=False)
    done = _bench("--device", "cpu", "--python", str(tmp_path / "venv" / "bin" / "python"), "--json")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "No benchmark ran" in done.stderr
