"""Derived facts about what the target environment is set up to do (train or only run models).

Used to tell a Windows user who trains (and so meets the known Windows training failures,
ROCm/hip#3874, backward-pass hangs) from one who only runs inference, which
is what AMD documents PyTorch on Windows for (radeon-ryzen docs-7.1 limitations page).
"""

from __future__ import annotations

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import carry

TRAINING_PACKAGES = ("accelerate", "peft", "trl", "torchtune", "deepspeed", "lightning", "pytorch-lightning")
"""Distributions whose purpose is fine-tuning or training loops (their PyPI descriptions)."""


@machine_fact(
    "training_packages",
    "Training libraries installed in the target environment (accelerate, peft, trl, torchtune, "
    "deepspeed, lightning, pytorch-lightning from packages.installed), in that order; absent "
    "when none is installed.",
)
def training_packages(facts: Facts, tables: Tables) -> Fact:
    installed = facts.packages.installed
    if not installed.is_known:
        return carry(installed, "packages.installed")
    names = {name.lower().replace("_", "-") for name in (installed.value or {})}
    found = [name for name in TRAINING_PACKAGES if name in names]
    if not found:
        return absent(installed.source or "packages.installed", "no training library is installed")
    return known(found, installed.source or "packages.installed")
