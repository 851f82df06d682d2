"""Kernel driver facts: amdgpu module, its DKMS version, the kernel command line, PCIe atomics.

``/sys/module/amdgpu/version`` exists only with AMD's DKMS driver;
the in-tree driver has the module directory without it. ``dkms status`` lists
the built modules (ROCm install-on-linux post-install check). The kernel log
says ``skipped device ..., PCI rejects atomics`` when KFD refused a GPU
(kfd_device.c); reading it needs ``dmesg``, which many systems restrict to root,
so that fact is failed (not false) when the log cannot be read.
"""

from __future__ import annotations

from typing import Any, Optional

from rocm_doctor.facts.common import file_fact, not_applicable, os_kind
from rocm_doctor.facts.context import GatherContext
from rocm_doctor.facts.model import DriverFacts
from rocm_doctor.facts.parsers.dkms import parse_dkms_status
from rocm_doctor.facts.value import Fact, absent, failed, known

AMDGPU_MODULE = "/sys/module/amdgpu"
AMDGPU_VERSION = "/sys/module/amdgpu/version"
CMDLINE = "/proc/cmdline"
KERNEL_RELEASE = "/proc/sys/kernel/osrelease"
DKMS_ARGV = ["dkms", "status"]
DMESG_ARGV = ["dmesg", "--kernel"]
DMESG_TIMEOUT = 5.0
ATOMICS_MESSAGE = "PCI rejects atomics"
"""amdkfd kfd_device.c: ``skipped device %x:%x, PCI rejects atomics %d<%d``."""


def _strip(text: str) -> Optional[str]:
    return text.strip() or None


def _kernel_release(ctx: GatherContext) -> Optional[str]:
    host = ctx.sections.get("host")
    fact = getattr(host, "kernel_release", None)
    if isinstance(fact, Fact) and fact.is_known:
        return str(fact.value)
    try:
        return ctx.system.read_text(KERNEL_RELEASE).strip() or None
    except OSError:
        return None


def _dkms(ctx: GatherContext) -> Fact[Any]:
    source = "dkms status"
    result = ctx.system.run(DKMS_ARGV, timeout=ctx.options.command_timeout)
    if result.missing:
        return absent(source, "dkms is not installed")
    if not result.ok:
        return failed(source, result.failure_reason())
    entries = [e for e in parse_dkms_status(result.stdout) if e.module == "amdgpu"]
    if not entries:
        return absent(source, "dkms has no amdgpu module")
    release = _kernel_release(ctx)
    current = [e for e in entries if e.kernel == release]
    chosen = (current or entries)[0]
    return known(chosen.line, source)


def _atomics(ctx: GatherContext) -> Fact[Any]:
    source = " ".join(DMESG_ARGV)
    result = ctx.system.run(DMESG_ARGV, timeout=min(DMESG_TIMEOUT, ctx.options.command_timeout))
    if result.missing:
        return failed(source, "dmesg is not installed, so the kernel log cannot be read")
    if not result.ok:
        return failed(source, f"cannot read the kernel log: {result.failure_reason()}")
    return known(ATOMICS_MESSAGE in result.stdout, source)


def gather_driver(ctx: GatherContext) -> DriverFacts:
    """amdgpu and DKMS state; everything but the kernel command line is Linux only."""
    kind = os_kind(ctx.system)
    if kind != "linux":
        na = not_applicable(kind)
        return DriverFacts(amdgpu_loaded=na, amdgpu_version=na, dkms_amdgpu=na, kernel_cmdline=na, pcie_atomics_rejected=na)
    loaded = ctx.system.is_dir(AMDGPU_MODULE)
    if loaded:
        version = file_fact(ctx.system, AMDGPU_VERSION, _strip)
        if version.status == "absent":
            version = absent(AMDGPU_VERSION, "no version file: the in-tree amdgpu driver, not AMD's DKMS build")
    else:
        version = absent(AMDGPU_VERSION, "amdgpu is not loaded")
    return DriverFacts(
        amdgpu_loaded=known(loaded, AMDGPU_MODULE),
        amdgpu_version=version,
        dkms_amdgpu=_dkms(ctx),
        kernel_cmdline=file_fact(ctx.system, CMDLINE, _strip),
        pcie_atomics_rejected=_atomics(ctx),
    )
