"""Derived fact: the running Linux kernel predates the AMD GPU (its KFD has no case for it).

KFD maps each graphics-core IP version to a gfx target in ``kgd2kfd_probe``
(https://github.com/torvalds/linux/blob/v6.11/drivers/gpu/drm/amd/amdkfd/kfd_device.c) and refuses
one it has no case for; ``rules/data/kernel_gpu_support.yaml`` holds the first mainline release
with each case. A GPU that ROCm, HIP or torch listed is driven (by this kernel or by AMD's DKMS
driver), so only GPUs named in words or seen on the PCI bus are judged.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts.gpus import amd_agents
from rocm_doctor.judge.derived_facts.platform import linux_native, parse_kernel
from rocm_doctor.knowledge._tables import need_mapping, need_rows, str_list

TABLE = "kernel_gpu_support"

_BACKPORTED_DRM = re.compile(r"\.el\d+(?:_\d+)?(?:\.|$)", re.IGNORECASE)
"""A RHEL-family kernel (``5.14.0-570.12.1.el9_6.x86_64``, Rocky, Alma, CentOS Stream): Red Hat backports
the whole DRM subsystem from a later mainline release in each minor release (RHEL 9.3 from v6.3, 9.5 from
v6.9, 9.7 from v6.13/v6.14: https://gitlab.com/redhat/centos-stream/src/kernel/centos-stream-9/-/merge_requests/3977,
https://gitlab.com/redhat/centos-stream/src/kernel/centos-stream-9/-/merge_requests/6708), so its 5.14 or
4.18 says nothing about the amdgpu/KFD it carries."""

_DKMS_DISTRO_KERNEL = re.compile(r"^\d+\.\d+\.\d+-\d+(?:\.\d+)?-(?:generic|oem|lowlatency)\b|\.el\d+(?:_\d+)?(?:\.|$)", re.IGNORECASE)
"""A kernel release that names its distribution's own kernel package, one AMD builds amdgpu-dkms for: Ubuntu's
flavours (``6.8.0-60-generic``, ``-oem``, ``-lowlatency``) and RHEL's (``.el9_6``). The os-release beside it may be
a container's (a Fedora distrobox on an Ubuntu host): the kernel is the host's, so is the driver (r34b)."""

JUDGED_LAYERS = frozenset({"mention", "report", "pci"})
"""Discovery layers that see a GPU without a driver serving it: the report's words and lspci / the PCI
bus. rocminfo, rocm-smi, amdsmi, the KFD topology, HIP, clinfo and torch only list a GPU a kernel
driver serves; a CPU model's iGPU is a guess that never becomes the judged GPU."""
DRIVEN_LAYERS_EXCLUDED = JUDGED_LAYERS | {"cpu"}


def _layer(agent: GpuAgent) -> str:
    """``paste:mention (paste:block 1 line 1)`` -> ``mention``; a live layer name as is."""
    source = agent.source.split(" ", 1)[0]
    return source.split(":", 1)[1] if source.startswith("paste:") else source


def first_kernels(tables: Tables) -> Dict[str, Tuple[int, int]]:
    """gfx target -> (major, minor) of the first mainline kernel whose KFD drives it."""
    return {gfx: need for gfx, (need, _) in _rows(tables).items()}


def _rows(tables: Tables) -> Dict[str, Tuple[Tuple[int, int], bool]]:
    """gfx target -> (first kernel, whether AMD's amdgpu-dkms drove it on older kernels)."""
    table = need_mapping(tables[TABLE], TABLE, "")
    out: Dict[str, Tuple[Tuple[int, int], bool]] = {}
    for index, row in enumerate(need_rows(table.get("rows") or [], TABLE, "rows")):
        parsed = parse_kernel(str(row.get("first_kernel", "")))
        if parsed is None:
            raise InputError(f"rules/data/{TABLE}.yaml: rows[{index}].first_kernel must be a kernel version")
        served = row.get("amd_dkms_served", False)
        if not isinstance(served, bool):
            raise InputError(f"rules/data/{TABLE}.yaml: rows[{index}].amd_dkms_served must be true or false")
        for gfx in str_list(row, "gfx", TABLE, f"rows[{index}]"):
            out[gfx] = (parsed[:2], served)
    return out


def _own_amdgpu_shown(facts: Facts, tables: Tables) -> Optional[str]:
    """Why the kernel's own amdgpu must be the driver, or None: a distribution AMD packages no amdgpu-dkms
    for. (A report that installed ROCm with --no-dkms says so too, but too few real reports show it to read.)"""
    table = need_mapping(tables[TABLE], TABLE, "")
    own = need_mapping(table.get("own_amdgpu_only_distros") or {}, TABLE, "own_amdgpu_only_distros")
    ids = {str(i).lower() for i in (own.get("ids") or [])}
    distro = facts.host.distro_id
    release = facts.host.kernel_release
    if release.is_known and _DKMS_DISTRO_KERNEL.search(str(release.value)):
        return None  # the running kernel is Ubuntu's or RHEL's (a Fedora container on an Ubuntu host): AMD packages amdgpu-dkms for it
    if release.is_known:
        named = own_amdgpu_kernel_distro(str(release.value), tables)
        if named:
            # the kernel is the host's: it says the distribution where none is named, and over a container's os-release
            return f"kernel {release.value} is {named}'s own, and {named} has no AMD amdgpu-dkms package"
    if distro.is_known and str(distro.value).lower() in ids:
        return f"{distro.value} has no AMD amdgpu-dkms package"
    return None


def own_amdgpu_kernel_distro(release: str, tables: Tables) -> Optional[str]:
    """The distribution whose own kernel package ``release`` names (``6.9.3-arch1-1`` -> ``arch``,
    ``6.8.5-301.fc40.x86_64`` -> ``fedora``) where AMD packages no amdgpu-dkms for it, else None
    (rules/data/kernel_gpu_support.yaml, own_amdgpu_kernels)."""
    for distro, pattern in _own_kernel_patterns(tables):
        if pattern.search(release.strip()):
            return distro
    return None


def _own_kernel_patterns(tables: Tables) -> List[Tuple[str, "re.Pattern[str]"]]:
    table = need_mapping(tables[TABLE], TABLE, "")
    own = need_mapping(table.get("own_amdgpu_kernels") or {}, TABLE, "own_amdgpu_kernels")
    out: List[Tuple[str, "re.Pattern[str]"]] = []
    for index, row in enumerate(need_rows(own.get("patterns") or [], TABLE, "own_amdgpu_kernels.patterns")):
        where = f"rules/data/{TABLE}.yaml: own_amdgpu_kernels.patterns[{index}]"
        distro, pattern = row.get("distro"), row.get("pattern")
        if not isinstance(distro, str) or not isinstance(pattern, str):
            raise InputError(f"{where} needs a distro and a pattern (strings)")
        try:
            out.append((distro, re.compile(pattern)))
        except re.error as exc:
            raise InputError(f"{where}: the pattern does not compile: {exc}") from exc
    return out


def _out_of_tree_driver(facts: Facts) -> Optional[str]:
    """Why the kernel's own amdgpu is not the driver in use, or None: AMD's DKMS module reports
    its own version in /sys/module/amdgpu/version, and ``dkms status`` lists it installed."""
    driver = facts.driver
    if driver.amdgpu_version.is_known:
        return f"the amdgpu module reports version {driver.amdgpu_version.value} (AMD's DKMS driver)"
    if driver.dkms_amdgpu.is_known and "installed" in str(driver.dkms_amdgpu.value).lower():
        return "dkms status shows AMD's amdgpu driver installed"
    return None


def _native_linux(facts: Facts, tables: Tables) -> Fact:
    """Native Linux; where the report names both Windows and Linux ("I've been using Windows ...
    Ubuntu with 6.8 Kernel didn't recognize the GPU"), a Linux kernel release that is no WSL kernel
    says which one the GPU runs under."""
    native = linux_native(facts, tables)
    if native.is_known or not facts.host.kernel_release.is_known:
        return native
    if facts.host.wsl_version.status == "absent":
        return known(True, facts.host.kernel_release.source or "host.kernel_release")
    return native


@machine_fact(
    "kernel_predates_gpu",
    "The AMD GPUs named in the report or seen on the PCI bus (when ROCm lists no AMD GPU) whose first "
    "supporting mainline kernel (rules/data/kernel_gpu_support.yaml, from kfd_device.c) is newer "
    "than the running kernel, as 'gfx1201 (Linux 6.11 or later)'; absent when every such GPU's "
    "kernel is new enough, when ROCm lists the GPU or AMD's DKMS driver is in use, or off native "
    "Linux; unknown when the kernel or the GPU's gfx target is not known.",
)
def kernel_predates_gpu(facts: Facts, tables: Tables) -> Fact:
    native = _native_linux(facts, tables)
    if not native.is_known:
        return unknown(native.reason or "whether this is native Linux is not known")
    if not native.value:
        return absent(native.source or "host", "not native Linux: no amdgpu kernel driver of its own")
    out_of_tree = _out_of_tree_driver(facts)
    if out_of_tree:
        return absent("driver", out_of_tree)
    agents = amd_agents(facts)
    driven = [a for a in agents if _layer(a) not in DRIVEN_LAYERS_EXCLUDED]
    if driven:
        return absent(driven[0].source, "a kernel driver serves an AMD GPU: ROCm, HIP or torch lists it")
    rows = _rows(tables)
    own_amdgpu = _own_amdgpu_shown(facts, tables)
    # A GPU AMD's DKMS driver served on older kernels is judged only where that driver cannot be in use.
    needs = {gfx: need for gfx, (need, served) in rows.items() if own_amdgpu or not served}
    named = [a for a in agents if _layer(a) in JUDGED_LAYERS]
    judged = [a for a in named if a.gfx.is_known and str(a.gfx.value) in needs]
    if not judged:
        if any(not a.gfx.is_known for a in named):
            return unknown("an AMD GPU's gfx target is not known")
        if any(a.gfx.is_known and str(a.gfx.value) in rows for a in named):
            return absent("GPU discovery", "AMD's amdgpu-dkms driver serves this GPU on older kernels, and the report does not show the kernel's own amdgpu in use")
        return absent("GPU discovery", "no AMD GPU of a family the kernel table judges")
    release = facts.host.kernel_release
    if not release.is_known:
        return unknown(release.reason or "the running kernel is not known")
    if _BACKPORTED_DRM.search(str(release.value)):
        return unknown(
            f"kernel {release.value} is a Red Hat Enterprise Linux kernel, whose DRM subsystem (amdgpu, KFD) is "
            "backported from later mainline releases: its version does not say which GPUs it drives"
        )
    parsed = parse_kernel(str(release.value))
    if parsed is None:
        return unknown(f"kernel release {release.value!r} does not start with a version")
    too_old = _too_old(judged, needs, parsed[:2])
    if not too_old:
        return absent(release.source or "host", f"kernel {release.value} is new enough for the GPU")
    return known(too_old, release.source or "host")


def _too_old(agents: List[GpuAgent], needs: Dict[str, Tuple[int, int]], kernel: Tuple[int, int]) -> List[str]:
    out: List[str] = []
    for agent in agents:
        gfx = str(agent.gfx.value)
        need = needs[gfx]
        entry = f"{gfx} (Linux {need[0]}.{need[1]} or later)"
        if kernel < need and entry not in out:
            out.append(entry)
    return out

