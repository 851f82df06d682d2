"""Derived facts: the GPU against the gfx lists of libraries that build their own GPU code, per release.

flash-attn's ROCm (Composable Kernel) build and aiter's JIT compile their kernels for targets of a list
of their own and refuse any other, whatever torch and the system's ROCm support; which targets a list
has changed between releases (rules/data/own_gpu_code_targets.yaml). The report shows which list refused
the GPU by the message it printed (the signatures each list names in ``refused_by``); which release ran
is rarely shown, so the fact says which releases read list the GPU's target and which do not, instead
of naming one. Reports: ROCm/flash-attention#37 (gfx908), kyuz0/amd-strix-halo-vllm-toolboxes#73,
ROCm/aiter#1415, ROCm/aiter#1552 and gpustack/gpustack#3880 (gfx1151).
"""

from __future__ import annotations

from typing import Any, Dict, List

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact
from rocm_doctor.judge.derived_facts._support import carry
from rocm_doctor.judge.derived_facts.gpus import CPU_IMPLIED_SOURCE
from rocm_doctor.knowledge.gpu_table import base_gfx

TABLE = "own_gpu_code_targets"
SOURCE = "rules/data/own_gpu_code_targets.yaml"


def _shown_lists(shown: Fact, key: str, tables: Tables) -> List[Dict[str, Any]]:
    """The lists that name, under ``key``, an id the report shows (``shown``: signatures or contexts)."""
    ids = set(shown.value or []) if shown.is_known else set()
    rows: List[Dict[str, Any]] = (tables[TABLE] or {}).get("lists") or []
    return [row for row in rows if ids.intersection(row.get(key) or [])]


def _releases_for(row: Dict[str, Any], gfx: str) -> str:
    """What one list's releases (oldest first) say of ``gfx``: from which release on it is listed, or the
    releases that list it and the ones that do not, or that none does."""
    releases = row.get("releases") or []
    listed = [gfx in (r.get("targets") or []) for r in releases]
    names = [str(r["release"]) for r in releases]
    if not any(listed):
        return f"{row['program']}: no release read lists {gfx} ({'; '.join(names)})"
    first = listed.index(True)
    if all(listed[first:]):
        return f"{row['program']}: {gfx} is listed from {releases[first].get('from') or names[first]} on, not before"
    having = [n for n, ok in zip(names, listed) if ok]
    lacking = [n for n, ok in zip(names, listed) if not ok]
    return f"{row['program']}: {gfx} is listed only in {'; '.join(having)}, not in {'; '.join(lacking)}"


@gpu_fact(
    "own_code_lists_lack_gfx",
    "For each list of a library that builds its own GPU code (flash-attn's CK build, aiter's JIT and device "
    "table: rules/data/own_gpu_code_targets.yaml) whose refusal the report shows (symptoms.signatures), which "
    "of its releases list the GPU's gfx target and which do not, one sentence per list. Absent when the report "
    "shows no such refusal, or every release of those lists has the target (the refusal is not about this "
    "GPU); unknown for a GPU whose gfx is not known or that is inferred only from a CPU model.",
)
def own_code_lists_lack_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    if not facts.symptoms.signatures.is_known:
        return carry(facts.symptoms.signatures, "symptoms.signatures")
    lists = _shown_lists(facts.symptoms.signatures, "refused_by", tables)
    return _lacking(lists, agent, facts.symptoms.signatures.source or "symptoms.signatures",
                    "the report shows no library refusing a gfx target of its own list")


@gpu_fact(
    "own_code_build_failed_lacks_gfx",
    "The same sentence as gpu.own_code_lists_lack_gfx for the lists of programs whose failed build the report shows "
    "(symptoms.context: the ids of `build_failed_by` in rules/data/own_gpu_code_targets.yaml, flash-attn's pip "
    "build), which a build for a target the list lacks ends in when no list check stops it first (GPU_ARCHS "
    "'native'). Absent when no such build failed or every release lists the GPU's target; unknown for a GPU "
    "whose gfx is not known or that is inferred only from a CPU model.",
)
def own_code_build_failed_lacks_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    if not facts.symptoms.context.is_known:
        return carry(facts.symptoms.context, "symptoms.context")
    lists = _shown_lists(facts.symptoms.context, "build_failed_by", tables)
    return _lacking(lists, agent, facts.symptoms.context.source or "symptoms.context",
                    "the report shows no failed build of a library that builds its own GPU code")


def _lacking(lists: List[Dict[str, Any]], agent: GpuAgent, shown_source: str, none_reason: str) -> Fact:
    """What the releases of ``lists`` say of the GPU's target, or why nothing is said."""
    if not lists:
        return absent(SOURCE, none_reason)
    if agent.source.startswith(CPU_IMPLIED_SOURCE):
        return unknown("this GPU is inferred only from the CPU model the report names, never judged on its own")
    if not agent.gfx.is_known or not agent.gfx.value:
        return carry(agent.gfx, f"gpu {agent.index} gfx")
    gfx = base_gfx(str(agent.gfx.value))
    lacking = [row for row in lists if any(gfx not in (r.get("targets") or []) for r in row.get("releases") or [])]
    if not lacking:
        return absent(SOURCE, f"every release read of {', '.join(str(r['program']) for r in lists)} lists {gfx}")
    return known(". ".join(_releases_for(row, gfx) for row in lacking), f"{shown_source}; {SOURCE}")
