"""What a torch version string and ``torch/version.py`` say, without importing torch.

Pure functions over text. ``torch/version.py`` is parsed with :mod:`ast` and only
simple ``name = <literal>`` assignments are read; the file is never executed.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Dict, Optional

from packaging.version import Version

_ROCM_TAG = re.compile(r"^rocm(\d+)\.(\d+)(?:\.(\d+))?")
_PYTORCH_ORG_ROCM_TAG = re.compile(r"^rocm\d+\.\d+(?:\.\d+)?$")
_CUDA_TAG = re.compile(r"^cu(\d+)$")
_HIP_VERSION = re.compile(r"^(\d+)\.(\d+)")


def parse_version_py(text: str) -> Dict[str, Any]:
    """Module-level ``name = literal`` / ``name: T = literal`` assignments of ``torch/version.py``.

    Raises ValueError when the file is not valid Python.
    """
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        raise ValueError(f"not valid Python (line {exc.lineno})") from None
    values: Dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if not isinstance(target, ast.Name):
            continue
        try:
            values[target.id] = ast.literal_eval(value)
        except ValueError:
            continue
    return values


def local_tag(version: str) -> Optional[str]:
    """The local part of a version (``rocm6.2`` of ``2.5.1+rocm6.2``), lower-cased."""
    try:
        return Version(version).local
    except ValueError:  # InvalidVersion, or a number part over 4,300 digits
        return version.split("+", 1)[1].lower() if "+" in version else None


def public_version(version: str) -> str:
    """``2.5.1`` of ``2.5.1+rocm6.2``."""
    try:
        return Version(version).public
    except ValueError:  # InvalidVersion, or a number part over 4,300 digits
        return version.split("+", 1)[0]


def flavour_from_tag(tag: Optional[str]) -> Optional[str]:
    """``rocm``, ``cuda``, ``cpu`` or ``xpu`` from a local version tag; None when the tag does not say."""
    if not tag:
        return None
    if tag.startswith("rocm"):
        return "rocm"
    if _CUDA_TAG.match(tag):
        return "cuda"
    if tag in ("cpu", "xpu"):
        return tag
    return None


def torch_flavour(tag: Optional[str], version_py: Optional[Dict[str, Any]]) -> Optional[str]:
    """The build flavour from ``torch.version`` (hip/cuda/xpu set) or, failing that, the local tag."""
    if version_py is not None:
        for key, flavour in (("hip", "rocm"), ("cuda", "cuda"), ("xpu", "xpu")):
            if version_py.get(key):
                return flavour
    from_tag = flavour_from_tag(tag)
    if from_tag is not None:
        return from_tag
    if version_py is not None and "hip" in version_py and "cuda" in version_py:
        return "cpu"
    return None


def rocm_version(tag: Optional[str], hip: Optional[str]) -> Optional[str]:
    """``X.Y[.Z]`` from a ``+rocmX.Y[.Z]...`` tag, else ``X.Y`` of the HIP version (6.2.41133-... -> 6.2)."""
    if tag:
        match = _ROCM_TAG.match(tag)
        if match:
            return ".".join(g for g in match.groups() if g is not None)
    if hip:
        match = _HIP_VERSION.match(hip)
        if match:
            return f"{match.group(1)}.{match.group(2)}"
    return None


def cuda_version_from_tag(tag: Optional[str]) -> Optional[str]:
    """``12.4`` of ``cu124``."""
    match = _CUDA_TAG.match(tag or "")
    if not match:
        return None
    digits = match.group(1)
    return f"{digits[:-1]}.{digits[-1]}" if len(digits) > 1 else digits


def distributor(version: str, hip: Optional[str]) -> Optional[str]:
    """Who built the wheel, from its version.

    * ``pytorch.org``: ``+rocmX.Y[.Z]``, ``+cuNNN``, ``+cpu``, ``+xpu`` (download.pytorch.org index);
    * ``amd``: repo.radeon.com / TheRock tags with more after the ROCm version
      (``+rocm6.4.1.git1ded221d``, ``+rocmsdk20260116``), and AMD's Windows preview
      ``2.8.0a0+gitfc14c65`` (a git tag on a ROCm build);
    * ``pypi``: no local tag;
    * None: a tag nobody documented (a source build, a vendor container).
    """
    tag = local_tag(version)
    if tag is None:
        return "pypi"
    if _PYTORCH_ORG_ROCM_TAG.match(tag) or _CUDA_TAG.match(tag) or tag in ("cpu", "xpu"):
        return "pytorch.org"
    if tag.startswith("rocm"):
        return "amd"
    if tag.startswith("git") and hip:
        return "amd"
    return None
