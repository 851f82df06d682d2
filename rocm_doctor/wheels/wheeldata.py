"""The wheel facts the torch choice needs, as one narrow view over the knowledge modules.

Everything comes from :mod:`rocm_doctor.knowledge.torch_wheels` and
:mod:`rocm_doctor.knowledge.rocm_support` (tables ``rules/data/torch_wheels.yaml``
and ``rocm_support.yaml``, every row with its source); no release data lives here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from rocm_doctor.data import load_table
from rocm_doctor.knowledge import rocm_support, torch_wheels
from rocm_doctor.knowledge._tables import version_key
from rocm_doctor.knowledge.torch_wheels import Release

__all__ = ["Release", "WindowsRelease", "releases", "gfx_in_wheel", "companions", "pytorch_index"]


@dataclass(frozen=True)
class WindowsRelease:
    """One AMD Windows wheel set."""

    rocm: str
    torch: str
    torchvision: Optional[str]
    torchaudio: Optional[str]
    python: Tuple[str, ...]
    preinstall: Tuple[str, ...]
    wheel_url: Optional[str]
    docs: Optional[str]
    preview: bool


def _amd(section: str) -> Dict[str, Any]:
    return dict(torch_wheels.wheels().raw.get("amd", {}).get(section, {}))


def releases() -> List[Release]:
    """pytorch.org release series, newest first."""
    return list(reversed(torch_wheels.wheels().releases))


def gfx_in_wheel(torch: str, rocm: Optional[str], gfx: str) -> Optional[bool]:
    """True / False / None (the table cannot say) for ``gfx`` in the pytorch.org wheel."""
    return torch_wheels.gfx_in_wheel(torch, gfx, rocm)


def library_gap(gfx: str, rocm: str) -> Optional[str]:
    """The ROCm library (``rocBLAS``) a wheel built for ``rocm`` bundles without ``gfx`` kernels, or None."""
    return torch_wheels.library_gap(gfx, rocm)


def companions(torch: str) -> Tuple[Optional[str], Optional[str]]:
    """(torchvision series, torchaudio series) built for a torch release, None when not tabled."""
    tw = torch_wheels.wheels()
    return tw.companion(torch, "torchvision"), tw.companion(torch, "torchaudio")


def pytorch_index(rocm: str) -> str:
    return torch_wheels.index_url(rocm)


def pytorch_tag_index(tag: str) -> Optional[str]:
    """pytorch.org's index of a CUDA, CPU or XPU build (``cu118`` -> ``.../whl/cu118``): the ROCm index with the
    build's tag in place of ``rocm{rocm}``; None when the table's template has no such part."""
    template = torch_wheels.wheels().index_url_template
    return template.replace("rocm{rocm}", tag) if "rocm{rocm}" in template else None


def windows_releases() -> List[WindowsRelease]:
    """AMD's Windows wheel sets, newest ROCm first."""
    python = tuple(torch_wheels.amd_windows_pythons())
    rows = [
        WindowsRelease(
            rocm=str(row["rocm"]),
            torch=str(row["torch"]),
            torchvision=str(row["torchvision"]) if row.get("torchvision") else None,
            torchaudio=str(row["torchaudio"]) if row.get("torchaudio") else None,
            python=python,
            preinstall=tuple(str(p) for p in row.get("preinstall", [])),
            wheel_url=row.get("wheel_url"),
            docs=row.get("docs"),
            preview=bool(row.get("preview", False)),
        )
        for row in torch_wheels.amd_windows_releases()
    ]
    return sorted(rows, key=lambda r: version_key(r.rocm), reverse=True)


def windows_index(rocm: str) -> str:
    """Folder of AMD's Windows wheels for a ROCm release (repo.radeon.com)."""
    return str(_amd("windows")["index"]).replace("{rocm}", rocm)


def windows_blocks(gfx: str, rocm: str) -> bool:
    """AMD's Windows HIP runtime table of ``rocm`` lists ``gfx`` as unsupported."""
    return rocm_support.windows_runtime_supported(gfx, rocm) is False


def therock_index() -> str:
    return str(_amd("therock")["index_url"])


def therock_python() -> Tuple[str, ...]:
    return tuple(str(p) for p in _amd("therock").get("python", []))


def therock_ready(gfx: str, platform: str) -> bool:
    """TheRock marks ``gfx`` release-ready on ``linux`` or ``windows`` and has a ``device-<gfx>`` extra."""
    return rocm_support.therock_status(gfx, platform) == "release_ready" and rocm_support.therock_device_extra(gfx)


def driver_compat_note() -> str:
    notes = load_table("rocm_support").get("linux_notes", {})
    return str(notes.get("driver_compat", "the amdgpu driver and ROCm user space must be compatible"))


def newest_rocm_series() -> str:
    """The newest ROCm release series AMD's driver table knows (TheRock's nightlies are at least this new)."""
    series = load_table("amdgpu_driver").get("series") or []
    return str(series[-1]) if series else "0.0"
