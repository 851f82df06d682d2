"""Published regressions of torch and ROCm, per GPU and platform. An API over
``rules/data/regressions.yaml``::

    regressions().matching_update('torch', '2.12.0+rocm7.14.0', '2.12.0+rocm7.14.1', ['gfx1201'], 'windows')
        -> [Regression('torch-2.12-rocm7.14.1-gfx1201-windows-invalid-value', ...)]
    regressions().matching_version('torch', '2.12.0+rocm7.14.1', ['gfx1201'], 'windows') -> [...]

A row names the GPUs and platform its reports show; a machine with none of them, or on the other
platform, does not match (the table never extends a regression beyond its evidence).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, List, Optional, Tuple

from packaging.specifiers import SpecifierSet

from rocm_doctor.errors import InputError
from rocm_doctor.knowledge.gpu_table import base_gfx
from rocm_doctor.knowledge._tables import (
    cached_view,
    need_mapping,
    need_rows,
    need_source,
    parse_version,
    specifier,
    str_list,
    where,
)

TABLE = "regressions"
COMPONENTS = ("torch", "rocm")
PLATFORMS = ("linux", "windows")


@dataclass(frozen=True)
class Regression:
    """One published regression."""

    id: str
    component: str
    versions: Tuple[SpecifierSet, ...]
    gfx: Tuple[str, ...]
    platform: Optional[str]
    effect: str
    fix: str
    source: str
    last_good: Optional[str] = None
    fixed_in: Optional[str] = None

    def contains(self, version: Any) -> bool:
        parsed = parse_version(version)
        return parsed is not None and any(spec.contains(parsed, prereleases=True) for spec in self.versions)

    def applies_to(self, gfx: Iterable[str], platform: Optional[str]) -> bool:
        """The machine has one of the row's GPUs and is on its platform (an unknown platform does not match)."""
        if self.platform is not None and platform != self.platform:
            return False
        return not self.gfx or bool({base_gfx(g) for g in gfx} & set(self.gfx))

    def sentence(self, before: Optional[str], after: str) -> str:
        """``your update of torch from A to B matches the known regression ...``."""
        change = f"your update of {self.component} from {before} to {after}" if before else f"{self.component} {after}"
        fixed = f"; fixed in {self.fixed_in}" if self.fixed_in else ""
        good = f"; last good {self.last_good}" if self.last_good else ""
        return (
            f"{change} matches the known regression {self.id}: {self.effect} ({self.source}){fixed}{good}. "
            f"Fix: {self.fix}"
        )


@dataclass(frozen=True)
class RegressionTable:
    rows: Tuple[Regression, ...]

    def matching_update(
        self, component: str, before: Optional[str], after: str, gfx: Iterable[str], platform: Optional[str]
    ) -> List[Regression]:
        """Rows the update ``before`` -> ``after`` walks into on a machine with these GPUs."""
        targets = list(gfx)
        return [
            row for row in self.rows
            if row.component == component and row.contains(after) and not (before is not None and row.contains(before))
            and row.applies_to(targets, platform)
        ]

    def matching_version(self, component: str, version: str, gfx: Iterable[str], platform: Optional[str]) -> List[Regression]:
        """Rows whose broken versions include ``version`` on a machine with these GPUs."""
        targets = list(gfx)
        return [r for r in self.rows if r.component == component and r.contains(version) and r.applies_to(targets, platform)]


def _row(raw: Any, index: int) -> Regression:
    path = f"regressions[{index}]"
    row = need_mapping(raw, TABLE, path)
    text = {key: row.get(key) for key in ("id", "component", "effect", "fix")}
    for key, value in text.items():
        if not isinstance(value, str) or not value.strip():
            raise InputError(f"{where(TABLE, path)}.{key} must be text")
    if text["component"] not in COMPONENTS:
        raise InputError(f"{where(TABLE, path)}.component must be one of {', '.join(COMPONENTS)}")
    platform = row.get("platform")
    if platform is not None and platform not in PLATFORMS:
        raise InputError(f"{where(TABLE, path)}.platform must be one of {', '.join(PLATFORMS)}")
    versions = str_list(row, "versions", TABLE, path)
    if not versions:
        raise InputError(f"{where(TABLE, path)}.versions must list at least one specifier")
    optional = {key: row.get(key) for key in ("last_good", "fixed_in")}
    for key, value in optional.items():
        if value is not None and not isinstance(value, str):
            raise InputError(f"{where(TABLE, path)}.{key} must be text")
    return Regression(
        id=str(text["id"]),
        component=str(text["component"]),
        versions=tuple(specifier(v, TABLE, f"{path}.versions") for v in versions),
        gfx=tuple(str_list(row, "gfx", TABLE, path)),
        platform=platform,
        effect=str(text["effect"]),
        fix=str(text["fix"]),
        source=need_source(row, TABLE, path),
        last_good=optional["last_good"],
        fixed_in=optional["fixed_in"],
    )


def _build(data: Any) -> RegressionTable:
    table = need_mapping(data, TABLE, "top level")
    rows = [_row(raw, i) for i, raw in enumerate(need_rows(table.get("regressions"), TABLE, "regressions"))]
    ids = [r.id for r in rows]
    duplicate = next((i for i in ids if ids.count(i) > 1), None)
    if duplicate is not None:
        raise InputError(f"{where(TABLE, 'regressions')}: id {duplicate} appears twice")
    return RegressionTable(tuple(rows))


def regressions(table: Optional[Any] = None) -> RegressionTable:
    """The parsed table (the shipped one unless ``table`` is given)."""
    return cached_view(TABLE, table, _build)
