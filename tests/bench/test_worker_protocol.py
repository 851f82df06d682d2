"""The worker's JSON-lines protocol, read straight from a real worker child on the CPU device."""

from __future__ import annotations

import json
import subprocess

import pytest

from bench_helpers import hook_env

from rocm_doctor.bench.runner import WORKER_PATH

pytestmark = pytest.mark.usefixtures("no_orphans")


def _worker_lines(python: str, *args: str) -> list:
    done = subprocess.run(
        [python, "-I", WORKER_PATH, "--device", "cpu", *args], capture_output=True, timeout=120, start_new_session=True,
        env=hook_env(),
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return [json.loads(line) for line in done.stdout.decode().splitlines()]


def test_every_line_is_a_record_and_every_start_has_an_outcome(torch_python: str) -> None:
    records = _worker_lines(torch_python, "--tests", "init,compute_integrity")
    assert all({"test", "step", "status", "t"} <= set(r) for r in records)
    steps = [r for r in records if r["test"] != "_worker" and r["step"] != "done"]
    for start, outcome in zip(steps[::2], steps[1::2]):
        assert (start["status"], start["step"]) == ("start", outcome["step"])
        assert outcome["status"] in ("ok", "skipped")
    assert [r["test"] for r in records if r["step"] == "done"] == ["init", "compute_integrity"]
    assert [r["step"] for r in steps if r["test"] == "init"][::2] == ["import_torch", "device_init", "first_gemm", "first_sdpa"]


@pytest.fixture(scope="module")
def without_init(torch_python: str) -> list:
    """One worker (one ``import torch``) for the two tests below: init not requested, then compute and bandwidth."""
    return _worker_lines(torch_python, "--tests", "compute_integrity,bandwidth")


def test_hello_reports_the_device_and_the_allocator_setting(without_init: list) -> None:
    records = without_init
    hello = next(r for r in records if r["test"] == "_worker")
    assert hello["device"] == "cpu" and hello["expandable_segments"] is False
    assert records[0]["test"] == "setup"  # import timings go under "setup" when init is not requested


def test_pinned_copies_are_skipped_on_the_cpu_with_a_reason(without_init: list) -> None:
    records = [r for r in without_init if r["test"] == "bandwidth"]
    skipped = [r for r in records if r["status"] == "skipped"]
    assert {r["step"] for r in skipped} == {"h2d_pinned_64MiB", "d2h_pinned_64MiB"}
    assert all(r["reason"] == "the cpu device has no host link to measure" for r in skipped)
    done = next(r for r in records if r["step"] == "done")
    assert done["status"] == "ok" and done["metrics"]["d2d_gbs"] > 0


def test_library_prints_on_stdout_do_not_reach_the_protocol_stream(torch_python: str) -> None:
    # A wrapper makes every GEMM print through Python and write to file descriptor 1 directly,
    # as a chatty native library would; the protocol stream must stay pure JSON lines.
    code = (
        "import os, runpy, sys, torch\n"
        "real = torch.Tensor.__matmul__\n"
        "def noisy(a, b):\n"
        "    print('PYTHON NOISE'); sys.stdout.flush(); os.write(1, b'NATIVE NOISE\\n')\n"
        "    return real(a, b)\n"
        "torch.Tensor.__matmul__ = noisy\n"
        "sys.argv = ['worker', '--device', 'cpu', '--tests', 'compute_integrity']\n"
        f"runpy.run_path({WORKER_PATH!r}, run_name='__main__')\n"
    )
    done = subprocess.run([torch_python, "-I", "-c", code], capture_output=True, timeout=120, env=hook_env())
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert records[-1]["status"] == "ok"
    assert "PYTHON NOISE" in done.stderr.decode() and "NATIVE NOISE" in done.stderr.decode()
