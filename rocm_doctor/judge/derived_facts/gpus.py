"""Basic GPU derived facts: how many AMD GPUs, which kind, and whether an agent is AMD."""

from __future__ import annotations

from typing import List, Optional

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact, machine_fact
from rocm_doctor.judge.derived_facts._support import then
from rocm_doctor.knowledge.gpu_table import base_gfx, family_of

AMD_PCI_VENDOR = "0x1002"
NVIDIA_PCI_VENDOR = "0x10de"


def _vendor_is(agent: GpuAgent, vendor: str, pci_id: str) -> Optional[bool]:
    """True/False when the agent's vendor (name or PCI id) is known, None otherwise."""
    if agent.vendor.is_known and agent.vendor.value:
        return str(agent.vendor.value).strip().lower() == vendor.lower()
    if agent.vendor_id.is_known and agent.vendor_id.value:
        return str(agent.vendor_id.value).strip().lower() == pci_id
    return None


def _discovery_source(facts: Facts) -> str:
    layer = facts.gpus.discovery.value if facts.gpus.discovery.is_known else None
    return f"GPU discovery ({layer})" if layer else "GPU discovery"


def _discovery_failed(facts: Facts) -> bool:
    """No layer answered and at least one could not look: we cannot say 'no GPU'."""
    if facts.gpus.agents:
        return False
    if facts.gpus.discovery.status in ("failed", "unknown") and not facts.gpus.attempts:
        return True
    return bool(facts.gpus.attempts) and all(a.status in ("failed", "skipped") for a in facts.gpus.attempts)


CPU_IMPLIED_SOURCE = "paste:cpu"
"""Agents inferred only from a CPU model name (a weak fact: never judged on its own)."""
PROSE_MENTION_SOURCE = "paste:mention"
"""Agents read from a GPU named in prose (``paste:mention (paste:block 1 line 5)``)."""


def amd_agents(facts: Facts) -> List[GpuAgent]:
    """The GPU agents known to be AMD's (vendor name or PCI vendor id 0x1002), in discovery order.

    Agents whose vendor is not known are left out; :func:`amd_gpu_count` is the fact that says
    unknown for them. Every derived fact that looks at "the AMD GPUs" starts from this list.
    """
    return [a for a in facts.gpus.agents if _vendor_is(a, "AMD", AMD_PCI_VENDOR)]


def instinct_apu(agent: GpuAgent) -> bool:
    """The agent is an Instinct APU (MI300A: a CDNA gfx that rules/data/gpus.yaml marks integrated), the
    compute accelerator of its node and a target ROCm supports, not the Ryzen integrated graphics that AMD
    says to hide or disable next to a discrete GPU (ROCm's system requirements list the MI300A, CDNA3, as a
    supported Instinct GPU: https://github.com/ROCm/rocm-install-on-linux/blob/e0f76b5cf465c2f10c00501f545b8fcca323b178/docs/reference/system-requirements.rst;
    the iGPU note: https://github.com/ROCm/rocm-install-on-linux/blob/f297bde3afa98d750d1aa460386491db9a721f30/docs/install/prerequisites.rst#L225-L231).
    A report about an MI300A that compares it with an MI250X must not read as "an iGPU beside a dGPU"
    (ROCm/rocm-systems#4084)."""
    if not (agent.integrated.is_known and agent.integrated.value and agent.gfx.is_known and agent.gfx.value):
        return False
    return (family_of(base_gfx(str(agent.gfx.value))) or "").lower().startswith("cdna")


def graphics_agents(facts: Facts) -> List[GpuAgent]:
    """The AMD agents that are graphics, integrated or discrete: every AMD agent but an Instinct APU
    (:func:`instinct_apu`), which is its node's accelerator, never integrated graphics to hide beside a GPU."""
    return [a for a in amd_agents(facts) if not instinct_apu(a)]


def integration_unknown(agents: List[GpuAgent]) -> Optional[Fact]:
    """``unknown`` when whether one of ``agents`` is integrated is not known, else None."""
    if any(not a.integrated.is_known for a in agents):
        return unknown("whether an AMD GPU is integrated is not known")
    return None


def _count(facts: Facts, agents: List[GpuAgent]) -> Fact:
    if _discovery_failed(facts):
        return unknown(facts.gpus.discovery.reason or "GPU discovery did not answer")
    return known(len(agents), _discovery_source(facts))


@machine_fact("amd_gpu_count", "Number of AMD GPU agents found (integrated and discrete).")
def amd_gpu_count(facts: Facts, tables: Tables) -> Fact:
    undetermined = [a.index for a in facts.gpus.agents if _vendor_is(a, "AMD", AMD_PCI_VENDOR) is None]
    if undetermined:
        return unknown(f"the vendor of GPU {undetermined[0]} is not known")
    return _count(facts, amd_agents(facts))


@machine_fact(
    "has_amd_gpu",
    "At least one AMD GPU agent was found; unknown when every discovery layer failed.",
)
def has_amd_gpu(facts: Facts, tables: Tables) -> Fact:
    count = amd_gpu_count(facts, tables)
    return then(count, lambda n: known(n > 0, count.source or "GPU discovery"))


@machine_fact("has_nvidia_gpu", "At least one NVIDIA GPU was found.")
def has_nvidia_gpu(facts: Facts, tables: Tables) -> Fact:
    nvidia = [a for a in facts.gpus.agents if _vendor_is(a, "NVIDIA", NVIDIA_PCI_VENDOR)]
    if _discovery_failed(facts):
        return unknown(facts.gpus.discovery.reason or "GPU discovery did not answer")
    return known(bool(nvidia), _discovery_source(facts))


def _count_integrated(facts: Facts, integrated: bool) -> Fact:
    agents = amd_agents(facts)
    return integration_unknown(agents) or _count(facts, [a for a in agents if bool(a.integrated.value) is integrated])


@machine_fact("amd_integrated_count", "Number of AMD integrated GPUs (APUs) found.")
def amd_integrated_count(facts: Facts, tables: Tables) -> Fact:
    return _count_integrated(facts, True)


@machine_fact("amd_discrete_count", "Number of AMD discrete GPUs found.")
def amd_discrete_count(facts: Facts, tables: Tables) -> Fact:
    return _count_integrated(facts, False)


@machine_fact(
    "amd_identified_count",
    "Number of AMD GPUs the report identifies by their gfx target (from rocminfo, a tool or the device table); "
    "known even where another AMD GPU's target is not.",
)
def amd_identified_count(facts: Facts, tables: Tables) -> Fact:
    """other62: a GPU that only lspci names by an old chip's code name has no gfx target in the device table, so
    counting the GPUs with one tells whether the report shows another, identified AMD GPU beside it (a Kaveri APU
    beside a Mars dGPU, an RX 6800 beside an Oland): RD303 speaks only where none is. Unknown where an agent's
    vendor is not known or GPU discovery did not answer, as :func:`amd_gpu_count`."""
    count = amd_gpu_count(facts, tables)
    if not count.is_known:
        return count
    return known(sum(1 for a in amd_agents(facts) if a.gfx.is_known and a.gfx.value), _discovery_source(facts))


WORDS_SOURCES = (PROSE_MENTION_SOURCE, CPU_IMPLIED_SOURCE, "paste:report")
"""Agents read from the reporter's own words (prose, an issue template's field) or a CPU model's name, not a tool's listing."""


@machine_fact(
    "amd_discrete_listed_count",
    "Number of AMD discrete GPUs a tool listed (lspci, rocminfo, rocm-smi, ...), not only named in the report's words.",
)
def amd_discrete_listed_count(facts: Facts, tables: Tables) -> Fact:
    """prec55b: a GPU named only in words may be another machine's: "Ubuntu in VirtualBox on my PC (RX 5700 XT)" names
    the host's card, which a guest without passthrough does not have (Comfy-Org/ComfyUI#1870); the guest's own tools
    list what it has. RD751's virtual-display guard counts these. rev55pb: sources for words against listings: a VMware guest
    whose only AMD name is the host CPU's "Ryzen 7 4800U with Radeon graphics" while lspci lists no AMD GPU
    (ROCm/legacy-rocm-build#1505); the VirtualBox guest above (ComfyUI#1870); a KVM guest whose lspci lists the
    passed-through RX 580 beside the QXL adapter (Grench6/RX580-rocM-tensorflow-ubuntu20.4-guide#10)."""
    agents = amd_agents(facts)
    unknown_kind = integration_unknown(agents)
    if unknown_kind is not None:
        return unknown_kind
    listed = [a for a in agents if not bool(a.integrated.value) and not a.source.startswith(WORDS_SOURCES)]
    return _count(facts, listed)


@gpu_fact("is_amd", "The GPU agent is an AMD GPU (vendor name or PCI vendor id 0x1002).")
def is_amd(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    verdict = _vendor_is(agent, "AMD", AMD_PCI_VENDOR)
    if verdict is None:
        return unknown(f"the vendor of GPU {agent.index} is not known")
    source = agent.vendor.source if agent.vendor.is_known else agent.vendor_id.source
    return known(verdict, source or agent.source)
