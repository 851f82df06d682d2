"""Environment variables that change how ROCm, HIP and PyTorch behave.

An empty ``vars`` dict that is known means "none of them is set", which rules
may rely on.
"""

from __future__ import annotations

from typing import Dict, List, Mapping

from rocm_doctor.facts.common import os_kind
from rocm_doctor.facts.context import GatherContext
from rocm_doctor.facts.model import EnvFacts
from rocm_doctor.facts.value import absent, known

RELEVANT_PREFIXES = (
    "HSA_", "HIP_", "ROCR_", "ROCM_", "AMD_", "GPU_", "MIOPEN_", "PYTORCH_", "TORCH_",
    "PAL_", "NCCL_", "RCCL_", "ROCBLAS_", "HIPBLASLT_", "HIPBLAS_",
)
RELEVANT_NAMES = frozenset({
    "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "DISABLE_ADDMM_CUDA_LT", "DISABLE_ADDMM_HIP_LT",
    "HCC_AMDGPU_TARGET",
})
CONTEXT_NAMES = frozenset({
    "PATH", "Path", "KUBERNETES_SERVICE_HOST", "SINGULARITY_CONTAINER", "APPTAINER_CONTAINER",
    "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "VIRTUAL_ENV", "HOME", "USERPROFILE", "SystemRoot", "SYSTEMROOT", "SHELL",
})
"""Other variables the gatherers read; a recorded machine keeps these too."""


def is_relevant(name: str) -> bool:
    """True for a variable that belongs in ``env.vars``."""
    return name in RELEVANT_NAMES or name.startswith(RELEVANT_PREFIXES)


def is_recorded(name: str) -> bool:
    """True for a variable that ``facts --record`` keeps (everything else may be private)."""
    return is_relevant(name) or name in CONTEXT_NAMES


def path_variable(env: Mapping[str, str]) -> str:
    """``PATH`` (``Path`` on Windows)."""
    return env.get("PATH", env.get("Path", ""))


def rocm_path_entries(path_value: str, separator: str, hip_path: str = "") -> List[str]:
    """Entries of PATH that point into a ROCm or HIP SDK install."""
    entries: List[str] = []
    hip = hip_path.rstrip("\\/").lower()
    for entry in path_value.split(separator):
        lowered = entry.lower()
        if not entry or entry in entries:
            continue
        if "rocm" in lowered or (hip and lowered.startswith(hip)):
            entries.append(entry)
    return entries


def gather_env(ctx: GatherContext) -> EnvFacts:
    """The relevant variables and ROCm PATH entries."""
    env = ctx.system.environ()
    selected: Dict[str, str] = {k: env[k] for k in sorted(env) if is_relevant(k)}
    separator = ";" if os_kind(ctx.system) == "windows" else ":"
    entries = rocm_path_entries(path_variable(env), separator, env.get("HIP_PATH", ""))
    return EnvFacts(
        vars=known(selected, "env"),
        coverage=known([".*"], "env"),
        settings=absent("env", "a live machine's environment is read directly, not from settings in files"),
        rocm_path_entries=known(entries, "env:PATH"),
        session_programs=absent("env", "a live machine is read directly, not from a transcript of commands"),
    )
