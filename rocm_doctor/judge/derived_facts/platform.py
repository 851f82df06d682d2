"""Derived facts about the platform: Windows, WSL2, containers, the kernel and /dev/kfd.

Sources: WSL2 reaches the GPU through /dev/dxg, without /dev/kfd
(https://github.com/ROCm/TheRock/blob/89553ce3746eda74ade42557470d25e37c91b6f0/docs/development/wsl_rocdxg.md); containers need
``--device=/dev/kfd --device=/dev/dri`` (https://github.com/ROCm/rocm-install-on-linux/blob/f297bde3afa98d750d1aa460386491db9a721f30/docs/how-to/docker.rst); the kernel's KFD logs
``PCI rejects atomics`` when it skips a GPU
(https://github.com/torvalds/linux/blob/v6.17/drivers/gpu/drm/amd/amdkfd/kfd_device.c); Strix
Halo needs the 6.14 OEM kernel with the LR compute fix
(https://rocm.docs.amd.com/projects/radeon-ryzen/en/docs-7.0.2/docs/install/installryz/native_linux/install-pytorch.html,
https://github.com/ROCm/legacy-rocm-build/issues/5499).
"""

from __future__ import annotations

import re
from typing import Callable, List, Optional, Tuple

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import then
from rocm_doctor.judge.derived_facts.gpus import amd_agents

_KERNEL = re.compile(r"^(\d{1,18})\.(\d{1,18})(?:\.(\d{1,18}))?(?!\d)")
_UBUNTU_ABI = re.compile(r"^\d+\.\d+\.\d+-(\d{1,18})-oem")

STRIX_HALO_MIN_KERNEL = (6, 14, 0)
"""AMD's Ryzen PyTorch docs (docs-7.0.2): 'required to operate on the 6.14 OEM kernel'."""
STRIX_HALO_MIN_OEM_ABI = 1014
"""Ubuntu linux-oem-6.14 6.14.0-1014 carries the LR compute fix (AMD in ROCm/legacy-rocm-build#5499)."""


def _os(facts: Facts) -> Optional[str]:
    return facts.host.os.value if facts.host.os.is_known else None


def _with_os(facts: Facts, compute: Callable[[str, str], Fact]) -> Fact:
    """``compute(os name, its source)``; unknown when the operating system is not known."""
    os_fact = facts.host.os
    if not os_fact.is_known:
        return unknown(os_fact.reason or "the operating system is not known")
    return compute(os_fact.value, os_fact.source or "host")


@machine_fact("is_windows", "The machine runs Windows natively (host.os is windows).")
def is_windows(facts: Facts, tables: Tables) -> Fact:
    return _with_os(facts, lambda os_name, source: known(os_name == "windows", source))


@machine_fact(
    "is_wsl2",
    "Linux running inside WSL2 (host.wsl_version is 2): the GPU comes through /dev/dxg and "
    "there is no /dev/kfd (TheRock docs/development/wsl_rocdxg.md).",
)
def is_wsl2(facts: Facts, tables: Tables) -> Fact:
    return _with_os(facts, lambda os_name, source: _wsl2(facts) if os_name == "linux" else known(False, source))


def _wsl2(facts: Facts) -> Fact:
    wsl = facts.host.wsl_version
    if wsl.status == "known":
        return known(wsl.value == 2, wsl.source or "host")
    if wsl.status == "absent":
        return known(False, wsl.source or "host")
    return unknown(wsl.reason or "whether this is WSL is not known")


@machine_fact(
    "in_container",
    "rocm-doctor runs inside a container (docker, podman, kubernetes, ...): host.container is known.",
)
def in_container(facts: Facts, tables: Tables) -> Fact:
    if _os(facts) in ("windows", "macos"):
        return known(False, facts.host.os.source or "host")
    fact = facts.host.container
    if fact.status == "known":
        return known(True, fact.source or "host")
    if fact.status == "absent":
        return known(False, fact.source or "host")
    return unknown(fact.reason or "whether this is a container is not known")


@machine_fact(
    "linux_native",
    "Linux that talks to the amdgpu kernel driver itself (not WSL2); containers count, since "
    "they share the host's kernel.",
)
def linux_native(facts: Facts, tables: Tables) -> Fact:
    wsl = is_wsl2(facts, tables)
    return then(wsl, lambda in_wsl: known(_os(facts) == "linux" and not in_wsl, wsl.source or "host"))


def parse_kernel(release: str) -> Optional[Tuple[int, int, int]]:
    """``6.14.0-1013-oem`` -> (6, 14, 0); None when the string does not start with a version."""
    match = _KERNEL.match(release.strip())
    if not match:
        return None
    return int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)


@machine_fact(
    "kernel_version",
    "The running Linux kernel's version as major.minor.patch, parsed from host.kernel_release "
    "(6.14.0-1013-oem -> 6.14.0).",
)
def kernel_version(facts: Facts, tables: Tables) -> Fact:
    release = facts.host.kernel_release
    if not release.is_known:
        return release if release.status == "absent" else unknown(release.reason or "the kernel release is not known")
    parsed = parse_kernel(str(release.value))
    if parsed is None:
        return unknown(f"kernel release {release.value!r} does not start with a version")
    return known(".".join(str(p) for p in parsed), release.source or "host")


@machine_fact(
    "kfd_missing_reason",
    "Why /dev/kfd is missing on Linux: 'wsl2' (normal there), 'container-without-device' "
    "(docker run lacked --device=/dev/kfd), 'pcie-atomics-rejected' (KFD skipped the GPU), "
    "'driver-not-loaded' (amdgpu not loaded) or 'kfd-not-created' (amdgpu loaded, no KFD "
    "device); absent when /dev/kfd exists or the OS is not Linux.",
)
def kfd_missing_reason(facts: Facts, tables: Tables) -> Fact:
    host, driver = facts.host, facts.driver
    if _os(facts) != "linux":
        return absent("host", "not Linux") if _os(facts) else unknown("the operating system is not known")
    if host.dev_kfd.status != "known":
        return unknown(host.dev_kfd.reason or "whether /dev/kfd exists is not known")
    if host.dev_kfd.value:
        return absent(host.dev_kfd.source or "/dev/kfd", "/dev/kfd exists")
    wsl = is_wsl2(facts, tables)
    container = in_container(facts, tables)
    if not wsl.is_known or not container.is_known:
        return unknown("whether this is WSL2 or a container is not known")
    if wsl.value:
        return known("wsl2", "host")
    if container.value:
        return known("container-without-device", host.container.source or "host")
    if driver.pcie_atomics_rejected.status == "known" and driver.pcie_atomics_rejected.value:
        return known("pcie-atomics-rejected", driver.pcie_atomics_rejected.source or "kernel log")
    loaded = driver.amdgpu_loaded
    if loaded.status != "known":
        return unknown(loaded.reason or "whether amdgpu is loaded is not known")
    return known("kfd-not-created" if loaded.value else "driver-not-loaded", loaded.source or "driver")


@machine_fact(
    "strix_halo_kernel_too_old",
    "A Strix Halo GPU (gfx1151) on Linux whose kernel is older than 6.14, or an Ubuntu 6.14 OEM "
    "kernel before 6.14.0-1014 (which lacks the LR compute fix): AMD's Ryzen PyTorch docs "
    "(docs-7.0.2) require the 6.14 OEM kernel; ROCm/legacy-rocm-build#5499.",
)
def strix_halo_kernel_too_old(facts: Facts, tables: Tables) -> Fact:
    return then(linux_native(facts, tables), lambda native: _strix_halo_kernel_too_old(facts, native))


def _strix_halo_kernel_too_old(facts: Facts, native: bool) -> Fact:
    if not native or not any(a.gfx.is_known and a.gfx.value == "gfx1151" for a in amd_agents(facts)):
        return known(False, "host + GPU discovery")
    release = facts.host.kernel_release
    parsed = parse_kernel(str(release.value)) if release.is_known else None
    if parsed is None:
        return unknown(release.reason or "the kernel version is not known")
    if parsed < STRIX_HALO_MIN_KERNEL:
        return known(True, release.source or "host")
    abi = _UBUNTU_ABI.match(str(release.value))
    too_old_oem = parsed[:2] == (6, 14) and abi is not None and int(abi.group(1)) < STRIX_HALO_MIN_OEM_ABI
    return known(too_old_oem, release.source or "host")


_DLL_MAJOR = re.compile(r"amdhip64_(\d{1,3})\.dll$", re.IGNORECASE)


def _dll_majors(names: List[str]) -> List[str]:
    """``amdhip64_6.dll`` -> ``6`` (the DLL's number is the HIP major it carries); an unnumbered
    name says no major. A DLL a Python wheel bundles (site-packages\\_rocm_sdk_core\\bin, ROCm/TheRock#1229
    and #1278) is not the HIP SDK's and gives none."""
    majors = set()
    for name in names:
        folders = str(name).replace("\\", "/").lower().split("/")
        if "_rocm_sdk_core" in folders[:-1]:
            continue  # a Python wheel's own runtime (TheRock's, AMD's Windows wheels), not the HIP SDK's
        match = _DLL_MAJOR.search(folders[-1])
        if match:
            majors.add(match.group(1))
    return sorted(majors)


@machine_fact(
    "windows_hip_runtime",
    "The Windows HIP runtime releases in use: a ROCm torch's own ROCm, else the HIP SDK versions "
    "(HIP_PATH_NN, C:\\Program Files\\AMD\\ROCm\\N.M, 'HIP SDK 6.2'), else the major of the "
    "amdhip64 DLLs outside a Python wheel's _rocm_sdk_core; absent when not Windows, unknown when none of these is shown.",
)
def windows_hip_runtime(facts: Facts, tables: Tables) -> Fact:
    windows = is_windows(facts, tables)
    if not windows.is_known:
        return windows
    if not windows.value:
        return absent(windows.source or "host", "not Windows")
    torch = facts.torch
    if torch.flavour.is_known and torch.flavour.value == "rocm" and torch.rocm_version.is_known:
        return known([str(torch.rocm_version.value)], torch.rocm_version.source or "torch.rocm_version")
    sdks = facts.windows.hip_sdk_versions
    if sdks.is_known and sdks.value:
        return known([str(v) for v in sdks.value], sdks.source or "windows.hip_sdk_versions")
    dlls = facts.windows.amdhip_dlls
    majors = _dll_majors(dlls.value or []) if dlls.is_known else []
    if majors:
        return known(majors, dlls.source or "windows.amdhip_dlls")
    return unknown("neither a ROCm torch, a HIP SDK version nor an amdhip64 DLL is known")
