"""The recorded machines get the torch / gfx / override / BLAS findings a ROCm expert would give.

Exactly these findings of rules RD100-RD299 (errors and warnings; info is listed separately):

* docker-2x7900xt-rocm62 (2x RX 7900 XT, torch 2.5.1+rocm6.2, HSA_OVERRIDE_GFX_VERSION=11.0.0):
  hipBLASLt is not enabled for gfx1100 with a ROCm 6.2 wheel (RD160, one per GPU) and the
  override is a no-op on a native gfx1100 (RD212, one per GPU). TORCH_BLAS_PREFER_HIPBLASLT=0 is
  set, but it does not cover the addmm path, so RD160 still fires.
* win11-strixhalo-preview (gfx1151, AMD preview wheel, HSA_OVERRIDE_GFX_VERSION=11.5.1): the
  11.5.1 override is a no-op (RD212) - the write-up's "required for Strix Halo" is wrong.
* ubuntu2204-6700xt (gfx1031, torch +rocm6.2, no override): set HSA_OVERRIDE_GFX_VERSION=10.3.0 (RD201).
* linux-amd-cuda-wheel (+cu124 on an AMD GPU): the CUDA build is an error (RD100).
* ubuntu-7900xtx-igpu-norender: the Raphael iGPU is not told to use an override (device-selection
  rules handle it); the RX 7900 XTX only gets the hipBLASLt/ROCm 6.2 warning.
* win11-9070xt-rocm72, cpu-only: no error or warning from these rules.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Set, Tuple

import pytest

from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.engine import evaluate
from rocm_doctor.judge.loader import load_rules
from tests.conftest import MACHINES


@lru_cache(maxsize=None)
def findings(machine: str) -> Tuple[Set[Tuple[str, object]], Set[str]]:
    """({(id, gpu)} of errors and warnings, {id} of info findings) from rules RD100-RD299."""
    facts = Facts.from_json((MACHINES / machine / "facts.json").read_text(encoding="utf-8"))
    rules = [r for r in load_rules(use_env=False) if 100 <= int(r.id[2:]) < 300]
    result = evaluate(rules, facts).findings
    loud = {(f.id, f.gpu) for f in result if f.severity in ("error", "warning")}
    return loud, {f.id for f in result if f.severity == "info"}


@pytest.mark.parametrize(
    ("machine", "expected"),
    [
        ("docker-2x7900xt-rocm62", {("RD160", 0), ("RD160", 1), ("RD212", 0), ("RD212", 1)}),
        ("win11-strixhalo-preview", {("RD212", 0)}),
        ("ubuntu2204-6700xt", {("RD201", 0)}),
        ("linux-amd-cuda-wheel", {("RD100", None)}),
        ("ubuntu-7900xtx-igpu-norender", {("RD160", 1)}),
        ("win11-9070xt-rocm72", set()),
        ("cpu-only", set()),
    ],
)
def test_recorded_machine_gets_exactly_the_expected_errors_and_warnings(machine: str, expected: set) -> None:
    if not (MACHINES / machine / "facts.json").is_file():
        pytest.skip(f"{machine}: no recorded facts.json")
    assert findings(machine)[0] == expected


def test_the_cuda_wheel_machine_gets_torch_build_as_an_error() -> None:
    rule = next(r for r in load_rules(use_env=False) if r.id == "RD100")
    assert (rule.category, rule.severity) == ("torch-build", "error")
    assert ("RD100", None) in findings("linux-amd-cuda-wheel")[0]
