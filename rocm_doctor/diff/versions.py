"""The versions a state runs and the GPUs and platform it runs them on, read from its facts; the known
regressions that the versions in use fall into.

Light on purpose: ``check`` asks :func:`regressions_in_use` on every run, and only when a version in use
is a known regression does it load the last good state and compare (:mod:`rocm_doctor.diff.notes`).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from packaging.utils import canonicalize_name

from rocm_doctor.facts.model import Facts
from rocm_doctor.knowledge.gpu_table import base_gfx
from rocm_doctor.knowledge.regressions import Regression, regressions

_TORCH_FACTS = (("torch", "version"), ("torchvision", "torchvision_version"), ("torchaudio", "torchaudio_version"))
"""Package versions read from the torch section when the packages list is not known (a paste)."""


def packages_of(facts: Facts) -> Optional[Dict[str, str]]:
    """Canonical name -> version: the packages list, else what the torch section says (None: not known)."""
    if facts.packages.installed.is_known and isinstance(facts.packages.installed.value, dict):
        return {canonicalize_name(str(k)): str(v) for k, v in facts.packages.installed.value.items()}
    found = {name: str(getattr(facts.torch, attr).value) for name, attr in _TORCH_FACTS if getattr(facts.torch, attr).is_known}
    if facts.torch.triton_package.is_known and facts.torch.triton_version.is_known:
        found[canonicalize_name(str(facts.torch.triton_package.value))] = str(facts.torch.triton_version.value)
    return found or None


def machine_gfx(facts: Facts) -> List[str]:
    return [base_gfx(str(a.gfx.value)) for a in facts.gpus.agents if a.gfx.is_known]


def platform_of(facts: Facts) -> Optional[str]:
    return str(facts.host.os.value) if facts.host.os.is_known else None


def versions_in_use(facts: Facts) -> List[Tuple[str, str]]:
    """(component, version) of the torch and the ROCm this state runs, where known."""
    found = []
    packages = packages_of(facts) or {}
    torch = packages.get("torch") or (str(facts.torch.version.value) if facts.torch.version.is_known else None)
    if torch:
        found.append(("torch", torch))
    if facts.rocm.version.is_known:
        found.append(("rocm", str(facts.rocm.version.value)))
    return found


def regressions_in_use(facts: Facts) -> List[Tuple[str, Regression]]:
    """(version, row) for every known regression whose broken versions include a version in use on this
    machine's GPUs and platform. An update since the last good state can only walk into one of these."""
    gfx, platform = machine_gfx(facts), platform_of(facts)
    return [
        (version, row)
        for component, version in versions_in_use(facts)
        for row in regressions().matching_version(component, version, gfx, platform)
    ]
