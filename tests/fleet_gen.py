"""Generated nodes and fleets: facts files of one node, ``check --json`` documents of many similar nodes.

Every node starts from the healthy baseline of the rule tests (Ubuntu 24.04, RX 7900 XTX,
ROCm 7.2, torch 2.13.0+rocm7.2) with the amdgpu 6.16.13 DKMS driver that ROCm 7.2 ships and
a quick benchmark whose figures vary by a few percent from node to node. Chosen nodes get an
older driver, another torch build, or a GPU with a fraction of its peers' bandwidth. Each
distinct stack is judged once with the shipped rules (the real ``check`` document); the
benchmark figures are then filled in per node. Used by ``tests/fleet/`` and
``benchmarks/fleet_scale.py``.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from rocm_doctor.bench.results import BenchRun, TestResult, bench_facts
from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.cases import load_baseline, overlay
from rocm_doctor.pipeline import evaluate
from rocm_doctor.model.rules import Rule

BASELINE = Path(__file__).parent / "rule_cases" / "baseline.json"
DRIVER, OLD_DRIVER = "6.16.13", "6.8.5"
TORCH, OTHER_TORCH = "2.13.0+rocm7.2", "2.12.0+rocm7.1"
FIGURES = {"d2d_gbs": 780.0, "h2d_pinned_gbs": 26.5, "d2h_pinned_gbs": 26.0, "fp16_tflops": 95.0, "bf16_tflops": 96.0}
"""Typical figures of the fleet's GPU; each node's are within a few percent of these."""
_MARKS = {key: 900000.0 + i for i, key in enumerate(FIGURES)}
"""Placeholder figure per key in the judged document, replaced per node (no real figure is this large)."""


def _known(value: object) -> dict:
    return {"status": "known", "value": value, "source": "fleet generator"}


def bench_run(figures: Dict[str, float], copy_status: str = "ok") -> BenchRun:
    """A quick benchmark run of an RX 7900 XTX with these figures (``copy_status="wrong"``: zeros came back)."""
    run = BenchRun(level="quick", device="cuda", python="/usr/bin/python3",
                   info={"name": "AMD Radeon RX 7900 XTX", "gcn_arch": "gfx1100"})
    bandwidth = {k: v for k, v in figures.items() if k.endswith("_gbs")}
    gemm = {k: v for k, v in figures.items() if k.endswith("_tflops")}
    copy = TestResult("copy_integrity", copy_status, metrics={"all_zeros": copy_status == "wrong"})
    if copy_status == "wrong":
        copy.step, copy.reason = "h2d_64MiB_pinned", "all bytes came back as zeros"
    for result in (TestResult("init", "ok", metrics={"first_gemm_seconds": 0.4}), copy,
                   TestResult("compute_integrity", "ok"), TestResult("bandwidth", "ok", metrics=bandwidth),
                   TestResult("gemm", "ok", metrics=gemm)):
        run.tests[result.name] = result
    return run


def node_facts(driver: str = DRIVER, torch: str = TORCH, bench: Optional[BenchRun] = None) -> Facts:
    """One node's facts: the baseline with this driver, torch build and benchmark."""
    rocm = torch.split("+rocm")[-1]
    minor = int(torch.split(".")[1])
    change = {
        "driver": {"amdgpu_version": _known(driver), "dkms_amdgpu": _known(f"amdgpu/{driver}, 6.8.0-85-generic, x86_64: installed")},
        "torch": {"version": _known(torch), "rocm_version": _known(rocm), "torchvision_version": _known(f"0.{minor + 15}.0+rocm{rocm}")},
        "meta": {"origin": "recorded", "origin_detail": "fleet generator"},
    }
    facts = Facts.from_dict(overlay(load_baseline(BASELINE), change))
    run = bench if bench is not None else bench_run(dict(_MARKS))
    return facts.model_copy(update={"bench": bench_facts(run)})


def healthy_facts_file(folder: Path) -> Path:
    """A healthy ROCm 7.2 node with a quick benchmark that passed (``health`` says ok)."""
    path = folder / "healthy.json"
    path.write_text(node_facts(bench=bench_run(dict(FIGURES))).to_json(), encoding="utf-8")
    return path


def zeros_facts_file(folder: Path) -> Path:
    """The same node, but host-to-device copies came back as zeros: an injected ``isolate`` fault (RD600)."""
    path = folder / "zeros.json"
    path.write_text(node_facts(bench=bench_run(dict(FIGURES), copy_status="wrong")).to_json(), encoding="utf-8")
    return path


@dataclass
class Fleet:
    """What was generated and which nodes are odd, by construction."""

    folder: Path
    names: List[str]
    old_driver: Set[str] = field(default_factory=set)
    other_torch: Set[str] = field(default_factory=set)
    slow: Dict[str, float] = field(default_factory=dict)
    """Node -> fraction of the typical bandwidth its GPU reaches."""


def write_fleet(
    folder: Path,
    count: int,
    rules: Sequence[Rule],
    old_driver: Sequence[int] = (),
    other_torch: Sequence[int] = (),
    slow: Optional[Dict[int, float]] = None,
    seed: int = 13,
    noise: float = 0.02,
) -> Fleet:
    """Write ``count`` node files ``gpuNNNNN.json`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    slow = slow or {}
    templates: Dict[Tuple[str, str], str] = {}
    fleet = Fleet(folder, [])
    for index in range(count):
        name = f"gpu{index:05d}"
        stack = (OLD_DRIVER if index in old_driver else DRIVER, OTHER_TORCH if index in other_torch else TORCH)
        if stack not in templates:
            templates[stack] = json.dumps(evaluate(rules, node_facts(*stack)).to_document())
        text = templates[stack]
        for key, typical in FIGURES.items():
            value = typical * rng.uniform(1 - noise, 1 + noise)
            if key.endswith("_gbs") and index in slow:
                value = typical * slow[index]
            text = text.replace(json.dumps(_MARKS[key]), json.dumps(round(value, 3)))
        (folder / f"{name}.json").write_text(text, encoding="utf-8")
        fleet.names.append(name)
        fleet.old_driver |= {name} if index in old_driver else set()
        fleet.other_torch |= {name} if index in other_torch else set()
        if index in slow:
            fleet.slow[name] = slow[index]
    return fleet
