"""Derived facts that pasted reports need (``check --from``, rules in ``rules/symptoms.yaml``).

A paste often shows an error from a program that is not PyTorch (rocBLAS inside
ollama, a llama.cpp build), or a GPU listing printed through HIP itself; these
facts say what such evidence means without needing the machine-wide facts a live
check would have (the environment, the installed wheel).
"""

from __future__ import annotations

import re
from typing import Any

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact, machine_fact
from rocm_doctor.judge.derived_facts._support import ids_shown, table_wheels
from rocm_doctor.judge.derived_facts.gpus import CPU_IMPLIED_SOURCE, amd_agents, graphics_agents
from rocm_doctor.knowledge import overrides as ov
from rocm_doctor.knowledge.torch_identity import NVIDIA_RUNTIME_WHEEL

HIP_LEVEL_LISTINGS = ("paste:hip", "paste:torch")
"""GPU listings printed by a HIP program (hipInfo, llama.cpp, torch): already filtered by *_VISIBLE_DEVICES."""


@gpu_fact(
    "documented_override",
    "The same-family HSA_OVERRIDE_GFX_VERSION documented for the GPU's gfx in rules/data/gfx_overrides.yaml "
    "(gfx1031/gfx1032 -> 10.3.0), whatever program runs; absent when the table has no recommended one "
    "(rules/data/gfx_overrides.yaml).",
)
def documented_override(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    if not agent.gfx.is_known or not agent.gfx.value:
        return unknown(agent.gfx.reason or "the GPU's gfx target is not known")
    found = ov.table(tables["gfx_overrides"]).workaround(str(agent.gfx.value))
    if found is None or not found[1]:
        return absent("rules/data/gfx_overrides.yaml", f"no recommended override for {agent.gfx.value}")
    return known(found[0], f"rules/data/gfx_overrides.yaml ({found[2]})")


@machine_fact(
    "hip_listing_igpu_first",
    "A GPU listing printed through HIP (hipInfo, llama.cpp's device list, torch) shows an integrated AMD GPU as "
    "device 0 next to a discrete one: the iGPU is visible to applications, whatever the environment said "
    "(AMD: https://github.com/ROCm/rocm-install-on-linux/blob/f297bde3afa98d750d1aa460386491db9a721f30/docs/install/prerequisites.rst#L225-L231); absent when the facts hold no such listing.",
)
def hip_listing_igpu_first(facts: Facts, tables: Tables) -> Fact:
    layer = facts.gpus.discovery.value if facts.gpus.discovery.is_known else None
    if layer not in HIP_LEVEL_LISTINGS:
        return absent("gpus.discovery", "no GPU listing printed through HIP")
    agents = sorted(amd_agents(facts), key=lambda a: a.index)
    if not agents or any(not a.integrated.is_known for a in agents):
        return unknown("whether each listed AMD GPU is integrated is not known")
    first_igpu = bool(agents[0].integrated.value)
    has_dgpu = any(not a.integrated.value for a in agents)
    return known(first_igpu and has_dgpu, facts.gpus.discovery.source or str(layer))


AMD_CONTEXT_SIGNATURES = ("rocm_stack_mentioned", "rocm_torch_index_used", "hip_build_probed")
"""Signature ids that show a report is about an AMD GPU and ROCm, whatever else it names."""


@machine_fact(
    "amd_context",
    "The machine is meant to use an AMD GPU with ROCm: an AMD GPU was found, or the torch is a ROCm build, "
    "or a ROCm install is known, or a pasted report speaks of ROCm (an image, an index, a HIP error, "
    "a Radeon) even without naming the GPU; false only when none of these holds and the GPUs are known.",
)
def amd_context(facts: Facts, tables: Tables) -> Fact:
    context = ids_shown(facts.symptoms.context)
    named = next((s for s in AMD_CONTEXT_SIGNATURES if s in context), None)
    if named is not None:
        return known(True, facts.symptoms.context.source or "paste")
    agents = amd_agents(facts)
    # an iGPU implied by the CPU model alone is a weak fact: a Ryzen laptop's report may be about its
    # NVIDIA card; RD528 called "Ryzen 7 7840U, torch==2.5.1+cu124" a CUDA torch on an AMD machine (r47b)
    if any(not agent.source.startswith(CPU_IMPLIED_SOURCE) for agent in agents):
        return known(True, "GPU discovery")
    if facts.torch.flavour.is_known and facts.torch.flavour.value == "rocm":
        return known(True, facts.torch.flavour.source or "torch")
    if facts.rocm.version.is_known:
        return known(True, facts.rocm.version.source or "rocm.version")
    if agents:
        return unknown("only the CPU model the report names implies an AMD GPU")
    if facts.gpus.agents or facts.gpus.discovery.is_known:
        return known(False, "GPU discovery")
    return unknown("neither the GPUs nor any ROCm component is known")


@machine_fact(
    "igpu_beside_dgpu",
    "An AMD integrated GPU (or the iGPU a known Ryzen CPU carries) is present next to a discrete AMD GPU; "
    "ROCm lists both unless one is hidden (ROCR_VISIBLE_DEVICES) or disabled in the BIOS.",
)
def igpu_beside_dgpu(facts: Facts, tables: Tables) -> Fact:
    agents = graphics_agents(facts)
    kinds = {a.integrated.value for a in agents if a.integrated.is_known}
    if True in kinds and False in kinds:
        integrated = next(a for a in agents if a.integrated.value is True)
        return known(True, integrated.source)
    if any(not a.integrated.is_known for a in agents):
        return unknown("whether an AMD GPU is integrated is not known")
    return known(False, facts.gpus.discovery.source or "GPU discovery")


@machine_fact(
    "igpu_implied_by_cpu_only",
    "The integrated AMD GPU next to a discrete one is known only from the CPU model the report names "
    "(no device line shows it): a weak inference that may order the GPUs but never names the judged GPU; "
    "false when a device line shows it; absent when there is no integrated GPU.",
)
def igpu_implied_by_cpu_only(facts: Facts, tables: Tables) -> Fact:
    for agent in graphics_agents(facts):
        if agent.integrated.is_known and agent.integrated.value:
            return known(agent.source.startswith(CPU_IMPLIED_SOURCE), agent.source)
    return absent("GPU discovery", "no AMD integrated GPU")


@machine_fact(
    "igpu_name",
    "Name (and gfx) of the AMD integrated GPU next to a discrete one, for messages; absent when there is none.",
)
def igpu_name(facts: Facts, tables: Tables) -> Fact:
    for agent in graphics_agents(facts):
        if agent.integrated.is_known and agent.integrated.value:
            name = agent.name.value if agent.name.is_known else "the integrated GPU"
            gfx = f" ({agent.gfx.value})" if agent.gfx.is_known else ""
            return known(f"{name}{gfx}", agent.source)
    return absent("GPU discovery", "no AMD integrated GPU")


@machine_fact(
    "env_settings_not_reaching",
    "Environment settings the report shows that cannot reach the program, as 'NAME=value (where): why' "
    "(fish without -x, an env listing or the program's own log without it, sudo); absent when none.",
)
def env_settings_not_reaching(facts: Facts, tables: Tables) -> Fact:
    settings = facts.env.settings
    if settings.status == "absent":
        return absent(settings.source or "env", settings.reason)
    if not settings.is_known:
        return unknown(settings.reason or "the report shows no environment settings")
    lost = [
        f"{s.name}={s.value} ({s.origin}, {s.source}): {s.reason}"
        for s in settings.value or []
        if s.reaches is False and s.value is not None
    ]
    return known(lost, settings.source or "paste") if lost else absent(settings.source or "paste", "every setting shown may reach the program")


@gpu_fact(
    "override_not_reaching",
    "The HSA_OVERRIDE_GFX_VERSION value the report sets where it cannot reach the program (fish without -x, "
    "before sudo, an env listing without it) when it is the GPU's documented same-family override, as "
    "'value (origin, line): why'; absent when the report sets none that is lost, or a value of another one.",
)
def override_not_reaching(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    settings = facts.env.settings
    if settings.status == "absent":
        return absent(settings.source or "env", settings.reason)
    if not settings.is_known:
        return unknown(settings.reason or "the report shows no environment settings")
    wanted = documented_override(facts, agent, tables)
    if not wanted.is_known:
        return wanted if wanted.status == "unknown" else absent(wanted.source or "overrides", wanted.reason)
    lost = [
        f"{s.value} ({s.origin}, {s.source}): {s.reason}"
        for s in settings.value or []
        if s.name == "HSA_OVERRIDE_GFX_VERSION" and s.reaches is False and (s.value or "").strip("'\"") == wanted.value
    ]
    return known(lost[0], settings.source or "paste") if lost else absent(settings.source or "paste", "no documented override is set where it cannot reach")


@machine_fact(
    "cmd_set_on_linux",
    "Variables the report sets with cmd's 'set NAME=value' on Linux, where that syntax sets no variable "
    "(bash's 'set' sets positional parameters); absent when none.",
)
def cmd_set_on_linux(facts: Facts, tables: Tables) -> Fact:
    settings = facts.env.settings
    if settings.status == "absent":
        return absent(settings.source or "env", settings.reason)
    if not settings.is_known or not facts.host.os.is_known:
        return unknown("the report's settings or its operating system are not known")
    if facts.host.os.value != "linux":
        return absent("host.os", "not Linux")
    names = [f"{s.name}={s.value}" for s in settings.value or [] if s.origin == "cmd-set"]
    return known(names, settings.source or "paste") if names else absent("paste", "no cmd-style set")


EXPLAINED_SIGNATURES = "explained_signatures"
"""The engine's second-phase input (``Tables`` key): signature ids that a finding of the first phase explains."""


def _second_phase_input(tables: Tables, key: str) -> Any:
    """What the engine hands its second phase under ``key``; None outside that phase, where there is nothing yet."""
    try:
        return tables[key]
    except Exception:  # noqa: BLE001 - the key is set only by the engine's second phase
        return None


@machine_fact(
    "unexplained_signatures",
    "Error signatures the pasted report shows that no finding explains, as 'id (meaning)'; computed after "
    "every other rule (the engine's second phase); absent when each one is explained.",
)
def unexplained_signatures(facts: Facts, tables: Tables) -> Fact:
    handed = _second_phase_input(tables, EXPLAINED_SIGNATURES)
    if handed is None:
        return unknown("computed only after the other rules")
    explained = set(handed)
    seen = ids_shown(facts.symptoms.signatures)
    source = facts.symptoms.signatures.source or "paste"
    if not seen:
        return absent(source, "every error signature is explained by a finding")
    # Imported only when a signature was seen, for start-up speed (a downward import: ingest is below judge).
    from rocm_doctor.ingest.signatures import signatures as signature_table

    meaning = {s.id: s.meaning for s in signature_table() if s.category}
    left = [f"{s} ({meaning.get(s, 'recognised error')})" for s in seen if s not in explained and s in meaning]
    return known(left, source) if left else absent(source, "every error signature is explained by a finding")


FIRST_PHASE_PROBLEMS = "first_phase_problems"
"""The engine's second-phase input (``Tables`` key): how many errors and warnings the first phase found."""


@machine_fact(
    "first_phase_problems",
    "How many errors and warnings every rule outside the engine's second phase found, computed after them: a "
    "weak inference that reads it speaks only where nothing stronger was found.",
)
def first_phase_problems(facts: Facts, tables: Tables) -> Fact:
    count = _second_phase_input(tables, FIRST_PHASE_PROBLEMS)
    return unknown("computed only after the other rules") if count is None else known(int(count), "rules")


@machine_fact(
    "unexplained_signature_category",
    "The finding category (rules/data/signatures.yaml) of the first error signature no finding explains; "
    "absent when all are explained.",
)
def unexplained_signature_category(facts: Facts, tables: Tables) -> Fact:
    left = unexplained_signatures(facts, tables)
    if not left.is_known:
        return left
    # Only reached when a signature was seen (see unexplained_signatures): ingest is below judge.
    from rocm_doctor.ingest.signatures import signatures as signature_table

    category = {s.id: s.category for s in signature_table() if s.category}
    first = str(left.value[0]).split(" ", 1)[0]
    return known(category[first], left.source or "paste") if first in category else absent("paste", "no category")


@gpu_fact(
    "in_any_release_wheel",
    "Some stable pytorch.org ROCm wheel (any release) has kernels for the GPU's gfx; false for targets no "
    "release was ever built for (gfx803, gfx1031-1036, gfx90c, gfx1152 ...), whatever torch is installed "
    "(rules/data/torch_wheels.yaml).",
)
def in_any_release_wheel(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    if not agent.gfx.is_known or not agent.gfx.value:
        return unknown(agent.gfx.reason or "the GPU's gfx target is not known")
    first = table_wheels(tables).first_release_with_gfx(str(agent.gfx.value))
    return known(first is not None, "rules/data/torch_wheels.yaml")


NVIDIA_RUNTIME_PACKAGES = re.compile(rf"^{NVIDIA_RUNTIME_WHEEL}$")
"""NVIDIA's runtime wheels that CUDA builds of torch depend on (https://pypi.org/project/nvidia-cuda-runtime-cu12/)."""


@machine_fact(
    "nvidia_cuda_packages",
    "NVIDIA CUDA runtime wheels installed in the environment (nvidia-cuda-runtime-cu12, nvidia-cudnn-cu12 ...), "
    "which only CUDA builds of torch pull in; absent when there are none.",
)
def nvidia_cuda_packages(facts: Facts, tables: Tables) -> Fact:
    installed = facts.packages.installed
    if installed.status == "absent":
        return absent(installed.source or "packages", "no packages")
    if not installed.is_known:
        return unknown(installed.reason or "the installed packages are not known")
    names = sorted(n for n in (installed.value or {}) if NVIDIA_RUNTIME_PACKAGES.match(n.lower()))
    return known(names, installed.source or "packages") if names else absent(installed.source or "packages", "no NVIDIA runtime package")


@machine_fact(
    "hsa_vars_on_windows",
    "HSA_ variables set on native Windows, where nothing reads them: they configure ROCr, the HSA "
    "runtime of ROCm on Linux, while HIP on Windows runs on the driver's PAL backend; absent when none "
    "or not Windows.",
)
def hsa_vars_on_windows(facts: Facts, tables: Tables) -> Fact:
    if not facts.host.os.is_known:
        return unknown(facts.host.os.reason or "the operating system is not known")
    if facts.host.os.value != "windows":
        return absent(facts.host.os.source or "host", "not Windows")
    env = facts.env.vars
    if env.status == "absent":
        return absent(env.source or "env", "no variables")
    if not env.is_known:
        return unknown(env.reason or "the environment is not known")
    names = sorted(f"{n}={v}" for n, v in (env.value or {}).items() if n.startswith("HSA_"))
    return known(names, env.source or "env") if names else absent(env.source or "env", "no HSA_ variable is set")


def _current(facts: Facts, path: str) -> Fact:
    section, _, name = path.partition(".")
    return getattr(getattr(facts, section, None), name, None) or unknown(f"{path} is not a fact")


@machine_fact(
    "changed_since_earlier",
    "What differs between the earlier state a pasted report shows (symptoms.earlier: 'Last working "
    "environment', 'before the update') and the current one, as 'path: earlier -> now' "
    "(torch.version: 2.7.1 -> 2.8.0); absent when the report shows no earlier state or nothing known differs.",
)
def changed_since_earlier(facts: Facts, tables: Tables) -> Fact:
    earlier = facts.symptoms.earlier
    if not earlier.is_known or not earlier.value:
        return absent(earlier.source or "paste", "the report shows no earlier state")
    before = {}
    for item in earlier.value:
        path, _, value = str(item).partition("=")
        before.setdefault(path, value)
    changed = []
    for path, value in before.items():
        now = _current(facts, path)
        if now.is_known and str(now.value) != value:
            changed.append(f"{path}: {value} -> {now.value}")
    if not changed:
        return absent(earlier.source or "paste", "nothing the report shows for both states differs")
    return known(changed, earlier.source or "paste")


@machine_fact(
    "kernel_since_earlier",
    "The kernel release of the working state a pasted report shows (symptoms.earlier: 'reverting to the "
    "previous kernel works', 'before the update') and the current one, as 'earlier -> now' when they differ; "
    "absent when the report shows no earlier kernel or the same one, unknown when the current one is not known.",
)
def kernel_since_earlier(facts: Facts, tables: Tables) -> Fact:
    earlier = facts.symptoms.earlier
    before = next((str(item).partition("=")[2] for item in (earlier.value or []) if str(item).startswith("host.kernel_release=")), None)
    if not earlier.is_known or before is None:
        return absent(earlier.source or "paste", "the report shows no kernel of an earlier state")
    now = facts.host.kernel_release
    if not now.is_known:
        return unknown(now.reason or "the current kernel release is not known")
    if str(now.value) == before:
        return absent(earlier.source or "paste", "the earlier state ran the same kernel")
    return known(f"{before} -> {now.value}", earlier.source or "paste")


@machine_fact(
    "error_names_igpu",
    "An error message names the gfx target of an integrated AMD GPU (symptoms.error_gfx) while a "
    "discrete AMD GPU of another target is present: the failing program ran on the iGPU. The value "
    "names it ('Radeon Graphics (gfx1036)'); absent when no error names an integrated GPU's target.",
)
def error_names_igpu(facts: Facts, tables: Tables) -> Fact:
    named = facts.symptoms.error_gfx
    if not named.is_known or not named.value:
        return absent(named.source or "paste", "no error message names a gfx target")
    agents = amd_agents(facts)
    discrete = {str(a.gfx.value) for a in agents if a.integrated.is_known and a.integrated.value is False and a.gfx.is_known}
    if not discrete:
        return absent("GPU discovery", "no discrete AMD GPU is known next to the one the error names")
    for agent in agents:
        if agent.integrated.is_known and agent.integrated.value and agent.gfx.is_known:
            gfx = str(agent.gfx.value)
            if gfx in named.value and gfx not in discrete:
                name = agent.name.value if agent.name.is_known else "the integrated GPU"
                return known(f"{name} ({gfx})", named.source or "paste")
    return absent(named.source or "paste", "the error names no integrated GPU's target")
