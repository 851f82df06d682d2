"""Derived facts about gfx targets: in the wheel or not, and HSA_OVERRIDE_GFX_VERSION.

Sources: rules/data/torch_wheels.yaml, rules/data/gfx_overrides.yaml, rules/data/rocm_support.yaml
and rules/data/gpus.yaml (every row names its public source) through
:mod:`rocm_doctor.knowledge` and :mod:`rocm_doctor.knowledge.gpu_table`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Dict, List, Optional

from rocm_doctor.knowledge import gpu_table
from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact, machine_fact
from rocm_doctor.judge.derived_facts.driver import kernel_driver
from rocm_doctor.judge.derived_facts._support import (
    combine,
    derive,
    from_input,
    list_fact,
    live_arch_list,
    lookup,
    on_rocm_torch,
    pytorch_org_rocm,
    table_wheels,
    then,
    wheel_targets,
)
from rocm_doctor.judge.derived_facts.gpus import is_amd
from rocm_doctor.judge.derived_facts.platform import windows_hip_runtime
from rocm_doctor.knowledge import overrides as ov
from rocm_doctor.knowledge import rocm_support
from rocm_doctor.wheels.choice import NoChoice, choose_torch, machine_of

TABLE_SOURCE = "rules/data/gfx_overrides.yaml"
WHEEL_SOURCE = "rules/data/torch_wheels.yaml"


# -- environment --------------------------------------------------------------------------------
def _with_env(facts: Facts, compute: Callable[[Dict[str, str], str], Fact]) -> Fact:
    """``compute(set variables, their source)``; the env fact is carried when it is not known, and an
    override a partial listing does not show is unknown (a pasted ``export`` line is not the whole env)."""
    env = facts.env.vars
    if env.is_known and ov.VARIABLE not in (env.value or {}) and not facts.env.covers(ov.VARIABLE):
        return unknown(f"{ov.VARIABLE} is not shown in the report (run: env | grep HSA)")
    return from_input(env, "env.vars", lambda value: compute(dict(value or {}), env.source or "environment"))


def _validity(value: Fact) -> Fact:
    """Whether an override value (a known fact) is valid for libhsakmt."""
    return derive(value, ov.is_valid_override(value.value), "env.vars") if value.is_known else value


def _named_gfx(value: Fact) -> Fact:
    """The gfx target an override value names; absent when it names none."""
    return lookup(value, ov.override_gfx, value.source or "environment", "{value!r} names no gfx target")


@machine_fact(
    "override_value",
    "The global HSA_OVERRIDE_GFX_VERSION value; absent when it is not set.",
)
def override_value(facts: Facts, tables: Tables) -> Fact:
    def value(env: Dict[str, str], source: str) -> Fact:
        return known(env[ov.VARIABLE], source) if ov.VARIABLE in env else absent(source, f"{ov.VARIABLE} is not set")

    return _with_env(facts, value)


@machine_fact(
    "override_valid",
    "The global HSA_OVERRIDE_GFX_VERSION is major.minor.stepping in decimal within libhsakmt's bounds "
    "(major <= 63, minor/stepping <= 255; ROCR-Runtime libhsakmt/src/topology.c).",
)
def override_valid(facts: Facts, tables: Tables) -> Fact:
    return _validity(override_value(facts, tables))


@machine_fact("override_gfx", "The gfx target the global HSA_OVERRIDE_GFX_VERSION names (11.0.0 -> gfx1100).")
def override_gfx(facts: Facts, tables: Tables) -> Fact:
    return _named_gfx(override_value(facts, tables))


def _gpu_nodes(facts: Facts, tables: Tables) -> Optional[List[int]]:
    """KFD topology node ids of the AMD GPU agents; None when one of them is not known."""
    nodes: List[int] = []
    for agent in facts.gpus.agents:
        if is_amd(facts, agent, tables).value is not True:
            continue
        if not agent.kfd_node.is_known:
            return None
        nodes.append(int(agent.kfd_node.value))
    return nodes


def _read_by_a_gpu(name: str, env: Dict[str, str], nodes: Optional[List[int]]) -> Optional[bool]:
    """Whether libhsakmt reads override variable ``name`` for some GPU node (None: cannot tell).

    It reads HSA_OVERRIDE_GFX_VERSION_<node> for each GPU node, else the global variable; CPU
    nodes bail out before either is read (ROCR-Runtime topology.c)."""
    node = ov.per_node_index(name)
    if node is None:  # the global variable: read by every GPU node without its own
        if not any(ov.per_node_index(other) is not None for other in env):
            return True
        if nodes is None:
            return None
        return any(ov.per_node_variable(n) not in env for n in nodes)
    if nodes is None:
        return None
    return node in nodes


def _malformed(facts: Facts, tables: Tables, render: Callable[[str, str, str], str], none_reason: str) -> Fact:
    """Malformed override settings that some GPU node reads, rendered by ``render(name, value, reason)``."""

    def malformed(env: Dict[str, str], source: str) -> Fact:
        nodes = _gpu_nodes(facts, tables)
        bad: List[str] = []
        undecided: List[str] = []
        for name, value in sorted(ov.override_variables(env).items()):
            parsed = ov.parse_override(value)
            if parsed.valid:
                continue
            read = _read_by_a_gpu(name, env, nodes)
            if read is True:
                bad.append(render(name, value, str(parsed.reason)))
            elif read is None:
                undecided.append(name)
        if not bad and undecided:
            return unknown(f"whether a GPU node reads {', '.join(undecided)} depends on KFD node ids that are not known")
        return list_fact(bad, source, none_reason)

    return _with_env(facts, malformed)


@machine_fact(
    "override_malformed",
    "Every HSA_OVERRIDE_GFX_VERSION[_N] setting that a GPU node reads and libhsakmt rejects, as "
    "'VAR=value (reason)' (ROCR topology.c: 'HSA_OVERRIDE_GFX_VERSION %s is invalid', then topology "
    "fails); a per-node variable of a node without a GPU is never read. Absent when none.",
)
def override_malformed(facts: Facts, tables: Tables) -> Fact:
    return _malformed(facts, tables, lambda name, value, reason: f"{name}={value} ({reason})", "no malformed override")


@machine_fact(
    "override_malformed_vars",
    "The names of the variables in derived.override_malformed (HSA_OVERRIDE_GFX_VERSION, "
    "HSA_OVERRIDE_GFX_VERSION_1 ...); absent when none.",
)
def override_malformed_vars(facts: Facts, tables: Tables) -> Fact:
    return _malformed(facts, tables, lambda name, value, reason: name, "no malformed override")


@machine_fact(
    "gpu_kfd_nodes",
    "KFD topology node ids of the AMD GPUs (CPU nodes come first, so the first GPU is usually node 1); "
    "unknown when a GPU's node id is not known.",
)
def gpu_kfd_nodes(facts: Facts, tables: Tables) -> Fact:
    nodes = _gpu_nodes(facts, tables)
    if nodes is None:
        return unknown("the KFD node id of an AMD GPU is not known")
    return known([str(n) for n in nodes], "GPU discovery (KFD topology)")


@machine_fact(
    "override_nodes_without_gpu",
    "Set HSA_OVERRIDE_GFX_VERSION_<N> variables whose N is not the KFD node of any GPU - on most "
    "machines _0 is the CPU node - so libhsakmt never reads them (ROCR topology.c reads the per-node "
    "variable only for GPU nodes); absent when none, unknown when a GPU's node id is not known.",
)
def override_nodes_without_gpu(facts: Facts, tables: Tables) -> Fact:
    def stray(env: Dict[str, str], source: str) -> Fact:
        names = sorted(n for n in ov.override_variables(env) if ov.per_node_index(n) is not None)
        if not names:
            return absent(source, "no per-node override variable is set")
        nodes = _gpu_nodes(facts, tables)
        if nodes is None:
            return unknown("the KFD node id of an AMD GPU is not known")
        return list_fact([n for n in names if ov.per_node_index(n) not in nodes], source, "every per-node override names a GPU node")

    return _with_env(facts, stray)


def _amd_gfx(facts: Facts, tables: Tables) -> Fact:
    agents = [a for a in facts.gpus.agents if is_amd(facts, a, tables).value is True]
    if any(is_amd(facts, a, tables).status != "known" for a in facts.gpus.agents):
        return unknown("the vendor of a GPU is not known")
    if any(not a.gfx.is_known for a in agents):
        return unknown("the gfx target of an AMD GPU is not known")
    # each GPU's own target (gpu.own_gfx): a bare `rocminfo | grep gfx` under 10.3.0 beside "RX 6700 XT" is the same
    # GPU listed as the override's target, not a second GPU of another target
    owns = [_own_gfx(facts, agent, tables) for agent in agents]
    if any(not own.is_known for own in owns):
        return unknown("the own gfx target of an AMD GPU is not known: a pasted listing or mention names only the override's target")
    seen: List[str] = []
    for own in owns:
        gfx = gpu_table.base_gfx(str(own.value))
        if gfx not in seen:
            seen.append(gfx)
    return known(seen, facts.gpus.discovery.source or "GPU discovery")


@machine_fact("amd_gfx_targets", "Distinct gfx targets of the AMD GPUs, in discovery order.")
def amd_gfx_targets(facts: Facts, tables: Tables) -> Fact:
    return _amd_gfx(facts, tables)


@machine_fact(
    "distinct_amd_gfx_count",
    "Number of distinct gfx targets among the AMD GPUs (2 on an RX 7900 XTX + Raphael iGPU machine); "
    "a global HSA_OVERRIDE_GFX_VERSION then applies one target to different GPUs.",
)
def distinct_amd_gfx_count(facts: Facts, tables: Tables) -> Fact:
    targets = _amd_gfx(facts, tables)
    return then(targets, lambda seen: derive(targets, len(seen), "GPU discovery"))


# -- per GPU ------------------------------------------------------------------------------------
def _gfx(agent: GpuAgent) -> Fact:
    return from_input(agent.gfx, f"gpu {agent.index} gfx", lambda gfx: derive(agent.gfx, gpu_table.base_gfx(str(gfx)), "gpu.gfx"))


def _in_wheel(facts: Facts, tables: Tables, gfx: Fact) -> Fact:
    """Whether the installed ROCm torch has kernels for ``gfx`` (live arch list first, then table)."""
    return _on_rocm_torch(facts, gfx, lambda target: _in_wheel_of_rocm_torch(facts, tables, target))


def _on_rocm_torch(facts: Facts, gfx: Fact, compute: Callable[[str], Fact]) -> Fact:
    """``compute(gfx target)`` for a known target and a ROCm torch (:func:`on_rocm_torch`)."""
    return then(gfx, lambda target: on_rocm_torch(facts, lambda: compute(target)))


def _in_wheel_of_rocm_torch(facts: Facts, tables: Tables, gfx: str) -> Fact:
    live = live_arch_list(facts)
    if live is not None:
        names, source = live
        return known(gfx in names, source)
    org = pytorch_org_rocm(facts, tables)
    if not org.is_known:
        return org
    if not org.value:
        return unknown("the live arch list is not known and the wheel is not a pytorch.org wheel the table describes")
    answer = table_wheels(tables).gfx_in_wheel(facts.torch.version.value, gfx, facts.torch.rocm_version.value)
    if answer is None:
        return unknown(f"rules/data/torch_wheels.yaml cannot say whether torch {facts.torch.version.value} has {gfx}")
    return known(answer, "rules/data/torch_wheels.yaml")


@gpu_fact("family", "Architecture family of the GPU's gfx target (rdna2, rdna3, rdna3.5, cdna3 ...; rules/data/gpus.yaml).")
def family(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return lookup(_gfx(agent), gpu_table.family_of, gpu_table.table_source(), "{value} is not in the GPU table")


@gpu_fact(
    "override_group",
    "Override group of the GPU's gfx (gfx9, gfx10.1, gfx10.3, gfx11, gfx12): targets whose code objects "
    "an override may borrow (rules/data/gfx_overrides.yaml).",
)
def override_group(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return lookup(_own_gfx(facts, agent, tables), lambda gfx: ov.group_of(gfx, tables["gfx_overrides"]), TABLE_SOURCE, "{value} is in no override group")


@gpu_fact(
    "in_wheel",
    "The installed ROCm torch has kernels for the GPU's own gfx: torch.live.arch_list when the probe ran, "
    "else rules/data/torch_wheels.yaml for a pytorch.org wheel; unknown if neither can say; absent for a "
    "non-ROCm torch.",
)
def in_wheel(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return _in_wheel(facts, tables, _own_gfx(facts, agent, tables))


def _override(facts: Facts, agent: GpuAgent) -> Fact:
    """known((variable, value)) applied to this GPU, absent when none is set."""
    node = agent.kfd_node.value if agent.kfd_node.is_known else None

    def applied(env: Dict[str, str], source: str) -> Fact:
        try:
            found = ov.override_for_agent(env, node)
        except LookupError as exc:
            return unknown(str(exc))
        return known(found, source) if found is not None else absent(source, f"{ov.VARIABLE} is not set for this GPU")

    return _with_env(facts, applied)


@gpu_fact(
    "override_var",
    "The override variable libhsakmt applies to this GPU: HSA_OVERRIDE_GFX_VERSION_<kfd node> first, "
    "then HSA_OVERRIDE_GFX_VERSION (ROCR topology.c); absent when none.",
)
def override_var(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    found = _override(facts, agent)
    return then(found, lambda pair: derive(found, pair[0], "env.vars"))


@gpu_fact("override", "The HSA_OVERRIDE_GFX_VERSION value applied to this GPU (per-node first, then global); absent when none.")
def override(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    found = _override(facts, agent)
    return then(found, lambda pair: derive(found, pair[1], "env.vars"))


@gpu_fact("override_valid", "The override applied to this GPU is valid for libhsakmt (major.minor.stepping, decimal, in bounds).")
def override_valid_gpu(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return _validity(override(facts, agent, tables))


def _override_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return _named_gfx(override(facts, agent, tables))


@gpu_fact("override_gfx", "The gfx target the override applied to this GPU names (10.3.0 -> gfx1030); absent when none or invalid.")
def override_gfx_gpu(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return _override_gfx(facts, agent, tables)


@gpu_fact(
    "override_is_noop",
    "The override names the GPU's own gfx target (11.0.0 on gfx1100, 11.5.1 on Strix Halo gfx1151): it "
    "changes nothing (the claim that 11.5.1 is required for Strix Halo is wrong: it already reports 110501).",
)
def override_is_noop(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return combine(_override_gfx(facts, agent, tables), _gfx_beside_override(facts, agent, tables), lambda target, own: target == own)


RUNTIME_LISTINGS = ("rocminfo", "clinfo", "hip", "hipinfo", "torch", "app")
"""Pasted GPU listings printed by the HSA runtime (or a program on it), which report the node's gfx after
HSA_OVERRIDE_GFX_VERSION: libhsakmt replaces the node's gfx version with the override's
(https://github.com/ROCm/ROCR-Runtime/blob/c7785a6da1c10c25bc8d527c00b1fe79bfbd84c9/libhsakmt/src/topology.c#L1218-L1231;
ROCm/ROCm#5696 shows a Radeon 8060S listed as gfx1201 under an override left in ~/.bashrc). The doctor's own rocminfo
runs without the override (rocm_doctor/facts/gpu.py), so only a paste's listing can show the override's target."""


def _gfx_beside_override(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    """The GPU's own gfx where a set override could have changed what a pasted runtime listing printed: the gfx the
    GPU's name or PCI id stands for when the report gives one, unknown when only a runtime listing names the target.
    A bare gfx the report mentions with no GPU name counts as such a listing (`rocminfo | grep gfx` under the
    override, or the override's own target in the prose), and either is read as the GPU's own when it is not the
    override's target: a listing under the override prints the target, so another was printed without it (rocminfo
    run plainly beside `HSA_OVERRIDE_GFX_VERSION=10.3.0 python app.py`)."""
    own = _gfx(agent)
    source = str(agent.gfx.source or "")
    if facts.meta.origin != "paste" or not own.is_known or not source.startswith(RUNTIME_LISTINGS + ("mention",)):
        return own
    target = _override_gfx(facts, agent, tables)
    if target.is_known and gpu_table.base_gfx(str(target.value)) != own.value:
        return own
    model = None
    if agent.device_id.is_known:
        model = gpu_table.lookup_pci(str(agent.device_id.value))
    if model is None and agent.name.is_known:
        model = gpu_table.model_for_name(str(agent.name.value))
    if model is not None:
        return known(gpu_table.base_gfx(model.gfx), source=f"the GPU table, for {agent.name.value if agent.name.is_known else agent.device_id.value}")
    return unknown(
        f"{own.value} was read from a pasted runtime listing or a bare mention ({source}), which names the override's "
        "target when HSA_OVERRIDE_GFX_VERSION was in its environment, and no GPU name or PCI id in the report says which GPU it is"
    )


def _own_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    """The GPU's own gfx for a fact that compares it with the override or the wheel: where an override applies to the
    GPU, a pasted runtime listing's gfx is the override's target (:func:`_gfx_beside_override`), so the GPU's name or
    PCI id decides; otherwise the gfx read. An RX 6700 XT (gfx1031) listed as gfx1030 under 10.3.0 beside a torch
    without gfx1031 was told the override is not needed, and an RX 7900 XTX listed as gfx1030 under 10.3.0 was not
    told the override is of another family."""
    if _override(facts, agent).is_known:
        return _gfx_beside_override(facts, agent, tables)
    return _gfx(agent)


@gpu_fact(
    "own_gfx",
    "The GPU's own gfx target beside the override: where an override applies and the gfx read is its target, from a "
    "pasted runtime listing or a bare mention (a listing under the override prints the target), the target of the "
    "GPU's name or PCI id, else unknown; otherwise gpu.gfx.",
)
def own_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return _own_gfx(facts, agent, tables)


@gpu_fact(
    "override_cross_family",
    "The override points the GPU at another override group's code objects (9.0.0 on gfx1151, 10.3.0 on "
    "gfx1010): silent CPU fall-back or crashes (user reports).",
)
def override_cross_family(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return combine(
        _override_gfx(facts, agent, tables),
        _own_gfx(facts, agent, tables),
        lambda target, own: ov.is_cross_family(own, target, tables["gfx_overrides"]),
        TABLE_SOURCE,
    )


@gpu_fact(
    "override_in_wheel",
    "The installed ROCm torch has kernels for the overridden target (else 'invalid device function').",
)
def override_in_wheel(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return _in_wheel(facts, tables, _override_gfx(facts, agent, tables))


@gpu_fact(
    "effective_gfx",
    "The gfx target the runtime loads code objects for: a valid override's target, else the GPU's own.",
)
def effective_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    value = override(facts, agent, tables)
    if value.status in ("unknown", "failed"):
        return value
    if value.is_known:
        target = _override_gfx(facts, agent, tables)
        if target.is_known:
            return target
        return unknown(f"override {value.value!r} is invalid; topology fails")
    return _gfx(agent)


@gpu_fact("effective_in_wheel", "The installed ROCm torch has kernels for the effective gfx target (override applied).")
def effective_in_wheel(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return _in_wheel(facts, tables, effective_gfx(facts, agent, tables))


@gpu_fact(
    "recommended_override",
    "The same-family HSA_OVERRIDE_GFX_VERSION to use when the wheel lacks the GPU's gfx and has the "
    "override's target (gfx1031/1032/1034 -> 10.3.0; gfx1101/1102/1103 -> 11.0.0 on older wheels); absent "
    "when not needed or when no safe override exists (rules/data/gfx_overrides.yaml).",
)
def recommended_override(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    gfx = _gfx(agent)
    if gfx.is_known:
        documented = ov.table(tables["gfx_overrides"]).workaround(str(gfx.value))
        if documented is None or not documented[1]:
            # the table names no recommended override for this GPU, so no wheel and no torch flavour can
            # make one: absent before the wheel is known (a gfx1100 is never told "set 10.3.0")
            return absent(TABLE_SOURCE, f"rules/data/gfx_overrides.yaml recommends no override for {gfx.value}")

    def recommend(gfx: str) -> Fact:
        found = wheel_targets(facts, tables)
        if found is None:
            return unknown("the gfx targets of the installed wheel are not known")
        targets, source = found
        value = ov.recommended_override(gfx, targets, tables["gfx_overrides"])
        if value is None:
            return absent(TABLE_SOURCE, f"no override is needed or safe for {gfx} with this wheel")
        return known(value, f"{TABLE_SOURCE}; {source}")

    return _on_rocm_torch(facts, gfx, recommend)


@gpu_fact(
    "first_torch_with_gfx",
    "First torch release whose pytorch.org ROCm wheels have the GPU's gfx (gfx1101 -> 2.6, gfx1151 -> 2.10); "
    "absent when no pytorch.org wheel has it.",
)
def first_torch_with_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return lookup(_gfx(agent), table_wheels(tables).first_release_with_gfx, WHEEL_SOURCE, "no pytorch.org wheel has {value}")


@gpu_fact(
    "newest_torch_with_gfx",
    "Newest stable pytorch.org ROCm wheel with the GPU's gfx that this machine can run, as 'torch X.Y (rocmA.B)': "
    "the target Python, the ROCm user space the amdgpu kernel driver supports, WSL2's system ROCm; decided by the "
    "same chooser as `fix` (rocm_doctor.wheels.choice). Absent when none.",
)
def newest_torch_with_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    driver = kernel_driver(facts, tables)

    def describe(gfx: str) -> Optional[str]:
        try:
            choice = choose_torch(replace(machine_of(facts, driver), gfx=(gfx,)), "pytorch.org")
        except NoChoice:
            return None
        return f"torch {choice.torch} (rocm{choice.rocm})"

    return lookup(_gfx(agent), describe, WHEEL_SOURCE, "no pytorch.org ROCm wheel has {value} for this Python")


@gpu_fact(
    "windows_runtime_supported",
    "The Windows HIP SDK table of the runtime in use (derived.windows_hip_runtime) lists the GPU's gfx as supported "
    "by the HIP runtime; when the runtime in use is not known, every table kept must agree (RDNA2 gfx1030/gfx1032, "
    "dropped in 7.2 after 6.4.2, are then unknown); unknown when the tables do not mention it.",
)
def windows_runtime_supported(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    in_use = windows_hip_runtime(facts, tables)
    releases = list(in_use.value) if in_use.is_known else [None]

    def supported(gfx: str) -> Optional[bool]:
        # a HIP SDK 6.x or ZLUDA user is judged by the table of the runtime in use, not by 7.2's
        verdicts = {rocm_support.windows_runtime_supported(gfx, release, table=tables["rocm_support"]) for release in releases}
        return verdicts.pop() if len(verdicts) == 1 else None

    return lookup(
        _gfx(agent),
        supported,
        "rules/data/rocm_support.yaml windows",
        "no Windows HIP SDK table kept for the runtime in use says whether it supports {value}",
        none_absent=False,
    )


@gpu_fact(
    "windows_sdk_supported",
    "The Windows HIP SDK tables of the HIP SDK releases in use (derived.windows_hip_runtime) list the GPU's gfx in "
    "their HIP SDK column: its libraries (rocBLAS's Tensile kernels among them) ship for it; false for a gfx they "
    "do not list there (AMD: an unlisted GPU is not supported); unknown when the release in use is not shown or "
    "no complete table of it is kept.",
)
def windows_sdk_supported(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    in_use = windows_hip_runtime(facts, tables)
    if not in_use.is_known:
        return in_use
    releases = list(in_use.value)

    def supported(gfx: str) -> Optional[bool]:
        verdicts = {rocm_support.windows_sdk_supported(gfx, release, table=tables["rocm_support"]) for release in releases}
        return verdicts.pop() if len(verdicts) == 1 else None

    return lookup(
        _gfx(agent),
        supported,
        "rules/data/rocm_support.yaml windows",
        "no complete Windows HIP SDK table kept for the release in use says whether it ships libraries for {value}",
        none_absent=False,
    )


@gpu_fact(
    "hip_sdk_lacks_gfx",
    "True when the Windows HIP SDK a ZLUDA or HIP SDK program runs on certainly ships no libraries (rocBLAS's "
    "Tensile kernels among them) for the GPU's gfx: the table of the HIP SDK release the report names "
    "(windows.hip_sdk_versions) marks it with a cross in its HIP SDK column, or is a fully transcribed table that "
    "leaves it out; when no release is named, only for a target no table lists there and a complete table "
    "crosses (RDNA2 gfx1031/gfx1032); false when the release's table lists it; unknown otherwise (an amdhip64 DLL "
    "is the driver's runtime, not the HIP SDK's release). Not Windows: absent.",
)
def hip_sdk_lacks_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    # learn55c: ZLUDA and the other HIP SDK programs on Windows take rocBLAS from the HIP SDK, whose Tensile
    # kernels exist only for the targets of its HIP SDK column (patientx/ComfyUI-Zluda#162: RX 9070 XT on HIP
    # SDK 6.2.4; lshqqytiger/ZLUDA#55: RX 6600, gfx1032, listed for the runtime only; CS1o/Stable-Diffusion-Info#33:
    # gfx1201 on HIP SDK 6.2, the guide's maintainer: the SDK has no gfx1201 kernels yet)
    # rev55c: the release is the HIP SDK's own (the driver installs amdhip64_N.dll whatever HIP SDK is there),
    # and a table whose rows were not all transcribed never says a target is missing
    windows = windows_hip_runtime(facts, tables)
    if windows.status == "absent":
        return windows
    sdks = facts.windows.hip_sdk_versions
    releases: List[Optional[str]] = [str(v) for v in sdks.value] if sdks.is_known and sdks.value else [None]

    def lacks(gfx: str) -> Optional[bool]:
        verdicts = {rocm_support.windows_sdk_lacks(gfx, release, table=tables["rocm_support"]) for release in releases}
        return verdicts.pop() if len(verdicts) == 1 else None

    return lookup(
        _gfx(agent),
        lacks,
        "rules/data/rocm_support.yaml windows",
        "no HIP SDK table kept says for certain whether the HIP SDK in use ships libraries for {value}",
        none_absent=False,
    )


@gpu_fact(
    "therock_status",
    "TheRock (AMD multi-arch pip index) status of the GPU's gfx on this OS: release_ready or build_only; "
    "absent when not built (TheRock SUPPORTED_GPUS.md).",
)
def therock_status(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    def status(os_name: str) -> Fact:
        platform = "windows" if os_name == "windows" else "linux"
        return lookup(
            _gfx(agent),
            lambda gfx: rocm_support.therock_status(gfx, platform, table=tables["rocm_support"]),
            "rules/data/rocm_support.yaml therock",
            f"TheRock does not build {{value}} for {platform}",
        )

    return from_input(facts.host.os, "host.os", status)


@gpu_fact(
    "therock_device_extra",
    "TheRock's multi-arch index has a device-<gfx> extra for torch on the GPU's gfx (rules/data/"
    "rocm_support.yaml therock.device_extras, from TheRock RELEASES.md); false for build-only targets "
    "without one, such as gfx90c.",
)
def therock_device_extra(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return then(
        _gfx(agent),
        lambda gfx: known(rocm_support.therock_device_extra(gfx, table=tables["rocm_support"]), "rules/data/rocm_support.yaml therock"),
    )


@gpu_fact(
    "wheel_library_gap",
    "The math library (rocBLAS) that the installed ROCm torch's ROCm ships without kernels for the "
    "GPU's effective gfx, although torch itself has them: gfx900/gfx906 with a wheel built with ROCm "
    ">= 6.4 (rules/data/torch_wheels.yaml library_gaps); the first GEMM aborts. Absent when there is "
    "no gap or torch is not a ROCm build.",
)
def wheel_library_gap(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    def gap(gfx: str) -> Fact:
        rocm = facts.torch.rocm_version
        if not rocm.is_known:
            return unknown("the ROCm version of the torch wheel is not known")
        library = table_wheels(tables).library_gap(gfx, rocm.value)
        if library is None:
            return absent(WHEEL_SOURCE, f"the libraries of a ROCm {rocm.value} wheel have {gfx} kernels")
        return known(library, f"{WHEEL_SOURCE} library_gaps")

    return _on_rocm_torch(facts, effective_gfx(facts, agent, tables), gap)
