"""Derived facts about AMD's TheRock Python packages (ROCm/TheRock RELEASES.md, legacy_per_family_releases.md).

Multi-arch releases split GPU code into one package per target: ``rocm-sdk-device-gfxNNNN`` for
ROCm and ``amd-torch-device-gfxNNNN`` for PyTorch, chosen with ``torch[device-gfxNNNN]``. The
legacy per-family releases shipped one ``rocm-sdk-libraries-<family>`` package per family index
(``rocm-sdk-libraries-gfx110X-all``); they are no longer built.
"""

from __future__ import annotations

import re
from typing import Dict, Optional

from rocm_doctor.knowledge.gpu_table import base_gfx
from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact, machine_fact
from rocm_doctor.judge.derived_facts._support import list_fact

_LEGACY = re.compile(r"^rocm-sdk-libraries-(gfx[0-9a-z]+(?:-[a-z]+)?)$")
TORCH_DEVICE = "amd-torch-device-"
ROCM_DEVICE = "rocm-sdk-device-"
SOURCE = "packages.installed"


def _installed(facts: Facts) -> Optional[Dict[str, str]]:
    fact = facts.packages.installed
    if fact.status == "known":
        return {str(k).lower(): str(v) for k, v in (fact.value or {}).items()}
    if fact.status == "absent":
        return {}
    return None


@machine_fact(
    "therock_legacy_packages",
    "Installed packages of TheRock's legacy per-family releases (rocm-sdk-libraries-<family>, from "
    "the rocm.nightlies.amd.com/v2/<family>/ indexes that are no longer built), as 'name==version'; "
    "absent when there are none.",
)
def therock_legacy_packages(facts: Facts, tables: Tables) -> Fact:
    installed = _installed(facts)
    if installed is None:
        return unknown(facts.packages.installed.reason or "the installed packages are not known")
    found = [f"{name}=={version}" for name, version in sorted(installed.items()) if _LEGACY.match(name)]
    return list_fact(found, SOURCE, "no legacy per-family TheRock package is installed")


@machine_fact(
    "therock_torch_device_targets",
    "The gfx targets of the installed amd-torch-device-<gfx> packages (TheRock multi-arch PyTorch, "
    "torch[device-gfxNNNN]); absent when none is installed.",
)
def therock_torch_device_targets(facts: Facts, tables: Tables) -> Fact:
    installed = _installed(facts)
    if installed is None:
        return unknown(facts.packages.installed.reason or "the installed packages are not known")
    targets = sorted(name[len(TORCH_DEVICE):] for name in installed if name.startswith(TORCH_DEVICE))
    return list_fact(targets, SOURCE, "no amd-torch-device package is installed")


@gpu_fact(
    "therock_torch_device_installed",
    "With TheRock multi-arch PyTorch installed (some amd-torch-device-* package), whether the "
    "package for this GPU's own gfx (or device-all) is installed; absent without multi-arch PyTorch.",
)
def therock_torch_device_installed(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return _own_device_package(facts, agent, TORCH_DEVICE, "no TheRock multi-arch PyTorch (amd-torch-device-*) is installed")


@gpu_fact(
    "therock_rocm_device_installed",
    "With TheRock's multi-arch ROCm Python packages installed (some rocm-sdk-device-* package), "
    "whether rocm-sdk-device-<this GPU's gfx> (or -all) is installed; absent without them.",
)
def therock_rocm_device_installed(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return _own_device_package(facts, agent, ROCM_DEVICE, "no TheRock multi-arch ROCm device package (rocm-sdk-device-*) is installed")


@machine_fact(
    "therock_rocm_device_targets",
    "The gfx targets of the installed rocm-sdk-device-<gfx> packages; absent when none is installed.",
)
def therock_rocm_device_targets(facts: Facts, tables: Tables) -> Fact:
    installed = _installed(facts)
    if installed is None:
        return unknown(facts.packages.installed.reason or "the installed packages are not known")
    targets = sorted(name[len(ROCM_DEVICE):] for name in installed if name.startswith(ROCM_DEVICE))
    return list_fact(targets, SOURCE, "no rocm-sdk-device package is installed")


def _own_device_package(facts: Facts, agent: GpuAgent, prefix: str, none_installed: str) -> Fact:
    """Whether the ``prefix<gfx>`` package for this GPU's own gfx (or ``prefix``all) is installed;
    absent (``none_installed``) when no ``prefix*`` package is."""
    installed = _installed(facts)
    if installed is None:
        return unknown(facts.packages.installed.reason or "the installed packages are not known")
    targets = {name[len(prefix):] for name in installed if name.startswith(prefix)}
    if not targets:
        return absent(SOURCE, none_installed)
    if not agent.gfx.is_known:
        return unknown(agent.gfx.reason or "the GPU's gfx target is not known")
    return known(base_gfx(str(agent.gfx.value)) in targets or "all" in targets, SOURCE)
