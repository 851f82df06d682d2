"""Helpers shared by the derived-fact modules (not itself one: its name starts with ``_``).

Most derived facts look an input fact up, hand it on as is (or :func:`carry` it) when it is
not known, and compute from its value otherwise: :func:`then`, :func:`from_input`,
:func:`from_known` and :func:`lookup` are that scaffolding, written once.
"""

from __future__ import annotations

import re
from typing import Any, Callable, List, Optional, Sequence

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables
from rocm_doctor.knowledge._tables import parse_version, series
from rocm_doctor.knowledge.torch_wheels import TorchWheels, wheels

_ROCM_LOCAL = re.compile(r"^rocm(\d+(?:\.\d+){1,2})$")


def carry(fact: Fact, what: str) -> Fact:
    """A derived fact for an input that is not known: absent stays absent, else unknown."""
    if fact.status == "absent":
        return absent(fact.source or what, fact.reason or f"{what} is absent")
    return unknown(fact.reason or f"{what} is {fact.status}")


def ids_shown(fact: Fact) -> List[str]:
    """The ids a list fact of the report holds (``symptoms.context``, ``symptoms.signatures``); ``[]`` when it
    is not known or empty."""
    return list(fact.value or []) if fact.is_known else []


def when_context_says(facts: Facts, ids: Sequence[str], none_reason: str, compute: Callable[[List[str], str], Fact]) -> Fact:
    """``compute(ids the report's context holds, its source)`` when the report says one of ``ids``
    (``symptoms.context``); unknown when its context was not read, absent (``none_reason``) when it says none."""
    context = facts.symptoms.context
    if not context.is_known:
        return unknown(context.reason or "the report's context was not read")
    source = context.source or "paste"
    said = [c for c in ids if c in (context.value or [])]
    if not said:
        return absent(source, none_reason)
    return compute(said, source)


def derive(fact: Fact, value: Any, what: str) -> Fact:
    """``known(value)`` sourced from ``fact`` (the input it was computed from)."""
    return known(value, fact.source or what)


def list_fact(items: List[str], source: str, none_reason: str) -> Fact:
    """A list that is ``known`` when it has members and ``absent`` (with a reason) when empty.

    Rules test these with ``exists: true``.
    """
    return known(items, source) if items else absent(source, none_reason)


def the_one_named(shown: Fact, what: str, none_reason: str, several_reason: Callable[[List[Any]], str],
                  compute: Callable[[Any, str], Fact], same: Callable[[Any], Any] = lambda item: item) -> Fact:
    """A derived fact from the one distinct item a list fact of the report names (a wheel index, a build's
    target list): carried when the list is not known, absent when it names none, unknown when it names
    several (which one mattered is not shown; ``same`` says which items are one), else ``compute(item, source)``."""
    if not shown.is_known:
        return carry(shown, what)
    by_key = {same(item): item for item in shown.value or [] if item}
    distinct = [by_key[key] for key in sorted(by_key, key=str)]
    source = shown.source or "paste"
    if not distinct:
        return absent(source, none_reason)
    if len(distinct) > 1:
        return unknown(several_reason(distinct))
    return compute(distinct[0], source)


def table_wheels(tables: Tables) -> TorchWheels:
    """The torch wheel table through the evaluation's :class:`Tables` (tests may substitute it)."""
    return wheels(tables["torch_wheels"])


def torch_version(facts: Facts) -> Fact:
    """``torch.version`` when it is a valid PEP 440 version, else absent/unknown with the reason."""
    fact = facts.torch.version
    if not fact.is_known:
        return carry(fact, "torch.version")
    if parse_version(fact.value) is None:
        return unknown(f"torch version {fact.value!r} is not a PEP 440 version")
    return fact


def is_rocm_torch(facts: Facts) -> Fact:
    """Whether the installed torch is a ROCm build (``torch.flavour == rocm``)."""
    flavour = facts.torch.flavour
    if not flavour.is_known:
        return carry(flavour, "torch.flavour")
    return derive(flavour, flavour.value == "rocm", "torch.flavour")


def on_rocm_torch(facts: Facts, compute: Callable[[], Fact]) -> Fact:
    """``compute()`` when the installed torch is a ROCm build; absent for another flavour,
    the flavour's own status when that is not known."""
    rocm = is_rocm_torch(facts)
    if not rocm.is_known:
        return rocm
    if not rocm.value:
        return absent("torch.flavour", f"torch is a {facts.torch.flavour.value} build, not ROCm")
    return compute()


def pytorch_org_rocm(facts: Facts, tables: Tables) -> Fact:
    """Whether the installed torch is a pytorch.org ROCm wheel the table describes.

    Known True when the flavour is ``rocm``, the distributor is ``pytorch.org`` (or not known
    and the local version is exactly ``+rocmX.Y[.Z]``) and that ROCm is one of the release's
    pytorch.org variants; False for other distributors and builds.
    """
    rocm = is_rocm_torch(facts)
    if not rocm.is_known:
        return rocm
    if not rocm.value:
        return derive(rocm, False, "torch.flavour")
    version = torch_version(facts)
    if not version.is_known:
        return version
    distributor = facts.torch.distributor
    if distributor.is_known and distributor.value != "pytorch.org":
        return derive(distributor, False, "torch.distributor")
    local = parse_version(version.value).local or ""  # type: ignore[union-attr]
    match = _ROCM_LOCAL.match(local)
    if match is None:
        if distributor.is_known:
            return unknown(f"torch {version.value} is labelled pytorch.org but has no +rocmX.Y tag")
        return derive(version, False, "torch.version")
    listed = table_wheels(tables).is_variant(version.value, match.group(1))
    if listed is None:
        return unknown(f"the wheel table does not cover torch {version.value}")
    return derive(version, listed, "torch.version")


def live_arch_list(facts: Facts) -> Optional[tuple]:
    """(gfx targets, source) from the live ``torch.cuda.get_arch_list()``, None when not usable.

    An empty list is not usable: torch returns ``[]`` when no GPU is available (WSL2 without the
    runtime swap, missing permissions), which says nothing about the wheel.
    """
    arch = facts.torch.live.arch_list
    if not arch.is_known or not isinstance(arch.value, list) or not arch.value:
        return None
    return [str(a).split(":", 1)[0].lower() for a in arch.value], arch.source or "torch.live.arch_list"


def wheel_targets(facts: Facts, tables: Tables) -> Optional[tuple]:
    """(targets, source) the installed ROCm torch can run: the live ``get_arch_list()`` when the
    probe gave it, else the wheel table for a pytorch.org wheel, less the targets whose math
    libraries the wheel's ROCm lacks (``library_gaps``: gfx900/gfx906 from ROCm 6.4); None when
    neither can say."""
    found = live_arch_list(facts)
    if found is None:
        org = pytorch_org_rocm(facts, tables)
        if org.is_known and org.value:
            targets = table_wheels(tables).gfx_targets(facts.torch.version.value, facts.torch.rocm_version.value)
            if targets is not None:
                found = (targets, "rules/data/torch_wheels.yaml")
    if found is None:
        return None
    targets, source = found
    rocm = facts.torch.rocm_version.value if facts.torch.rocm_version.is_known else None
    if rocm is not None:
        wheels = table_wheels(tables)
        targets = [t for t in targets if not wheels.library_gap(t, rocm)]
    return targets, source


def version_series(fact: Fact, what: str) -> Fact:
    """``major.minor`` of a version fact (``6.2.4`` -> ``6.2``)."""
    if not fact.is_known:
        return carry(fact, what)
    value = series(fact.value)
    if value is None:
        return unknown(f"{what} {fact.value!r} is not a version")
    return derive(fact, value, what)


def first_missing(*facts: Fact) -> Optional[Fact]:
    """The first input that is not known (to return as is), None when all are known."""
    return next((fact for fact in facts if not fact.is_known), None)


def combine(first: Fact, second: Fact, fn: Callable[[Any, Any], Any], source: Optional[str] = None) -> Fact:
    """``known(fn(first.value, second.value))`` when both inputs are known (else the first missing
    one); ``fn`` returning None means the answer is unknown."""
    missing = first_missing(first, second)
    if missing is not None:
        return missing
    value = fn(first.value, second.value)
    if value is None:
        return unknown(f"no answer for {first.value!r} and {second.value!r}")
    return known(value, source or f"{first.source}; {second.source}")


def then(fact: Fact, compute: Callable[[Any], Fact]) -> Fact:
    """``compute(fact.value)`` when ``fact`` is known; an unknown or absent input passes through as is."""
    return compute(fact.value) if fact.is_known else fact


def from_input(fact: Fact, what: str, compute: Callable[[Any], Fact]) -> Fact:
    """``compute(fact.value)`` when ``fact`` is known, else :func:`carry` (absent stays absent,
    anything else is unknown with the input's reason). ``what`` names the input (``host.os``)."""
    return compute(fact.value) if fact.is_known else carry(fact, what)


def from_known(fact: Fact, compute: Callable[[Any], Any], source: str, when_none: Callable[[Any], Fact]) -> Fact:
    """The common shape of a lookup: pass an unknown/absent input through, else
    ``known(compute(value), source)``, or ``when_none(value)`` when the lookup has no answer."""
    if not fact.is_known:
        return fact
    value = compute(fact.value)
    return when_none(fact.value) if value is None else known(value, source)


def lookup(fact: Fact, compute: Callable[[Any], Any], source: str, none_reason: str, none_absent: bool = True) -> Fact:
    """:func:`from_known` for a table lookup whose "no answer" is a plain reason.

    ``none_reason`` is a :meth:`str.format` template with the input value as ``{value}``
    (``"{value} is not in the GPU table"``); no answer is ``absent(source, reason)``, or
    ``unknown(reason)`` with ``none_absent=False`` (the table is silent, not negative).
    """

    def no_answer(value: Any) -> Fact:
        reason = none_reason.format(value=value)
        return absent(source, reason) if none_absent else unknown(reason)

    return from_known(fact, compute, source, no_answer)
