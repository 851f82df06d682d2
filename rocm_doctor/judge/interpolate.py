"""``{fact.path}`` replacement in titles, messages and fixes.

Only dotted identifiers are placeholders; each is resolved with
:func:`rocm_doctor.judge.paths.resolve`, which reads declared model fields only.
No ``str.format``, no ``eval``, no format specs, no attribute access: ``{__class__}``
resolves to nothing and prints ``unknown``. Anything in braces that is not a dotted
identifier (``{"a": 1}`` in a JSON snippet) is left as written.
"""

from __future__ import annotations

import re
from typing import Any, List

from pydantic import BaseModel

from rocm_doctor.facts.value import Fact
from rocm_doctor.judge.model import Fix
from rocm_doctor.judge.paths import Scope, resolve

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_][A-Za-z0-9_\-]*)+|[A-Za-z_][A-Za-z0-9_]*)\}")
"""``{name}`` or ``{a.b.c}``; dict keys may contain ``-`` (``packages.installed.pytorch-triton-rocm``)."""

UNKNOWN_TEXT = "unknown"
ABSENT_TEXT = "absent"


def placeholders(text: str) -> List[str]:
    """The fact paths a template uses, in order."""
    return PLACEHOLDER.findall(text or "")


def render_value(value: Any) -> str:
    """A fact value as message text: lists joined with ", ", booleans as yes/no."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, BaseModel):
        return render_value(value.model_dump(exclude_none=True))
    if isinstance(value, dict):
        return ", ".join(f"{k}={render_value(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(render_value(v) for v in value)
    return str(value)


def render_fact(fact: Fact) -> str:
    """The text a placeholder becomes."""
    if fact.status == "known":
        return render_value(fact.value)
    return ABSENT_TEXT if fact.status == "absent" else UNKNOWN_TEXT


def interpolate(text: str, scope: Scope) -> str:
    """Replace every ``{path}`` in ``text`` with the fact's value."""
    if not text or "{" not in text:
        return text
    return PLACEHOLDER.sub(lambda m: render_fact(resolve(m.group(1), scope)), text)


FIX_TEXT_FIELDS = ("text", "intent", "index_url", "base")
FIX_LIST_FIELDS = ("unset", "packages", "commands", "run_flags", "dockerfile")


def _fields(fix: Fix, names: tuple) -> List[str]:
    """The names of ``names`` this kind of fix has."""
    return [name for name in names if name in type(fix).model_fields]


def fix_templates(fix: Fix) -> List[str]:
    """Every string of a fix that may hold placeholders (for load-time path checks)."""
    out = [getattr(fix, name) or "" for name in _fields(fix, FIX_TEXT_FIELDS)]
    for key, value in getattr(fix, "set", {}).items():
        out += [key, value]
    for name in _fields(fix, FIX_LIST_FIELDS):
        out += getattr(fix, name)
    return out


def interpolate_fix(fix: Fix, scope: Scope) -> Fix:
    """A copy of ``fix`` with placeholders replaced in its text, variable names and values, commands and lines.

    Variable names interpolate so a fix can use the per-node form
    ``HSA_OVERRIDE_GFX_VERSION_{gpu.kfd_node}``. A list item that is exactly one placeholder of
    a list fact expands to one item per element.
    """
    update: dict = {name: interpolate(getattr(fix, name), scope) for name in _fields(fix, FIX_TEXT_FIELDS) if getattr(fix, name)}
    if "set" in type(fix).model_fields:
        update["set"] = {interpolate(key, scope): interpolate(value, scope) for key, value in fix.set.items()}  # type: ignore[union-attr]
    for name in _fields(fix, FIX_LIST_FIELDS):
        update[name] = [out for item in getattr(fix, name) for out in _list_item(item, scope)]
    return fix.model_copy(update=update)


def _list_item(item: str, scope: Scope) -> List[str]:
    """One item of a fix's list field; an item that is exactly one placeholder of a list fact
    becomes one item per element (``unset: ["{derived.override_malformed_vars}"]``)."""
    match = PLACEHOLDER.fullmatch(item or "")
    if match:
        fact = resolve(match.group(1), scope)
        if fact.status == "known" and isinstance(fact.value, (list, tuple)):
            return [render_value(v) for v in fact.value]
    return [interpolate(item, scope)]
