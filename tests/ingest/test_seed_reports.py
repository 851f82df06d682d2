"""The seed write-ups, pasted as their authors would paste them, get the findings their claims deserve.

``../shared/seeds`` holds the user write-ups this project grew from; several of their beliefs are
wrong (the doctor must say so). Each paste is the write-up followed by what its author would add
about the machine, in their platform's syntax (``seed_pastes/``, see its README). Seed 000 has no
machine facts at all: it must not end in a clean bill of health.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Set, Tuple

import pytest
from ingest_helpers import ingest

from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.judge.report import CheckResult

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
PASTES = Path(__file__).resolve().parent / "seed_pastes"


def _check(number: str) -> CheckResult:
    found = sorted(SEEDS.glob(f"{number}_*.txt"))
    if not found:
        pytest.skip(f"seed {number} not found under {SEEDS}")
    text = found[0].read_text(encoding="utf-8")
    extra = PASTES / f"seed_{number}.txt"
    if extra.exists():
        text += "\n" + extra.read_text(encoding="utf-8")
    return evaluate(load_rules([], use_env=False), ingest(text).facts)


def _serious(result: CheckResult) -> Set[Tuple[str, str]]:
    return {(f.id, f.category) for f in result.findings if f.severity in ("error", "warning")}


@pytest.mark.parametrize(
    "seed, wanted",
    [
        # Windows Strix Halo, AMD's 6.4 preview wheel: the known host-to-device crash and the Windows limits.
        ("001", [("RD347", "platform"), ("RD530", "platform")]),
        # Docker, 2x RX 7900 XT, torch 2.5.1 from rocm6.2: hipBLASLt, a no-op override, XNACK on RDNA3,
        # a variable nothing reads.
        ("002", [("RD160", "blas"), ("RD212", "env"), ("RD406", "env"), ("RD401", "env")]),
        # Windows RX 9070 XT training hang: the Windows limits, and HSA_ENABLE_SDMA=0 that cannot matter there.
        ("003", [("RD530", "platform"), ("RD539", "env")]),
        # Windows Strix Halo LoRA: HIP_DISABLE_IPC is a myth, 11.5.1 is the GPU's own target, the
        # expandable_segments warning is an old build's, and the Windows limits.
        ("004", [("RD400", "env"), ("RD212", "env"), ("RD538", "env"), ("RD530", "platform")]),
    ],
)
def test_each_seed_gets_the_findings_its_claims_deserve(seed: str, wanted: List[Tuple[str, str]]) -> None:
    got = _serious(_check(seed))
    missing = [w for w in wanted if w not in got]
    assert not missing, f"missing {missing}; got {sorted(got)}"


def test_no_seed_gets_an_error_for_a_belief_it_only_mentions() -> None:
    for seed in ("001", "002", "003", "004"):
        errors = [f.id for f in _check(seed).findings if f.severity == "error"]
        assert not errors, (seed, errors)


def test_a_write_up_without_machine_facts_gets_no_clean_bill_of_health() -> None:
    result = _check("000")
    assert not [a for a in result.coverage if a.shown]
    assert all(a.collect is not None for a in result.coverage if a.name != "permissions")
