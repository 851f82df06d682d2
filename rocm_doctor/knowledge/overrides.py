"""``HSA_OVERRIDE_GFX_VERSION``: parse, validate, name the target, recommend one.

Parsing and the per-node form follow libhsakmt (https://github.com/ROCm/ROCR-Runtime/blob/c7785a6da1c10c25bc8d527c00b1fe79bfbd84c9/libhsakmt/src/topology.c#L1204-L1231);
the workarounds and their sources are in ``rules/data/gfx_overrides.yaml``.

libhsakmt (ROCR-Runtime ``topology.c``) reads ``HSA_OVERRIDE_GFX_VERSION_<kfd node>`` first,
then ``HSA_OVERRIDE_GFX_VERSION``; the value must be exactly ``major.minor.stepping`` in
decimal with major <= 63 and minor, stepping <= 255, otherwise it logs
``HSA_OVERRIDE_GFX_VERSION %s is invalid`` and topology fails. The runtime then loads the
code objects of the overridden gfx target (``11.0.0`` -> ``gfx1100``).

API::

    parse_override('11.0.0')            -> Override(valid=True, major=11, minor=0, stepping=0)
    parse_override('gfx1100').reason    -> "must be major.minor.stepping in decimal ..."
    override_gfx('10.3.0')              -> 'gfx1030'
    override_for_agent(env, kfd_node=1) -> ('HSA_OVERRIDE_GFX_VERSION_1', '10.3.0') or the global one
    group_of('gfx1031')                 -> 'gfx10.3'
    is_cross_family('gfx1151', 'gfx900') -> True
    recommended_override('gfx1031', wheel_targets) -> '10.3.0' (None when not needed or no safe one)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple

from rocm_doctor.knowledge.gpu_table import base_gfx, gfx_from_override, override_string
from rocm_doctor.knowledge._tables import cached_view, need_mapping, need_rows, need_source, str_list

TABLE = "gfx_overrides"
VARIABLE = "HSA_OVERRIDE_GFX_VERSION"
MAX_MAJOR = 63
MAX_MINOR = 255
MAX_STEPPING = 255
_TRIPLE = re.compile(r"(\d+)\.(\d+)\.(\d+)")
_PER_NODE = re.compile(rf"^{VARIABLE}_(\d{{1,18}})$")


@dataclass(frozen=True)
class Override:
    """A parsed override value."""

    text: str
    valid: bool
    major: Optional[int] = None
    minor: Optional[int] = None
    stepping: Optional[int] = None
    reason: Optional[str] = None
    """Why an invalid value is rejected, in words a user can act on."""

    @property
    def gfx(self) -> Optional[str]:
        """The gfx target the value names (``gfx1100``), None if invalid or not a gfx name."""
        return gfx_from_override(self.text) if self.valid else None


def parse_override(value: str) -> Override:
    """Validate an override value exactly as libhsakmt does (three decimal numbers, bounds)."""
    text = value if isinstance(value, str) else str(value)
    match = _TRIPLE.fullmatch(text)
    if match is None:
        hint = ""
        if text.strip().lower().startswith("gfx"):
            spelled = override_string(text.strip())
            hint = f" (for {text.strip()} write {spelled})" if spelled else ""
        return Override(
            text=text,
            valid=False,
            reason=f"must be major.minor.stepping in decimal, e.g. 11.0.0{hint}",
        )
    major, minor, stepping = (int(g) for g in match.groups())
    if major > MAX_MAJOR or minor > MAX_MINOR or stepping > MAX_STEPPING:
        return Override(
            text=text,
            valid=False,
            reason=f"out of range: major <= {MAX_MAJOR}, minor and stepping <= {MAX_MINOR}",
        )
    return Override(text=text, valid=True, major=major, minor=minor, stepping=stepping)


def is_valid_override(value: str) -> bool:
    """True when libhsakmt accepts the value."""
    return parse_override(value).valid


def override_gfx(value: str) -> Optional[str]:
    """The gfx target an override value names, None when invalid."""
    return parse_override(value).gfx


def per_node_variable(kfd_node: int) -> str:
    """``HSA_OVERRIDE_GFX_VERSION_<node>``: the per-GPU form read before the global one."""
    return f"{VARIABLE}_{kfd_node}"


def per_node_index(name: str) -> Optional[int]:
    """The KFD node id of a per-node variable (``HSA_OVERRIDE_GFX_VERSION_1`` -> 1), None otherwise."""
    match = _PER_NODE.match(name)
    return int(match.group(1)) if match else None


def override_variables(env: Mapping[str, str]) -> Dict[str, str]:
    """Every override variable that is set (global and per-node), name -> value."""
    return {k: v for k, v in env.items() if k == VARIABLE or _PER_NODE.match(k)}


def override_for_agent(env: Mapping[str, str], kfd_node: Optional[int]) -> Optional[Tuple[str, str]]:
    """The (variable, value) libhsakmt applies to a GPU node: per-node first, then global.

    Raises :class:`LookupError` when per-node variables are set but the node id is unknown
    (the answer then depends on a fact we do not have).
    """
    per_node = {k: v for k, v in env.items() if _PER_NODE.match(k)}
    if per_node:
        if kfd_node is None:
            raise LookupError("per-node override variables are set but the GPU's KFD node id is unknown")
        name = per_node_variable(kfd_node)
        if name in per_node:
            return name, per_node[name]
    if VARIABLE in env:
        return VARIABLE, env[VARIABLE]
    return None


@dataclass(frozen=True)
class Group:
    """gfx targets that share code objects closely enough for an override (rules/data/gfx_overrides.yaml)."""

    name: str
    members: Tuple[str, ...]
    overrides: Dict[str, Tuple[str, bool, str]]
    """gfx -> (override value, recommended, source)."""
    source: str


@dataclass
class OverrideTable:
    """The parsed ``gfx_overrides`` table."""

    groups: List[Group]

    def group_of(self, gfx: str) -> Optional[str]:
        target = base_gfx(gfx)
        return next((g.name for g in self.groups if target in g.members), None)

    def workaround(self, gfx: str) -> Optional[Tuple[str, bool, str]]:
        """(override value, recommended, source) documented for ``gfx``, or None."""
        target = base_gfx(gfx)
        for group in self.groups:
            if target in group.overrides:
                return group.overrides[target]
        return None


def _build(data: Any) -> OverrideTable:
    top = need_mapping(data, TABLE, "top level")
    groups = []
    for i, row in enumerate(need_rows(top.get("groups"), TABLE, "groups")):
        path = f"groups[{i}]"
        overrides = {
            base_gfx(str(o["gfx"])): (str(o["target"]), bool(o.get("recommend", True)), need_source(o, TABLE, f"{path}.overrides"))
            for o in need_rows(row.get("overrides") or [], TABLE, f"{path}.overrides")
        }
        groups.append(
            Group(
                name=str(row.get("name")),
                members=tuple(base_gfx(g) for g in str_list(row, "members", TABLE, path)),
                overrides=overrides,
                source=str(row["source"]),
            )
        )
    return OverrideTable(groups=groups)


def table(data: Optional[Any] = None) -> OverrideTable:
    """The parsed table (the shipped one unless ``data`` is given)."""
    return cached_view(TABLE, data, _build)


def group_of(gfx: str, data: Optional[Any] = None) -> Optional[str]:
    """The override group (``gfx10.3``, ``gfx11`` ...) of a gfx target, None if unlisted."""
    return table(data).group_of(gfx)


def is_cross_family(native_gfx: str, target_gfx: str, data: Optional[Any] = None) -> Optional[bool]:
    """True when an override points a GPU at another group's code objects; None if unknown."""
    native, target = group_of(native_gfx, data), group_of(target_gfx, data)
    if native is None or target is None:
        return None
    return native != target


def recommended_override(
    gfx: str, wheel_targets: Optional[Iterable[str]], data: Optional[Any] = None
) -> Optional[str]:
    """The override to use for ``gfx`` with a wheel that has ``wheel_targets``.

    None when the wheel already has ``gfx`` (no override needed), when no documented
    same-family workaround exists or it is not recommended, when the workaround's target
    is not in the wheel either, or when the wheel's targets are unknown.
    """
    if wheel_targets is None:
        return None
    targets = {base_gfx(t) for t in wheel_targets}
    if base_gfx(gfx) in targets:
        return None
    found = table(data).workaround(gfx)
    if found is None:
        return None
    value, recommended, _source = found
    if not recommended or gfx_from_override(value) not in targets:
        return None
    return value
