"""Helpers for the benchmark tests: finding surviving workers, the test-hook environment.

Every worker a test starts carries ``ROCM_DOCTOR_BENCH_TEST_TOKEN`` (unique to this test
session) in its environment, so the orphan check only counts processes this session
started, even when other runs of the worker are alive on the same machine.
"""

from __future__ import annotations

import os
import uuid
from typing import List

import psutil

from rocm_doctor.bench.runner import WORKER_PATH

TOKEN_VAR = "ROCM_DOCTOR_BENCH_TEST_TOKEN"
TOKEN = uuid.uuid4().hex


def surviving_workers() -> List[str]:
    """Live (non-zombie) processes of this test session whose command line names the worker script."""
    found = []
    for proc in psutil.process_iter(["pid", "cmdline", "status"]):
        try:
            if proc.info["status"] == psutil.STATUS_ZOMBIE:
                continue  # already dead; only its table entry waits for its new parent to reap it
            if not any(WORKER_PATH in part for part in proc.info["cmdline"] or []):
                continue
            if proc.environ().get(TOKEN_VAR) == TOKEN:
                found.append(f"{proc.info['pid']}: {' '.join(proc.info['cmdline'])}")
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def hook_env(hook: str = "") -> dict:
    """This process's environment plus the session token and the worker's test-only fault hook."""
    env = dict(os.environ, **{TOKEN_VAR: TOKEN})
    if hook:
        env["ROCM_DOCTOR_BENCH_TEST_HOOK"] = hook
    return env
