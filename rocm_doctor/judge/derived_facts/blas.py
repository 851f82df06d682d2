"""Derived facts about PyTorch's BLAS backend on ROCm: hipBLASLt allowed, preferred, in use.

Data: ``rules/data/hipblaslt.yaml`` through :mod:`rocm_doctor.knowledge.hipblaslt` (PyTorch's
allow-list ``getHipblasltSupportedArchs``, default-preference list ``getHipblasltPreferredArchs``
and what ``TORCH_BLAS_PREFER_HIPBLASLT`` does in each release). The lists are upstream PyTorch's;
AMD's own builds (ROCm/pytorch release branches) carry different ones, so for them the answer
is unknown. The GPU's *effective* gfx counts (an override changes what PyTorch sees).
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.parsers.rocm_version import install_version
from rocm_doctor.facts.value import Fact, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact, machine_fact
from rocm_doctor.judge.derived_facts._support import carry, on_rocm_torch, then, torch_version
from rocm_doctor.judge.derived_facts.env import env_unknown, env_vars
from rocm_doctor.judge.derived_facts.gfx import effective_gfx
from rocm_doctor.judge.derived_facts.gpus import amd_agents
from rocm_doctor.judge.derived_facts.gpus import CPU_IMPLIED_SOURCE
from rocm_doctor.knowledge import hipblaslt, overrides
from rocm_doctor.knowledge.gpu_table import base_gfx

TABLE_SOURCE = "rules/data/hipblaslt.yaml"
APPS_WITH_OWN_ROCM = ("app_bundled_rocm_runtime", "ollama_named")
"""Context signatures of a report whose program runs on a ROCm its application ships, not the system's."""


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



def _hipblaslt_rocm(facts: Facts) -> Fact:
    """The ROCm release whose hipBLASLt the program loads: a pytorch.org ROCm wheel bundles its
    own (the wheel's ROCm); a program without torch uses the system's, counted only for AMD's packages (versioned /opt/rocm-X.Y.Z); distributions build with their own AMDGPU_TARGETS.
    AMD's builds are unknown (repo.radeon.com wheels use the system's, TheRock's bundle their own),
    and so is an application that ships its own ROCm runtime (ollama, Unsloth's llama.cpp)."""
    context = facts.symptoms.context
    shown = set(context.value or []) if context.is_known else set()
    if shown & set(APPS_WITH_OWN_ROCM):
        return unknown("the report runs an application that ships its own ROCm runtime and hipBLASLt")
    torch = facts.torch
    if torch.flavour.is_known and torch.flavour.value == "rocm" and torch.distributor.is_known:
        if torch.distributor.value == "pytorch.org":
            if not torch.rocm_version.is_known:
                return unknown("the ROCm version of the pytorch.org wheel is not known")
            return known(str(torch.rocm_version.value), "torch.rocm_version (the wheel bundles its hipBLASLt)")
        if torch.distributor.value == "distro":
            # rules/data/hipblaslt.yaml holds upstream's DEFAULT targets; distributions build with their own AMDGPU_TARGETS
            return unknown("a distribution's torch uses the distribution's hipBLASLt, built for targets the packager chose")
        return unknown(f"a {torch.distributor.value} build of torch may bundle its own hipBLASLt or use the system's")
    elif torch.flavour.is_known and torch.flavour.value == "rocm":
        return unknown("who built this ROCm torch is not known: a pytorch.org wheel bundles its own hipBLASLt")
    system = facts.rocm.version
    if not system.is_known:
        return carry(system, "rocm.version")
    if not _from_amd_packages(facts, str(system.value)):
        return unknown(
            f"ROCm {system.value} is not shown to come from AMD's packages (no /opt/rocm-{system.value} install): "
            "a distribution's or a source build's hipBLASLt has the targets its builder chose"
        )
    return known(str(system.value), system.source or "rocm.version")


def _from_amd_packages(facts: Facts, version: str) -> bool:
    """AMD's packages install each release as /opt/rocm-X.Y.Z; distributions put ROCm under /usr
    or an unversioned /opt/rocm, with AMDGPU_TARGETS of their own."""
    installs = facts.rocm.installs
    if not installs.is_known:
        return False
    wanted = version.split("-")[0].split(".")
    for path in installs.value or []:
        found = install_version(str(path).rstrip("/").rsplit("/", 1)[-1])
        if found is not None and found.split(".")[: len(wanted)] == wanted:
            return True
    return False


@machine_fact(
    "hipblaslt_rocm",
    "The ROCm release whose hipBLASLt is in use: the wheel's for a pytorch.org ROCm wheel (it "
    "bundles its libraries), the system's for a program without torch when that ROCm is AMD's "
    "packages (a versioned /opt/rocm-X.Y.Z install); unknown for AMD's and distributions' builds of "
    "torch and for a ROCm not shown to come from AMD's packages (other builders choose their own targets).",
)
def hipblaslt_rocm(facts: Facts, tables: Tables) -> Fact:
    return _hipblaslt_rocm(facts)


@machine_fact(
    "hipblaslt_library_targets",
    "The gfx targets the hipBLASLt in use (derived.hipblaslt_rocm) was built for "
    "(rules/data/hipblaslt.yaml `library`: ROCm 5.5-6.2 read); unknown for other releases.",
)
def hipblaslt_library_targets(facts: Facts, tables: Tables) -> Fact:
    return _listed_targets(_hipblaslt_rocm(facts), _table(tables).library_targets, "hipBLASLt's targets")


@gpu_fact(
    "hipblaslt_library_has_gfx",
    "The hipBLASLt in use (derived.hipblaslt_rocm) has kernels for the GPU's effective gfx: "
    "gfx90a from ROCm 5.5, gfx940-942 from 5.7, gfx1100/gfx1101 from 6.2 (rules/data/hipblaslt.yaml "
    "`library`); unknown outside the releases read and for a GPU inferred only from a CPU model. When the "
    "environment is not shown, False only if no override within the GPU's override group could point it "
    "at a target the library has.",
)
def hipblaslt_library_has_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    if agent.source.startswith(CPU_IMPLIED_SOURCE):
        return unknown("this GPU is inferred only from the CPU model the report names, never judged on its own")

    def with_rocm(rocm: str) -> Fact:
        targets = _table(tables).library_targets(rocm)
        if targets is None:
            return unknown(f"{TABLE_SOURCE} does not list hipBLASLt's targets for ROCm {rocm}")
        gfx = effective_gfx(facts, agent, tables)
        if gfx.is_known:
            return known(base_gfx(str(gfx.value)) in targets, TABLE_SOURCE)
        if not agent.gfx.is_known:
            return gfx
        return _without_override_shown(base_gfx(str(agent.gfx.value)), targets, tables, gfx)

    return then(_hipblaslt_rocm(facts), with_rocm)


def _without_override_shown(own: str, targets: Tuple[str, ...], tables: Tables, effective: Fact) -> Fact:
    """The GPU's own gfx decides when no override the report may leave out could change the
    answer: overrides borrow code objects only within an override group (gfx_overrides.yaml)."""
    if own in targets:
        return effective  # an override could point it elsewhere
    group = overrides.group_of(own, tables["gfx_overrides"])
    borrowable = [t for t in targets if group is not None and overrides.group_of(t, tables["gfx_overrides"]) == group]
    if borrowable:
        return unknown(f"an override the report does not show could point {own} at {', '.join(borrowable)}")
    return known(False, f"{TABLE_SOURCE}: no {own} kernels, and none of its override group")


def _system_hipblaslt_release(facts: Facts) -> Fact:
    """The system ROCm release whose hipBLASLt a program loads when no ROCm torch (with hipBLASLt of
    its own choosing) is in the report, whoever built that ROCm; unknown otherwise."""
    context = facts.symptoms.context
    shown = set(context.value or []) if context.is_known else set()
    if shown & set(APPS_WITH_OWN_ROCM):
        return unknown("the report runs an application that ships its own ROCm runtime and hipBLASLt")
    if facts.torch.flavour.is_known and facts.torch.flavour.value == "rocm":
        return unknown("a ROCm torch brings or chooses its own hipBLASLt")
    system = facts.rocm.version
    if not system.is_known:
        return carry(system, "rocm.version")
    return known(str(system.value), system.source or "rocm.version")


@gpu_fact(
    "hipblaslt_any_build_has_gfx",
    "Whether any build of the system ROCm's hipBLASLt (AMD's packages, a distribution's, a source "
    "build) can have GEMM kernels for the GPU: False when hipBLASLt's source of that release has no "
    "GEMM logic for the GPU's gfx nor for any target of its override group (rules/data/hipblaslt.yaml "
    "`library.logic`, ROCm 5.5-6.2); unknown when AMD's own build is known (hipblaslt_library_has_gfx "
    "decides then), with a ROCm torch, or for a GPU the logic covers.",
)
def hipblaslt_any_build_has_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    if agent.source.startswith(CPU_IMPLIED_SOURCE):
        return unknown("this GPU is inferred only from the CPU model the report names, never judged on its own")
    if _hipblaslt_rocm(facts).is_known:
        return unknown("AMD's own build of hipBLASLt is known: hipblaslt_library_has_gfx decides")

    def with_rocm(rocm: str) -> Fact:
        targets = _table(tables).logic_targets(rocm)
        if targets is None:
            return unknown(f"{TABLE_SOURCE} does not list hipBLASLt's GEMM logic for ROCm {rocm}")
        gfx = effective_gfx(facts, agent, tables)
        if gfx.is_known and base_gfx(str(gfx.value)) in targets:
            return unknown(f"hipBLASLt of ROCm {rocm} has logic for {gfx.value}; whether this build has its kernels depends on the builder")
        if gfx.is_known:
            return known(False, f"{TABLE_SOURCE} library.logic: no {gfx.value} logic in ROCm {rocm}")
        if not agent.gfx.is_known:
            return agent.gfx
        own = base_gfx(str(agent.gfx.value))
        # The environment is not shown: only the override people use for this GPU (gfx_overrides.yaml's
        # documented workaround, e.g. 11.0.0 on a gfx1103) could make it load another target's kernels.
        workaround = overrides.table(tables["gfx_overrides"]).workaround(own)
        borrowed = overrides.gfx_from_override(workaround[0]) if workaround is not None else None
        if borrowed is not None and base_gfx(borrowed) in targets:
            return unknown(f"the usual override for {own} ({workaround[0]}) would load {borrowed} kernels, which ROCm {rocm}'s hipBLASLt may have")
        return known(False, f"{TABLE_SOURCE} library.logic: no {own} logic in ROCm {rocm}, nor for the override used on it")

    return then(_system_hipblaslt_release(facts), with_rocm)


@machine_fact(
    "hipblaslt_system_rocm",
    "The system ROCm release whose hipBLASLt a program loads when the report shows no ROCm torch, "
    "whoever built it (for rule messages beside gpu.hipblaslt_any_build_has_gfx).",
)
def hipblaslt_system_rocm(facts: Facts, tables: Tables) -> Fact:
    return _system_hipblaslt_release(facts)


@machine_fact(
    "hipblaslt_logic_targets",
    "The GPUs hipBLASLt's source of derived.hipblaslt_system_rocm has GEMM logic for "
    "(rules/data/hipblaslt.yaml `library.logic`); unknown outside ROCm 5.5-6.2.",
)
def hipblaslt_logic_targets(facts: Facts, tables: Tables) -> Fact:
    return _listed_targets(_system_hipblaslt_release(facts), _table(tables).logic_targets, "hipBLASLt's GEMM logic")


def _listed_targets(release: Fact, lookup: Callable[[str], Optional[Tuple[str, ...]]], what: str) -> Fact:
    """The gfx targets the table lists for the ROCm release ``release`` holds; unknown where it lists none."""

    def targets(rocm: str) -> Fact:
        found = lookup(rocm)
        if found is None:
            return unknown(f"{TABLE_SOURCE} does not list {what} for ROCm {rocm}")
        return known(list(found), TABLE_SOURCE)

    return then(release, targets)
