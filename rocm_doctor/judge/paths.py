"""Dotted fact paths: check them against the Facts model and resolve them to a Fact.

A path is one of:

* a field of the :class:`~rocm_doctor.facts.model.Facts` model (``torch.version``,
  ``rocm.tools.rocminfo``, ``torch.live.arch_list``);
* a key inside a dict-valued fact (``env.vars.HSA_OVERRIDE_GFX_VERSION``,
  ``packages.installed.numpy``): a missing key is ``absent``, with the dict's source;
* ``gpu.<field>`` (a :class:`~rocm_doctor.facts.model.GpuAgent` field) or ``gpu.<name>``
  (a per-GPU derived fact), only inside ``for_each: gpu`` rules;
* ``derived.<name>``: a machine-wide derived fact.

Only declared model fields are ever read (``model_fields``), never ``getattr`` on a
name from a rule, so ``{__class__}`` cannot reach Python internals.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, List, Optional, Tuple, Type

from pydantic import BaseModel

from rocm_doctor.facts.model import Facts, GpuAgent, Section
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import GPU_PREFIX, MACHINE_PREFIX, REGISTRY, DerivedValues, load_all

PLAIN_SOURCE = "rocm-doctor facts"
"""Source given to plain (non-Fact) model fields such as ``gpu.index``."""


class PathError(ValueError):
    """A fact path that the Facts model, the GPU agent or the derived registry does not have."""


@dataclass(frozen=True)
class PathInfo:
    """What a valid path names."""

    kind: str
    """``fact``, ``plain`` (a non-Fact model field), ``key`` (a key of a dict fact), ``derived``."""
    value_type: Optional[str]
    """``str``, ``int``, ``float``, ``bool``, ``list``, ``dict`` or None when any type may come."""


@dataclass
class Scope:
    """What a path resolves against: one Facts snapshot, its derived facts, and the current GPU."""

    facts: Facts
    derived: DerivedValues
    agent: Optional[GpuAgent] = None


def _type_name(annotation: Any) -> Optional[str]:
    origin = typing.get_origin(annotation)
    if origin is typing.Union:
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _type_name(inner[0]) if len(inner) == 1 else None
    if origin in (list, List):
        return "list"
    if origin is dict:
        return "dict"
    if annotation in (str, int, float, bool):
        return annotation.__name__
    return None


def _fact_value_annotation(annotation: Any) -> Optional[Any]:
    """``T`` of a ``Fact[T]`` annotation, or None when the annotation is not a Fact."""
    if isinstance(annotation, type) and issubclass(annotation, Fact):
        args = annotation.__pydantic_generic_metadata__.get("args") or (Any,)
        return args[0]
    return None


@lru_cache(maxsize=None)
def _plan(cls: Type[BaseModel], segments: Tuple[str, ...], prefix: str) -> Tuple[PathInfo, int, Optional[str]]:
    """What ``segments`` name under model class ``cls``: the path's info, how many leading segments are
    model fields to follow on an instance, and the key inside a dict fact (or None). Cached: the models
    do not change at run time, and judging resolves the same few hundred paths for every rule and GPU.
    Raises PathError for a path the model does not have."""
    walked = prefix
    for position, segment in enumerate(segments):
        field = cls.model_fields.get(segment)
        if field is None:
            raise PathError(f"'{walked}' has no field '{segment}'" if walked else f"no fact section '{segment}'")
        walked = f"{walked}.{segment}" if walked else segment
        annotation = field.annotation
        rest = segments[position + 1 :]
        value_annotation = _fact_value_annotation(annotation)
        if value_annotation is not None:
            value_type = _type_name(value_annotation)
            if not rest:
                return PathInfo("fact", value_type), position + 1, None
            if value_type != "dict":
                raise PathError(f"'{walked}' is not a dict fact, so '{'.'.join(rest)}' cannot follow it")
            item_type = _type_name(typing.get_args(value_annotation)[1]) if typing.get_args(value_annotation) else None
            return PathInfo("key", item_type), position + 1, ".".join(rest)
        if isinstance(annotation, type) and issubclass(annotation, Section):
            cls = annotation
            continue
        value_type = _type_name(annotation)
        if rest or value_type in (None, "list", "dict"):
            raise PathError(f"'{walked}' is not a fact a rule can read")
        return PathInfo("plain", value_type), position + 1, None
    raise PathError(f"'{walked}' is a section, not a fact; name one of its fields")


def _walk(cls: Type[BaseModel], segments: List[str], obj: Any, prefix: str) -> Tuple[PathInfo, Any]:
    """Follow ``segments`` through model class ``cls`` (and instance ``obj`` when given).

    Returns what the path names and the object found (a Fact, a plain value, or the
    dict fact plus the key). Raises PathError for a path the model does not have.
    """
    info, fields, key = _plan(cls, tuple(segments), prefix)
    for segment in segments[:fields]:
        obj = getattr(obj, segment) if obj is not None else None
    return info, ((obj, key) if key is not None else obj)


def _derived_info(path: str, scope_name: str) -> Optional[PathInfo]:
    load_all()
    entry = REGISTRY.get(path)
    if entry is not None and entry.scope == scope_name:
        return PathInfo("derived", None)
    return None


@lru_cache(maxsize=None)
def describe(path: str, for_each_gpu: bool) -> PathInfo:
    """What ``path`` names; raises PathError when it names nothing a rule may read."""
    segments = path.split(".")
    if any(not s for s in segments):
        raise PathError(f"'{path}' is not a dotted fact path")
    head = segments[0]
    if head == MACHINE_PREFIX:
        info = _derived_info(path, "machine")
        if info is None:
            raise PathError(f"'{path}' is not a registered derived fact")
        return info
    if head == GPU_PREFIX:
        if not for_each_gpu:
            raise PathError(f"'{path}' is a per-GPU fact; it is only allowed in a 'for_each: gpu' rule")
        info = _derived_info(path, "gpu") if len(segments) == 2 else None
        if info is not None:
            return info
        try:
            return _walk(GpuAgent, segments[1:], None, GPU_PREFIX)[0]
        except PathError as exc:
            raise PathError(f"{exc} (and no per-GPU derived fact '{path}' is registered)") from None
    return _walk(Facts, segments, None, "")[0]


def check(path: str, for_each_gpu: bool) -> Optional[str]:
    """None when ``path`` is valid, else a one-line reason."""
    try:
        describe(path, for_each_gpu)
    except PathError as exc:
        return str(exc)
    return None


_NOT_IN_ENV_LISTING = "{key} is not shown: the report lists only some variables (run: env | grep -E 'HSA|HIP|ROCR|PYTORCH')"
_NOT_IN_PACKAGE_LISTING = "{key} is not shown: the report lists only some packages (run: pip list)"


def _from_key(fact: Fact, key: str, dict_path: str, covered: bool = True, why: str = "") -> Fact:
    if fact.status == "absent":
        return absent(fact.source or dict_path, fact.reason)
    if not fact.is_known:
        return fact
    if isinstance(fact.value, dict) and key in fact.value:
        return known(fact.value[key], fact.source or dict_path)
    if not covered:
        return unknown(why.format(key=key))
    return absent(fact.source or dict_path, f"{key} is not in {dict_path}")


_MACHINE_HEAD = MACHINE_PREFIX + "."


def resolve(path: str, scope: Scope) -> Fact:
    """The Fact at ``path``; a path that names nothing is an ``unknown`` fact, never an error.

    A plain fact is looked up once per snapshot and GPU: the rules read the same few hundred paths
    over and over (a third of judging a pasted report was finding them again)."""
    if path.startswith(_MACHINE_HEAD):  # memoised by the derived values, and some are computed again
        return _machine(path, scope)
    key = (path, id(scope.facts), id(scope.agent))
    memo = scope.derived.plain
    entry = memo.get(key)
    # The entry keeps the snapshot and the GPU it was found for: while it lives no other object can take
    # their ids, so a Scope over other facts than the derived values' (freed, then another made) never
    # gets a fact of the earlier one.
    if entry is None or entry[0] is not scope.facts or entry[1] is not scope.agent:
        entry = memo[key] = (scope.facts, scope.agent, _resolve(path, scope))
    return entry[2]


def _machine(path: str, scope: Scope) -> Fact:
    """A machine-wide derived fact (``derived.<name>``), or an unknown fact where none is registered."""
    try:
        found = scope.derived.machine(path)
    except PathError as exc:
        return unknown(str(exc))
    return found if found is not None else unknown(f"no derived fact {path}")


def _resolve(path: str, scope: Scope) -> Fact:
    segments = path.split(".")
    if segments[0] == MACHINE_PREFIX:
        return _machine(path, scope)
    try:
        if segments[0] == GPU_PREFIX:
            if scope.agent is None:
                return unknown(f"{path} is only known inside a per-GPU rule")
            if len(segments) == 2:
                found = scope.derived.gpu(path, scope.agent)
                if found is not None:
                    return found
            info, obj = _walk(GpuAgent, segments[1:], scope.agent, GPU_PREFIX)
            plain_source = scope.agent.source
        else:
            info, obj = _walk(Facts, segments, scope.facts, "")
            plain_source = PLAIN_SOURCE
    except PathError as exc:
        return unknown(str(exc))
    if info.kind == "key":
        fact, key = obj
        dict_path = path[: -len(key) - 1]
        # env.vars from a pasted report may be a partial listing: a variable it does not cover is unknown.
        if dict_path == "env.vars":
            covered, why = scope.facts.env.covers(key), _NOT_IN_ENV_LISTING
        elif dict_path == "packages.installed":
            # a pasted `pip list | grep torch` or collect_env's relevant libraries: a name it lacks may be installed
            covered, why = scope.facts.packages.covers(key), _NOT_IN_PACKAGE_LISTING
        else:
            covered, why = True, ""
        return _from_key(fact, key, dict_path, covered, why)
    if info.kind == "plain":
        return known(obj, plain_source) if obj is not None else absent(plain_source)
    return obj


def _listing(cls: Type[BaseModel], prefix: str) -> List[str]:
    out: List[str] = []
    for name, field in cls.model_fields.items():
        path = f"{prefix}.{name}" if prefix else name
        value_annotation = _fact_value_annotation(field.annotation)
        if value_annotation is not None:
            out.append(f"{path}.<key>" if _type_name(value_annotation) == "dict" else path)
        elif isinstance(field.annotation, type) and issubclass(field.annotation, Section):
            out.extend(_listing(field.annotation, path))
        elif _type_name(field.annotation) in ("str", "int", "float", "bool"):
            out.append(path)
    return out


def valid_paths() -> List[str]:
    """Every path a rule may use; ``<key>`` marks any key of a dict fact."""
    paths = _listing(Facts, "")
    paths += _listing(GpuAgent, GPU_PREFIX)
    load_all()
    paths += [p for p in REGISTRY]
    return sorted(set(paths))
