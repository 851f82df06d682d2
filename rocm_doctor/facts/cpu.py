"""Processor and memory, as the System's resources report them (psutil on a live machine)."""

from __future__ import annotations

from typing import Any, Optional

from rocm_doctor.facts.context import GatherContext
from rocm_doctor.facts.model import CpuFacts
from rocm_doctor.facts.value import Fact, failed, known

SOURCE = "psutil"

_VENDORS = {"authenticamd": "AMD", "genuineintel": "Intel", "hygongenuine": "Hygon"}


def vendor_name(raw: str) -> str:
    """``AuthenticAMD`` -> ``AMD``; anything unrecognised is kept as reported."""
    return _VENDORS.get(raw.strip().lower(), raw.strip())


def _fact(value: Optional[Any], what: str) -> Fact[Any]:
    if value is None:
        return failed(SOURCE, f"the {what} was not reported")
    return known(value, SOURCE)


def gather_cpu(ctx: GatherContext) -> CpuFacts:
    """CPU model, vendor, cores and memory."""
    res = ctx.system.resources()
    vendor = vendor_name(res.cpu_vendor) if res.cpu_vendor else None
    return CpuFacts(
        model=_fact(res.cpu_model, "CPU model"),
        vendor=_fact(vendor, "CPU vendor"),
        logical_cores=_fact(res.logical_cores, "logical core count"),
        physical_cores=_fact(res.physical_cores, "physical core count"),
        memory_total_bytes=_fact(res.memory_total, "total memory"),
        memory_available_bytes=_fact(res.memory_available, "available memory"),
    )
