"""hipBLASLt in PyTorch's ROCm builds, per torch release and ROCm: allowed, preferred, and what
``TORCH_BLAS_PREFER_HIPBLASLT`` does. An API over ``rules/data/hipblaslt.yaml``::

    allowed('gfx908', '2.8.0', '6.3')        -> True   (allow-list from ROCm 6.3)
    allowed('gfx1103', '2.13.0', '7.2')      -> None   (on main's list; the first release is not known)
    preferred('gfx1201', '2.10.0', '7.0')    -> True   (hipBLASLt is the default there)
    prefer_variable('2.10.0')                -> 'zero-ignored-on-preferred'
    uses_hipblaslt(['gfx1201'], '2.10.0', '7.0', {'TORCH_BLAS_PREFER_HIPBLASLT': '0'}) -> True
    library_has('gfx1100', '6.1.2')          -> False  (hipBLASLt's own kernels: gfx1100 from ROCm 6.2)

The allow and preference lists are upstream PyTorch's (pytorch.org wheels and source builds of pytorch/pytorch);
AMD's own builds differ and are the callers' business to leave undecided.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple

from packaging.specifiers import SpecifierSet
from packaging.version import Version

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

TABLE = "hipblaslt"
CONFIDENCES = ("verified", "inferred", "uncertain")
BEHAVIOURS = ("not-read", "default-on", "zero-ignored-on-preferred", "toggle")
PREFER_VARIABLES = ("TORCH_BLAS_PREFER_HIPBLASLT", "TORCH_BLAS_PREFER_CUBLASLT")
"""The variable and its CUDA-named alias; either set to 1 asks for hipBLASLt."""


@dataclass(frozen=True)
class _ArchRow:
    targets: Tuple[str, ...]
    torch: SpecifierSet
    rocm: Optional[SpecifierSet]
    certain: bool
    source: str


@dataclass(frozen=True)
class _LibraryRow:
    rocm: SpecifierSet
    targets: Tuple[str, ...]
    source: str


@dataclass(frozen=True)
class _PreferRow:
    torch: SpecifierSet
    behaviour: str
    source: str


def _release(torch_version: Any) -> Optional[Version]:
    """``2.10`` of ``2.10.0+rocm7.0`` / ``2.10.0.dev20251101``: rows are per release series."""
    parsed = parse_version(torch_version)
    if parsed is None:
        return None
    release = parsed.release + (0,)
    return Version(f"{release[0]}.{release[1]}")


def _previous(series: Version) -> Version:
    return Version(f"{series.major}.{max(series.minor - 1, 0)}")


def _is_prerelease(torch_version: Any) -> bool:
    parsed = parse_version(torch_version)
    return parsed is not None and (parsed.is_prerelease or parsed.is_devrelease)


@dataclass
class HipblasltTable:
    """The parsed ``hipblaslt`` table."""

    allowed_rows: List[_ArchRow]
    preferred_rows: List[_ArchRow]
    prefer_rows: List[_PreferRow]
    covers: Optional[SpecifierSet] = None
    """The torch releases whose code the rows were checked against; outside them every answer is None."""
    library_rows: List[_LibraryRow] = field(default_factory=list)
    library_covers: Optional[SpecifierSet] = None
    """The ROCm releases whose hipBLASLt build targets were read; outside them ``library_has`` is None."""
    logic_rows: List[_LibraryRow] = field(default_factory=list)
    """Per ROCm release, the GPUs hipBLASLt's source has GEMM logic for (any builder's ceiling)."""

    def _covered(self, series: Version) -> bool:
        return self.covers is None or series in self.covers

    @staticmethod
    def _member(rows: List[_ArchRow], gfx: str, series: Version, rocm: Optional[Version]) -> Optional[bool]:
        answer: Optional[bool] = False
        target = base_gfx(gfx)
        for row in rows:
            if target not in row.targets or series not in row.torch:
                continue
            if row.rocm is not None:
                if rocm is None:
                    answer = None
                    continue
                if rocm not in row.rocm:
                    continue
            if not row.certain:
                answer = None
                continue
            return True
        return answer

    def _lookup(self, rows: List[_ArchRow], gfx: str, torch_version: Any, rocm_version: Any) -> Optional[bool]:
        series = _release(torch_version)
        if series is None or not self._covered(series):
            return None
        rocm = parse_version(rocm_version) if rocm_version is not None else None
        answer = self._member(rows, gfx, series, rocm)
        if _is_prerelease(torch_version) and answer is not self._member(rows, gfx, _previous(series), rocm):
            return None  # a nightly may predate the change its release series carries
        return answer

    def allowed(self, gfx: str, torch_version: Any, rocm_version: Any) -> Optional[bool]:
        """Whether PyTorch lets ``gfx`` use hipBLASLt (the allow-list); None when unknown."""
        return self._lookup(self.allowed_rows, gfx, torch_version, rocm_version)

    def preferred(self, gfx: str, torch_version: Any, rocm_version: Any) -> Optional[bool]:
        """Whether hipBLASLt is PyTorch's default BLAS on ``gfx`` (the preference list); None when unknown."""
        return self._lookup(self.preferred_rows, gfx, torch_version, rocm_version)

    def library_targets(self, rocm_version: Any) -> Optional[Tuple[str, ...]]:
        """The targets the hipBLASLt of this ROCm release was built for; None outside the releases
        read (``library.covers_rocm``) or when the version cannot be read."""
        rocm = parse_version(rocm_version)
        if rocm is None or self.library_covers is None or rocm not in self.library_covers:
            return None
        rows = [row for row in self.library_rows if rocm in row.rocm]
        return rows[0].targets if len(rows) == 1 else None

    def logic_targets(self, rocm_version: Any) -> Optional[Tuple[str, ...]]:
        """The targets hipBLASLt's source of this ROCm release has GEMM logic files for: no build of
        that release, AMD's or anyone else's, has GEMM kernels for another GPU. None outside the
        releases read (``library.covers_rocm``)."""
        rocm = parse_version(rocm_version)
        if rocm is None or self.library_covers is None or rocm not in self.library_covers:
            return None
        rows = [row for row in self.logic_rows if rocm in row.rocm]
        return rows[0].targets if len(rows) == 1 else None

    def library_has(self, gfx: str, rocm_version: Any) -> Optional[bool]:
        """Whether the hipBLASLt of this ROCm release has kernels for ``gfx``; None when not known."""
        targets = self.library_targets(rocm_version)
        return None if targets is None else base_gfx(gfx) in targets

    def prefer_variable(self, torch_version: Any) -> Optional[str]:
        """What ``TORCH_BLAS_PREFER_HIPBLASLT`` does in this release (see ``BEHAVIOURS``); None when unknown."""
        series = _release(torch_version)
        if series is None or not self._covered(series):
            return None
        found = [r.behaviour for r in self.prefer_rows if series in r.torch]
        behaviour = found[0] if len(found) == 1 else None
        if _is_prerelease(torch_version):
            earlier = [r.behaviour for r in self.prefer_rows if _previous(series) in r.torch]
            if earlier != found:
                return None
        return behaviour

    def uses_hipblaslt(
        self, gfxs: Iterable[str], torch_version: Any, rocm_version: Any, env: Mapping[str, str]
    ) -> Optional[bool]:
        """Whether PyTorch sends its GEMMs to hipBLASLt (rather than hipBLAS/rocBLAS) on a machine
        with these GPUs, given the preference variables in ``env``; None when it cannot be told.

        PyTorch decides once for the process: hipBLASLt only when every GPU is allowed, and the
        default preference only when every GPU is preferred. A program can still change it with
        ``torch.backends.cuda.preferred_blas_library()``, which rocm-doctor cannot see.
        """
        targets = [base_gfx(g) for g in gfxs]
        behaviour = self.prefer_variable(torch_version)
        if behaviour is None or not targets:
            return None
        if behaviour == "not-read":
            return False
        wanted = _wanted(behaviour, requested_preference(env), lambda: _all(
            self.preferred(g, torch_version, rocm_version) for g in targets
        ))
        if wanted is not True:
            return wanted
        return _all(self.allowed(g, torch_version, rocm_version) for g in targets)


def requested_preference(env: Mapping[str, str]) -> Optional[bool]:
    """True when a preference variable is ``1``, False when one is ``0`` (and none is ``1``), None otherwise.

    PyTorch reads them with ``c10::utils::check_env``: ``1`` is true, ``0`` false, anything else unset.
    """
    values = [str(env[name]).strip() for name in PREFER_VARIABLES if name in env]
    if "1" in values:
        return True
    if "0" in values:
        return False
    return None


def _wanted(behaviour: str, requested: Optional[bool], default: Any) -> Optional[bool]:
    if behaviour == "default-on":
        return requested is not False
    if requested is True:
        return True
    if behaviour == "toggle" and requested is False:
        return False
    return default()


def _all(answers: Iterable[Optional[bool]]) -> Optional[bool]:
    """Three-valued AND."""
    values = list(answers)
    if any(v is False for v in values):
        return False
    if any(v is None for v in values):
        return None
    return True


def _arch_rows(value: Any, path: str) -> List[_ArchRow]:
    rows = []
    for index, row in enumerate(need_rows(value, TABLE, path)):
        here = f"{path}[{index}]"
        confidence = str(row.get("confidence") or "verified")
        if confidence not in CONFIDENCES:
            raise InputError(f"{where(TABLE, here)}.confidence must be one of {', '.join(CONFIDENCES)}")
        rows.append(
            _ArchRow(
                targets=tuple(base_gfx(g) for g in str_list(row, "targets", TABLE, here)),
                torch=specifier(row.get("torch", ""), TABLE, here),
                rocm=specifier(row["rocm"], TABLE, here) if row.get("rocm") else None,
                certain=confidence != "uncertain",
                source=need_source(row, TABLE, here),
            )
        )
    return rows


def _build(data: Any) -> HipblasltTable:
    top = need_mapping(data, TABLE, "top level")
    prefer = []
    for index, row in enumerate(need_rows(top.get("prefer_variable"), TABLE, "prefer_variable")):
        here = f"prefer_variable[{index}]"
        if row.get("behaviour") not in BEHAVIOURS:
            raise InputError(f"{where(TABLE, here)}.behaviour must be one of {', '.join(BEHAVIOURS)}")
        prefer.append(_PreferRow(specifier(row.get("torch", ""), TABLE, here), str(row["behaviour"]), need_source(row, TABLE, here)))
    return HipblasltTable(
        allowed_rows=_arch_rows(top.get("allowed"), "allowed"),
        preferred_rows=_arch_rows(top.get("preferred"), "preferred"),
        prefer_rows=prefer,
        covers=specifier(top["covers_torch"], TABLE, "covers_torch") if top.get("covers_torch") else None,
        **_library(top.get("library")),
    )


def _library(value: Any) -> Dict[str, Any]:
    if value is None:
        return {}
    library = need_mapping(value, TABLE, "library")
    rows = []
    for index, row in enumerate(need_rows(library.get("targets"), TABLE, "library.targets")):
        here = f"library.targets[{index}]"
        targets = tuple(base_gfx(t) for t in str_list(row, "targets", TABLE, here))
        rows.append(_LibraryRow(specifier(row.get("rocm", ""), TABLE, here), targets, need_source(row, TABLE, here)))
    logic = []
    for index, row in enumerate(need_rows(library.get("logic") or [], TABLE, "library.logic")):
        here = f"library.logic[{index}]"
        targets = tuple(base_gfx(t) for t in str_list(row, "targets", TABLE, here))
        logic.append(_LibraryRow(specifier(row.get("rocm", ""), TABLE, here), targets, need_source(row, TABLE, here)))
    covers = library.get("covers_rocm")
    if not covers:
        raise InputError(f"{where(TABLE, 'library')}.covers_rocm is required")
    return {"library_rows": rows, "logic_rows": logic, "library_covers": specifier(covers, TABLE, "library.covers_rocm")}


def table(data: Optional[Any] = None) -> HipblasltTable:
    """The parsed table (the shipped one unless ``data`` is given)."""
    return cached_view(TABLE, data, _build)


def allowed(gfx: str, torch_version: Any, rocm_version: Any, data: Optional[Any] = None) -> Optional[bool]:
    """See :meth:`HipblasltTable.allowed`."""
    return table(data).allowed(gfx, torch_version, rocm_version)


def preferred(gfx: str, torch_version: Any, rocm_version: Any, data: Optional[Any] = None) -> Optional[bool]:
    """See :meth:`HipblasltTable.preferred`."""
    return table(data).preferred(gfx, torch_version, rocm_version)


def library_has(gfx: str, rocm_version: Any, data: Optional[Any] = None) -> Optional[bool]:
    """See :meth:`HipblasltTable.library_has`."""
    return table(data).library_has(gfx, rocm_version)


def prefer_variable(torch_version: Any, data: Optional[Any] = None) -> Optional[str]:
    """See :meth:`HipblasltTable.prefer_variable`."""
    return table(data).prefer_variable(torch_version)


def uses_hipblaslt(
    gfxs: Iterable[str], torch_version: Any, rocm_version: Any, env: Mapping[str, str], data: Optional[Any] = None
) -> Optional[bool]:
    """See :meth:`HipblasltTable.uses_hipblaslt`."""
    return table(data).uses_hipblaslt(gfxs, torch_version, rocm_version, env)
