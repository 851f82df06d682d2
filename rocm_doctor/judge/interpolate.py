"""``{fact.path}`` replacement in titles, messages and fixes.

Only dotted identifiers are placeholders; each is resolved with
:func:`rocm_doctor.judge.paths.resolve`, which reads declared model fields only.
No ``str.format``, no ``eval``, no format specs, no attribute access: ``{__class__}``
resolves to nothing and prints ``unknown``. Anything in braces that is not a dotted
identifier (``{"a": 1}`` in a JSON snippet) is left as written.
"""

from __future__ import annotations

import re
from typing import Any, Callable, List, Optional

from pydantic import BaseModel

from rocm_doctor import quoting
from rocm_doctor.facts.value import Fact
from rocm_doctor.model.fixes import Fix
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


def interpolate(text: str, scope: Scope, quote: Optional[Callable[[str], str]] = None) -> str:
    """Replace every ``{path}`` in ``text`` with the fact's value (passed through ``quote`` when given)."""
    if not text or "{" not in text:
        return text
    shown = quote or (lambda value: value)
    return PLACEHOLDER.sub(lambda m: shown(render_fact(resolve(m.group(1), scope))), text)


def shell_value(fix: Fix) -> Callable[[str], str]:
    """How a value is quoted inside the fix's shell commands: PowerShell for Windows-only fixes, else POSIX.

    Line breaks become spaces first: a value never adds a command or a Dockerfile instruction.
    """
    quote = quoting.powershell if fix.platforms == ["windows"] else quoting.posix_word
    return lambda value: quote(_LINE_BREAKS.sub(" ", value))


_LINE_BREAKS = re.compile(r"[\r\n]+")


FIX_TEXT_FIELDS = ("text", "intent", "index_url", "base")
FIX_LIST_FIELDS = ("unset", "packages", "commands", "run_flags", "dockerfile")
SHELL_FIELDS = ("commands", "dockerfile")
"""Fields a shell reads: a value placed in them is quoted (``commands`` are shown to paste, ``RUN`` lines run)."""


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
    a list fact expands to one item per element. In ``commands`` and ``dockerfile`` lines a
    value is quoted for the shell (see :func:`shell_value`), whatever the fact holds.
    """
    update: dict = {name: interpolate(getattr(fix, name), scope) for name in _fields(fix, FIX_TEXT_FIELDS) if getattr(fix, name)}
    if "set" in type(fix).model_fields:
        update["set"] = {interpolate(key, scope): interpolate(value, scope) for key, value in fix.set.items()}  # type: ignore[union-attr]
    for name in _fields(fix, FIX_LIST_FIELDS):
        quote = shell_value(fix) if name in SHELL_FIELDS else None
        update[name] = [out for item in getattr(fix, name) for out in _list_item(item, scope, quote)]
    return fix.model_copy(update=update)


def _list_item(item: str, scope: Scope, quote: Optional[Callable[[str], str]] = None) -> List[str]:
    """One item of a fix's list field; an item that is exactly one placeholder of a list fact
    becomes one item per element (``unset: ["{derived.override_malformed_vars}"]``)."""
    match = PLACEHOLDER.fullmatch(item or "")
    if match:
        fact = resolve(match.group(1), scope)
        if fact.status == "known" and isinstance(fact.value, (list, tuple)):
            shown = quote or (lambda value: value)
            return [shown(render_value(v)) for v in fact.value]
    return [interpolate(item, scope, quote)]
