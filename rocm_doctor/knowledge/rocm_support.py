"""ROCm release -> supported gfx targets on Linux, Windows and in TheRock.

An API over ``rules/data/rocm_support.yaml``::

    linux_supported('gfx1101', '6.4.1')      -> True
    linux_supported('gfx1031', '6.2.0')      -> False  (not in the compatibility matrix)
    windows_runtime_supported('gfx1030')     -> None   (supported up to 6.4.2, dropped in 7.2: the release decides)
    windows_runtime_supported('gfx1030', '7.2') -> False
    windows_sdk_supported('gfx1103', '6.4')  -> False  (not listed: no HIP SDK libraries for it)
    therock_status('gfx1031', 'linux')       -> 'release_ready'
    therock_device_extra('gfx90c')           -> False  (built, but no device-gfx90c torch extra)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from packaging.specifiers import SpecifierSet

from rocm_doctor.knowledge.gpu_table import base_gfx
from rocm_doctor.knowledge._tables import (
    cached_view,
    need_mapping,
    need_rows,
    need_source,
    parse_version,
    specifier,
    str_list,
    version_key,
)

TABLE = "rocm_support"


@dataclass(frozen=True)
class WindowsRow:
    """One Windows HIP SDK system-requirements table."""

    rocm: str
    runtime: Tuple[str, ...]
    sdk: Tuple[str, ...]
    unsupported: Tuple[str, ...]
    partial: bool
    """True when the row records only some GPUs of that page."""
    source: str
    sdk_complete: bool = False
    """True when every row of that page's tables was transcribed (checked against the pinned source), so a
    target the HIP SDK column leaves out is one the page does not list; False when rows may be missing (a
    page read from a cut excerpt, or one with a Ryzen APU tab not transcribed)."""


@dataclass
class RocmSupport:
    """The parsed ``rocm_support`` table."""

    linux: List[Tuple[SpecifierSet, Optional[Tuple[str, ...]], str]]
    """(ROCm specifier, gfx targets or None when the release's list was not read, source)."""
    windows: List[WindowsRow]
    therock: Dict[str, Dict[str, List[str]]]
    retired: Dict[str, str]
    """gfx -> source, for targets ROCm and HIP dropped altogether (on every platform)."""
    device_extras: Tuple[str, ...] = ()
    """Targets with a ``device-gfxNNN`` torch extra on TheRock's multi-arch index."""

    def linux_supported(self, gfx: str, rocm_version: Any) -> Optional[bool]:
        """Whether ``gfx`` is in the Linux compatibility matrix of that ROCm release.

        None for a ROCm release the table does not cover (before 6.0) or whose list it has not read.
        """
        if base_gfx(gfx) in self.retired:
            return False
        version = parse_version(rocm_version)
        if version is None:
            return None
        for spec, targets, _source in self.linux:
            if version in spec:
                return None if targets is None else base_gfx(gfx) in targets
        return None

    def windows_runtime_supported(self, gfx: str, rocm_version: Optional[str] = None) -> Optional[bool]:
        """Whether the Windows HIP runtime of ``rocm_version`` supports ``gfx``; False for a retired
        target, None when the table does not mention it.

        A release is judged by the newest full table of its major version that is not newer than
        its series (``6.4`` and ``6.4.2`` by the 6.4.2 table; a bare major ``6``, as an
        ``amdhip64_6.dll`` shows, by the newest 6.x table); None when no such table is kept.
        Without a release the answer must hold for every full table kept: RDNA2's gfx1030 is
        supported up to 6.4.2 and dropped in 7.2, so a report that does not show its runtime
        release gets None for it, not 7.2's False (tables that do not mention the target abstain)."""
        target = base_gfx(gfx)
        if target in self.retired:
            return False
        rows = [r for r in self.windows if not r.partial]
        if rocm_version is None:
            verdicts = {_runtime_verdict(row, target) for row in rows} - {None}
            return verdicts.pop() if len(verdicts) == 1 else None
        row = _table_in_force(rows, rocm_version)
        return None if row is None else _runtime_verdict(row, target)

    def windows_sdk_supported(self, gfx: str, rocm_version: str) -> Optional[bool]:
        """Whether the HIP SDK of ``rocm_version`` ships its libraries (rocBLAS, MIOpen ...) for ``gfx``.

        AMD's Windows requirements pages say a GPU they do not list is not supported, so a complete
        table answers False for a target missing from its HIP SDK column, and for one listed with the
        runtime only (RDNA2 gfx1031/gfx1032). None when no complete table of that release is kept."""
        row = _table_in_force([r for r in self.windows if not r.partial], rocm_version)
        target = base_gfx(gfx)
        if target in self.retired:
            return False
        if row is None:
            return None
        return target in row.sdk

    def windows_sdk_lacks(self, gfx: str, rocm_version: Optional[str] = None) -> Optional[bool]:
        """Whether the HIP SDK of ``rocm_version`` certainly ships no libraries for ``gfx``.

        True only where a table says so: the release's table marks the target with a cross in its HIP SDK
        column (runtime only, or unsupported), or the table is ``sdk_complete`` and leaves it out. Without a
        release: True only for a target that no table lists in its HIP SDK column and that a complete table
        marks with a cross (RDNA2 gfx1031/gfx1032). False when the release's table lists it; None otherwise
        (a table whose rows were not all transcribed does not say a target is missing)."""
        target = base_gfx(gfx)
        if target in self.retired:
            return True
        full = [r for r in self.windows if not r.partial]
        if rocm_version is not None:
            row = _table_in_force(full, rocm_version)
            if row is None:
                return None
            if target in row.sdk:
                return False
            crossed = target in row.runtime or target in row.unsupported
            return True if crossed or row.sdk_complete else None
        if not full or any(target in r.sdk for r in full):
            return None
        crossed = any(r.sdk_complete and (target in r.runtime or target in r.unsupported) for r in full)
        return True if crossed else None

    def newest_windows(self) -> Optional[WindowsRow]:
        """The newest complete Windows table."""
        rows = [r for r in self.windows if not r.partial]
        return max(rows, key=lambda r: version_key(r.rocm)) if rows else None

    def therock_device_extra(self, gfx: str) -> bool:
        """Whether TheRock's multi-arch index has a ``device-<gfx>`` extra for torch."""
        return base_gfx(gfx) in self.device_extras

    def therock_status(self, gfx: str, platform: str) -> Optional[str]:
        """``release_ready``, ``build_only`` or None in TheRock for ``linux``/``windows``."""
        lists = self.therock.get(platform, {})
        target = base_gfx(gfx)
        for status in ("release_ready", "build_only"):
            if target in lists.get(status, []):
                return status
        return None


def _build(data: Any) -> RocmSupport:
    top = need_mapping(data, TABLE, "top level")
    linux = [
        (
            specifier(row["rocm"], TABLE, f"linux[{i}]"),
            None if row.get("gfx_unverified") else tuple(str_list(row, "gfx", TABLE, f"linux[{i}]")),
            need_source(row, TABLE, f"linux[{i}]"),
        )
        for i, row in enumerate(need_rows(top.get("linux"), TABLE, "linux"))
    ]
    windows = [
        WindowsRow(
            rocm=str(row["rocm"]),
            runtime=tuple(str_list(row, "runtime", TABLE, f"windows[{i}]")),
            sdk=tuple(str_list(row, "sdk", TABLE, f"windows[{i}]")),
            unsupported=tuple(str_list(row, "unsupported", TABLE, f"windows[{i}]")),
            partial=bool(row.get("partial", False)),
            source=need_source(row, TABLE, f"windows[{i}]"),
            sdk_complete=bool(row.get("sdk_complete", False)),
        )
        for i, row in enumerate(need_rows(top.get("windows"), TABLE, "windows"))
    ]
    rock = need_mapping(top.get("therock") or {}, TABLE, "therock")
    therock = {
        platform: {
            status: str_list(need_mapping(rock.get(platform) or {}, TABLE, f"therock.{platform}"), status, TABLE, f"therock.{platform}")
            for status in ("release_ready", "build_only")
        }
        for platform in ("linux", "windows")
    }
    retired_rows = need_rows(top.get("retired") or [], TABLE, "retired")
    retired = {str(row["gfx"]): need_source(row, TABLE, f"retired[{i}]") for i, row in enumerate(retired_rows)}
    if rock:
        need_source(rock, TABLE, "therock")
    extras = tuple(base_gfx(g) for g in str_list(rock, "device_extras", TABLE, "therock"))
    return RocmSupport(linux=linux, windows=windows, therock=therock, retired=retired, device_extras=extras)


def support(table: Optional[Any] = None) -> RocmSupport:
    """The parsed table (the shipped one unless ``table`` is given)."""
    return cached_view(TABLE, table, _build)


def linux_supported(gfx: str, rocm_version: Any, table: Optional[Any] = None) -> Optional[bool]:
    """See :meth:`RocmSupport.linux_supported`."""
    return support(table).linux_supported(gfx, rocm_version)


def _tables_in_force(rows: List[WindowsRow], rocm_version: str) -> List[WindowsRow]:
    wanted = parse_version(rocm_version)
    if wanted is None:
        return []
    bare_major = "." not in str(rocm_version).strip()
    chosen = []
    for row in rows:
        table = parse_version(row.rocm)
        if table is None or table.major != wanted.major:
            continue
        if bare_major or (table.major, table.minor) <= (wanted.major, wanted.minor):
            chosen.append(row)
    return chosen


def _table_in_force(rows: List[WindowsRow], rocm_version: str) -> Optional[WindowsRow]:
    """The table that judges ``rocm_version``: the newest of :func:`_tables_in_force`; None when none is kept."""
    chosen = _tables_in_force(rows, rocm_version)
    return max(chosen, key=lambda r: version_key(r.rocm)) if chosen else None


def _runtime_verdict(row: WindowsRow, target: str) -> Optional[bool]:
    """One Windows table's word on a target's HIP runtime: listed, listed as unsupported, or not mentioned."""
    if target in row.runtime:
        return True
    if target in row.unsupported:
        return False
    return None


def windows_runtime_supported(gfx: str, rocm_version: Optional[str] = None, table: Optional[Any] = None) -> Optional[bool]:
    """See :meth:`RocmSupport.windows_runtime_supported`."""
    return support(table).windows_runtime_supported(gfx, rocm_version)


def windows_sdk_lacks(gfx: str, rocm_version: Optional[str] = None, table: Optional[Any] = None) -> Optional[bool]:
    """See :meth:`RocmSupport.windows_sdk_lacks`."""
    return support(table).windows_sdk_lacks(gfx, rocm_version)


def windows_sdk_supported(gfx: str, rocm_version: str, table: Optional[Any] = None) -> Optional[bool]:
    """See :meth:`RocmSupport.windows_sdk_supported`."""
    return support(table).windows_sdk_supported(gfx, rocm_version)


def therock_device_extra(gfx: str, table: Optional[Any] = None) -> bool:
    """See :meth:`RocmSupport.therock_device_extra`."""
    return support(table).therock_device_extra(gfx)


def therock_status(gfx: str, platform: str, table: Optional[Any] = None) -> Optional[str]:
    """See :meth:`RocmSupport.therock_status`."""
    return support(table).therock_status(gfx, platform)
