"""Derived facts, one module per subject; every module here is imported on first use.

Defining a function with ``@machine_fact`` / ``@gpu_fact`` (``rocm_doctor.judge.derived``)
in any module of this package registers it; there is no hand-kept list to edit.
"""

from __future__ import annotations

import importlib
import pkgutil

for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if not _module.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_module.name}")
