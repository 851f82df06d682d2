"""PyTorch wheels for AMD GPUs: releases, ROCm variants, Python versions, gfx targets.

A clean API over ``rules/data/torch_wheels.yaml``, used by the
derived facts of the rule database and by the fix planner to choose a wheel::

    releases()                          -> ['1.13', '2.0', ..., '2.14']
    rocm_variants('2.5.1+rocm6.2')      -> ['6.1', '6.2']
    python_versions('2.5')              -> ['3.9', '3.10', '3.11', '3.12']
    gfx_targets('2.6', '6.2.4')         -> ['gfx900', ..., 'gfx1101']
    gfx_in_wheel('2.5.1', 'gfx1101')    -> False   (None when the table cannot say)
    first_release_with_gfx('gfx1151')   -> '2.10'
    newest_release_for('gfx1100', '3.12', rocm_max='6.4') -> WheelChoice('2.9', '6.4', ...)
    library_gap('gfx906', '6.4')        -> 'rocBLAS'  (the wheel's rocBLAS has no gfx906 kernels)
    rocm_from_pip('7.14')               -> True      (ROCm from the rocm-sdk-* pip packages)

Every function takes a torch version in any form (``2.5``, ``2.5.1``, ``2.5.1+rocm6.2``,
``2.6.0.dev20241015+rocm6.2``) and answers for its release series (``major.minor``).
A pre-release or nightly answers about gfx targets only where the release and the one
before it agree (a nightly of 2.6 may predate a target that 2.6 added).
Pass ``table=`` (the parsed YAML) to use another table than the shipped one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from packaging.specifiers import SpecifierSet

from rocm_doctor.knowledge.gpu_table import base_gfx
from rocm_doctor.knowledge._tables import (
    cached_view,
    need_mapping,
    need_rows,
    need_source,
    parse_version,
    series,
    specifier,
    str_list,
    version_key,
    where,
)
from rocm_doctor.errors import InputError

TABLE = "torch_wheels"
CONFIDENCES = ("verified", "inferred", "uncertain")


@dataclass(frozen=True)
class Release:
    """One pytorch.org release series with ROCm wheels."""

    torch: str
    rocm: Tuple[str, ...]
    python: Tuple[str, ...]
    free_threaded: Tuple[str, ...] = ()
    channel: str = "stable"
    """``stable`` or ``test`` (a release candidate on download.pytorch.org/whl/test)."""
    source: str = ""


@dataclass(frozen=True)
class _TargetRow:
    targets: Tuple[str, ...]
    torch: SpecifierSet
    rocm: Optional[SpecifierSet]
    confidence: str
    source: str


@dataclass(frozen=True)
class _GapRow:
    targets: Tuple[str, ...]
    rocm: SpecifierSet
    library: str
    source: str


@dataclass(frozen=True)
class WheelChoice:
    """A pytorch.org ROCm wheel to install: release series, ROCm variant and index URL."""

    torch: str
    rocm: str
    index_url: str
    source: str = ""


@dataclass
class TorchWheels:
    """The parsed ``torch_wheels`` table with the queries over it."""

    releases: List[Release]
    target_rows: List[_TargetRow]
    gap_rows: List[_GapRow]
    pip_rocm: Optional[SpecifierSet]
    """ROCm variants whose wheels take ROCm from pip packages instead of bundling it."""
    never: Tuple[str, ...]
    companions: Dict[str, Dict[str, str]]
    numpy2_first: Optional[str]
    xformers_pins: Dict[str, Tuple[str, bool]]
    """xformers release -> (torch release its wheels were built for, True when that is a minimum, not the one release)."""
    index_url_template: str
    nightly_index_url_template: str
    raw: Dict[str, Any] = field(repr=False)

    # -- releases ---------------------------------------------------------------------------
    def release(self, torch_version: Any) -> Optional[Release]:
        """The release row of a torch version's series, None when the table has none."""
        wanted = series(torch_version)
        return next((r for r in self.releases if r.torch == wanted), None)

    def _previous(self, rel: Release) -> Optional[Release]:
        index = self.releases.index(rel)
        return self.releases[index - 1] if index > 0 else None

    # -- gfx targets ------------------------------------------------------------------------
    def _membership(self, torch_series: str, gfx: str, rocm_variant: Optional[str]) -> Optional[bool]:
        """In (True), not in (False) or unknown (None) for one release series."""
        version = parse_version(torch_series)
        rocm = parse_version(rocm_variant) if rocm_variant else None
        answer: Optional[bool] = False
        for row in self.target_rows:
            if gfx not in row.targets or version is None or version not in row.torch:
                continue
            if row.rocm is not None:
                if rocm is None:
                    answer = None
                    continue
                if rocm not in row.rocm:
                    continue
            if row.confidence == "uncertain":
                answer = None
            else:
                return True
        return answer

    def gfx_in_wheel(self, torch_version: Any, gfx: str, rocm_variant: Optional[str] = None) -> Optional[bool]:
        """Whether the pytorch.org wheel of ``torch_version`` has kernels for ``gfx``.

        ``rocm_variant`` (``6.2``) matters where a target depends on it (gfx942 needs ROCm
        >= 6.0). None when the table does not cover the release or cannot decide.
        """
        rel = self.release(torch_version)
        if rel is None:
            return None
        target = base_gfx(gfx)
        answer = self._membership(rel.torch, target, rocm_variant)
        parsed = parse_version(torch_version)
        if parsed is not None and (parsed.is_prerelease or parsed.is_devrelease):
            previous = self._previous(rel)
            earlier = self._membership(previous.torch, target, None) if previous else None
            if answer is not earlier:
                return None
        return answer

    def gfx_targets(self, torch_version: Any, rocm_variant: Optional[str] = None) -> Optional[List[str]]:
        """The targets surely in the wheel (uncertain ones left out), None for an unknown release."""
        rel = self.release(torch_version)
        if rel is None:
            return None
        variant = rocm_variant or (rel.rocm[-1] if rel.rocm else None)
        seen: List[str] = []
        for row in self.target_rows:
            for gfx in row.targets:
                if gfx not in seen and self._membership(rel.torch, gfx, variant) is True:
                    seen.append(gfx)
        return seen

    def library_gap(self, gfx: str, rocm_version: Any) -> Optional[str]:
        """The math library (``rocBLAS``) that ships no kernels for ``gfx`` in ROCm ``rocm_version``,
        None when there is no such gap (or the version is not a version)."""
        version = parse_version(rocm_version)
        if version is None:
            return None
        target = base_gfx(gfx)
        for row in self.gap_rows:
            if target in row.targets and version in row.rocm:
                return row.library
        return None

    def _usable(self, torch_series: str, gfx: str, rocm_variant: Optional[str]) -> Optional[bool]:
        """The wheel has ``gfx`` kernels and its libraries have them too (:meth:`library_gap`)."""
        member = self._membership(torch_series, gfx, rocm_variant)
        if member is True and rocm_variant and self.library_gap(gfx, rocm_variant):
            return False
        return member

    def rocm_from_pip(self, rocm_variant: Any) -> Optional[bool]:
        """Whether pytorch.org wheels of this ROCm variant take ROCm from the ``rocm-sdk-*`` pip
        packages (7.14 and later) rather than bundling it in torch/lib; None for a non-version."""
        version = parse_version(rocm_variant)
        if version is None or self.pip_rocm is None:
            return None
        return version in self.pip_rocm

    def first_release_with_gfx(self, gfx: str) -> Optional[str]:
        """The first release series whose wheels surely have ``gfx`` (and libraries for it); None if none has."""
        target = base_gfx(gfx)
        for rel in self.releases:
            variants = rel.rocm or ("",)
            if any(self._usable(rel.torch, target, v or None) is True for v in variants):
                return rel.torch
        return None

    def newest_release_for(
        self,
        gfx: Optional[str],
        python: Optional[str],
        rocm_max: Optional[str] = None,
        include_test: bool = False,
    ) -> Optional[WheelChoice]:
        """The newest pytorch.org wheel with ``gfx`` compiled in (and in its libraries), a wheel for
        ``python`` (``3.12`` or ``3.12.3``), and a ROCm variant no newer than ``rocm_max`` (series compare).

        ``gfx`` None means any target; ``python`` None means any Python. Release candidates
        (``channel: test``) are skipped unless ``include_test``.
        """
        py = series(python) if python else None
        cap = parse_version(series(rocm_max)) if rocm_max else None
        for rel in reversed(self.releases):
            if rel.channel != "stable" and not include_test:
                continue
            if py is not None and py not in rel.python:
                continue
            for variant in sorted(rel.rocm, key=version_key, reverse=True):
                if cap is not None and parse_version(series(variant)) > cap:  # type: ignore[operator]
                    continue
                if gfx is not None and self._usable(rel.torch, base_gfx(gfx), variant) is not True:
                    continue
                return WheelChoice(rel.torch, variant, self.index_url(variant), rel.source)
        return None

    # -- everything else --------------------------------------------------------------------
    def index_url(self, rocm_variant: str, nightly: bool = False) -> str:
        """``https://download.pytorch.org/whl/rocm6.2`` (or the nightly index)."""
        template = self.nightly_index_url_template if nightly else self.index_url_template
        return template.replace("{rocm}", rocm_variant)

    def is_variant(self, torch_version: Any, rocm_version: Any) -> Optional[bool]:
        """Whether ``rocm_version`` (``6.2``, ``6.2.4``) is a pytorch.org variant of the release."""
        rel = self.release(torch_version)
        wanted = parse_version(rocm_version)
        if rel is None or wanted is None:
            return None
        return any(parse_version(v) == wanted for v in rel.rocm)

    def never_in_pytorch_org(self, gfx: str) -> bool:
        """True for targets that no pytorch.org wheel has ever had (gfx1031, gfx1151's siblings ...)."""
        return base_gfx(gfx) in self.never

    def companion(self, torch_version: Any, package: str) -> Optional[str]:
        """``torchvision``/``torchaudio`` series built for the torch release, None when not tabled."""
        row = self.companions.get(series(torch_version) or "")
        return row.get(package) if row else None

    def xformers_torch(self, xformers_version: Any) -> Optional[Tuple[str, bool]]:
        """The torch release an xformers release's prebuilt wheels were built for, and whether it is a minimum
        (stable-ABI wheels); None for a release the table does not pin. The local tag (+cu124, +rocm6.2) is dropped."""
        parsed = parse_version(xformers_version)
        return None if parsed is None else self.xformers_pins.get(str(parsed.public))

    def supports_numpy2(self, torch_version: Any) -> Optional[bool]:
        """False for releases compiled against numpy 1.x (before 2.3), None for a non-version."""
        parsed = parse_version(torch_version)
        first = parse_version(self.numpy2_first)
        if parsed is None or first is None:
            return None
        return parse_version(series(parsed)) >= first  # type: ignore[operator]


def _build(data: Any) -> TorchWheels:
    top = need_mapping(data, TABLE, "top level")
    releases = []
    for index, row in enumerate(need_rows(top.get("releases"), TABLE, "releases")):
        path = f"releases[{index}]"
        if series(row.get("torch")) != str(row.get("torch")):
            raise InputError(f"{where(TABLE, path)}.torch must be a 'major.minor' series")
        releases.append(
            Release(
                torch=str(row["torch"]),
                rocm=tuple(str_list(row, "rocm", TABLE, path)),
                python=tuple(str_list(row, "python", TABLE, path)),
                free_threaded=tuple(str_list(row, "free_threaded", TABLE, path)),
                channel=str(row.get("channel") or "stable"),
                source=need_source(row, TABLE, path),
            )
        )
    releases.sort(key=lambda r: version_key(r.torch))
    rows = []
    for index, row in enumerate(need_rows(top.get("gfx_targets"), TABLE, "gfx_targets")):
        path = f"gfx_targets[{index}]"
        confidence = str(row.get("confidence") or "verified")
        if confidence not in CONFIDENCES:
            raise InputError(f"{where(TABLE, path)}.confidence must be one of {', '.join(CONFIDENCES)}")
        rows.append(
            _TargetRow(
                targets=tuple(base_gfx(g) for g in str_list(row, "targets", TABLE, path)),
                torch=specifier(row.get("torch", ""), TABLE, path),
                rocm=specifier(row["rocm"], TABLE, path) if row.get("rocm") else None,
                confidence=confidence,
                source=need_source(row, TABLE, path),
            )
        )
    gaps = []
    for index, row in enumerate(need_rows(top.get("library_gaps") or [], TABLE, "library_gaps")):
        path = f"library_gaps[{index}]"
        gaps.append(
            _GapRow(
                targets=tuple(base_gfx(g) for g in str_list(row, "targets", TABLE, path)),
                rocm=specifier(row.get("rocm", ""), TABLE, path),
                library=str(row.get("library") or "a ROCm math library"),
                source=need_source(row, TABLE, path),
            )
        )
    pip = need_mapping(top.get("pip_rocm") or {}, TABLE, "pip_rocm")
    if pip:
        need_source(pip, TABLE, "pip_rocm")
    never = need_mapping(top.get("never_in_pytorch_org") or {}, TABLE, "never_in_pytorch_org")
    companions = {
        str(row["torch"]): {k: str(v) for k, v in row.items() if k in ("torchvision", "torchaudio")}
        for row in need_rows(top.get("companions") or [], TABLE, "companions")
    }
    numpy2 = need_mapping(top.get("numpy2") or {}, TABLE, "numpy2")
    pins_top = need_mapping(top.get("xformers_pins") or {}, TABLE, "xformers_pins")
    if pins_top:
        need_source(pins_top, TABLE, "xformers_pins")
    xformers_pins: Dict[str, Tuple[str, bool]] = {}
    for index, row in enumerate(need_rows(pins_top.get("rows") or [], TABLE, "xformers_pins.rows")):
        torch_release = row.get("torch") or row.get("torch_min")
        if not row.get("xformers") or not torch_release:
            raise InputError(f"{where(TABLE, f'xformers_pins.rows[{index}]')} needs xformers and torch or torch_min")
        xformers_pins[str(row["xformers"])] = (str(torch_release), "torch_min" in row)
    org = need_mapping(top.get("pytorch_org"), TABLE, "pytorch_org")
    return TorchWheels(
        releases=releases,
        target_rows=rows,
        gap_rows=gaps,
        pip_rocm=specifier(pip["rocm"], TABLE, "pip_rocm") if pip.get("rocm") else None,
        never=tuple(base_gfx(g) for g in str_list(never, "targets", TABLE, "never_in_pytorch_org")),
        companions=companions,
        numpy2_first=str(numpy2["first_torch"]) if numpy2.get("first_torch") else None,
        xformers_pins=xformers_pins,
        index_url_template=str(org["index_url"]),
        nightly_index_url_template=str(org.get("nightly_index_url") or org["index_url"]),
        raw=top,
    )


def wheels(table: Optional[Any] = None) -> TorchWheels:
    """The parsed table (the shipped one unless ``table`` is given)."""
    return cached_view(TABLE, table, _build)


# Module-level shortcuts over the shipped table (see the module docstring).
def releases(table: Optional[Any] = None) -> List[str]:
    """Every release series with pytorch.org ROCm wheels, oldest first."""
    return [r.torch for r in wheels(table).releases]


def rocm_variants(torch_release: Any, table: Optional[Any] = None) -> List[str]:
    """The ``/whl/rocmX.Y`` variants of a release; empty when the table does not know it."""
    rel = wheels(table).release(torch_release)
    return list(rel.rocm) if rel else []


def python_versions(torch_release: Any, table: Optional[Any] = None) -> List[str]:
    """CPython versions (``3.12``) with ROCm wheels of a release; empty when unknown."""
    rel = wheels(table).release(torch_release)
    return list(rel.python) if rel else []


def gfx_targets(torch_release: Any, rocm_variant: Optional[str] = None, table: Optional[Any] = None) -> Optional[List[str]]:
    """gfx targets surely compiled into the release's wheels (None for an unknown release)."""
    return wheels(table).gfx_targets(torch_release, rocm_variant)


def gfx_in_wheel(torch_release: Any, gfx: str, rocm_variant: Optional[str] = None, table: Optional[Any] = None) -> Optional[bool]:
    """True/False, or None when the table cannot decide."""
    return wheels(table).gfx_in_wheel(torch_release, gfx, rocm_variant)


def library_gap(gfx: str, rocm_version: Any, table: Optional[Any] = None) -> Optional[str]:
    """The library of a wheel with ROCm ``rocm_version`` that has no ``gfx`` kernels, None when none."""
    return wheels(table).library_gap(gfx, rocm_version)


def rocm_from_pip(rocm_variant: Any, table: Optional[Any] = None) -> Optional[bool]:
    """Whether pytorch.org wheels of ``rocm_variant`` take ROCm from pip packages (7.14 and later)."""
    return wheels(table).rocm_from_pip(rocm_variant)


def first_release_with_gfx(gfx: str, table: Optional[Any] = None) -> Optional[str]:
    """First release series whose pytorch.org wheels have ``gfx``, None if none has."""
    return wheels(table).first_release_with_gfx(gfx)


def newest_release_for(
    gfx: Optional[str], python: Optional[str], rocm_max: Optional[str] = None, table: Optional[Any] = None
) -> Optional[WheelChoice]:
    """Newest stable pytorch.org ROCm wheel for ``gfx`` and ``python`` (see :meth:`TorchWheels.newest_release_for`)."""
    return wheels(table).newest_release_for(gfx, python, rocm_max)


def index_url(rocm_variant: str, nightly: bool = False, table: Optional[Any] = None) -> str:
    """The pip ``--index-url`` of a ROCm variant."""
    return wheels(table).index_url(rocm_variant, nightly)


def amd_windows_releases(table: Optional[Any] = None) -> List[Dict[str, Any]]:
    """AMD's Windows PyTorch wheels (newest first), rows of ``amd.windows.releases``."""
    return list(wheels(table).raw.get("amd", {}).get("windows", {}).get("releases", []))


def amd_windows_pythons(table: Optional[Any] = None) -> List[str]:
    """Python versions AMD's Windows wheels are built for (``['3.12']``)."""
    return [str(v) for v in wheels(table).raw.get("amd", {}).get("windows", {}).get("python", [])]


def therock_install_command(gfx: str, table: Optional[Any] = None) -> Optional[str]:
    """The pip command for TheRock's multi-arch index with the ``device-<gfx>`` extra."""
    template = wheels(table).raw.get("amd", {}).get("therock", {}).get("install")
    return str(template).replace("{gfx}", base_gfx(gfx)) if template else None
