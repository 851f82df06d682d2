"""Where an HSA_OVERRIDE_GFX_VERSION would land on a machine whose environment the report does not show.

libhsakmt applies the global variable to every GPU node without a per-node variable of its own
(ROCR-Runtime ``libhsakmt/src/topology.c``). On a machine where one GPU needs an override and
another GPU belongs to a different override group, the usual advice ("export
HSA_OVERRIDE_GFX_VERSION=10.3.0") retargets the other GPU too; a global value left over from that
advice is what AMD found behind "Memory access fault ... Reason: Unknown" on an MI210 beside an
RX 6600 (https://github.com/ROCm/legacy-rocm-build/issues/5238). A ROCm listing that shows a GPU
under another family's target than its own model shows such an override in effect.
"""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known
from rocm_doctor.judge.derived import Tables, gpu_fact, machine_fact
from rocm_doctor.judge.derived_facts._support import list_fact
from rocm_doctor.judge.derived_facts.gfx import override, recommended_override
from rocm_doctor.judge.derived_facts.gpus import CPU_IMPLIED_SOURCE, amd_agents
from rocm_doctor.judge.derived_facts.pasted import documented_override, in_any_release_wheel
from rocm_doctor.knowledge import overrides as ov
from rocm_doctor.knowledge import gpu_table
from rocm_doctor.knowledge.gpu_table import gfx_from_override


def _label(agent: GpuAgent) -> str:
    name = agent.name.value if agent.name.is_known else f"GPU {agent.index}"
    return f"{name} ({agent.gfx.value})"


def _needs_override(facts: Facts, agent: GpuAgent, tables: Tables) -> bool:
    """The GPU is one RD511 would advise an override for: discrete, no wheel kernels, a documented value."""
    if not agent.integrated.is_known or agent.integrated.value:
        return False
    if not documented_override(facts, agent, tables).is_known:
        return False
    recommended = recommended_override(facts, agent, tables)
    in_wheels = in_any_release_wheel(facts, agent, tables)
    return recommended.is_known or (in_wheels.is_known and in_wheels.value is False)


PROSE_MENTION_SOURCE = "paste:mention"
_PROSE_LINE = re.compile(r"\bblock (\d{1,6}) line (\d{1,9})\b")
"""Agents read from a GPU named in prose (``paste:mention (paste:block 1 line 5)``)."""


def _one_machine(a: GpuAgent, b: GpuAgent) -> bool:
    """Whether the report shows both GPUs in one machine: a listing or a labelled field lists them together, or one
    prose line names both ("an RX 6600 beside an MI210"; the next line too: a sentence wrapped at 80 columns). Two GPUs
    each named only in prose on lines further apart may be two people's (a thread: "Could someone advise me how to
    use my Vega 64?" [...] "I similarly was trying an AMD card on Windows (6700xt)", C0untFloyd/roop-unleashed#70) or
    an old and a new card: not one machine's pair (fix54a)."""
    if not (a.source.startswith(PROSE_MENTION_SOURCE) and b.source.startswith(PROSE_MENTION_SOURCE)):
        return True
    where_a, where_b = _PROSE_LINE.search(a.source), _PROSE_LINE.search(b.source)
    if where_a is None or where_b is None:
        return a.source == b.source
    return where_a.group(1) == where_b.group(1) and abs(int(where_a.group(2)) - int(where_b.group(2))) <= 1


@machine_fact(
    "override_would_reach_other_family",
    "The report does not show whether HSA_OVERRIDE_GFX_VERSION is set, one discrete AMD GPU needs it "
    "(no wheel kernels, a documented value) and another AMD GPU belongs to a different override group: "
    "a global value would retarget that GPU too. Items 'needing GPU|value|target gfx|other GPU'; absent when the "
    "machine has no such pair or the environment shows the override (RD702 then judges the value).",
)
def override_would_reach_other_family(facts: Facts, tables: Tables) -> Fact:
    found = [f"{_label(agent)}|{value}|{target}|{_label(other)}" for agent, value, target, other in _pairs(facts, tables)]
    return list_fact(found, "GPU discovery + rules/data/gfx_overrides.yaml", "no GPU that needs an override beside one of another family")


def _pairs(facts: Facts, tables: Tables) -> List[Tuple[GpuAgent, str, str, GpuAgent]]:
    """(GPU that needs the override, its value, the target it names, a GPU of another override group)."""
    agents = [a for a in amd_agents(facts) if not a.source.startswith(CPU_IMPLIED_SOURCE)]
    if len(agents) < 2:
        return []
    data = tables["gfx_overrides"]
    found: List[Tuple[GpuAgent, str, str, GpuAgent]] = []
    for agent in agents:
        if not agent.gfx.is_known or override(facts, agent, tables).status != "unknown":
            continue
        if not _needs_override(facts, agent, tables):
            continue
        value = str(documented_override(facts, agent, tables).value)
        target = gfx_from_override(value)
        target_group = ov.group_of(target, data) if target else None
        if target_group is None:
            continue
        for other in agents:
            if other is agent or not other.gfx.is_known or not _one_machine(agent, other):
                continue
            group = ov.group_of(str(other.gfx.value), data)
            if group is not None and group != target_group:
                found.append((agent, value, str(target), other))
    return found


@machine_fact(
    "override_reach_only_integrated",
    "Whether every GPU of another family that override_would_reach_other_family names is an integrated GPU (an "
    "application that leaves the iGPU out, ollama, then has no GPU the override could retarget); absent when there "
    "is no such pair.",
)
def override_reach_only_integrated(facts: Facts, tables: Tables) -> Fact:
    pairs = _pairs(facts, tables)
    if not pairs:
        return absent("GPU discovery", "no GPU that needs an override beside one of another family")
    return known(all(other.integrated.is_known and other.integrated.value is True for *_, other in pairs), "GPU discovery")


@machine_fact(
    "override_reach_needing_gpu",
    "For messages: the GPU of the first override_would_reach_other_family pair that needs the override, 'name (gfx)'.",
)
def override_reach_needing_gpu(facts: Facts, tables: Tables) -> Fact:
    return _part(facts, tables, 0)


@machine_fact(
    "override_reach_value",
    "For messages: the HSA_OVERRIDE_GFX_VERSION value the first override_would_reach_other_family pair's GPU needs.",
)
def override_reach_value(facts: Facts, tables: Tables) -> Fact:
    return _part(facts, tables, 1)


@machine_fact(
    "override_reach_other_gpu",
    "For messages: the GPU of another family that a global override of the first pair would retarget, 'name (gfx)'.",
)
def override_reach_other_gpu(facts: Facts, tables: Tables) -> Fact:
    return _part(facts, tables, 3)


@machine_fact(
    "override_reach_target",
    "For messages: the gfx target the override value of the first override_would_reach_other_family pair names (10.3.0 -> gfx1030).",
)
def override_reach_target(facts: Facts, tables: Tables) -> Fact:
    return _part(facts, tables, 2)


def _part(facts: Facts, tables: Tables, index: int) -> Fact:
    pairs = override_would_reach_other_family(facts, tables)
    if not pairs.is_known:
        return pairs
    parts = str(pairs.value[0]).split("|")
    return known(parts[index], pairs.source or "GPU discovery")


RUNTIME_LISTINGS = ("rocminfo", "torch", "clinfo")
"""Field sources whose gfx is what the ROCm runtime reported in that process (after any override;
clinfo: ROCm's OpenCL on the same ROCr),
and whose GPU name (or PCI id) comes from the same agent entry."""


def _model_gfx(agent: GpuAgent) -> Optional[str]:
    """The gfx target the GPU's own PCI id or marketing name stands for (verified table rows only)."""
    model = None
    if agent.device_id.is_known and agent.device_id.source == agent.gfx.source:
        model = gpu_table.lookup_pci(str(agent.device_id.value))
    if model is None and agent.name.is_known and agent.name.source == agent.gfx.source:
        model = gpu_table.model_for_name(str(agent.name.value))
    return model.gfx if model is not None and model.verified else None


@gpu_fact(
    "runtime_gfx_contradicts_model",
    "A ROCm listing (rocminfo, torch) reports this GPU under another override group's gfx target than "
    "its own PCI id or marketing name stands for (an MI210 listed as gfx1030, a Radeon 8060S as gfx1201): "
    "HSA_OVERRIDE_GFX_VERSION was in effect where the listing was printed. The value is the GPU's own gfx; "
    "absent when the listing agrees with the model, or the two are of one group (an override the GPU needs).",
)
def runtime_gfx_contradicts_model(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    if not agent.gfx.is_known or not str(agent.gfx.source or "").startswith(RUNTIME_LISTINGS):
        return absent("GPU discovery", "no gfx target reported by a ROCm listing")
    own = _model_gfx(agent)
    reported = gpu_table.base_gfx(str(agent.gfx.value))
    if own is None or own == reported:
        return absent(str(agent.gfx.source), "the listing agrees with the GPU's model, or the model is not known")
    if ov.group_of(own, tables["gfx_overrides"]) == ov.group_of(reported, tables["gfx_overrides"]) and ov.group_of(own, tables["gfx_overrides"]) is not None:
        return absent(str(agent.gfx.source), f"{reported} is the same-family target {own} is overridden to")
    return known(own, f"{agent.gfx.source}; {gpu_table.table_source()}")
