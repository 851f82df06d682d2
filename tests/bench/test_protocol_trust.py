"""Bench verdicts trust only what happened: faked workers (shell scripts standing in for python) probe the runner."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import List

import pytest

from rocm_doctor.bench.results import run_dict
from rocm_doctor.bench.runner import run_bench
from rocm_doctor.cli.bench_cmd import render_summary
from rocm_doctor.render.safe import SafeConsole

pytestmark = pytest.mark.skipif(os.name != "posix", reason="fake workers are shell scripts")


def _line(test: str, step: str, status: str, **fields) -> str:
    return json.dumps({"test": test, "step": step, "status": status, **fields})


SETUP = [
    _line("init", "import_torch", "start"), _line("init", "import_torch", "ok"),
    _line("init", "device_init", "start"), _line("init", "device_init", "ok"),
    _line("_worker", "hello", "ok", device="cpu", name="cpu"),
]
INIT_OK = [_line("init", "first_gemm", "start"), _line("init", "first_gemm", "ok"), _line("init", "done", "ok", metrics={})]


def fake_python(tmp_path: Path, lines: List[str], then: str = "exit 0") -> str:
    """An executable that ignores its arguments, prints ``lines`` and runs the shell text ``then``."""
    script = tmp_path / "python"
    printed = "".join(f"printf '%s\\n' '{line}'\n" for line in lines)
    script.write_text(f"#!/bin/sh\n{printed}{then}\n", encoding="utf-8")
    script.chmod(0o755)
    return str(script)


def _survivors(marker: str) -> List[str]:
    done = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True)
    return [line for line in done.stdout.splitlines() if marker in line and "ps -eo" not in line]


def test_a_worker_that_closes_its_output_then_hangs_is_a_hang_not_our_sigkill(tmp_path: Path) -> None:
    python = fake_python(tmp_path, SETUP + [_line("init", "first_gemm", "start")], "exec 1>&-; sleep 300")
    run = run_bench(python, "quick", "cpu", 2.0, tests=["init"])
    result = run.tests["init"]
    assert (result.status, result.signal, result.step) == ("hang", None, "first_gemm")


def test_a_done_line_with_an_unknown_status_is_noise_not_a_result(tmp_path: Path) -> None:
    python = fake_python(tmp_path, SETUP + [_line("init", "first_gemm", "start"), _line("init", "done", "excellent")])
    run = run_bench(python, "quick", "cpu", 10.0, tests=["init"])
    assert run.tests["init"].status == "crash"
    assert "exited with status 0 in step first_gemm" in run.tests["init"].reason
    assert any("excellent" in line for line in run.noise)


def test_a_forged_ok_for_a_test_not_yet_run_does_not_count(tmp_path: Path) -> None:
    forged = [_line("gemm", "done", "ok", metrics={"bf16_tflops": 1e9}), _line("gemm", "bf16", "ok")]
    python = fake_python(tmp_path, SETUP + forged + INIT_OK)
    run = run_bench(python, "quick", "cpu", 10.0, tests=["init", "gemm"])
    assert run.tests["init"].status == "ok"
    assert run.tests["gemm"].status == "crash" and run.tests["gemm"].metrics == {}
    assert sum("gemm" in line for line in run.noise) == 2


def test_an_ok_without_any_step_of_the_running_test_does_not_count(tmp_path: Path) -> None:
    python = fake_python(tmp_path, SETUP + INIT_OK + [_line("gemm", "done", "ok", metrics={})])
    run = run_bench(python, "quick", "cpu", 10.0, tests=["init", "gemm"])
    assert run.tests["gemm"].status == "crash"


def test_a_hang_with_a_grandchild_holding_the_pipe_ends_at_the_deadline_and_leaves_nothing(tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    holder = f"setsid {sys.executable} -c 'import time; time.sleep(300)' {marker} &"
    python = fake_python(tmp_path, SETUP, f"{holder}\nsleep 300")
    started = time.monotonic()
    run = run_bench(python, "quick", "cpu", 2.0, tests=["init"])
    assert time.monotonic() - started < 15
    assert run.tests["init"].status == "hang"
    assert _survivors(marker) == []  # run_bench returns once what it killed has exited


def test_a_flood_of_junk_lines_keeps_a_bounded_noise_list(tmp_path: Path) -> None:
    python = fake_python(tmp_path, SETUP, "yes junk | head -n 200000; exit 0")
    run = run_bench(python, "quick", "cpu", 30.0, tests=["init"])
    assert len(run.noise) == 50 and run.noise_dropped == 200000 - 50
    assert run.tests["init"].status == "crash"
    assert len(json.dumps(run_dict(run))) < 50_000  # the --json document stays small


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the peak is read from /proc/self/status (Linux)")
def test_a_gigabyte_line_is_cut_and_memory_stays_bounded(tmp_path: Path) -> None:
    # In a child interpreter, so its peak resident memory is this run's alone. The peak is the new
    # process image's own (VmHWM): getrusage's ru_maxrss keeps the high-water mark of the process it
    # was forked from across exec on Linux, which is a loaded pytest worker's (250-340 MB seen in CI).
    python = fake_python(tmp_path, SETUP, "head -c 300000000 /dev/zero | tr '\\0' x; exit 0")
    probe = (
        "import sys\n"
        "from rocm_doctor.bench.runner import run_bench\n"
        "run = run_bench(sys.argv[1], 'quick', 'cpu', 60.0, tests=['init'])\n"
        "peak = next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:'))\n"
        "print(run.tests['init'].status, len(run.noise[0]), peak)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe, python], capture_output=True, text=True, timeout=120)
    status, kept, peak_kib = done.stdout.split()
    assert (status, kept) == ("crash", "200")
    assert int(peak_kib) < 200 * 1024


@pytest.mark.live_machine  # bench runs on this machine: it reads the live environment to name the interpreter
def test_an_interpreter_without_torch_makes_bench_exit_1(tmp_path: Path, run_cli) -> None:
    # -S: no site-packages, so no torch; the worker's setup fails and no test runs.
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\nexec {sys.executable} -S "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    result = run_cli("bench", "--python", str(python), "--device", "cpu", "--json")
    document = json.loads(result.stdout)
    assert document["tests"]["init"]["status"] == "error"
    assert {t["status"] for n, t in document["tests"].items() if n != "init"} == {"skipped"}
    assert result.exit_code == 1


def test_a_flood_of_step_records_keeps_only_the_latest_steps(tmp_path: Path) -> None:
    step = _line("init", "first_gemm", "ok")
    python = fake_python(tmp_path, SETUP, f"yes '{step}' | head -n 50000; exit 0")
    run = run_bench(python, "quick", "cpu", 30.0, tests=["init"])
    assert run.tests["init"].status == "crash" and len(run.tests["init"].steps) == 1000


@pytest.mark.parametrize("error", ['""', "{\"a\": [1]}", "null"])
def test_a_setup_error_without_a_usable_message_is_still_classified(tmp_path: Path, error: str) -> None:
    # Found by the long fuzz run: an empty error and no stderr ended in an IndexError (exit 3).
    line = '{"test": "_worker", "step": "import_torch", "status": "error", "error": ' + error + "}"
    run = run_bench(fake_python(tmp_path, [line], "kill -SEGV $$"), "quick", "cpu", 10.0, tests=["init"])
    result = run.tests["init"]
    assert result.status == "error" and isinstance(result.reason, str) and result.reason
    render_summary(run, SafeConsole(file=io.StringIO()))


def test_a_worker_flooding_blank_lines_fails_once_and_is_not_a_hang_on_every_test(tmp_path: Path) -> None:
    # Each test was a hang after its own deadline, with a fresh worker each time: 29.6 s for 6 tests at 4 s.
    python = fake_python(tmp_path, SETUP + INIT_OK, "while :; do printf '\\n\\n\\n\\n\\n\\n\\n\\n'; done")
    started = time.monotonic()
    run = run_bench(python, "quick", "cpu", 2.0, tests=["init", "copy_integrity", "gemm"])
    assert time.monotonic() - started < 8
    assert run.tests["init"].status == "ok"
    assert run.tests["copy_integrity"].status == "error" and "not protocol records" in (run.tests["copy_integrity"].reason or "")
    assert run.tests["gemm"].status == "skipped" and run.workers == 1


def test_non_finite_or_negative_metrics_are_left_unknown_with_the_reason_not_the_test(tmp_path: Path) -> None:
    # 1e999 reads as infinity; it reached the verdicts and the --json document (which cannot hold it).
    done = '{"test": "init", "step": "done", "status": "ok", "metrics": {"first_gemm_seconds": 1e999, "steps": -3, "ok_n": 2}}'
    python = fake_python(tmp_path, SETUP + ['{"test": "init", "step": "first_gemm", "status": "start"}', done])
    run = run_bench(python, "quick", "cpu", 30.0, tests=["init"])
    result = run.tests["init"]
    assert result.status == "ok" and result.metrics == {"ok_n": 2}
    assert "first_gemm_seconds" in (result.reason or "") and "steps" in (result.reason or "")
    json.dumps(run_dict(run), allow_nan=False)
