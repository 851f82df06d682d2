"""Derived facts about the process ``--pid`` names (``process.*``): what YAML cannot say.

Each is absent without ``--pid`` (the ``process`` section is then absent), so the rules that
read them are decided, silent, for a machine, a facts file or a paste.
"""

from __future__ import annotations

from typing import Dict, List

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.processes import classify, runtime_mix
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import carry
from rocm_doctor.judge.derived_facts.devices import VISIBILITY_VARS, visibility
from rocm_doctor.judge.derived_facts.gpus import amd_agents, integration_unknown


@machine_fact(
    "process_runtime_mix",
    "The process loaded ROCm libraries from two installs: the same library from two folders, or "
    "libamdhip64 and libhsa-runtime64 from different installs (a sentence naming them); absent otherwise.",
)
def process_runtime_mix(facts: Facts, tables: Tables) -> Fact:
    libraries = facts.process.libraries
    if not libraries.is_known:
        return carry(libraries, "process.libraries")
    found = runtime_mix([lib for lib in (classify(p) for p in libraries.value or []) if lib is not None])
    return known(found, libraries.source or "process") if found else absent(
        libraries.source or "process", "every ROCm library it loaded comes from one install")


@machine_fact(
    "process_launcher",
    "The chain of processes that started the process (``python (812) <- bash (700) <- systemd (1)``); "
    "absent without --pid.",
)
def process_launcher(facts: Facts, tables: Tables) -> Fact:
    parents = facts.process.parents
    if not parents.is_known:
        return carry(parents, "process.parents")
    chain: List[str] = list(parents.value or [])
    return known(" <- ".join(chain), "process") if chain else absent("process", "no parent process could be read")


def _by_node(facts: Facts) -> Dict[int, GpuAgent]:
    return {int(a.kfd_node.value): a for a in amd_agents(facts) if a.kfd_node.is_known}


@machine_fact(
    "process_igpu_context",
    "Every GPU context of the process is on an integrated AMD GPU while the machine has a discrete "
    "AMD GPU: the integrated GPU(s) it uses (``KFD node 1 (gfx1036)``); absent otherwise.",
)
def process_igpu_context(facts: Facts, tables: Tables) -> Fact:
    nodes = facts.process.gpu_nodes
    if nodes.status == "absent":
        return carry(nodes, "process.gpu_nodes")
    agents = amd_agents(facts)
    if not agents and facts.gpus.discovery.is_known:
        return absent("gpus", "no AMD GPU was found")
    if not nodes.is_known:
        return carry(nodes, "process.gpu_nodes")
    if not nodes.value:
        return absent("process", "it holds no GPU context")
    undecided = integration_unknown(agents)
    if undecided is not None:
        return undecided
    by_node = _by_node(facts)
    used = [by_node.get(int(n)) for n in nodes.value]
    if any(agent is None for agent in used):
        return unknown("a GPU of its contexts is not in the GPU list")
    discrete = [a for a in agents if a.integrated.value is False]
    if discrete and all(agent.integrated.value for agent in used if agent is not None):
        names = ", ".join(f"KFD node {a.kfd_node.value} ({a.gfx.value or a.name.value or 'integrated'})" for a in used if a)
        return known(names, "process.gpu_nodes + gpus")
    return absent("process", "it uses a discrete GPU, or the machine has none")


@machine_fact(
    "process_launcher_hides_gpus",
    "Visibility variables that the process's launcher set (not in the shell) leave it no AMD GPU: "
    "``HIP_VISIBLE_DEVICES=1, ROCR_VISIBLE_DEVICES=1``; absent otherwise.",
)
def process_launcher_hides_gpus(facts: Facts, tables: Tables) -> Fact:
    launched = facts.process.launcher_vars
    if not launched.is_known:
        return carry(launched, "process.launcher_vars")
    set_by_launcher = {k: v for k, v in (launched.value or {}).items() if k in VISIBILITY_VARS}
    if not set_by_launcher:
        return absent("process", "its launcher set no visibility variable")
    if not amd_agents(facts):
        return absent("gpus", "no AMD GPU to hide")
    seen = visibility(facts)
    if seen.visible is None:
        return unknown(seen.reason or "which GPUs it sees cannot be told")
    if seen.visible:
        return absent("process", f"it still sees {len(seen.visible)} AMD GPU(s)")
    return known(", ".join(f"{k}={v}" for k, v in sorted(set_by_launcher.items())), "process.launcher_vars")
