"""Instinct accelerators named by their number alone ("MI355", "MI350", "MI325"), as their users write them
(rules/data/gpus.yaml codenames, gfx61): ROCm/TransferBench#194 ("GPU: MI355 single node"),
ROCm/rocprofiler-compute#829 ("I failed to run the tool on MI350"), ROCm/rocm-systems#9676 ("fails on MI355").
"MI300" alone stays without a target row's kind: the MI300X is discrete, the MI300A an APU."""

from __future__ import annotations

from typing import List, Tuple

import pytest
from ingest_helpers import ingest

from rocm_doctor.knowledge import gpu_table


def gpus(text: str) -> List[Tuple[str, object]]:
    agents = ingest(text + "\n").facts.gpus.agents
    return [(str(a.gfx.value) if a.gfx.is_known else "", a.integrated.value if a.integrated.is_known else None) for a in agents]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("### GPU\n\nMI355 single node", ("gfx950", False)),
        ("I failed to run the tool on MI350. I get the following error: `ERROR Cannot find a supported arch`", ("gfx950", False)),
        ("### GPU\n\nAMD Instinct MI355", ("gfx950", False)),
        ("GPU: MI325", ("gfx942", False)),
    ],
)
def test_an_instinct_number_without_its_suffix_names_its_gpu(text: str, expected: Tuple[str, bool]) -> None:
    assert gpus(text) == [expected]


def test_the_number_and_the_sold_name_agree() -> None:
    for short, full in (("MI350", "Instinct MI350X"), ("MI355", "Instinct MI355X"), ("MI325", "Instinct MI325X")):
        (model,) = gpu_table.models_for_codename(short)
        assert (model.gfx, model.integrated) == (gpu_table.model_for_name(full).gfx, gpu_table.model_for_name(full).integrated)


@pytest.mark.parametrize(
    "text",
    [
        # an image tag, a path: no device of this machine
        "docker pull rocm/pytorch-training:v25.6-mi355",
        "results are in benchmarks/mi355/results.csv",
        # another person's accelerator beside the reporter's card
        "My colleague's MI355 works fine, but on my RX 7900 XTX it fails.",
    ],
)
def test_an_instinct_number_in_a_name_or_someone_elses_machine_is_not_this_gpu(text: str) -> None:
    assert ("gfx950", False) not in gpus(text)


def test_mi300_alone_is_not_given_a_kind() -> None:
    # the MI300X is a discrete accelerator and the MI300A an APU: the number alone does not say which
    assert gpu_table.models_for_codename("MI300") == ()
