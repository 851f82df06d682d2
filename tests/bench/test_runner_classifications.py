"""Every classification, produced for real by a worker child process (faults injected by the test hook)."""

from __future__ import annotations

import pytest

from rocm_doctor.bench.results import SpecPeak
from rocm_doctor.bench.runner import run_bench

from bench_helpers import hook_env, surviving_workers

pytestmark = pytest.mark.usefixtures("no_orphans")


def _run(python: str, tests, hook: str = "", deadline: float = 60.0, **kwargs):
    return run_bench(python, "quick", "cpu", deadline, tests=tests, env=hook_env(hook), **kwargs)


def test_healthy_tests_are_ok_and_share_one_worker(torch_python: str) -> None:
    run = _run(torch_python, ["init", "compute_integrity"])
    assert {n: t.status for n, t in run.tests.items()} == {"init": "ok", "compute_integrity": "ok"}
    assert run.workers == 1
    assert run.device == "cpu"
    assert run.tests["init"].metrics["import_torch_seconds"] > 0


# Faults that leave the worker alive (a wrong result, a Python exception, a skip) in different tests share one
# worker: each starts torch once (seconds of CPU), and each test below reads its own test's verdict from the run.
# A crash or a hang ends a worker, so those keep a run of their own.
_SHARED_RUNS = {
    "zeroed copy, corrupted gemm, skips": (["copy_integrity", "compute_integrity", "multi_gpu", "compile"],
                                           "zero:copy_integrity/d2h_4KiB_pageable_sync,corrupt:compute_integrity/gemm_bf16"),
    "flipped copy, raising gemm": (["copy_integrity", "compute_integrity"],
                                   "corrupt:copy_integrity/d2h_4KiB_pageable_async,raise:compute_integrity/gemm_fp16"),
}


@pytest.fixture(scope="module")
def shared_runs(torch_python: str):
    runs = {name: _run(torch_python, tests, hook) for name, (tests, hook) in _SHARED_RUNS.items()}
    assert all(run.workers == 1 for run in runs.values())  # nothing in them ended a worker
    assert surviving_workers() == []
    return runs


def test_zeroed_copy_is_wrong_with_an_all_zeros_verdict(shared_runs) -> None:
    result = shared_runs["zeroed copy, corrupted gemm, skips"].tests["copy_integrity"]
    assert result.status == "wrong"
    assert result.step == "d2h_4KiB_pageable_sync"
    assert result.metrics["all_zeros"] is True
    assert "zeros" in result.reason


def test_flipped_bytes_are_wrong_without_the_zeros_verdict(shared_runs) -> None:
    result = shared_runs["flipped copy, raising gemm"].tests["copy_integrity"]
    assert result.status == "wrong"
    assert result.metrics["all_zeros"] is False
    assert result.metrics["mismatched"] == 7


def test_corrupted_gemm_output_is_wrong(shared_runs) -> None:
    run = shared_runs["zeroed copy, corrupted gemm, skips"]
    assert run.tests["compute_integrity"].status == "wrong"
    assert run.tests["compute_integrity"].step == "gemm_bf16"


HANG_DEADLINE = 5.0
"""Seconds a test that is not a worker's first may take: what a hang costs these tests (a step of them takes
well under one second on the CPU)."""
SETUP_DEADLINE = 60.0
"""Seconds for a worker's first test, ``import torch`` included (15 s seen on a loaded 2-core machine)."""


def test_a_sleeping_step_is_a_hang_and_a_fresh_worker_runs_the_rest(torch_python: str) -> None:
    # The hang is in the worker's second test, so it costs the 5 s deadline, not the first test's allowance for
    # `import torch`; the fresh worker's first test gets that allowance again.
    run = _run(torch_python, ["init", "compute_integrity", "attention"], "sleep:compute_integrity/gemm_fp16",
               deadline=HANG_DEADLINE, first_deadline=SETUP_DEADLINE)
    hung = run.tests["compute_integrity"]
    assert hung.status == "hang"
    assert hung.step == "gemm_fp16"
    assert f"within the {HANG_DEADLINE:g} s deadline" in hung.reason  # a later test's deadline, not the first's
    assert run.tests["init"].status == "ok"
    assert run.tests["attention"].status == "ok"
    assert run.workers == 2
    assert surviving_workers() == []  # the sleeping grandchild died with the process group


def test_segfault_is_a_crash_named_by_its_signal_then_the_run_goes_on(torch_python: str) -> None:
    run = _run(torch_python, ["copy_integrity", "compute_integrity"], "segv:copy_integrity/h2d_4KiB_pageable_sync")
    crashed = run.tests["copy_integrity"]
    assert (crashed.status, crashed.signal, crashed.step) == ("crash", "SIGSEGV", "h2d_4KiB_pageable_sync")
    assert "SIGSEGV" in crashed.reason
    assert run.tests["compute_integrity"].status == "ok"
    assert run.workers == 2


def test_a_crash_is_seen_even_when_a_forked_child_keeps_the_pipe_open(torch_python: str) -> None:
    import time

    started = time.monotonic()
    run = _run(torch_python, ["compute_integrity"],
               "fork:compute_integrity/gemm_fp16,segv:compute_integrity/gemm_fp16", deadline=240.0)
    assert (run.tests["compute_integrity"].status, run.tests["compute_integrity"].signal) == ("crash", "SIGSEGV")
    # Classified when the worker died, not at the deadline: far from it even when `import torch` is slow.
    assert time.monotonic() - started < 120


def test_abort_is_a_crash_with_sigabrt(torch_python: str) -> None:
    run = _run(torch_python, ["compute_integrity"], "abort:compute_integrity/gemm_fp32")
    assert (run.tests["compute_integrity"].status, run.tests["compute_integrity"].signal) == ("crash", "SIGABRT")


def test_silent_exit_mid_test_is_a_crash_with_the_exit_status(torch_python: str) -> None:
    run = _run(torch_python, ["compute_integrity"], "exit:compute_integrity/gemm_fp16")
    result = run.tests["compute_integrity"]
    assert (result.status, result.exit_code, result.signal) == ("crash", 0, None)
    assert "exited with status 0 in step gemm_fp16" in result.reason


def test_python_exception_is_an_error_with_its_message(shared_runs) -> None:
    result = shared_runs["flipped copy, raising gemm"].tests["compute_integrity"]
    assert (result.status, result.step) == ("error", "gemm_fp16")
    assert "test hook raised" in result.reason


def test_allocating_until_memory_runs_out_is_an_error(torch_python: str) -> None:
    run = _run(torch_python, ["compute_integrity", "init"], "oom:compute_integrity/gemm_fp32")
    result = run.tests["compute_integrity"]
    assert result.status == "error"
    assert "allocate" in result.reason.lower()
    assert run.tests["init"].status == "ok"  # the memory cap was lifted again


def test_garbage_on_the_protocol_stream_is_kept_as_noise(torch_python: str) -> None:
    run = _run(torch_python, ["compute_integrity"], "garbage:compute_integrity/gemm_fp16")
    assert run.tests["compute_integrity"].status == "ok"
    assert any("not json" in line for line in run.noise)
    assert "[1, 2, 3]" in run.noise


def test_tests_that_cannot_run_on_the_cpu_are_skipped_with_a_reason(shared_runs) -> None:
    run = shared_runs["zeroed copy, corrupted gemm, skips"]
    assert run.tests["multi_gpu"].status == "skipped"
    assert run.tests["multi_gpu"].reason == "the cpu device has no peers"
    assert run.tests["compile"].reason == "not part of the quick level"


def test_a_hang_while_importing_torch_skips_the_other_tests(torch_python: str) -> None:
    # The first test's deadline holds `import torch`: the short first deadline is the one that runs out.
    run = _run(torch_python, ["compute_integrity", "gemm"], "sleep:setup/import_torch", deadline=SETUP_DEADLINE,
               first_deadline=4.0)
    assert (run.tests["compute_integrity"].status, run.tests["compute_integrity"].step) == ("hang", "import_torch")
    assert "within the 4 s deadline" in run.tests["compute_integrity"].reason
    assert run.tests["gemm"].status == "skipped"
    assert "worker setup failed" in run.tests["gemm"].reason
    assert run.workers == 1


def _spec(bf16_tflops: float) -> SpecPeak:
    return SpecPeak(product="test peak", gfx=None, klass="rdna3", bf16_tflops=bf16_tflops, source="test")


def test_gemm_far_below_its_band_is_slow(torch_python: str) -> None:
    run = _run(torch_python, ["gemm"], spec=_spec(1.0e6))
    result = run.tests["gemm"]
    assert result.status == "slow"
    assert result.figures[0].verdict == "slow"
    assert "expected 70%-86%" in result.reason


def test_gemm_above_the_spec_peak_is_an_invalid_measurement(torch_python: str) -> None:
    run = _run(torch_python, ["gemm"], spec=_spec(1.0e-6))
    result = run.tests["gemm"]
    assert result.status == "invalid"
    assert "invalid measurement" in result.reason
