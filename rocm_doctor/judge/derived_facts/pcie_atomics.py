"""Derived facts: a GPU whose compute driver needs PCIe atomics behind a CPU that provides none, and a Vega 10
that ROCm runs there only with its SDMA copy engines off.

KFD skips a GFX8 dGPU whose root port does not complete atomics
(https://github.com/torvalds/linux/blob/v6.1/drivers/gpu/drm/amd/amdkfd/kfd_device.c); AMD's system
requirements name the CPU generations that provide them (first Zen, Intel Haswell and later).
``rules/data/pcie_atomics.yaml`` holds the GPUs and the older CPU generations. Reports:
legacy-rocm-build#1214 (Xeon X5650), #1218 (Core i7-3770K), #157 (Xeon E5-2670), #406 (Xeon E5-1650 v2), #1086
(AMD FX 8300). Vega 10 with SDMA off: legacy-rocm-build#364 (AMD), #501, fireice-uk/xmr-stak#1902, todxx/tdxminer#22.
"""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts.gpus import amd_agents
from rocm_doctor.knowledge._tables import need_mapping, need_rows, str_list

TABLE = "pcie_atomics"


def _cpu_rows(tables: Tables) -> List[Tuple[str, "re.Pattern[str]"]]:
    table = need_mapping(tables[TABLE], TABLE, "")
    rows = []
    for index, row in enumerate(need_rows(table.get("cpus") or [], TABLE, "cpus")):
        try:
            rows.append((str(row["generation"]), re.compile(str(row["pattern"]), re.IGNORECASE)))
        except (KeyError, re.error) as exc:
            raise InputError(f"rules/data/{TABLE}.yaml: cpus[{index}] needs a generation and a valid pattern ({exc})") from None
    return rows


def cpu_generation_without_atomics(model: str, tables: Tables) -> Optional[str]:
    """The table's generation for a CPU model name that predates PCIe atomics, else None."""
    text = model[:300]  # a model line; bounded so the search stays linear in a pasted line
    for generation, pattern in _cpu_rows(tables):
        if pattern.search(text):
            return generation
    return None


def _behind_cpu_without_atomics(facts: Facts, tables: Tables, key: str, none_reason: str) -> Fact:
    """'<GPU> (<gfx>) behind <CPU> (<generation>)' for the first AMD GPU whose gfx is in the table's ``key`` list
    and a CPU of a generation without PCIe atomics; absent, or unknown when the CPU is not named."""
    table = need_mapping(tables[TABLE], TABLE, "")
    gpus = need_mapping(table.get(key) or {}, TABLE, key)
    listed = set(str_list(gpus, "gfx", TABLE, key))
    agent = next((a for a in amd_agents(facts) if a.gfx.is_known and str(a.gfx.value) in listed), None)
    if agent is None:
        return absent("GPU discovery", none_reason)
    model = facts.cpu.model
    if not model.is_known:
        return unknown(model.reason or "the CPU is not named")
    generation = cpu_generation_without_atomics(str(model.value), tables)
    if generation is None:
        return absent(model.source or "cpu", "the CPU is not of a generation without PCIe atomics")
    name = str(agent.name.value) if agent.name.is_known else str(agent.gfx.value)
    cpu = " ".join(str(model.value).split())[:80]
    return known(f"{name} ({agent.gfx.value}) behind {cpu} ({generation})", model.source or "cpu")


@machine_fact(
    "gpu_needs_atomics_cpu_lacks",
    "'<GPU> (<gfx>) behind <CPU> (<generation>)' when a GFX8 dGPU, whose KFD needs PCIe atomics with no "
    "firmware exemption, sits in a machine whose CPU generation provides none (rules/data/pcie_atomics.yaml); "
    "absent when the GPU needs no atomics or the CPU provides them; unknown when the CPU is not named.",
)
def gpu_needs_atomics_cpu_lacks(facts: Facts, tables: Tables) -> Fact:
    return _behind_cpu_without_atomics(facts, tables, "gpus", "no GPU that needs PCIe atomics without a firmware exemption")


@machine_fact(
    "sdma_gpu_behind_cpu_without_atomics",
    "'<GPU> (<gfx>) behind <CPU> (<generation>)' when a Vega 10 GPU, which ROCm runs without PCIe atomics only with "
    "its SDMA copy engines off (HSA_ENABLE_SDMA=0; rules/data/pcie_atomics.yaml sdma_gpus), sits in a machine whose "
    "CPU generation provides no atomics; absent when no such GPU or the CPU provides them; unknown when the CPU is "
    "not named.",
)
def sdma_gpu_behind_cpu_without_atomics(facts: Facts, tables: Tables) -> Fact:
    return _behind_cpu_without_atomics(facts, tables, "sdma_gpus", "no GPU that needs its SDMA engines off without PCIe atomics")
