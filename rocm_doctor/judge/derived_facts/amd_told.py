"""The weak fact that a pasted report is about an AMD machine although no GPU is named.

A report may never name its GPU and still say whose machine it is: the reporter writes "using amd on linux",
"Im on AMD", "amd user" (the context signature ``amd_user_told``, rules/data/signatures.yaml), or sets a
ROCm variable, one only ROCm software reads or one named for ROCm (``TORCH_BLAS_PREFER_HIPBLASLT=0 python main.py``,
``export HSA_OVERRIDE_GFX_VERSION=10.3.0``: the ``rocm_only`` rows of rules/data/env_vars.yaml). Such evidence may
tell what a CUDA or CPU build of torch means on this machine (RD968); it never names or counts a GPU, so
``derived.has_amd_gpu`` and ``derived.amd_context`` do not change with it.

Reports it rests on: Comfy-Org/ComfyUI#5122 ("using amd on linux", TORCH_BLAS_PREFER_HIPBLASLT=0 in front of
the command, a CUDA torch installed by another product's guide), Haoming02/sd-webui-forge-classic#308 ("Im on
AMD", a launcher's requirements replaced the ROCm torch), 152334H/tortoise-tts-fast#39 ("amd user", a
requirements file pulled NVIDIA packages), and the ROCm-only variables set beside a CUDA torch in
vladmandic/sdnext#1275 (``export HSA_OVERRIDE_GFX_VERSION=10.3.0``, the installer chose the CUDA torch) and
CS1o/Stable-Diffusion-Info#56 (``set TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL=1``, the web UI's default CUDA torch
still installed).
"""

from __future__ import annotations

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import ids_shown
from rocm_doctor.knowledge.env_vars import env_var_table

AMD_USER_TOLD = "amd_user_told"
"""The context signature of the reporter's words that the machine is AMD (rules/data/signatures.yaml)."""


def rocm_only_settings(facts: Facts, tables: Tables) -> list:
    """The report's settings (with a value) of ROCm variables (``rocm_only`` rows), as 'NAME=value (line)'.

    The table's :meth:`select` picks the names, as for the other env_vars.yaml columns; the settings are read
    rather than ``env.vars`` (:func:`with_env`): one proven to miss the program (another shell, a service it
    does not reach) still says whose machine it is, and each keeps the line it was read from."""
    settings = facts.env.settings
    if not settings.is_known:
        return []
    valued = [s for s in settings.value or [] if s.value is not None and str(s.value).strip("'\" ")]
    chosen = set(env_var_table(tables["env_vars"]).select({s.name: s.value for s in valued}, rocm_only=True))
    return [f"{s.name}={s.value} ({s.source})" for s in valued if s.name in chosen]


@machine_fact(
    "amd_gpu_told",
    "Weak evidence that the report's machine is an AMD one although no GPU is named: the reporter says so in "
    "words ('using amd on linux', 'Im on AMD', 'amd user': signature amd_user_told) or sets a variable only "
    "ROCm software reads or named for ROCm (rules/data/env_vars.yaml rocm_only: HSA_OVERRIDE_GFX_VERSION, ROCR_VISIBLE_DEVICES, "
    "TORCH_BLAS_PREFER_HIPBLASLT, MIOPEN_*); names the evidence. Never a GPU: has_amd_gpu and amd_context do "
    "not use it. Absent when the report shows neither.",
)
def amd_gpu_told(facts: Facts, tables: Tables) -> Fact:
    context = ids_shown(facts.symptoms.context)
    evidence = []
    if AMD_USER_TOLD in context:
        evidence.append(f"the reporter's words ({facts.symptoms.context.source or 'paste'})")
    evidence.extend(f"a ROCm-only variable set: {s}" for s in rocm_only_settings(facts, tables))
    if not evidence:
        return absent("paste", "the report neither says the machine is AMD nor sets a ROCm-only variable")
    return known("; ".join(evidence), evidence[0])
