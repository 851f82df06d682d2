"""Derived facts that pasted reports need (``check --from``, rules in ``rules/symptoms.yaml``).

A paste often shows an error from a program that is not PyTorch (rocBLAS inside
ollama, a llama.cpp build), or a GPU listing printed through HIP itself; these
facts say what such evidence means without needing the machine-wide facts a live
check would have (the environment, the installed wheel).
"""

from __future__ import annotations

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact, machine_fact
from rocm_doctor.judge.derived_facts.gpus import amd_agents
from rocm_doctor.knowledge import overrides as ov

HIP_LEVEL_LISTINGS = ("paste:hip", "paste:torch")
"""GPU listings printed by a HIP program (hipInfo, llama.cpp, torch): already filtered by *_VISIBLE_DEVICES."""


@gpu_fact(
    "documented_override",
    "The same-family HSA_OVERRIDE_GFX_VERSION documented for the GPU's gfx in rules/data/gfx_overrides.yaml "
    "(gfx1031/gfx1032 -> 10.3.0), whatever program runs; absent when the table has no recommended one "
    "(rules/data/gfx_overrides.yaml).",
)
def documented_override(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    if not agent.gfx.is_known or not agent.gfx.value:
        return unknown(agent.gfx.reason or "the GPU's gfx target is not known")
    found = ov.table(tables["gfx_overrides"]).workaround(str(agent.gfx.value))
    if found is None or not found[1]:
        return absent("rules/data/gfx_overrides.yaml", f"no recommended override for {agent.gfx.value}")
    return known(found[0], f"rules/data/gfx_overrides.yaml ({found[2]})")


@machine_fact(
    "hip_listing_igpu_first",
    "A GPU listing printed through HIP (hipInfo, llama.cpp's device list, torch) shows an integrated AMD GPU as "
    "device 0 next to a discrete one: the iGPU is visible to applications, whatever the environment said "
    "(AMD: https://github.com/ROCm/rocm-install-on-linux/blob/f297bde3afa98d750d1aa460386491db9a721f30/docs/install/prerequisites.rst#L225-L231); absent when the facts hold no such listing.",
)
def hip_listing_igpu_first(facts: Facts, tables: Tables) -> Fact:
    layer = facts.gpus.discovery.value if facts.gpus.discovery.is_known else None
    if layer not in HIP_LEVEL_LISTINGS:
        return absent("gpus.discovery", "no GPU listing printed through HIP")
    agents = sorted(amd_agents(facts), key=lambda a: a.index)
    if not agents or any(not a.integrated.is_known for a in agents):
        return unknown("whether each listed AMD GPU is integrated is not known")
    first_igpu = bool(agents[0].integrated.value)
    has_dgpu = any(not a.integrated.value for a in agents)
    return known(first_igpu and has_dgpu, facts.gpus.discovery.source or str(layer))
