"""``{fact.path}`` replacement in titles, messages and fixes.

Only dotted identifiers are placeholders; each is resolved with
:func:`rocm_doctor.judge.paths.resolve`, which reads declared model fields only.
No ``str.format``, no ``eval``, no format specs, no attribute access: ``{__class__}``
resolves to nothing and prints ``unknown``. Anything in braces that is not a dotted
identifier (``{"a": 1}`` in a JSON snippet) is left as written.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Collection, List, Optional

from pydantic import BaseModel

from rocm_doctor import quoting
from rocm_doctor.facts.value import Fact
from rocm_doctor.model.fixes import Fix
from rocm_doctor.judge.paths import Scope, resolve

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_][A-Za-z0-9_\-]*)+|[A-Za-z_][A-Za-z0-9_]*)\}")
"""``{name}`` or ``{a.b.c}``; dict keys may contain ``-`` (``packages.installed.pytorch-triton-rocm``)."""

UNKNOWN_TEXT = "unknown"
NOT_GIVEN = ("unknown", "failed")
"""Statuses of facts a pasted report does not give (``absent`` is a fact: it was shown to be missing)."""
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


def interpolate(
    text: str, scope: Scope, quote: Optional[Callable[[str], str]] = None, named: Collection[str] = ()
) -> str:
    """Replace every ``{path}`` in ``text`` with the fact's value (passed through ``quote`` when given).

    ``named``: fact statuses that read as the placeholder's :func:`readable_name` instead of
    ``unknown``/``absent``. A pasted report names what it does not give ("kernels for <GPU name>
    (gfx1032)"); a rule it leaves open names every fact it would print ("torch <torch version>").
    """
    if not text or "{" not in text:
        return text
    shown = quote or (lambda value: value)

    def replace(match: "re.Match[str]") -> str:
        fact = resolve(match.group(1), scope)
        if fact.status in named:
            return f"<{readable_name(match.group(1))}>"
        return shown(render_fact(fact))

    return PLACEHOLDER.sub(replace, text)


READABLE_NAMES = {
    "gpu.gfx": "gfx target",
    "gpu.effective_gfx": "gfx target it runs as",
    "gpu.name": "GPU name",
    "gpu.kfd_node": "KFD node",
    "gpu.override": "override value",
    "gpu.override_var": "override variable",
    "gpu.override_gfx": "gfx target of the override",
    "gpu.documented_override": "documented override",
    "gpu.first_torch_with_gfx": "first torch with it",
    "gpu.newest_torch_with_gfx": "newest torch with it",
    "gpu.wheel_library_gap": "library",
    "torch.version": "torch version",
    "torch.rocm_version": "torch's ROCm version",
    "rocm.version": "ROCm version",
    "python.version": "Python version",
    "python.executable": "python",
}
"""Names for the placeholders rules use most; any other path gets a name made from its words."""

_PREFIX_WORDS = {"gpu": "GPU", "torch": "torch", "rocm": "ROCm", "python": "Python", "cpu": "CPU", "host": "host"}


def readable_name(path: str) -> str:
    """A placeholder's name for people (``gpu.gfx`` -> ``gfx target``, ``env.vars.X`` -> ``value of X``)."""
    if path in READABLE_NAMES:
        return READABLE_NAMES[path]
    segments = path.split(".")
    if segments[:2] == ["env", "vars"] and len(segments) == 3:
        return f"value of {segments[2]}"
    if segments[:2] == ["packages", "installed"] and len(segments) == 3:
        return f"{segments[2]} version"
    if segments[:2] == ["bench", "results"]:
        segments = segments[2:]
    elif segments[0] in ("derived", "permissions", "env", "packages", "bench"):
        segments = segments[1:]
    elif segments[0] in _PREFIX_WORDS and len(segments) > 1:
        # torch.torchvision_version -> "torchvision version", gpu.first_torch_with_gfx -> "GPU first torch with gfx"
        segments = segments[1:] if segments[1].startswith(segments[0]) else [_PREFIX_WORDS[segments[0]]] + segments[1:]
    return " ".join(segments).replace("_", " ")


def readable(text: str) -> str:
    """A template as people read it where no machine is at hand (``explain``, ``rules list``):
    every ``{path}`` becomes ``<its readable name>``, never the raw path."""
    return PLACEHOLDER.sub(lambda m: f"<{readable_name(m.group(1))}>", text or "")


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
