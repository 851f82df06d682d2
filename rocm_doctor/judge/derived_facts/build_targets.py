"""Derived facts about the gfx target list a build in the report was configured with.

``symptoms.build_targets`` holds each list the report names (``-DAMDGPU_TARGETS=``, ``GPU_TARGETS=``,
``PYTORCH_ROCM_ARCH=``). A program built from such a list has code objects for those targets only
(the HIP runtime then finds none for another GPU: hip_code_object.cpp), and an override can only
borrow a listed target of the GPU's own family (rules/data/gfx_overrides.yaml).
"""

from __future__ import annotations

from typing import List

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact, machine_fact
from rocm_doctor.judge.derived_facts._support import the_one_named
from rocm_doctor.judge.derived_facts.gpus import CPU_IMPLIED_SOURCE
from rocm_doctor.judge.derived_facts.wheel_family import OVERRIDE_SOURCE, gpu_family
from rocm_doctor.knowledge.gpu_table import base_gfx


@machine_fact(
    "build_gfx_targets",
    "The gfx targets of the one build target list the report names (symptoms.build_targets: -DAMDGPU_TARGETS=, "
    "GPU_TARGETS=, PYTORCH_ROCM_ARCH=), feature suffixes kept; unknown when it names several different lists "
    "(which one built the program that ran is not shown); absent when it names none.",
)
def build_gfx_targets(facts: Facts, tables: Tables) -> Fact:
    return the_one_named(
        facts.symptoms.build_targets, "symptoms.build_targets", "the report names no build target list",
        lambda _: "the report names several build target lists; which one built the program that ran is not shown",
        lambda item, source: known(sorted(set(str(item).split(";"))), source),
        same=lambda item: frozenset(str(item).split(";")),
    )


def _base_targets(targets: Fact) -> List[str]:
    """The known build target list's gfx names without their feature suffixes (gfx906:xnack+ is gfx906)."""
    return [base_gfx(str(t)) for t in targets.value or []]


@gpu_fact(
    "build_lacks_gfx_group",
    "The one build target list the report names (derived.build_gfx_targets) has neither the GPU's gfx nor any "
    "target of its override group, so no override can help the program built from it; unknown for a GPU "
    "inferred only from a CPU model.",
)
def build_lacks_gfx_group(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    targets = build_gfx_targets(facts, tables)
    family = gpu_family(agent, tables)
    if isinstance(family, Fact) and agent.source.startswith(CPU_IMPLIED_SOURCE):
        return family  # a CPU-implied GPU is never judged, whatever the report's lists say
    if not targets.is_known:
        return targets
    if isinstance(family, Fact):
        return family
    listed = _base_targets(targets)
    return known(not any(t in listed for t in family), f"{targets.source}; {OVERRIDE_SOURCE}")


@gpu_fact(
    "build_lacks_gfx",
    "The one build target list the report names (derived.build_gfx_targets) does not have the GPU's own gfx "
    "(feature suffixes aside), whatever its family: a program that checks the GPU against its own list by name "
    "(TensorFlow's ROCm build) skips it; unknown for a GPU inferred only from a CPU model or without a known gfx.",
)
def build_lacks_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    targets = build_gfx_targets(facts, tables)
    if agent.source.startswith(CPU_IMPLIED_SOURCE):
        return unknown("the GPU is inferred from the CPU model only")
    if not targets.is_known:
        return targets
    if not agent.gfx.is_known or not agent.gfx.value:
        return unknown("the GPU's gfx is not known")
    return known(base_gfx(str(agent.gfx.value)) not in _base_targets(targets), f"{targets.source}; {agent.gfx.source}")
