"""Facts: the typed snapshot of a machine and the code that gathers it.

The names below are loaded on first use, so that importing a light submodule
(``rocm_doctor.facts.torch_probe_script``) does not build the pydantic models.
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "Facts": "rocm_doctor.facts.model",
    "FactsFileError": "rocm_doctor.facts.model",
    "Fact": "rocm_doctor.facts.value",
    "absent": "rocm_doctor.facts.value",
    "failed": "rocm_doctor.facts.value",
    "known": "rocm_doctor.facts.value",
    "unknown": "rocm_doctor.facts.value",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'rocm_doctor.facts' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_EXPORTS[name]), name)
