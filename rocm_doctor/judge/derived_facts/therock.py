"""Derived facts about AMD's TheRock Python packages (ROCm/TheRock RELEASES.md, legacy_per_family_releases.md).

Multi-arch releases split GPU code into one package per target: ``rocm-sdk-device-gfxNNNN`` for
ROCm and ``amd-torch-device-gfxNNNN`` for PyTorch, chosen with ``torch[device-gfxNNNN]``. The
legacy per-family releases shipped one ``rocm-sdk-libraries-<family>`` package per family index
(``rocm-sdk-libraries-gfx110X-all``); they are no longer built.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple, Union

from rocm_doctor.knowledge.gpu_table import base_gfx
from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact, machine_fact
from rocm_doctor.judge.derived_facts._support import carry, list_fact, the_one_named
from rocm_doctor.judge.derived_facts.gpus import CPU_IMPLIED_SOURCE
from rocm_doctor.judge.derived_facts.wheel_family import OVERRIDE_SOURCE, gpu_family

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


FAMILY_TABLE = "therock_families"
FAMILY_SOURCE = "rules/data/therock_families.yaml"


def _families_shown(facts: Facts) -> Fact:
    """Every TheRock family the report installs for (symptoms.therock_families) or whose legacy
    rocm-sdk-libraries-<family> package is installed (packages.installed), as one list fact."""
    shown = facts.symptoms.therock_families
    installed = _installed(facts)
    legacy = [m.group(1) for m in (_LEGACY.match(name) for name in (installed or {})) if m]
    names = [str(item) for item in (shown.value or [])] if shown.is_known else []
    names += legacy
    if names:
        source = shown.source if shown.is_known and shown.value else SOURCE
        return known(names, source or "paste")
    if shown.status == "absent" or installed is not None:
        return absent(shown.source or SOURCE, "the report names no TheRock per-family index or package")
    return carry(shown, "symptoms.therock_families")


def _family_targets(name: str, tables: Tables) -> Optional[List[str]]:
    """The gfx targets of TheRock family ``name`` (a bare target is a family of one); None when the table
    does not know it."""
    table = tables[FAMILY_TABLE] or {}
    families = {str(k).lower(): [str(t) for t in v] for k, v in (table.get("families") or {}).items()}
    key = name.lower()
    if key in families:
        return families[key]
    targets = {str(t).lower(): str(t) for t in table.get("targets") or []}
    return [targets[key]] if key in targets else None


@machine_fact(
    "therock_family",
    "The one TheRock GPU family the report installs ROCm or PyTorch wheels for (the per-family index "
    ".../v2/<family>/ or the rocm-sdk-libraries-<family> package: symptoms.therock_families, packages.installed); "
    "unknown when it names several (which one is installed is not shown); absent when it names none.",
)
def therock_family(facts: Facts, tables: Tables) -> Fact:
    return the_one_named(
        _families_shown(facts), "symptoms.therock_families", "the report names no TheRock per-family index or package",
        lambda names: f"the report names several TheRock families ({', '.join(map(str, names))}); which one is installed is not shown",
        lambda item, source: known(str(item), source),
        same=lambda item: str(item).lower(),
    )


def _family_and_gpu(facts: Facts, agent: GpuAgent, tables: Tables) -> Union[Tuple[List[str], str], Fact]:
    """The installed family's targets and the GPU's base gfx, or the fact to return instead."""
    if agent.source.startswith(CPU_IMPLIED_SOURCE):
        return unknown("this GPU is inferred only from the CPU model the report names, never judged on its own")
    family = therock_family(facts, tables)
    if not family.is_known:
        return family
    targets = _family_targets(str(family.value), tables)
    if targets is None:
        return unknown(f"{FAMILY_SOURCE} does not know TheRock family {family.value}")
    if not agent.gfx.is_known:
        return carry(agent.gfx, f"gpu {agent.index} gfx")
    return targets, base_gfx(str(agent.gfx.value))


@gpu_fact(
    "therock_family_lacks_gfx",
    "The TheRock family the report installs for (derived.therock_family) is built without the GPU's own gfx "
    "target (rules/data/therock_families.yaml: gfx110X-dgpu has no gfx1103, gfx1151 has only gfx1151); unknown "
    "for a GPU inferred only from a CPU model or a family the table does not know; absent with no family named.",
)
def therock_family_lacks_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    found = _family_and_gpu(facts, agent, tables)
    if isinstance(found, Fact):
        return found
    targets, gfx = found
    return known(gfx not in targets, FAMILY_SOURCE)


@gpu_fact(
    "therock_family_lacks_gfx_group",
    "The TheRock family the report installs for (derived.therock_family) has neither the GPU's gfx nor any "
    "target of its override group (rules/data/gfx_overrides.yaml), so no HSA_OVERRIDE_GFX_VERSION can lend it "
    "kernels; unknown for a GPU in no override group, one inferred only from a CPU model or a family the table "
    "does not know; absent with no family named.",
)
def therock_family_lacks_gfx_group(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    found = _family_and_gpu(facts, agent, tables)
    if isinstance(found, Fact):
        return found
    targets, _ = found
    group = gpu_family(agent, tables)
    if isinstance(group, Fact):
        return group
    return known(not any(target in targets for target in group), f"{FAMILY_SOURCE}; {OVERRIDE_SOURCE}")
