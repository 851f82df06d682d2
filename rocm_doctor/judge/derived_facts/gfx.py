"""Derived facts about gfx targets: in the wheel or not, HSA_OVERRIDE_GFX_VERSION, hipBLASLt.

Sources: rules/data/torch_wheels.yaml (facts.md A.3), rules/data/gfx_overrides.yaml (D),
rules/data/rocm_support.yaml (B), rules/data/gpus.yaml (C) through
:mod:`rocm_doctor.knowledge` and :mod:`rocm_doctor.facts.gpu_table`.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional

from packaging.version import Version

from rocm_doctor.facts import gpu_table
from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact, machine_fact
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
from rocm_doctor.knowledge import overrides as ov
from rocm_doctor.knowledge import rocm_support
from rocm_doctor.knowledge._tables import parse_version

TABLE_SOURCE = "rules/data/gfx_overrides.yaml"
WHEEL_SOURCE = "rules/data/torch_wheels.yaml"
HIPBLASLT_SOURCE = "facts.md E.1 (PyTorch Context.cpp hipBLASLt architectures)"

# hipBLASLt architectures in PyTorch's Context.cpp / Blas.cpp: gfx -> minimum ROCm of the wheel
# (facts.md E.1: gfx1100/1101/1200/1201 need ROCm >= 6.3; addmm Lt adds gfx950/gfx1150/gfx1151
# only for ROCm >= 7.0; gfx90a/gfx942 always). Any other target is unsupported.
HIPBLASLT_MIN_ROCM: Dict[str, str] = {
    "gfx90a": "0",
    "gfx942": "0",
    "gfx1100": "6.3",
    "gfx1101": "6.3",
    "gfx1200": "6.3",
    "gfx1201": "6.3",
    "gfx950": "7.0",
    "gfx1150": "7.0",
    "gfx1151": "7.0",
}


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
    "The global HSA_OVERRIDE_GFX_VERSION value; absent when it is not set (facts.md D).",
)
def override_value(facts: Facts, tables: Tables) -> Fact:
    def value(env: Dict[str, str], source: str) -> Fact:
        return known(env[ov.VARIABLE], source) if ov.VARIABLE in env else absent(source, f"{ov.VARIABLE} is not set")

    return _with_env(facts, value)


@machine_fact(
    "override_valid",
    "The global HSA_OVERRIDE_GFX_VERSION is major.minor.stepping in decimal within libhsakmt's bounds "
    "(major <= 63, minor/stepping <= 255; ROCR topology.c, facts.md D).",
)
def override_valid(facts: Facts, tables: Tables) -> Fact:
    return _validity(override_value(facts, tables))


@machine_fact("override_gfx", "The gfx target the global HSA_OVERRIDE_GFX_VERSION names (11.0.0 -> gfx1100).")
def override_gfx(facts: Facts, tables: Tables) -> Fact:
    return _named_gfx(override_value(facts, tables))


@machine_fact(
    "override_malformed",
    "Every HSA_OVERRIDE_GFX_VERSION[_N] setting libhsakmt rejects, as 'VAR=value (reason)'; absent when "
    "none is malformed (ROCR topology.c: 'HSA_OVERRIDE_GFX_VERSION %s is invalid', facts.md D).",
)
def override_malformed(facts: Facts, tables: Tables) -> Fact:
    def malformed(env: Dict[str, str], source: str) -> Fact:
        bad: List[str] = []
        for name, value in sorted(ov.override_variables(env).items()):
            parsed = ov.parse_override(value)
            if not parsed.valid:
                bad.append(f"{name}={value} ({parsed.reason})")
        return list_fact(bad, source, "no malformed override")

    return _with_env(facts, malformed)


def _amd_gfx(facts: Facts, tables: Tables) -> Fact:
    agents = [a for a in facts.gpus.agents if is_amd(facts, a, tables).value is True]
    if any(is_amd(facts, a, tables).status != "known" for a in facts.gpus.agents):
        return unknown("the vendor of a GPU is not known")
    if any(not a.gfx.is_known for a in agents):
        return unknown("the gfx target of an AMD GPU is not known")
    seen: List[str] = []
    for agent in agents:
        gfx = gpu_table.base_gfx(str(agent.gfx.value))
        if gfx not in seen:
            seen.append(gfx)
    return known(seen, facts.gpus.discovery.source or "GPU discovery")


@machine_fact("amd_gfx_targets", "Distinct gfx targets of the AMD GPUs, in discovery order.")
def amd_gfx_targets(facts: Facts, tables: Tables) -> Fact:
    return _amd_gfx(facts, tables)


@machine_fact(
    "distinct_amd_gfx_count",
    "Number of distinct gfx targets among the AMD GPUs (2 on an RX 7900 XTX + Raphael iGPU machine); "
    "a global HSA_OVERRIDE_GFX_VERSION then applies one target to different GPUs (facts.md D).",
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
    "an override may borrow (rules/data/gfx_overrides.yaml, facts.md D).",
)
def override_group(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return lookup(_gfx(agent), lambda gfx: ov.group_of(gfx, tables["gfx_overrides"]), TABLE_SOURCE, "{value} is in no override group")


@gpu_fact(
    "in_wheel",
    "The installed ROCm torch has kernels for the GPU's own gfx: torch.live.arch_list when the probe ran, "
    "else rules/data/torch_wheels.yaml for a pytorch.org wheel; unknown if neither can say; absent for a "
    "non-ROCm torch (facts.md A.3, E.10).",
)
def in_wheel(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return _in_wheel(facts, tables, _gfx(agent))


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
    "changes nothing (facts.md D: the '11.5.1 required for Strix Halo' claim is refuted).",
)
def override_is_noop(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return combine(_override_gfx(facts, agent, tables), _gfx(agent), lambda target, own: target == own)


@gpu_fact(
    "override_cross_family",
    "The override points the GPU at another override group's code objects (9.0.0 on gfx1151, 10.3.0 on "
    "gfx1010): silent CPU fall-back or crashes (facts.md D).",
)
def override_cross_family(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return combine(
        _override_gfx(facts, agent, tables),
        _gfx(agent),
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
    "override's target (gfx1031-1036 -> 10.3.0; gfx1101/1102/1103 -> 11.0.0 on older wheels); absent "
    "when not needed or when no safe override exists (facts.md D).",
)
def recommended_override(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    def recommend(gfx: str) -> Fact:
        found = wheel_targets(facts, tables)
        if found is None:
            return unknown("the gfx targets of the installed wheel are not known")
        targets, source = found
        value = ov.recommended_override(gfx, targets, tables["gfx_overrides"])
        if value is None:
            return absent(TABLE_SOURCE, f"no override is needed or safe for {gfx} with this wheel")
        return known(value, f"{TABLE_SOURCE}; {source}")

    return _on_rocm_torch(facts, _gfx(agent), recommend)


@gpu_fact(
    "first_torch_with_gfx",
    "First torch release whose pytorch.org ROCm wheels have the GPU's gfx (gfx1101 -> 2.6, gfx1151 -> 2.10); "
    "absent when no pytorch.org wheel has it (facts.md A.3).",
)
def first_torch_with_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return lookup(_gfx(agent), table_wheels(tables).first_release_with_gfx, WHEEL_SOURCE, "no pytorch.org wheel has {value}")


@gpu_fact(
    "newest_torch_with_gfx",
    "Newest stable pytorch.org ROCm wheel with the GPU's gfx that this machine can run, as 'torch X.Y (rocmA.B)': "
    "the target Python, the ROCm user space the amdgpu kernel driver supports, WSL2's system ROCm; decided by the "
    "same chooser as `fix` (rocm_doctor.remedy.choice). Absent when none (facts.md A.2, A.3).",
)
def newest_torch_with_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    from dataclasses import replace

    from rocm_doctor.remedy.choice import NoChoice, choose_torch, machine_of

    def describe(gfx: str) -> Optional[str]:
        try:
            choice = choose_torch(replace(machine_of(facts), gfx=(gfx,)), "pytorch.org")
        except NoChoice:
            return None
        return f"torch {choice.torch} (rocm{choice.rocm})"

    return lookup(_gfx(agent), describe, WHEEL_SOURCE, "no pytorch.org ROCm wheel has {value} for this Python")


@gpu_fact(
    "hipblaslt_supported",
    "PyTorch allows hipBLASLt on the effective gfx with the wheel's ROCm: gfx90a/gfx942 always, "
    "gfx1100/1101/1200/1201 from ROCm 6.3, gfx950/gfx1150/gfx1151 from ROCm 7.0, never elsewhere "
    "(Context.cpp/Blas.cpp, facts.md E.1); absent for a non-ROCm torch.",
)
def hipblaslt_supported(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    def allowed(gfx: str) -> Fact:
        minimum = HIPBLASLT_MIN_ROCM.get(gfx)
        if minimum is None:
            return known(False, HIPBLASLT_SOURCE)
        wheel_rocm = parse_version(facts.torch.rocm_version.value) if facts.torch.rocm_version.is_known else None
        if wheel_rocm is None:
            return unknown("the ROCm version of the torch wheel is not known")
        return known(wheel_rocm >= Version(minimum), HIPBLASLT_SOURCE)

    return _on_rocm_torch(facts, effective_gfx(facts, agent, tables), allowed)


@gpu_fact(
    "windows_runtime_supported",
    "The newest Windows HIP SDK table (ROCm 7.2) lists the GPU's gfx as supported by the HIP runtime; "
    "false for RDNA2 gfx1030/gfx1032 (facts.md B.3); unknown when the table does not mention it.",
)
def windows_runtime_supported(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    return lookup(
        _gfx(agent),
        lambda gfx: rocm_support.windows_runtime_supported(gfx, table=tables["rocm_support"]),
        "rules/data/rocm_support.yaml windows",
        "the Windows HIP SDK table does not mention {value}",
        none_absent=False,
    )


@gpu_fact(
    "therock_status",
    "TheRock (AMD multi-arch pip index) status of the GPU's gfx on this OS: release_ready or build_only; "
    "absent when not built (facts.md B.4).",
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
