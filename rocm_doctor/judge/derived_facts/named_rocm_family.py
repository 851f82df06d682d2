"""Derived fact: the ROCm release a report names has nothing for the GPU.

Many reports name the GPU and the ROCm release in prose ("my 7900 XTX with ROCm 5.4", "Radeon VII,
ROCm 6.4") and show no torch version and no wheel index, so the per-wheel facts
(``gpu.wheel_lacks_gfx_group``) cannot speak. The ROCm release alone still decides two cases:

- every pytorch.org torch release published for that ROCm variant (same major.minor) was built for
  none of the targets of the GPU's override group, so whatever torch was built with that ROCm has no
  kernels for it and no override can lend any (RDNA3 on ROCm 5.4 and older: torch 1.13 and 2.0 were
  built for gfx900/906/908/90a/1030 only);
- the release's own math library ships no kernels for the GPU's target and the target has no documented
  override (rules/data/torch_wheels.yaml ``library_gaps``: rocBLAS from ROCm 6.4 has no gfx900/gfx906
  Tensile library). This one also holds for AMD's own torch in a rocm/pytorch image, built with the ROCm
  its tag names.

Reports: ROCm/legacy-rocm-build#1977 (RX 7900 XTX, ROCm 5.4.x: torch sees the GPU and segfaults),
ROCm/legacy-rocm-build#1973 (the ROCm 5.4.2/5.4.3 segfault it links), ROCm/hip#3229 (gfx1100 not in
ROCm 5.5's prebuilt TensorFlow; rebuilt for it), AUTOMATIC1111/stable-diffusion-webui#6032 and #7459
(RDNA3 with torch built with ROCm 5.2), iacopPBK/llama.cpp-gfx906#12 (MI50 on ROCm 7.1: rocBLAS has no
gfx906 Tensile library).
"""

from __future__ import annotations

from typing import List, Optional, Tuple, Union

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact
from rocm_doctor.judge.derived_facts._support import carry, table_wheels
from rocm_doctor.judge.derived_facts.pasted import documented_override
from rocm_doctor.judge.derived_facts.wheel_family import OVERRIDE_SOURCE, WHEEL_SOURCE, gpu_family
from rocm_doctor.knowledge._tables import parse_version, series
from rocm_doctor.knowledge.gpu_table import base_gfx
from rocm_doctor.knowledge.torch_wheels import TorchWheels


def _variants_of_release(wheels: TorchWheels, rocm_series: str) -> List[tuple]:
    """(torch release, ROCm variant) pairs whose variant is of the ROCm series ``rocm_series`` (5.4 -> 2.0/5.4.2)."""
    return [(rel.torch, variant) for rel in wheels.releases for variant in rel.rocm if series(variant) == rocm_series]


def _family_missing(wheels: TorchWheels, pairs: List[tuple], family: List[str]) -> Optional[bool]:
    """True when no pair's wheel has a target of ``family``; None when one cannot be told."""
    answers = [wheels.gfx_in_wheel(torch, target, variant) for torch, variant in pairs for target in family]
    if any(answer is True for answer in answers):
        return False
    if any(answer is None for answer in answers):
        return None
    return True


def _named_release(facts: Facts, agent: GpuAgent, tables: Tables) -> Union[Tuple[str, str, List[str], List[tuple], str], Fact]:
    """(gfx, ROCm series, the GPU's override group, the (torch, variant) pairs built with that series, source),
    or the fact to return instead when the ROCm release or the GPU's group cannot be judged."""
    rocm = facts.rocm.version
    if not rocm.is_known:
        return carry(rocm, "rocm.version")
    if parse_version(rocm.value) is None:
        return unknown(f"ROCm version {rocm.value!r} is not a version")
    family = gpu_family(agent, tables)
    if isinstance(family, Fact):
        return family
    rocm_series = series(rocm.value) or ""
    pairs = _variants_of_release(table_wheels(tables), rocm_series)
    return base_gfx(str(agent.gfx.value)), rocm_series, family, pairs, f"{rocm.source or 'rocm.version'}; {WHEEL_SOURCE}"


def _no_wheel_built_with(rocm_series: str) -> Fact:
    """Unknown: the wheel table has no pytorch.org torch release built with the named ROCm series, so none of the
    three named-release facts can be judged."""
    return unknown(f"no pytorch.org torch release was built with ROCm {rocm_series} ({WHEEL_SOURCE})")


def _amd_build_rocm(facts: Facts) -> Optional[str]:
    """The ROCm release an AMD-built torch (a rocm/pytorch image's, torch.distributor amd) was built with, if shown."""
    torch = facts.torch
    if torch.distributor.is_known and torch.distributor.value == "amd" and torch.rocm_version.is_known:
        return str(torch.rocm_version.value)
    return None


def _amd_build_library_gap(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    """For AMD's own torch build (a rocm/pytorch image): only the math library of the ROCm it was built with can
    be judged; the build's own gfx list is not in the table."""
    rocm = _amd_build_rocm(facts) or ""
    family = gpu_family(agent, tables)
    if isinstance(family, Fact):
        return family
    gfx = base_gfx(str(agent.gfx.value))
    library = table_wheels(tables).library_gap(gfx, rocm)
    if library and not documented_override(facts, agent, tables).is_known:
        return known(f"its {library} ships no {gfx} kernels", f"{facts.torch.rocm_version.source or 'torch.rocm_version'}; {WHEEL_SOURCE}")
    return unknown(f"the gfx list of AMD's torch built with ROCm {rocm} is not in {WHEEL_SOURCE}")


def _built_with(pairs: List[tuple]) -> str:
    releases = sorted({torch for torch, _ in pairs}, key=parse_version)
    variants = sorted({variant for _, variant in pairs}, key=parse_version)
    return f"torch {' and '.join(releases)}: rocm{', rocm'.join(variants)}"


@gpu_fact(
    "named_rocm_lacks_gfx",
    "What the ROCm release the report names (rocm.version) lacks for the GPU: 'the pytorch.org wheels built with "
    "it ... have no target of its family' when every pytorch.org release built with that ROCm (same major.minor) "
    "has no target of the GPU's override group, or 'its <library> ships no <gfx> kernels' when that ROCm's math "
    "library has none for the GPU's target and the target has no documented override (torch_wheels.yaml "
    "library_gaps). Absent when the release has them; unknown when the table cannot say (no pytorch.org wheel "
    "was built with that ROCm) or the GPU is inferred only from a CPU model. For AMD's own torch (a rocm/pytorch "
    "image: torch.distributor amd with torch.rocm_version) only the library gap at the ROCm it was built with is "
    "judged. Rules use it where the report shows no pytorch.org torch version and no wheel index.",
)
def named_rocm_lacks_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    if _amd_build_rocm(facts) is not None:
        return _amd_build_library_gap(facts, agent, tables)
    named = _named_release(facts, agent, tables)
    if isinstance(named, Fact):
        return named
    gfx, rocm_series, family, pairs, source = named
    wheels = table_wheels(tables)
    library = wheels.library_gap(gfx, str(facts.rocm.version.value))
    if library and not documented_override(facts, agent, tables).is_known:
        return known(f"its {library} ships no {gfx} kernels", source)
    if not pairs:
        return _no_wheel_built_with(rocm_series)
    missing = _family_missing(wheels, pairs, family)
    if missing is None:
        return unknown(f"{WHEEL_SOURCE} cannot say whether the wheels built with ROCm {rocm_series} have a target of {gfx}'s group")
    if not missing:
        return absent(source, f"wheels built with ROCm {rocm_series} have {gfx} or a target of its group")
    return known(f"the pytorch.org wheels built with it ({_built_with(pairs)}) have no target of {gfx}'s family", f"{source}; {OVERRIDE_SOURCE}")


@gpu_fact(
    "named_rocm_lacks_own_gfx",
    "The pytorch.org wheels built with the ROCm release the report names (same major.minor) have no kernels for "
    "the GPU's own gfx but do for another target of its override group, so the GPU runs them only through an "
    "override: 'the pytorch.org wheels built with it (torch X: rocmA.B) have no <gfx> kernels'. Absent when one "
    "of them has the GPU's gfx or none has a target of its group (named_rocm_lacks_gfx speaks then); unknown "
    "when the table cannot say or the GPU is inferred only from a CPU model.",
)
def named_rocm_lacks_own_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    named = _named_release(facts, agent, tables)
    if isinstance(named, Fact):
        return named
    gfx, rocm_series, family, pairs, source = named
    if not pairs:
        return _no_wheel_built_with(rocm_series)
    wheels = table_wheels(tables)
    own = _family_missing(wheels, pairs, [gfx])
    group = _family_missing(wheels, pairs, family)
    if own is None or group is None:
        return unknown(f"{WHEEL_SOURCE} cannot say whether the wheels built with ROCm {rocm_series} have {gfx} or its group")
    if not own:
        return absent(source, f"a wheel built with ROCm {rocm_series} has {gfx}")
    if group:
        return absent(source, f"the wheels built with ROCm {rocm_series} have no target of {gfx}'s group either (named_rocm_lacks_gfx)")
    return known(f"the pytorch.org wheels built with it ({_built_with(pairs)}) have no {gfx} kernels", f"{source}; {OVERRIDE_SOURCE}")


@gpu_fact(
    "named_rocm_has_own_gfx",
    "A pytorch.org torch release built with the ROCm release the report names (same major.minor) has kernels for "
    "the GPU's own gfx: 'the pytorch.org wheels built with it (torch X: rocmA.B) have <gfx> kernels', so that "
    "release's builds need no HSA_OVERRIDE_GFX_VERSION for it. Absent when none of them has the GPU's gfx; unknown "
    "when no pytorch.org release was built with that ROCm, the table cannot say, or the GPU is inferred only from a "
    "CPU model. Rules use it where the report shows no torch version (gpu.in_wheel speaks then).",
)
def named_rocm_has_own_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    named = _named_release(facts, agent, tables)
    if isinstance(named, Fact):
        return named
    gfx, rocm_series, _family, pairs, source = named
    if not pairs:
        return _no_wheel_built_with(rocm_series)
    wheels = table_wheels(tables)
    having = [(torch, variant) for torch, variant in pairs if wheels.gfx_in_wheel(torch, gfx, variant) is True]
    if having:
        return known(f"the pytorch.org wheels built with it ({_built_with(having)}) have {gfx} kernels", source)
    own = _family_missing(wheels, pairs, [gfx])
    if own is None:
        return unknown(f"{WHEEL_SOURCE} cannot say whether the wheels built with ROCm {rocm_series} have {gfx}")
    return absent(source, f"no wheel built with ROCm {rocm_series} has {gfx}")
