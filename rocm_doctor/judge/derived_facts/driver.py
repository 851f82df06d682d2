"""Derived facts about AMD's amdgpu DKMS kernel driver and the ROCm user space beside it.

AMD supports a kernel driver only with some ROCm user-space releases: "+/- 2 releases"
up to ROCm 6.3 (compatibility-matrix footnote ``kfd_support``,
https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.3.0/reference/user-kernel-space-compat-matrix.html),
a wider window from 6.4 on (the AMD GPU Driver 30.10 of ROCm 7.0 supports ROCm 6.2 to 7.0,
https://github.com/ROCm/amdgpu-docs/blob/30.10.0/docs/compatibility/compatibility-matrix.rst),
with the exact pairs in ``rules/data/amdgpu_driver.yaml`` 'support'.
The DKMS module reports its own version (``/sys/module/amdgpu/version`` = ``6.8.5``), which
is not the ROCm version; ``rules/data/amdgpu_driver.yaml`` maps it to the ROCm release it
shipped with, from AMD's package names (``amdgpu-dkms_6.8.5.60203`` = ROCm 6.2.3).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Tuple

from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.parsers.dkms import parse_dkms_status
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import carry, first_missing, version_series
from rocm_doctor.knowledge._tables import need_mapping, need_rows

TABLE = "amdgpu_driver"
_MODULE = re.compile(r"^(?:\d+:)?(\d+\.\d+\.\d+)(?:\.(\d{8}|\d{5}))?(?:$|[-+~ ])")
"""``[epoch:]module[.release]``: the release part is 5 digits (ROCm 60203 = 6.2.3) or, from
ROCm 7.0 on, 8 digits (AMD GPU Driver 30100200 = 30.10.2.0)."""


def _rows(tables: Tables, key: str) -> List[Dict[str, Any]]:
    table = need_mapping(tables[TABLE], TABLE, "")
    return need_rows(table.get(key) or [], TABLE, key)


def _series_order(tables: Tables) -> List[str]:
    order = need_mapping(tables[TABLE], TABLE, "").get("series")
    if not isinstance(order, list) or not order:
        raise InputError(f"rules/data/{TABLE}.yaml: series must be a non-empty list")
    return [str(s) for s in order]


def rocm_of_module(version: str, tables: Tables) -> Optional[str]:
    """The ROCm release series an amdgpu DKMS version shipped with, or None when not known.

    ``6.8.5`` and ``6.8.5-2009582.24.04`` -> ``6.2`` (table); ``1:6.8.5.60203-2044426`` -> ``6.2``
    (the package encoding); ``6.14.14.30100000`` -> ``7.0`` (driver 30.10, table).
    """
    match = _MODULE.match(version.strip())
    if not match:
        return None
    module, release = match.group(1), match.group(2)
    if release and len(release) == 5:
        number = int(release)
        return f"{number // 10000}.{number // 100 % 100}"
    if release:
        driver = f"{int(release[:2])}.{int(release[2:4])}"
        return next((str(r["rocm"]) for r in _rows(tables, "drivers") if str(r.get("driver")) == driver), None)
    return next((str(r["rocm"]) for r in _rows(tables, "releases") if str(r.get("amdgpu_dkms")) == module), None)


def _amdgpu_entries(text: str) -> list:
    """The amdgpu lines of a ``dkms status`` output."""
    return [e for e in parse_dkms_status(text) if e.module == "amdgpu"]


def _dkms_version(line: str) -> Optional[str]:
    entries = _amdgpu_entries(line)
    return entries[0].version if entries else None


def _not_linux(facts: Facts) -> Optional[Fact]:
    """Absent on a known OS other than Linux (Windows and macOS have no amdgpu kernel module), else None."""
    host_os = facts.host.os
    if host_os.is_known and host_os.value != "linux":
        return absent(host_os.source or "host.os", f"no amdgpu kernel driver on {host_os.value}")
    return None


@machine_fact(
    "amdgpu_dkms_rocm",
    "The ROCm release series (6.2) that the loaded amdgpu DKMS driver shipped with, from "
    "driver.amdgpu_version (or the dkms status line when the module version was not read) "
    "and rules/data/amdgpu_driver.yaml (AMD package names). Absent when amdgpu is not loaded, "
    "the in-tree kernel driver runs (no /sys/module/amdgpu/version) or the OS is not Linux; unknown for a module "
    "version the table does not list.",
)
def amdgpu_dkms_rocm(facts: Facts, tables: Tables) -> Fact:
    other_os = _not_linux(facts)
    if other_os is not None:
        return other_os
    driver = facts.driver
    version = driver.amdgpu_version
    if version.is_known:
        text, source = str(version.value), version.source or "/sys/module/amdgpu/version"
    elif version.status == "absent":
        loaded = driver.amdgpu_loaded
        if loaded.status == "known" and loaded.value:
            return absent(version.source or "/sys/module/amdgpu/version", "the in-tree amdgpu kernel driver is loaded, not AMD's DKMS build")
        return carry(version, "driver.amdgpu_version")
    elif driver.dkms_amdgpu.is_known and _dkms_version(str(driver.dkms_amdgpu.value)):
        text, source = str(_dkms_version(str(driver.dkms_amdgpu.value))), driver.dkms_amdgpu.source or "dkms status"
    else:
        return unknown(version.reason or "the amdgpu driver version is not known")
    rocm = rocm_of_module(text, tables)
    if rocm is None:
        return unknown(f"amdgpu DKMS version {text} is not in rules/data/{TABLE}.yaml")
    return known(rocm, source)


def _driver_and_userspace(facts: Facts, tables: Tables, compute: Callable[[Fact, Fact], Fact]) -> Fact:
    """``compute(kernel driver series, user-space series)`` when both are known (else the first
    that is not, as is): derived.amdgpu_dkms_rocm and the series of rocm.version."""
    kmd = amdgpu_dkms_rocm(facts, tables)
    user = version_series(facts.rocm.version, "rocm.version") if kmd.is_known else kmd
    return first_missing(kmd, user) or compute(kmd, user)


@machine_fact(
    "driver_userspace_gap",
    "How many ROCm release series (minor releases: 6.2 -> 6.4 is 2) lie between the release "
    "the amdgpu DKMS driver shipped with (derived.amdgpu_dkms_rocm) and the ROCm user space "
    "(rocm.version), either direction. AMD supports +/- 2 releases up to ROCm 6.3 and a wider "
    "window from 6.4 on (user and kernel-space support matrix). Absent when either side "
    "is absent, unknown when either is unknown.",
)
def driver_userspace_gap(facts: Facts, tables: Tables) -> Fact:
    return _driver_and_userspace(facts, tables, lambda kmd, user: _gap(kmd, user, tables))


def _gap(kmd: Fact, user: Fact, tables: Tables) -> Fact:
    order = _series_order(tables)
    missing = [s for s in (kmd.value, user.value) if s not in order]
    if missing:
        return unknown(f"ROCm {', '.join(missing)} is not in the series list of rules/data/{TABLE}.yaml")
    return known(abs(order.index(user.value) - order.index(kmd.value)), f"{kmd.source} + {user.source}")


@machine_fact(
    "driver_userspace_supported",
    "Whether AMD's user and kernel-space support matrix lists the ROCm user space series "
    "(rocm.version) for the release the amdgpu DKMS driver shipped with "
    "(derived.amdgpu_dkms_rocm); rules/data/amdgpu_driver.yaml 'support'. Unknown for a driver "
    "release without a published row; absent without a DKMS driver or a ROCm install.",
)
def driver_userspace_supported(facts: Facts, tables: Tables) -> Fact:
    return _driver_and_userspace(facts, tables, lambda kmd, user: _supported(kmd, user, tables))


def supported_userspace(kmd: str, tables: Tables) -> Optional[Tuple[str, ...]]:
    """The ROCm user-space series AMD supports with the kernel driver of release ``kmd``; None without a row."""
    row = next((r for r in _rows(tables, "support") if str(r.get("kmd")) == kmd), None)
    return None if row is None else tuple(str(s) for s in row.get("userspace") or [])


def _supported(kmd: Fact, user: Fact, tables: Tables) -> Fact:
    supported = supported_userspace(str(kmd.value), tables)
    if supported is None:
        return unknown(f"AMD publishes no support-matrix row for the ROCm {kmd.value} kernel driver")
    return known(user.value in supported, f"{kmd.source} + {user.source}")


def kernel_driver(facts: Facts, tables: Tables) -> Tuple[Optional[str], Optional[Tuple[str, ...]]]:
    """(the kernel driver's ROCm series, the user-space series supported with it), (None, None) when the
    driver is not known: what the torch choice needs (:data:`rocm_doctor.wheels.choice.KernelDriver`)."""
    kmd = amdgpu_dkms_rocm(facts, tables)
    if not kmd.is_known:
        return None, None
    return str(kmd.value), supported_userspace(str(kmd.value), tables)


@machine_fact(
    "amdgpu_dkms_not_for_running_kernel",
    "What dkms status says when AMD's amdgpu DKMS module is not installed for the running kernel: "
    "'never built' (only 'added', the state a failed build leaves), or the kernel and state it is "
    "listed for instead. Absent when dkms has it installed for the running kernel or has no amdgpu "
    "module; unknown when the running kernel is needed and not known.",
)
def amdgpu_dkms_not_for_running_kernel(facts: Facts, tables: Tables) -> Fact:
    other_os = _not_linux(facts)
    if other_os is not None:
        return other_os
    line = facts.driver.dkms_amdgpu
    if not line.is_known:
        return carry(line, "driver.dkms_amdgpu")
    source = line.source or "dkms status"
    entries = _amdgpu_entries(str(line.value))
    if not entries:
        return absent(source, "dkms lists no amdgpu module")
    built = [e for e in entries if e.kernel]
    if not built:
        added = next((e for e in entries if e.status == "added"), None)
        if added is None:
            return unknown(f"dkms status names no kernel for amdgpu {entries[0].version}")
        # AMD (ROCm/amdgpu#115): "If it only returns 'added' then there was an installation failure"
        return known(f"amdgpu {added.version} is only added: never built", source)
    release = facts.host.kernel_release
    if not release.is_known:
        return unknown(release.reason or "the running kernel is not known")
    running = [e for e in built if e.kernel == str(release.value)]
    if any(e.status == "installed" for e in running):
        return absent(source, f"amdgpu is installed for the running kernel {release.value}")
    if running:
        return known(f"amdgpu {running[0].version} is only {running[0].status} for {release.value}, not installed", source)
    listed = ", ".join(sorted({f"{e.kernel} ({e.status})" for e in built}))
    return known(f"amdgpu is listed for {listed}, not for the running {release.value}", source)


@machine_fact(
    "rocminfo_gpu_agents",
    "The GPUs rocminfo listed as HSA agents, as names: the runtime reached them through KFD, so the "
    "compute driver works whatever rocminfo's module check said (a kernel with amdgpu built in has no "
    "/sys/module/amdgpu/initstate: rocm_smi_lib#102, amdsmi#172); absent when rocminfo listed none.",
)
def rocminfo_gpu_agents(facts: Facts, tables: Tables) -> Fact:
    names = [
        str(agent.name.value if agent.name.is_known else agent.gfx.value)
        for agent in facts.gpus.agents
        if agent.gfx.is_known and "rocminfo" in str(agent.gfx.source or "")
    ]
    return known(names, "rocminfo") if names else absent("GPU discovery", "rocminfo listed no GPU agent")
