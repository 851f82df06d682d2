"""Derived facts: the GPU against the Windows HIP builds that llama.cpp-family programs ship.

llama.cpp's releases, koboldcpp-rocm and lemonade's llamacpp-rocm each compile their HIP backend for a
fixed list of gfx targets (rules/data/ggml_builds.yaml); on Windows no HSA_OVERRIDE_GFX_VERSION lends a
GPU another target, so a GPU outside the list of the program the report runs has no code there. Reports:
ggml-org/llama.cpp#11906 (gfx1103), YellowRoseCx/koboldcpp-rocm#116 (gfx1201),
lemonade-sdk/llamacpp-rocm#92 (gfx1035).
"""

from __future__ import annotations

from typing import Any, Dict, List

from rocm_doctor.facts.model import Facts, GpuAgent
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, gpu_fact
from rocm_doctor.judge.derived_facts._support import carry
from rocm_doctor.knowledge.gpu_table import base_gfx

TABLE = "ggml_builds"
SOURCE = "rules/data/ggml_builds.yaml"
GENERIC = "llama_cpp"
"""The program a report means when it names llama.cpp and none of the programs built on it."""
OWN_ENGINE_CONTEXTS = ("lm_studio_named", "ollama_named")
"""Programs that run llama.cpp through an engine of their own, with a target list not in the table."""


def _programs_named(contexts: List[str], rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The table's programs the report is about: the named ones built on llama.cpp, else llama.cpp itself."""
    wrappers = [row for row in rows if row.get("id") != GENERIC and row.get("context") in contexts]
    if wrappers:
        return wrappers
    return [row for row in rows if row.get("id") == GENERIC and row.get("context") in contexts]


@gpu_fact(
    "ggml_windows_build_lacks_gfx",
    "What the Windows HIP build of the llama.cpp-family program the report names lacks for the GPU: "
    "'<program>'s builds list <targets>, not <gfx>' (rules/data/ggml_builds.yaml, every release checked) when "
    "the GPU's target is in the list of none of the programs named (koboldcpp-rocm, lemonade's llamacpp-rocm, "
    "or else llama.cpp's own release); absent when one of them lists it or none is named; unknown when the "
    "report names a program with an engine of its own (LM Studio, ollama), when a later build of the program "
    "has the target (llama.cpp's ROCm 7.14 Windows builds: `later_windows`) and the report does not show "
    "which build runs, or when the GPU cannot be judged. "
    "Rules pair it with host.os windows.",
)
def ggml_windows_build_lacks_gfx(facts: Facts, agent: GpuAgent, tables: Tables) -> Fact:
    # a GPU inferred from the CPU model (the Radeon 780M of a Ryzen 7 8840U) is judged too: rules keep it
    # to a report with no discrete AMD GPU (gpu.integrated, derived.amd_discrete_count)
    if not agent.gfx.is_known:
        return carry(agent.gfx, f"gpu {agent.index} gfx")
    context = facts.symptoms.context
    if not context.is_known:
        return unknown("the report's context is not known")
    contexts = [str(c) for c in context.value or []]
    if any(c in contexts for c in OWN_ENGINE_CONTEXTS):
        return unknown("the report names a program that runs llama.cpp through an engine of its own")
    rows: List[Dict[str, Any]] = (tables[TABLE] or {}).get("programs") or []
    named = _programs_named(contexts, rows)
    if not named:
        return absent(SOURCE, "the report names no program of the table")
    gfx = base_gfx(str(agent.gfx.value))
    if any(gfx in (row.get("windows") or []) for row in named):
        return absent(SOURCE, f"a Windows build of the program named lists {gfx}")
    later = [row for row in named if gfx in (row.get("later_windows") or [])]
    shown = facts.symptoms.build_targets
    if later and not (shown.is_known and shown.value):
        # the report shows neither the archive it runs nor a build list, and a later build has the target
        return unknown(f"{later[0]['name']} lists no {gfx}, but {later[0].get('later_name') or 'its later builds'} do; the report does not show which build runs")
    said = "; ".join(f"{row['name']} lists {', '.join(row['windows'])}" for row in named)
    return known(f"{said}: not {gfx}", f"{context.source or 'symptoms.context'}; {SOURCE}")
