"""Derived facts about which GPUs a program sees: *_VISIBLE_DEVICES and iGPU ordering.

Semantics: ``ROCR_VISIBLE_DEVICES`` filters first (ROCr) and HIP indices are renumbered after it (the HIP
runtime enumerates what ROCr surfaces); ``HIP_VISIBLE_DEVICES`` wins over ``CUDA_VISIBLE_DEVICES`` (PyTorch
``_parse_visible_devices``,
https://github.com/pytorch/pytorch/blob/17e3b6a97af175f377f42b52cf20d4c758a432a9/torch/cuda/__init__.py).
PyTorch releases since pytorch#142292 (December 2024; in v2.13.0's ``_parse_visible_devices``, not in
v2.5.0's) also read ``ROCR_VISIBLE_DEVICES`` and raise
``HIP_VISIBLE_DEVICES contains more devices than ROCR_VISIBLE_DEVICES`` when HIP names more.
Entries may be indices or UUIDs; UUIDs cannot be checked against the facts, so a list with
UUIDs is undecided.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import list_fact
from rocm_doctor.judge.derived_facts.env import env_vars, environments, first_holding, not_shown, program_environments, with_each_env, with_env
from rocm_doctor.judge.derived_facts.gpus import CPU_IMPLIED_SOURCE, PROSE_MENTION_SOURCE, amd_agents, integration_unknown
from rocm_doctor.judge.derived_facts.pasted import HIP_LEVEL_LISTINGS
from rocm_doctor.judge.derived_facts.visible_rocr import double_filtered
from rocm_doctor.numbers import is_index, small_int

VISIBILITY_VARS = ("ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES")
PROSE_DISCOVERY = ("paste:report", PROSE_MENTION_SOURCE, CPU_IMPLIED_SOURCE, "paste:windows")
"""GPU lists whose order is not the enumeration order: read from what people wrote, or Windows' list of
display adapters (:mod:`rocm_doctor.ingest.formats.windows_adapters`)."""


@dataclass
class Visibility:
    """The AMD GPUs a HIP program sees, after the visibility variables."""

    visible: Optional[List[GpuAgent]] = None
    """None when it cannot be decided (UUIDs, unknown GPU list)."""
    invalid: List[str] = field(default_factory=list)
    """Human-readable entries that name no device (``HIP_VISIBLE_DEVICES=2``)."""
    reason: Optional[str] = None


def _apply(name: str, value: str, pool: List[GpuAgent], result: Visibility) -> Optional[List[GpuAgent]]:
    """Filter ``pool`` by one variable; None when an entry is a UUID (cannot be checked)."""
    if not value.strip():
        result.invalid.append(f"{name} is empty, which hides every GPU")
        return []
    chosen: List[GpuAgent] = []
    for token in (t.strip() for t in value.split(",")):
        index = small_int(token)
        if index is None:
            return None
        if 0 <= index < len(pool):
            chosen.append(pool[index])
        else:
            result.invalid.append(f"{name}={token} (only {len(pool)} device(s) to choose from)")
    return chosen


def _hip_list(env: Dict[str, str]) -> Tuple[str, str]:
    """(name, value) of the list the HIP runtime reads: HIP_VISIBLE_DEVICES when it is not empty, else
    CUDA_VISIBLE_DEVICES (ROCm/clr rocdevice.cpp)."""
    hip = env.get("HIP_VISIBLE_DEVICES", "")
    if hip.strip():
        return "HIP_VISIBLE_DEVICES", hip
    return "CUDA_VISIBLE_DEVICES", env.get("CUDA_VISIBLE_DEVICES", "")


def _hides_every_gpu(env: Dict[str, str]) -> Optional[str]:
    """Why the HIP runtime enumerates no GPU at all whatever the machine has, or None.

    The HIP runtime reads HIP_VISIBLE_DEVICES when it is not empty, else CUDA_VISIBLE_DEVICES, and stops
    at the first entry that is not a GPU UUID or a plain index it has: a list that starts with "-1",
    "none" or another word keeps no GPU (ROCm/clr rocclr/device/rocm/rocdevice.cpp at f9f995c6d,
    https://github.com/ROCm/clr/blob/f9f995c6d0aecec28debd3db0f41df0c15ec003d/rocclr/device/rocm/rocdevice.cpp#L496-L542).
    An index past the GPUs there needs the GPU list, which :func:`visibility` checks."""
    name, value = _hip_list(env)
    if not value.strip():
        return None
    first = value.split(",")[0].strip()
    if first.startswith("GPU-") or is_index(first):
        return None
    return f"{name}={value} starts with '{first}', which names no GPU, so the HIP runtime enumerates none (it stops at the first invalid entry)"


def visibility(facts: Facts, env: Optional[Dict[str, str]] = None) -> Visibility:
    """Which AMD agents HIP sees, and which entries name nothing, under ``env`` (default: ``env.vars``;
    one of :func:`rocm_doctor.judge.derived_facts.env.environments` to judge one program's)."""
    env = env_vars(facts) if env is None else env
    if env is None:
        return Visibility(reason=facts.env.vars.reason or "the environment variables were not read")
    every = _hides_every_gpu(env)
    if every is not None:
        return Visibility(visible=[], invalid=[every])
    hidden = not_shown(facts, VISIBILITY_VARS)
    if hidden is not None:
        return Visibility(reason=hidden.reason)
    if facts.gpus.discovery.is_known and str(facts.gpus.discovery.value) in PROSE_DISCOVERY:
        return Visibility(reason="the report names its GPUs in words, which does not show the order HIP enumerates them in")
    agents = amd_agents(facts)
    if facts.gpus.discovery.status in ("failed", "unknown") and not agents:
        return Visibility(reason="the GPU list is not known")
    result = Visibility()
    pool: Optional[List[GpuAgent]] = sorted(agents, key=lambda a: a.index)
    hip_name = "HIP_VISIBLE_DEVICES" if "HIP_VISIBLE_DEVICES" in env else "CUDA_VISIBLE_DEVICES"
    for name in ("ROCR_VISIBLE_DEVICES", hip_name):
        if name in env and pool is not None:
            pool = _apply(name, env[name], pool, result)
    if pool is None:
        result.reason = "a *_VISIBLE_DEVICES entry is a UUID, which the facts cannot match to a GPU"
    result.visible = pool
    return result


@machine_fact(
    "visible_devices_invalid",
    "Entries of ROCR_/HIP_/CUDA_VISIBLE_DEVICES that name no AMD GPU (an index at or beyond the "
    "number of devices left at that level, or an empty value that hides all); absent when every "
    "entry is valid or none is set; unknown with UUID entries.",
)
def visible_devices_invalid(facts: Facts, tables: Tables) -> Fact:
    vis = first_holding(environments(facts) or [None], lambda env: visibility(facts, env), lambda found: bool(found.invalid))
    if vis.invalid:
        return known(vis.invalid, "env + GPU discovery")
    if vis.visible is None:
        return unknown(vis.reason or "undecided")
    return list_fact([], "env + GPU discovery", "no visibility variable names a missing device")


def _past_the_one_gpu(facts: Facts, env: Dict[str, str]) -> Optional[str]:
    """Why a list names no GPU on a machine the reporter says has one, or None.

    With one GPU the only index is 0. The HIP runtime stops at the first entry at or past the number of
    GPUs and keeps what came before, so a HIP_/CUDA_VISIBLE_DEVICES list that starts at 1 or more keeps
    none (ROCm/clr rocdevice.cpp at 0053584a,
    https://github.com/ROCm/clr/blob/0053584aacd5d89662a2437a722a63a8964fcce2/rocclr/device/rocm/rocdevice.cpp);
    a ROCR_VISIBLE_DEVICES list of indices all 1 or more keeps none however ROCr treats a bad entry.
    Words are enough only without a sign of a second GPU: an integrated GPU listed or named beside the
    card is a device too (a Ryzen's Radeon Graphics can be device 1)."""
    context = facts.symptoms.context
    if not context.is_known or "single_gpu_said" not in (context.value or []):
        return None
    if len(facts.gpus.agents) > 1 or any(a.integrated.is_known and a.integrated.value for a in facts.gpus.agents):
        return None
    rocr = [t.strip() for t in env.get("ROCR_VISIBLE_DEVICES", "").split(",") if t.strip()]
    if rocr and all(is_index(t) and int(t) >= 1 for t in rocr):
        return f"ROCR_VISIBLE_DEVICES={env['ROCR_VISIBLE_DEVICES'].strip()} on a machine with one GPU, whose only index is 0"
    if rocr:
        return None  # what HIP counts depends on what ROCr kept: visible_devices_repeat_rocr judges both
    name, value = _hip_list(env)
    first = value.split(",")[0].strip()
    if is_index(first) and int(first) >= 1:
        return f"{name}={value.strip()} on a machine with one GPU, whose only index is 0"
    return None


def _rocr_hides_every_gpu(env: Dict[str, str]) -> Optional[str]:
    """Why ROCr surfaces no GPU whatever the machine has, or None.

    ROCr keeps no GPU for an empty ROCR_VISIBLE_DEVICES, and stops at the first entry that is neither a
    UUID it matches (a token starting with G) nor an index it has (strtol, so "-1" or "none" end the list
    at once) (ROCm/ROCR-Runtime amd_filter_device.cpp at cdbe554a,
    https://github.com/ROCm/ROCR-Runtime/blob/cdbe554aba5a9087e22182ea84ce0d9b90c6a123/runtime/hsa-runtime/core/runtime/amd_filter_device.cpp)."""
    if "ROCR_VISIBLE_DEVICES" not in env:
        return None
    value = env["ROCR_VISIBLE_DEVICES"]
    if not value.strip():
        return "ROCR_VISIBLE_DEVICES is set but empty, which makes ROCr surface no GPU"
    first = value.split(",")[0].strip()
    if first.upper().startswith("G") or is_index(first):
        return None
    return f"ROCR_VISIBLE_DEVICES={value} starts with '{first}', which names no GPU, so ROCr surfaces none (it stops at the first invalid entry)"


VISIBILITY_NAMES = ("ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES")
_UNEXPANDED = ("$", "%", "(", "{", "`")
"""Characters no visibility list holds (indices, ``GPU-`` UUIDs, ``-1``, words): a value with one is the report's
unexpanded shell variable or code (``$LOCAL_RANK``, ``${SLURM_LOCALID}``, ``%GPU%``, ``str(rank)``), whose value
at run time the report does not show."""


def unexpanded_visibility(env: Dict[str, str]) -> Optional[str]:
    """The first visibility variable whose value the report shows only as an expression, as ``NAME=value``; or None."""
    for name in VISIBILITY_NAMES:
        value = env.get(name)
        if value is not None and any(mark in value for mark in _UNEXPANDED):
            return f"{name}={value.strip()}"
    return None


def hides_every_gpu(facts: Facts) -> Fact:
    """Why the visibility variables leave a HIP program no GPU on a machine that has one, or absent: asked of
    each program's environment (:func:`rocm_doctor.judge.derived_facts.env.environments`), not of two commands'
    prefixes put together."""
    envs = environments(facts)
    if envs is None:
        return unknown(facts.env.vars.reason or "the environment variables were not read")
    return first_holding(envs, lambda env: _hides_every_gpu_in(facts, env), lambda result: result.is_known)


def _hides_every_gpu_in(facts: Facts, env: Dict[str, str]) -> Fact:
    """:func:`hides_every_gpu` for one environment."""
    expression = unexpanded_visibility(env)
    if expression is not None:
        return unknown(f"{expression} is an expression the report shows unexpanded: what it lists at run time is not shown")
    on_windows = facts.host.os.is_known and facts.host.os.value == "windows"
    if on_windows and "ROCR_VISIBLE_DEVICES" in env:
        # HIP on Windows runs on the display driver, without ROCr: nothing reads ROCR_VISIBLE_DEVICES there
        env = {name: value for name, value in env.items() if name != "ROCR_VISIBLE_DEVICES"}
    every = _rocr_hides_every_gpu(env) or _hides_every_gpu(env)
    if every is not None:
        return known(every, "env")
    if double_filtered(env) is not None:
        return absent("env", "ROCR_VISIBLE_DEVICES and the HIP list mask twice: visible_devices_repeat_rocr says it")
    if any(not env.get(name, "x").strip() for name in ("HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES")):
        # the HIP runtime reads an empty HIP_VISIBLE_DEVICES as unset (then CUDA_VISIBLE_DEVICES), PyTorch's
        # device count as none: RD321 says it
        return absent("env", "an empty HIP/CUDA visibility variable, read differently by HIP and PyTorch")
    vis = visibility(facts, env)
    listed_by_hip = facts.gpus.discovery.is_known and str(facts.gpus.discovery.value) in HIP_LEVEL_LISTINGS
    if vis.visible == [] and vis.invalid and amd_agents(facts) and not listed_by_hip and not on_windows:
        # a listing a HIP program printed (torch, hipInfo) already shows what the variables left
        return known("; ".join(vis.invalid), "env + GPU discovery")
    said = _past_the_one_gpu(facts, env)
    if said is not None:
        return known(said, "env + the report's words")
    return absent("env", "the visibility variables leave a GPU, or what they leave is not shown")


@machine_fact(
    "visible_devices_hide_every_gpu",
    "Why HIP_/CUDA_/ROCR_VISIBLE_DEVICES leave no GPU to a HIP program on a machine that has one: a list "
    "that starts with -1 or a word, every entry past the GPUs listed, or a list starting at 1 where the "
    "reporter says the machine has one GPU; absent otherwise (and when both ROCR and HIP mask, which "
    "visible_devices_repeat_rocr judges).",
)
def visible_devices_hide_every_gpu(facts: Facts, tables: Tables) -> Fact:
    return hides_every_gpu(facts)


@machine_fact(
    "visible_devices_conflict",
    "HIP_VISIBLE_DEVICES and CUDA_VISIBLE_DEVICES are both set to different lists; on ROCm the "
    "HIP one wins and the CUDA one is ignored (torch/cuda/__init__.py _parse_visible_devices).",
)
def visible_devices_conflict(facts: Facts, tables: Tables) -> Fact:
    def conflict(env: Dict[str, str]) -> Fact:
        hip, cuda = env.get("HIP_VISIBLE_DEVICES"), env.get("CUDA_VISIBLE_DEVICES")
        return known(hip is not None and cuda is not None and hip.replace(" ", "") != cuda.replace(" ", ""), "env")

    return with_each_env(facts, conflict, needs=("HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"))


@machine_fact(
    "igpu_enumerated_first",
    "The first AMD GPU a HIP program sees (device 0, what 'cuda' means in PyTorch) is an "
    "integrated GPU while a discrete AMD GPU is visible too, after *_VISIBLE_DEVICES; AMD: "
    "ROCm does not support integrated graphics next to a dGPU (https://github.com/ROCm/rocm-install-on-linux/blob/f297bde3afa98d750d1aa460386491db9a721f30/docs/install/prerequisites.rst#L225-L231).",
)
def igpu_enumerated_first(facts: Facts, tables: Tables) -> Fact:
    undecided = integration_unknown(amd_agents(facts))
    if undecided is not None:
        return undecided

    def first_in(env: Optional[Dict[str, str]]) -> Fact:
        vis = visibility(facts, env)
        if vis.visible is None:
            return unknown(vis.reason or "undecided")
        visible = vis.visible
        first_is_igpu = bool(visible) and bool(visible[0].integrated.value)
        has_dgpu = any(not a.integrated.value for a in visible)
        return known(first_is_igpu and has_dgpu, "GPU discovery + env")

    # each program's own environment (env60): a visibility prefix of one command does not mask another's GPUs
    return first_holding(program_environments(facts) or [None], first_in, lambda result: result.is_known and bool(result.value))


@machine_fact(
    "discrete_gpu_indices",
    "The ROCR_VISIBLE_DEVICES value that keeps only the discrete AMD GPUs: their positions in "
    "AMD enumeration order, comma-separated ('1' when the iGPU is 0); absent when there is none.",
)
def discrete_gpu_indices(facts: Facts, tables: Tables) -> Fact:
    agents = sorted(amd_agents(facts), key=lambda a: a.index)
    undecided = integration_unknown(agents)
    if undecided is not None:
        return undecided
    positions = [str(i) for i, a in enumerate(agents) if not a.integrated.value]
    if not positions:
        return list_fact([], "GPU discovery", "no discrete AMD GPU")
    return known(",".join(positions), "GPU discovery")
