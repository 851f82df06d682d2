"""GPU micro-benchmarks that catch hangs, crashes, silent corruption and slow paths.

Public API (used by ``rocm-doctor bench`` and ``check --bench LEVEL``)::

    from rocm_doctor.bench import run_bench, bench_facts

    run = run_bench(python, level, device, deadline, progress=None)   # -> BenchRun
    facts = facts.model_copy(update={"bench": bench_facts(run)})       # -> BenchFacts

* ``python``: the target interpreter (the worker runs there; it needs torch, not rocm_doctor);
* ``level``: ``quick`` | ``standard`` | ``extended``;
* ``device``: ``auto`` | ``cuda`` | ``cpu`` (``cuda`` is also ROCm/HIP);
* ``deadline``: seconds per test, import and init included; None = the level's default;
* ``progress``: optional ``progress(test, step, finished, total)`` callback.

Each test is classified ``ok``, ``slow``, ``invalid`` (above 1.05x the spec peak),
``wrong``, ``hang``, ``crash``, ``error`` or ``skipped``; ``BenchRun.failing`` holds the
wrong/hang/crash ones. Rules read ``bench.results.<test>.<key>`` (see ``rules/runtime.yaml``).

Modules: :mod:`.worker` (the child script, stdlib + torch only), :mod:`.runner`
(process handling and classification), :mod:`.results` (spec peaks, verdicts, Facts).
"""

from __future__ import annotations

import importlib
from typing import Any

from rocm_doctor.bench.levels import LEVELS, BenchLevel

_LAZY = {
    "FAILING": "rocm_doctor.bench.results",
    "BenchRun": "rocm_doctor.bench.results",
    "TestResult": "rocm_doctor.bench.results",
    "bench_facts": "rocm_doctor.bench.results",
    "run_bench": "rocm_doctor.bench.runner",
}


def __getattr__(name: str) -> Any:
    """Import the runner, the worker and the results on first use: ``check`` without ``--bench``
    needs only :data:`BenchLevel` and should not pay for them."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FAILING", "LEVELS", "BenchLevel", "BenchRun", "TestResult", "bench_facts", "run_bench"]
