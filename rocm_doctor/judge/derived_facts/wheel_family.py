"""Derived facts about a ROCm torch wheel that has no kernels for a GPU's whole override group.

A pytorch.org ROCm wheel carries code objects for a fixed list of gfx targets
(rules/data/torch_wheels.yaml). When neither the GPU's own target nor any target of its override
group (rules/data/gfx_overrides.yaml: the targets an HSA_OVERRIDE_GFX_VERSION could borrow) is in the
list, nothing in the environment can make the wheel run on that GPU: an unset override, a no-op one
or a cross-family one all leave it without kernels. So this holds where a pasted report does not
show the environment, which the per-GPU ``in_wheel`` rules need.

The wheel is the torch in use when the report shows it (``torch.version`` with its ``+rocmX.Y`` tag,
or the live arch list), else the one download.pytorch.org ROCm index the report installs torch from
(``symptoms.wheel_indexes``): every release published for that ROCm variant must lack the group.
Reports: AUTOMATIC1111/stable-diffusion-webui#6032, #7459 and #7638 (RX 7900 XTX with the rocm5.2
index, fixed by a rocm5.5 build: PR #11228), pytorch/pytorch#100625 (RX 7900 XTX waiting for a
wheel built with ROCm 5.5).
"""

from __future__ import annotations

from typing import List, Optional, Union

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact, machine_fact
from rocm_doctor.judge.derived_facts._support import carry, live_arch_list, pytorch_org_rocm, table_wheels, the_one_named
from rocm_doctor.judge.derived_facts.gpus import CPU_IMPLIED_SOURCE
from rocm_doctor.knowledge import overrides as ov
from rocm_doctor.knowledge.gpu_table import base_gfx
from rocm_doctor.knowledge.torch_wheels import TorchWheels

WHEEL_SOURCE = "rules/data/torch_wheels.yaml"
OVERRIDE_SOURCE = "rules/data/gfx_overrides.yaml"


@machine_fact(
    "wheel_index_rocm",
    "The ROCm variant of the one stable download.pytorch.org ROCm index the report installs torch from "
    "(.../whl/rocm5.2 -> 5.2; symptoms.wheel_indexes); unknown when it names several variants or a nightly "
    "or test index (their gfx lists follow the main branch, not a release); absent when it names none.",
)
def wheel_index_rocm(facts: Facts, tables: Tables) -> Fact:
    def variant_of(variant: str, source: str) -> Fact:
        if "/" in variant:
            return unknown(f"a {variant.split('/')[0]} index's wheels are built from the main branch, whose gfx list the table does not follow")
        return known(variant[len("rocm"):], source)

    return the_one_named(
        facts.symptoms.wheel_indexes, "symptoms.wheel_indexes", "the report names no download.pytorch.org ROCm index",
        lambda variants: f"the report names several ROCm wheel indexes ({', '.join(map(str, variants))}); which one the torch in use came from is not shown",
        lambda item, source: variant_of(str(item), source),
    )


def family_targets(gfx: str, tables: Tables) -> Optional[List[str]]:
    """The GPU's own target and the others of its override group; None when the group is not known."""
    table = ov.table(tables["gfx_overrides"])
    name = table.group_of(gfx)
    if name is None:
        return None
    members = next(g.members for g in table.groups if g.name == name)
    return [gfx] + [m for m in members if m != gfx]


def gpu_family(agent: GpuAgent, tables: Tables) -> Union[List[str], Fact]:
    """The targets of the GPU's override group (:func:`family_targets`), or the fact to return instead: unknown
    for a GPU inferred only from a CPU model or one in no group, the gfx's own status when it is not known."""
    if agent.source.startswith(CPU_IMPLIED_SOURCE):
        return unknown("this GPU is inferred only from the CPU model the report names, never judged on its own")
    if not agent.gfx.is_known:
        return carry(agent.gfx, f"gpu {agent.index} gfx")
    gfx = base_gfx(str(agent.gfx.value))
    family = family_targets(gfx, tables)
    if family is None:
        return unknown(f"{gfx} is in no override group of {OVERRIDE_SOURCE}")
    return family


def _none_in(wheels: TorchWheels, releases: List[str], rocm: Optional[str], family: List[str]) -> Optional[bool]:
    """True when no release of ``releases`` (with ROCm variant ``rocm``) has a target of ``family``;
    None when one of them cannot be told."""
    answers = [wheels.gfx_in_wheel(release, target, rocm) for release in releases for target in family]
    if any(answer is True for answer in answers):
        return False
    if any(answer is None for answer in answers):
        return None
    return True


def _from_torch(facts: Facts, tables: Tables, family: List[str]) -> Fact:
    """The answer for the torch the report shows."""
    live = live_arch_list(facts)
    if live is not None:
        names, source = live
        return known(not any(target in names for target in family), source)
    org = pytorch_org_rocm(facts, tables)
    if not org.is_known:
        return org
    if not org.value:
        flavour = facts.torch.flavour
        if flavour.is_known and flavour.value != "rocm":
            return absent("torch.flavour", f"torch is a {flavour.value} build, not ROCm")
        return unknown("the torch in use is not a pytorch.org ROCm wheel the table describes")
    rocm = str(facts.torch.rocm_version.value) if facts.torch.rocm_version.is_known else None
    answer = _none_in(table_wheels(tables), [str(facts.torch.version.value)], rocm, family)
    if answer is None:
        return unknown(f"{WHEEL_SOURCE} cannot say whether torch {facts.torch.version.value} has a target of {family[0]}'s group")
    return known(answer, f"{WHEEL_SOURCE}; {OVERRIDE_SOURCE}")


def _from_index(facts: Facts, tables: Tables, family: List[str]) -> Fact:
    """The answer for every release published on the one ROCm index the report names."""
    index = wheel_index_rocm(facts, tables)
    if not index.is_known:
        return index if index.status != "absent" else unknown("the report shows neither torch's version nor a ROCm wheel index")
    wheels = table_wheels(tables)
    releases = [rel.torch for rel in wheels.releases if wheels.is_variant(rel.torch, index.value)]
    if not releases:
        return unknown(f"{WHEEL_SOURCE} knows no release published for ROCm {index.value}")
    answer = _none_in(wheels, releases, str(index.value), family)
    if answer is None:
        return unknown(f"{WHEEL_SOURCE} cannot say whether the rocm{index.value} wheels have a target of {family[0]}'s group")
    return known(answer, f"{index.source}; {WHEEL_SOURCE}; {OVERRIDE_SOURCE}")


@gpu_fact(
    "wheel_lacks_gfx_group",
    "The ROCm torch wheel in use has kernels neither for the GPU's gfx nor for any target of its override "
    "group, so no HSA_OVERRIDE_GFX_VERSION can help (decided without the environment): the torch the report "
    "shows, else every release on the one stable download.pytorch.org ROCm index it installs from "
    "(derived.wheel_index_rocm). Unknown for a GPU inferred only from a CPU model; absent for a torch that is "
    "not a ROCm build.",
)
def wheel_lacks_gfx_group(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    family = gpu_family(agent, tables)
    if isinstance(family, Fact):
        return family
    shown = facts.torch.version
    if shown.is_known or live_arch_list(facts) is not None:
        return _from_torch(facts, tables, family)
    return _from_index(facts, tables, family)


@gpu_fact(
    "index_libraries_lack_gfx_group",
    "Where the report shows no torch version: every release on the one stable download.pytorch.org ROCm index it "
    "installs from (derived.wheel_index_rocm) has code objects for a target of the GPU's override group in some "
    "release, yet the math library of that ROCm (rocBLAS: rules/data/torch_wheels.yaml library_gaps) ships no "
    "kernels for any of them, so no wheel on the index runs a matrix multiply on the GPU (RDNA4 on rocm6.2.4). "
    "Absent when torch's version is shown (gpu.wheel_library_gap speaks) or when no release has the code objects "
    "(gpu.wheel_lacks_gfx_group speaks); unknown for a GPU inferred only from a CPU model (h35g).",
)
def index_libraries_lack_gfx_group(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    family = gpu_family(agent, tables)
    if isinstance(family, Fact):
        return family
    if facts.torch.version.is_known or live_arch_list(facts) is not None:
        return absent("torch.version", "the report shows the torch in use: gpu.wheel_library_gap speaks for it")
    index = wheel_index_rocm(facts, tables)
    if not index.is_known:
        return index
    wheels = table_wheels(tables)
    rocm = str(index.value)
    releases = [rel.torch for rel in wheels.releases if wheels.is_variant(rel.torch, rocm)]
    answers = [(target, wheels.gfx_in_wheel(release, target, rocm)) for release in releases for target in family]
    if not releases or any(answer is None for _, answer in answers):
        return unknown(f"{WHEEL_SOURCE} cannot say which targets of {family[0]}'s group the rocm{rocm} wheels have")
    with_code = [target for target, answer in answers if answer]
    if not with_code:
        return absent(WHEEL_SOURCE, f"no rocm{rocm} wheel has code objects for {family[0]}'s group: gpu.wheel_lacks_gfx_group speaks")
    return known(all(wheels.library_gap(target, rocm) is not None for target in with_code), f"{index.source}; {WHEEL_SOURCE} library_gaps")
