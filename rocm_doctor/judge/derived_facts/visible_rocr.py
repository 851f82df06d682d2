"""ROCR_VISIBLE_DEVICES and HIP_/CUDA_VISIBLE_DEVICES that mask twice: HIP's list names a device
past the end of what ROCr left.

ROCr filters the devices first and renumbers what it leaves from 0; HIP_VISIBLE_DEVICES (or
CUDA_VISIBLE_DEVICES) then indexes into that shorter list (ROCm/clr ``rocdevice.cpp``; PyTorch's
``torch/cuda/__init__.py`` ``_parse_visible_devices`` raises "HIP_VISIBLE_DEVICES contains more
devices than ROCR_VISIBLE_DEVICES"). Writing the same physical index into both, e.g.
ROCR_VISIBLE_DEVICES=1 and HIP_VISIBLE_DEVICES=1, therefore asks for device 1 of a one-device
list: no GPU is left. A launcher that sets one variable over another's does the same (Ray on AMD
nodes sets ROCR_VISIBLE_DEVICES next to the HIP/CUDA list: "invalid device ordinal",
vllm-project/vllm#33308). This needs only the environment, not the GPU list.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts.env import with_each_env
from rocm_doctor.numbers import is_index


def _indices(value: str) -> Optional[List[int]]:
    tokens = [t.strip() for t in value.split(",") if t.strip()]
    if not tokens or not all(is_index(t) for t in tokens):
        return None
    return [int(t) for t in tokens]


def double_filtered(env: Dict[str, str]) -> Optional[str]:
    """'HIP_VISIBLE_DEVICES=1' when the list HIP reads names a position past the end of ROCr's list
    (more devices than ROCr left, or an index at or past their count); None otherwise."""
    rocr = _indices(env.get("ROCR_VISIBLE_DEVICES", ""))
    if rocr is None:
        return None
    for name in ("HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"):
        if name not in env:
            continue
        hip = _indices(env[name])
        if hip is not None and (max(hip) >= len(rocr) or len(hip) > len(rocr)):
            return f"{name}={env[name].strip()}"
        return None  # HIP wins over CUDA; only the variable HIP reads matters
    return None


@machine_fact(
    "visible_devices_repeat_rocr",
    "HIP_VISIBLE_DEVICES (or CUDA_VISIBLE_DEVICES when HIP's is unset) names a device past the end of "
    "what ROCR_VISIBLE_DEVICES left, since HIP indexes into ROCr's list renumbered from 0 (the same "
    "physical index written into both, or a launcher masking twice): 'HIP_VISIBLE_DEVICES=1'; absent otherwise.",
)
def visible_devices_repeat_rocr(facts: Facts, tables: Tables) -> Fact:
    def compute(env: Dict[str, str]) -> Fact:
        found = double_filtered(env)
        if found is None:
            return absent("env", "the visibility variables name no device past what ROCR_VISIBLE_DEVICES left")
        return known(found, "env")

    return with_each_env(facts, compute)
