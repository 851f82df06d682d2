"""Derived facts about HSA_OVERRIDE_GFX_VERSION across several GPUs and KFD nodes.

libhsakmt (ROCR-Runtime ``libhsakmt/src/topology.c``) reads ``HSA_OVERRIDE_GFX_VERSION_<node>``
and then the global variable for every *GPU* node of the KFD topology; CPU nodes come first
(node 0 is a CPU on almost every machine), so a per-node variable whose node is not a GPU is
read by nothing, and the global variable is applied to every GPU alike.
"""

from __future__ import annotations

import re
from typing import Dict, List

from rocm_doctor.knowledge.gpu_table import gfx_from_override
from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import list_fact
from rocm_doctor.judge.derived_facts.env import with_each_env, with_env
from rocm_doctor.judge.derived_facts.gpus import amd_agents
from rocm_doctor.judge.derived_facts.gpus import CPU_IMPLIED_SOURCE
from rocm_doctor.knowledge import overrides

_PER_NODE = re.compile(r"^HSA_OVERRIDE_GFX_VERSION_([0-9]+)$")


def _label(agent: GpuAgent) -> str:
    name = agent.name.value if agent.name.is_known else f"GPU {agent.index}"
    return f"{name} ({agent.gfx.value})"


def _broken(facts: Facts, tables: Tables, env: Dict[str, str]) -> Fact:
    value = env.get(overrides.VARIABLE)
    target = gfx_from_override(value) if value else None
    if target is None:
        return list_fact([], "env", "no valid global HSA_OVERRIDE_GFX_VERSION is set")
    data = tables["gfx_overrides"]
    target_group = overrides.group_of(target, data)
    matching: List[GpuAgent] = []
    broken: List[str] = []
    for agent in amd_agents(facts):
        if agent.source.startswith(CPU_IMPLIED_SOURCE):
            continue  # an iGPU known only from the CPU model: a weak fact, never judged (as RD840's reach)
        if not agent.gfx.is_known:
            return unknown(f"the gfx target of GPU {agent.index} is not known")
        per_node = agent.kfd_node.is_known and overrides.per_node_variable(int(agent.kfd_node.value)) in env
        if per_node:
            continue  # its own per-node variable wins over the global one
        group = overrides.group_of(str(agent.gfx.value), data)
        if group is None or target_group is None:
            return unknown(f"the override group of {agent.gfx.value} or {target} is not in rules/data/gfx_overrides.yaml")
        if group == target_group:
            matching.append(agent)
        else:
            broken.append(_label(agent))
    if not matching:
        return list_fact([], "env + GPU discovery", "the override fits no GPU here (RD214 judges that case)")
    return list_fact(broken, "env + GPU discovery", "every GPU the global override reaches is of its family")


@machine_fact(
    "override_breaks_other_family",
    "With GPUs of different families, the AMD GPUs that a global HSA_OVERRIDE_GFX_VERSION (meant for "
    "a GPU of its own family) reaches although they belong to another override group (RDNA2 vs RDNA3 "
    "...), as 'name (gfx)'; GPUs with their own per-node variable are left out. Absent when none.",
)
def override_breaks_other_family(facts: Facts, tables: Tables) -> Fact:
    # each program's own environment (env60): a per-node variable in one command's prefix does not shield a GPU from
    # the global override another command sets
    return with_each_env(facts, lambda env: _broken(facts, tables, env), programs=True)


@machine_fact(
    "override_per_node_suggestion",
    "The per-node replacement for a global HSA_OVERRIDE_GFX_VERSION: 'HSA_OVERRIDE_GFX_VERSION_<node>=<value>' "
    "for each AMD GPU of the override's own family; absent when there is no valid global override.",
)
def override_per_node_suggestion(facts: Facts, tables: Tables) -> Fact:
    def compute(env: Dict[str, str]) -> Fact:
        value = env.get(overrides.VARIABLE)
        target = gfx_from_override(value) if value else None
        if target is None:
            return list_fact([], "env", "no valid global HSA_OVERRIDE_GFX_VERSION is set")
        data = tables["gfx_overrides"]
        wanted: List[str] = []
        for agent in amd_agents(facts):
            if not agent.gfx.is_known or not agent.kfd_node.is_known:
                return unknown(f"the gfx or KFD node of GPU {agent.index} is not known")
            if overrides.group_of(str(agent.gfx.value), data) == overrides.group_of(target, data):
                wanted.append(f"{overrides.per_node_variable(int(agent.kfd_node.value))}={value.strip()}")
        return list_fact(wanted, "env + KFD topology", "no GPU is of the override's family")

    return with_env(facts, compute)
