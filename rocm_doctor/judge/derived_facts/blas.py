"""Derived facts about PyTorch's BLAS backend on ROCm: hipBLASLt allowed, preferred, in use.

Data: ``rules/data/hipblaslt.yaml`` through :mod:`rocm_doctor.knowledge.hipblaslt` (PyTorch's
allow-list ``getHipblasltSupportedArchs``, default-preference list ``getHipblasltPreferredArchs``
and what ``TORCH_BLAS_PREFER_HIPBLASLT`` does in each release). The lists are upstream PyTorch's;
AMD's own builds (ROCm/pytorch release branches) carry different ones, so for them the answer
is unknown. The GPU's *effective* gfx counts (an override changes what PyTorch sees).
"""

from __future__ import annotations

from typing import Callable, Dict, List

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact, machine_fact
from rocm_doctor.judge.derived_facts._support import on_rocm_torch, then, torch_version
from rocm_doctor.judge.derived_facts.env import env_unknown, env_vars
from rocm_doctor.judge.derived_facts.gfx import effective_gfx
from rocm_doctor.judge.derived_facts.gpus import amd_agents
from rocm_doctor.knowledge import hipblaslt

TABLE_SOURCE = "rules/data/hipblaslt.yaml"


def _table(tables: Tables) -> hipblaslt.HipblasltTable:
    return hipblaslt.table(tables["hipblaslt"])


def _upstream_build(facts: Facts, compute: Callable[[str, str], Fact]) -> Fact:
    """``compute(torch version, wheel ROCm)`` for a ROCm torch built from upstream PyTorch
    (pytorch.org); unknown for AMD's builds and builds of unknown origin, absent for non-ROCm torch."""

    def upstream() -> Fact:
        distributor = facts.torch.distributor
        if not distributor.is_known:
            return unknown("who built this torch is not known; AMD's builds carry their own hipBLASLt lists")
        if distributor.value != "pytorch.org":
            return unknown(f"a {distributor.value} build of torch: its hipBLASLt lists differ from upstream PyTorch's")
        version = torch_version(facts)
        if not version.is_known:
            return version
        rocm = facts.torch.rocm_version
        if not rocm.is_known:
            return unknown("the ROCm version of the torch wheel is not known")
        return compute(str(version.value), str(rocm.value))

    return on_rocm_torch(facts, upstream)


def _per_gpu(facts: Facts, agent: GpuAgent, tables: Tables, ask: Callable[..., object]) -> Fact:
    gfx = effective_gfx(facts, agent, tables)

    def answer(torch: str, rocm: str) -> Fact:
        def decide(target: str) -> Fact:
            value = ask(_table(tables), target, torch, rocm)
            if value is None:
                return unknown(f"{TABLE_SOURCE} cannot say for {target} with torch {torch} (ROCm {rocm})")
            return known(bool(value), TABLE_SOURCE)

        return then(gfx, decide)

    return _upstream_build(facts, answer)


@gpu_fact(
    "hipblaslt_supported",
    "PyTorch's hipBLASLt allow-list has the GPU's effective gfx for this torch and wheel ROCm "
    "(gfx90a/gfx942 always; gfx908/gfx1100/gfx1101/gfx1200/gfx1201 from ROCm 6.3; gfx950/gfx1150/"
    "gfx1151 from ROCm 7.0; rules/data/hipblaslt.yaml); unknown for AMD's own builds; absent for a "
    "non-ROCm torch.",
)
def hipblaslt_supported(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return _per_gpu(facts, agent, tables, lambda t, gfx, torch, rocm: t.allowed(gfx, torch, rocm))


@gpu_fact(
    "hipblaslt_preferred",
    "hipBLASLt is PyTorch's default BLAS for the GPU's effective gfx in this torch and wheel ROCm "
    "(gfx90a/gfx942; gfx1200/gfx1201 from ROCm 6.4; gfx950 from ROCm 7.0; never gfx110x upstream; "
    "rules/data/hipblaslt.yaml).",
)
def hipblaslt_preferred(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return _per_gpu(facts, agent, tables, lambda t, gfx, torch, rocm: t.preferred(gfx, torch, rocm))


def _machine(facts: Facts, tables: Tables, compute: Callable[[List[str], str, str, Dict[str, str]], Fact]) -> Fact:
    """``compute(effective gfx of every AMD GPU, torch, wheel ROCm, environment)``."""

    def with_gpus(torch: str, rocm: str) -> Fact:
        env = env_vars(facts)
        if env is None:
            return env_unknown(facts)
        agents = amd_agents(facts)
        if not agents:
            return unknown("no AMD GPU is known")
        targets: List[str] = []
        for agent in agents:
            gfx = effective_gfx(facts, agent, tables)
            if not gfx.is_known:
                return unknown(f"the effective gfx of GPU {agent.index} is not known")
            targets.append(str(gfx.value))
        return compute(targets, torch, rocm, env)

    return _upstream_build(facts, with_gpus)


@machine_fact(
    "blas_uses_hipblaslt",
    "PyTorch sends its GEMMs to hipBLASLt rather than hipBLAS: decided once per process from the "
    "torch release, TORCH_BLAS_PREFER_HIPBLASLT / TORCH_BLAS_PREFER_CUBLASLT, and every AMD GPU's "
    "effective gfx (allow-list and default-preference list, rules/data/hipblaslt.yaml). A program "
    "may still call torch.backends.cuda.preferred_blas_library(). Unknown for AMD's own builds.",
)
def blas_uses_hipblaslt(facts: Facts, tables: Tables) -> Fact:
    def decide(targets: List[str], torch: str, rocm: str, env: Dict[str, str]) -> Fact:
        value = _table(tables).uses_hipblaslt(targets, torch, rocm, env)
        if value is None:
            return unknown(f"{TABLE_SOURCE} cannot say whether torch {torch} uses hipBLASLt on {', '.join(targets)}")
        return known(value, f"{TABLE_SOURCE} + env")

    return _machine(facts, tables, decide)


@machine_fact(
    "prefer_hipblaslt_zero_ignored",
    "TORCH_BLAS_PREFER_HIPBLASLT=0 (or TORCH_BLAS_PREFER_CUBLASLT=0) is set, yet this torch still "
    "uses hipBLASLt: in torch 2.6-2.11 the 0 means 'the default', which is hipBLASLt on the "
    "preferred GPUs (gfx90a/gfx942/gfx950/gfx1200/gfx1201); a real switch only from 2.12 "
    "(pytorch#174377). False when 0 is not set or takes effect.",
)
def prefer_hipblaslt_zero_ignored(facts: Facts, tables: Tables) -> Fact:
    def decide(targets: List[str], torch: str, rocm: str, env: Dict[str, str]) -> Fact:
        if hipblaslt.requested_preference(env) is not False:
            return known(False, "env")
        value = _table(tables).uses_hipblaslt(targets, torch, rocm, env)
        if value is None:
            return unknown(f"{TABLE_SOURCE} cannot say whether torch {torch} uses hipBLASLt on {', '.join(targets)}")
        return known(value, f"{TABLE_SOURCE} + env")

    env = env_vars(facts)
    if env is not None and hipblaslt.requested_preference(env) is not False:
        return known(False, "env")
    return _machine(facts, tables, decide)

