"""Locate and load the rule database shipped with rocm-doctor (``rules/``)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Type

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


def read_yaml(path: Path, loader: Any = SAFE_LOADER, error: Type[InputError] = InputError) -> Any:
    """Parse a YAML file with a safe loader; every problem is ``error`` naming the file (and line).

    A missing file raises FileNotFoundError: callers decide whether that is an error.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise error(f"{path}: {exc.strerror or exc}") from None
    try:
        return yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader (or a subclass of one)
    except RecursionError:
        raise error(f"{path}: not valid YAML (nested too deeply)") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise error(f"{path}{line}: not valid YAML ({problem})") from None


@lru_cache(maxsize=None)
def load_table(name: str) -> Any:
    """Load ``rules/data/<name>.yaml``; a malformed table is an InputError naming the line."""
    path = rules_dir() / "data" / f"{name}.yaml"
    try:
        return read_yaml(path)
    except FileNotFoundError:
        raise InputError(f"{path}: data table missing from the rule database") from None
