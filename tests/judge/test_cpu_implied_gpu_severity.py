"""A GPU inferred only from the CPU model a report names (a weak fact) never carries an error: the
device that ran may be another the report does not name. Per-GPU rules give it at most a warning; the
override-reach facts leave it out."""

from __future__ import annotations

from typing import List, Tuple

import pytest

from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.engine import judged_agents
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


def _findings(text: str) -> List[Tuple[str, str]]:
    return [(f.id, f.severity) for f in evaluate(load_rules([], use_env=False), ingest_text(text).facts).findings]


@pytest.mark.parametrize(
    "text",
    [
        "I have a laptop with a Ryzen 7 4800U. Running torch I get:\nRuntimeError: HIP error: invalid device function\n",
        "Ryzen 5 5600G\nhipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n",
    ],
)
def test_a_gpu_implied_by_the_cpu_model_alone_gets_no_override_error(text: str) -> None:
    found = _findings(text)
    assert ("RD504", "warning") in found  # gfx90c's documented override, as a hint
    assert ("RD504", "error") not in found


def test_a_gpu_shown_by_a_device_line_keeps_its_error() -> None:
    # the rocBLAS line names gfx90c: the GPU is shown, not inferred
    text = ("My CPU is an AMD Ryzen 5 5600G.\nrocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/"
            "TensileLibrary.dat: Illegal seek for GPU arch : gfx90c\n")
    assert ("RD504", "error") in _findings(text)


def test_a_global_override_is_not_said_to_break_an_igpu_implied_by_the_cpu_model() -> None:
    # an RX 6700 XT with the RDNA2 override, on a CPU whose iGPU (gfx90c) is only implied by its name
    text = ("My CPU is an AMD Ryzen 7 4800U and my GPU is an RX 6700 XT.\n"
            "export HSA_OVERRIDE_GFX_VERSION=10.3.0\nRuntimeError: HIP error: invalid device function\n")
    found = _findings(text)
    assert not [rule for rule, severity in found if severity == "error" and rule in ("RD702", "RD214")]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # an NVIDIA laptop's CPU torch: the Ryzen's iGPU is the only AMD GPU, and only implied
        ("Laptop: Ryzen 7 5800H with an RTX 3070. torch 2.5.1+cpu is installed and torch.cuda.is_available() "
         "returns False.\n", "RD101"),
        ("I run on a Ryzen 5 5600G. pip list shows torch 2.5.1+cpu. Everything works, just asking about speed.\n", "RD101"),
        ("Ryzen 7 7840U, torch==2.5.1+cu124\n", "RD100"),
    ],
)
def test_a_machine_rule_that_counts_only_a_cpu_implied_amd_gpu_gives_no_error(text: str, rule: str) -> None:
    found = _findings(text)
    assert not [severity for _, severity in found if severity == "error"]
    assert (rule, "warning") in found


def test_a_named_amd_gpu_or_rocm_keeps_the_torch_build_errors() -> None:
    assert ("RD101", "error") in _findings("I have an AMD Radeon RX 6800. torch 2.5.1+cpu\n")
    # the report speaks of ROCm itself: the CUDA torch is still one on an AMD machine
    assert ("RD528", "error") in _findings("Ryzen 7 7840U with ROCm 6.2, torch==2.5.1+cu124\n")


@pytest.mark.parametrize(
    "text",
    [
        "Ryzen 9 7950X, RTX 4090. ComfyUI runs slow.\n",  # the Raphael iGPU (gfx1036) is on no wheel's list
        "Laptop: Ryzen 7 5800H with an RX 6600M. torch 2.5.1+rocm6.2 works, training is slow.\n",  # gfx90c
    ],
)
def test_an_igpu_implied_by_the_cpu_model_is_not_judged_beside_a_gpu_the_report_names(text: str) -> None:
    facts = ingest_text(text).facts
    assert len(facts.gpus.agents) == 2  # both read: the weak fact stays, for ordering and for messages
    assert [agent.integrated.value for agent in judged_agents(facts)] == [False]
    assert not {"RD527", "RD152"} & {rule for rule, _ in _findings(text)}


def test_an_igpu_implied_by_the_cpu_model_alone_is_still_judged() -> None:
    facts = ingest_text("I have a laptop with a Ryzen 7 4800U.\nRuntimeError: HIP error: invalid device function\n").facts
    assert [agent.gfx.value for agent in judged_agents(facts)] == ["gfx90c"]
