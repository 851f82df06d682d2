"""The recorded machines get the env / device / permissions / platform findings an expert would give.

* docker-2x7900xt-rocm62: HSA_XNACK=1 on two RDNA3 cards (RD406), two GPUs without
  iommu=pt (RD330); with torch 2.5.1+rocm6.2 and PYTORCH_HIP_ALLOC_CONF=expandable_segments:True
  also the ignored-expandable_segments warning (RD403).
* win11-strixhalo-preview: HIP_DISABLE_IPC=1 is a myth (RD400); with the AMD preview ROCm torch
  also the Windows training limits (RD340).
* ubuntu-7900xtx-igpu-norender: the Raphael iGPU is device 0 (RD320) and the user is not in
  render/video (RD300).
* cpu-only: none of these rules fires (no AMD GPU, so no container/kfd complaint).
Expectations that need the target interpreter's torch facts are checked only when those
facts were recorded.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Set

import pytest

from rocm_doctor.facts.gather import gather
from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.engine import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.system.recorded import RecordedSystem
from tests.conftest import MACHINES

MINE = ("RD3", "RD4")


@lru_cache(maxsize=None)
def facts_of(machine: str) -> Facts:
    return gather(RecordedSystem(MACHINES / machine), origin="recorded")


def fired(machine: str) -> Set[str]:
    rules = [r for r in load_rules(use_env=False) if r.id.startswith(MINE)]
    return {f.id for f in evaluate(rules, facts_of(machine)).findings}


@pytest.mark.parametrize(
    ("machine", "expected"),
    [
        ("docker-2x7900xt-rocm62", {"RD406", "RD330"}),
        ("win11-strixhalo-preview", {"RD400"}),
        ("ubuntu-7900xtx-igpu-norender", {"RD300", "RD320"}),
    ],
)
def test_machine_gets_env_device_and_permission_findings(machine: str, expected: Set[str]) -> None:
    assert expected <= fired(machine)


@pytest.mark.parametrize(
    ("machine", "expected"),
    [("docker-2x7900xt-rocm62", {"RD403"}), ("win11-strixhalo-preview", {"RD340", "RD403"})],
)
def test_machine_gets_torch_dependent_findings(machine: str, expected: Set[str]) -> None:
    if not facts_of(machine).torch.flavour.is_known:
        pytest.skip(f"{machine}: the target interpreter's torch facts are not recorded yet")
    assert expected <= fired(machine)


def test_cpu_only_machine_gets_none_of_these_findings() -> None:
    assert fired("cpu-only") == set()
