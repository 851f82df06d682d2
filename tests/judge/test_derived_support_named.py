"""Whether a support request's or lack's named GPU is this GPU (rocm_doctor/judge/derived_facts/support_named.py)."""

from __future__ import annotations

import json
from typing import Any, List, Optional

import pytest

from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.cases import overlay
from rocm_doctor.judge.derived import DerivedValues
from tests.judge._derived_helpers import BASELINE, K

FACT = "gpu.named_in_support_sentence"


def named_in_support_sentence(named: Optional[List[str]], gfx: str) -> Any:
    change: dict = {"gpus": {"agents": {0: {"gfx": K(gfx)}}}}
    if named is not None:
        change["symptoms"] = {"support_gpus": K(named)}
    facts = Facts.from_dict(overlay(json.loads(BASELINE.read_text()), change))
    return DerivedValues(facts).gpu(FACT, facts.gpus.agents[0])


@pytest.mark.parametrize(
    "named, gfx",
    [
        (["gfx1201"], "gfx1201"),
        (["gfx1030", "gfx1031", "gfx1032"], "gfx1031"),
        (["rdna2"], "gfx1030"),  # "you dropped RDNA 2 support" on an RX 6800
        (["gfx110x"], "gfx1101"),  # a TheRock target family
        (["gcn5"], "gfx906"),  # "Vega"
        (["?rx 7900", "gfx1100"], "gfx1100"),  # one name matches: the unread one does not matter
    ],
)
def test_a_sentence_naming_the_gpus_target_or_family_is_about_it(named: List[str], gfx: str) -> None:
    assert named_in_support_sentence(named, gfx).value is True


@pytest.mark.parametrize(
    "named, gfx",
    [
        (["rdna2"], "gfx1100"),  # "I have an RX 7900 XTX. Note: RDNA 2 is not supported by the Windows wheels"
        (["gfx1031"], "gfx1100"),  # another target asked for beside the reporter's own
        (["gfx120x"], "gfx1100"),
        (["rdna3"], "gfx1151"),  # Strix Halo is RDNA 3.5, a family of its own in rules/data/gpus.yaml
    ],
)
def test_a_sentence_naming_only_other_targets_or_families_is_not_about_the_gpu(named: List[str], gfx: str) -> None:
    fact = named_in_support_sentence(named, gfx)
    assert fact.status == "known" and fact.value is False


def test_a_name_the_gpu_table_cannot_read_leaves_it_unknown() -> None:
    assert named_in_support_sentence(["?rx 7900"], "gfx1100").status == "unknown"


def test_a_family_named_of_a_gpu_whose_family_the_table_lacks_is_unknown_not_false() -> None:
    assert named_in_support_sentence(["rdna2"], "gfx1013").status == "unknown"


def test_no_named_gpu_read_is_not_a_no() -> None:
    assert named_in_support_sentence(None, "gfx1100").status != "known"
