"""Locate and load the rule database shipped with rocm-doctor (``rules/``)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from rocm_doctor.errors import InputError

SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML was built with it (ten times faster), else the Python one."""


def rules_dir() -> Path:
    """The rule database: inside the installed package, else the repository's ``rules/``."""
    packaged = Path(__file__).resolve().parent / "_rules"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "rules"


@lru_cache(maxsize=None)
def load_table(name: str) -> Any:
    """Load ``rules/data/<name>.yaml``; a malformed table is an InputError naming the line."""
    path = rules_dir() / "data" / f"{name}.yaml"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: data table missing from the rule database") from None
    try:
        return yaml.load(text, Loader=SAFE_LOADER)  # noqa: S506 - the safe loader, C-accelerated
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise InputError(f"{path}{line}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
