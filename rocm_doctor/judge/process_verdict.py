"""The one-word verdict ``ps`` gives a process that loaded torch or a GPU runtime.

* ``gpu``: it holds a compute context on an AMD GPU with memory or queues in it;
* ``cpu-only``: a GPU build of torch (or a HIP runtime) is loaded, the process is older than
  :data:`CONTEXT_GRACE_SECONDS`, and it holds no GPU context that it uses;
* ``no-gpu-build``: the torch it loaded is a CPU build, or a CUDA build on a machine with AMD GPUs;
* ``mixed-runtimes``: the HIP or HSA runtime comes from two installs (or two copies) in one process;
* ``unknown``: what decides it could not be read, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

from rocm_doctor.facts.processes import ProcessReading, runtime_mix

CONTEXT_GRACE_SECONDS = 60.0
"""torch creates its GPU context lazily, on the first use of a device; a process younger than
this may still be loading its model, so no context is not yet a CPU fallback."""

VERDICTS = ("gpu", "cpu-only", "no-gpu-build", "mixed-runtimes", "unknown")


@dataclass(frozen=True)
class Verdict:
    """A verdict and the reason for it (always set for ``unknown``)."""

    verdict: str
    reason: str


def runtime_installs(reading: ProcessReading) -> List[str]:
    """The distinct installs the HIP and HSA runtimes of a process come from (sorted); a runtime
    loaded twice from one folder counts once, from two folders twice."""
    return sorted({lib.install for lib in reading.of_kind("hip-runtime", "hsa-runtime")})


def judge_process(reading: ProcessReading, amd_gpus: Optional[bool]) -> Verdict:
    """The verdict of one reading. ``amd_gpus``: the machine has AMD GPUs (None: unknown)."""
    if reading.libraries is None:
        return Verdict("unknown", reading.libraries_problem or "its loaded libraries could not be read")
    mixed = runtime_mix(reading.libraries)
    if mixed:
        return Verdict("mixed-runtimes", "two ROCm installs: " + mixed)
    torch = reading.torch
    if torch is not None and torch.flavour == "cpu":
        return Verdict("no-gpu-build", f"torch at {torch.location} is a CPU build (no libtorch_hip or libtorch_cuda loaded)")
    if torch is not None and torch.flavour == "cuda":
        if amd_gpus:
            return Verdict("no-gpu-build", f"torch at {torch.location} is a CUDA build; it cannot use AMD GPUs")
        return Verdict("unknown", "a CUDA build of torch: rocm-doctor reads GPU contexts of AMD GPUs only")
    gpu_runtime = torch is not None or bool(reading.of_kind("hip-runtime", "hsa-runtime"))
    if not gpu_runtime:
        return Verdict("unknown", "no torch and no ROCm runtime loaded; only other GPU libraries")
    used = reading.uses_gpu
    if used is None:
        return Verdict("unknown", reading.gpu_problem or "whether it holds a GPU context could not be read")
    if used:
        return Verdict("gpu", "holds a GPU context")
    age = reading.entry.age_seconds
    if age is None:
        return Verdict("unknown", "no GPU context, and its age is unknown (it may not have needed one yet)")
    if age < CONTEXT_GRACE_SECONDS:
        return Verdict("unknown", f"no GPU context yet; started {age:.0f} s ago (torch makes one on first use)")
    what = "a ROCm build of torch" if torch is not None else "the HIP runtime"
    return Verdict("cpu-only", f"{what} is loaded but no GPU context after {age:.0f} s: it computes on the CPU")
