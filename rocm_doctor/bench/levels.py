"""The benchmark levels, as the choices of ``bench --level`` and ``check/report/health/baseline --bench``.

The worker (:mod:`.worker`) runs alone in the target interpreter (stdlib and torch, no rocm_doctor), so
it keeps its own ``LEVELS`` with the tests of each; ``tests/judge/test_judge_cli.py`` holds the two
equal. Kept apart from the worker so that every command that offers ``--bench`` does not import the
worker's 1,000 lines to build its option.
"""

from __future__ import annotations

import enum

LEVELS = ("quick", "standard", "extended")

BenchLevel = enum.Enum("BenchLevel", [(level, level) for level in LEVELS], type=str)  # type: ignore[misc]
BenchLevel.__doc__ = "The benchmark levels (:data:`LEVELS`)."
