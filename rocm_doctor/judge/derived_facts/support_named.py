"""Whether the GPU a support request or a lack of support names is this GPU (symptoms.support_gpus).

"Please enable support for the RX 9070" (lmstudio-ai/lmstudio-bug-tracker#574), "rocBLAS lacks 780M gpu support"
(ROCm/rocBLAS#1536), "you dropped RDNA 2 support" (lmstudio-ai/lmstudio-bug-tracker#2116) speak of the reporter's
GPU; "I have an RX 7900 XTX. Note: RDNA 2 is not supported by the Windows wheels" or "please also add gfx1031"
beside a gfx1100 speak of another target or family. A finding about the request belongs to the GPU the sentence
names, by target or by family, and to no other GPU of the report.
"""

from __future__ import annotations

from typing import Iterable

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact
from rocm_doctor.judge.derived_facts._support import carry
from rocm_doctor.knowledge.gpu_table import base_gfx, family_of

UNKNOWN_NAME = "?"
"""Prefix the reader gives a name it could not read into a target or family (rocm_doctor.ingest.signatures)."""


def names_gfx(named: Iterable[str], gfx: str) -> "bool | None":
    """True when one of ``named`` (gfx targets, ``gfx110x`` target families, ``rdna2``-style architecture
    families) covers ``gfx``; None when none does and one is a name the GPU table could not read, or a family when
    the table gives none for ``gfx``; else False."""
    target = base_gfx(gfx).lower()
    family = (family_of(target) or "").lower()
    unreadable = False
    for name in named:
        name = str(name).lower()
        if name.startswith(UNKNOWN_NAME):
            unreadable = True
        elif name.startswith("gfx") and name.endswith("x"):
            if target.startswith(name[:-1]):
                return True
        elif name.startswith("gfx"):
            if base_gfx(name) == target:
                return True
        elif not family:
            # a family named ("rdna2") of a GPU whose family the table does not give: it may be one of it
            unreadable = True
        elif name == family:
            return True
    return None if unreadable else False


@gpu_fact(
    "named_in_support_sentence",
    "A sentence of the report that asks a program to support a GPU or says it lacks or dropped one "
    "(symptoms.support_gpus) names this GPU: its gfx target, a target family holding it (gfx110x) or its "
    "architecture family (rdna2; rules/data/gpus.yaml targets); false when it names only other targets or "
    "families, unknown when none matches and it names a GPU the table cannot read, or a family where the table "
    "gives none for this GPU's target.",
)
def named_in_support_sentence(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    named = facts.symptoms.support_gpus
    if not named.is_known:
        return carry(named, "symptoms.support_gpus")
    if not agent.gfx.is_known or not agent.gfx.value:
        return unknown(agent.gfx.reason or "the GPU's gfx target is not known")
    answer = names_gfx(named.value or [], str(agent.gfx.value))
    if answer is None:
        return unknown(f"the sentence names {', '.join(named.value or [])}: the GPU table cannot tell whether one of them is {agent.gfx.value}")
    return known(answer, named.source or "symptoms.support_gpus")
