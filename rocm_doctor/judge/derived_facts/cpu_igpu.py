"""Derived facts about the processor's integrated GPU, from rules/data/cpus.yaml."""

from __future__ import annotations

import re

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.knowledge import cpus

SOURCE = "cpu.model + rules/data/cpus.yaml"


def _family(facts: Facts, tables: Tables):
    model = facts.cpu.model
    if not model.is_known:
        return None, (absent(model.source or "cpu", "the CPU model is absent") if model.status == "absent"
                      else unknown(model.reason or "the CPU model is not known"))
    row = cpus.cpu_family(str(model.value), tables["cpus"])
    if row is None:
        vendor = facts.cpu.vendor
        not_amd = (vendor.is_known and str(vendor.value) != "AuthenticAMD") or not _AMD_NAME.search(str(model.value))
        if not_amd:
            return None, absent(SOURCE, f"{model.value} is not an AMD processor")
        return None, unknown(f"{model.value!r} is not in rules/data/cpus.yaml")
    return row, None


_AMD_NAME = re.compile(r"\b(?:amd|ryzen|athlon|epyc|threadripper)\b", re.IGNORECASE)


@machine_fact(
    "cpu_igpu_gfx",
    "gfx target of the integrated GPU that the processor carries (rules/data/cpus.yaml: Ryzen 7000 "
    "desktop gfx1036, 5600G gfx90c, Ryzen AI Max gfx1151 ...); absent when the part has none "
    "(F models, 5700X); unknown for a processor the table does not know.",
)
def cpu_igpu_gfx(facts: Facts, tables: Tables) -> Fact:
    row, missing = _family(facts, tables)
    if row is None:
        return missing
    if row.igpu is None:
        return absent(SOURCE, f"{row.name} processors have no integrated GPU")
    if not row.verified:
        return unknown(f"the iGPU of {row.name} ({row.codename}) is an inference, not a verified fact")
    return known(row.igpu.gfx, SOURCE)


@machine_fact(
    "cpu_igpu_label",
    "The processor's integrated GPU as 'name (gfx, codename)' for messages; absent when it has none.",
)
def cpu_igpu_label(facts: Facts, tables: Tables) -> Fact:
    row, missing = _family(facts, tables)
    if row is None:
        return missing
    if row.igpu is None:
        return absent(SOURCE, f"{row.name} processors have no integrated GPU")
    return known(f"{row.igpu.name} ({row.igpu.gfx}, {row.codename})", SOURCE)
