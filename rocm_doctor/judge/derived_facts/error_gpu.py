"""Which GPU an error message is about: the gfx target a message names (symptoms.error_gfx).

ollama's "amdgpu is not supported ... gpu_type=gfx1103", rocBLAS's "... for GPU arch : gfx1036" and
hipBLASLt's "No paths matched ... gfx1036" each name the device the program judged or ran on; a
finding about that message belongs to that GPU, not to every GPU the report lists.
"""

from __future__ import annotations

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact, machine_fact
from rocm_doctor.judge.derived_facts._support import carry, list_fact
from rocm_doctor.knowledge.overrides import VARIABLE as OVERRIDE_VARIABLE
from rocm_doctor.knowledge.gpu_table import base_gfx


@gpu_fact(
    "gfx_named_in_error",
    "An error message of the report names this GPU's gfx target (symptoms.error_gfx: ollama's gpu_type=, "
    "rocBLAS's 'for GPU arch :'); unknown when the GPU's gfx is not known.",
)
def gfx_named_in_error(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    named = facts.symptoms.error_gfx
    if not named.is_known:
        return carry(named, "symptoms.error_gfx")
    if not agent.gfx.is_known or not agent.gfx.value:
        return unknown(agent.gfx.reason or "the GPU's gfx target is not known")
    targets = {base_gfx(str(g)) for g in named.value or []}
    return known(base_gfx(str(agent.gfx.value)) in targets, named.source or "symptoms.error_gfx")


@machine_fact(
    "override_value_written",
    "Every place the report writes a value for HSA_OVERRIDE_GFX_VERSION[_N] (an export, a unit's "
    "Environment=, docker -e, prose), as 'NAME=value (where)', whether or not it reached the program; "
    "absent when it writes none. A message that says the program ran without the override then means "
    "the setting did not reach it (RD920, RD523), not that nobody set it.",
)
def override_value_written(facts: Facts, tables: Tables) -> Fact:
    settings = facts.env.settings
    if not settings.is_known:
        return carry(settings, "env.settings")
    written = [
        f"{s.name}={s.value} ({s.where})"
        for s in settings.value or []
        if s.name.startswith(OVERRIDE_VARIABLE) and s.value
    ]
    return list_fact(written, settings.source or "env.settings", "the report writes no HSA_OVERRIDE_GFX_VERSION value")
