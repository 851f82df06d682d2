"""Accuracy on real bug reports: ``check --from`` on every case of ../shared/corpus.

Each case is a public report whose root cause its thread established. The report
text is ingested, judged by the shipped rule database, and must produce an error
or warning finding of the category its ``root_cause_class`` maps to (issue 6);
``healthy_env`` cases must produce no error. Cases the text cannot honestly
decide are listed in KNOWN_GAPS with the reason (strict xfail: a gap that starts
passing must be moved out of the list).
"""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Optional, Set

import pytest
import yaml

from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.engine import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.judge.model import Finding

CORPUS = Path(__file__).parents[2].parent / "shared" / "corpus"

CATEGORY_OF_CLASS: Dict[str, Set[str]] = {
    "wrong_torch_build": {"torch-build"},
    "cuda_wheel_on_amd": {"torch-build"},
    "torch_rocm_mismatch": {"torch-rocm-mismatch"},
    "unsupported_gfx_needs_override": {"gfx-unsupported", "gfx-override"},
    "gfx_not_in_wheel": {"gfx-unsupported"},
    "permissions_render_group": {"permissions"},
    "igpu_selected": {"device-selection"},
    "windows_unsupported_training": {"platform"},
    "wsl_setup": {"platform"},
    "driver_too_old": {"driver"},
    "hipblaslt_unsupported": {"blas"},
    "env_var_misuse": {"env"},
}
"""Issue 6's mapping from root-cause class to finding category."""

CATEGORY_OF_OTHER: Dict[str, Set[str]] = {
    "hip-3805-rx580-windows-hipsdk-unsupported": {"gfx-unsupported"},
    "rocm-1214-rx580-xeon-x5650-pcie-atomics-rejected": {"driver", "platform"},
    "sdnext-3181-amdsmi-nameerror-nightly-torch": {"torch-build", "packages"},
}
"""Class ``other``: the category of the finding the thread's root cause describes."""

KNOWN_GAPS: Dict[str, str] = {
    "comfyui-16215-pytorch-org-nightly-vs-system-rocm10-r9700": (
        "the wheel's ROCm (7.13) and the system's (10) appear only in narrative prose ('compiled with ROCm 7.13 and "
        "conflicted with the system ROCm 10'), which the conservative prose reader does not turn into facts"
    ),
    "invokeai-3967-rx6600xt-fish-universal-override-not-exported": (
        "the cause (HSA_OVERRIDE_GFX_VERSION set with fish `set -U`, never exported) is not in the pasted text; the "
        "text shows only a script's output (torch 2.2.1+rocm5.7, an RX 6600 XT named in a free-form 'name = ' line)"
    ),
    "rocm-4055-wsl2-vllm-failed-infer-device-7900xt": (
        "the report shows a working WSL2 set-up (rocminfo lists gfx1100); the failure (vLLM's amdsmi-based device "
        "detection, 'Failed to infer device type') is only in the issue title"
    ),
    "rocm-5499-strix-halo-oem-kernel-lr-fix": (
        "the kernel (6.14.0-1013-oem, from the modinfo path) is read, but the GPU (Strix Halo, Radeon 8060S) is named "
        "only in the issue title, so derived.strix_halo_kernel_too_old stays unknown"
    ),
    "sdnext-3181-amdsmi-nameerror-nightly-torch": (
        "neither the NameError nor the nightly torch version is in the pasted text (the log was cut before them)"
    ),
}


def _cases() -> List[dict]:
    if not CORPUS.is_dir():
        return []
    return [yaml.safe_load(path.read_text(encoding="utf-8")) for path in sorted(CORPUS.glob("*.yaml"))]


CASES = _cases()


def _expected(case: dict) -> Optional[Set[str]]:
    """The categories that count as a hit; None for a healthy case."""
    klass = case["root_cause_class"]
    if klass == "healthy_env":
        return None
    if klass == "other":
        return CATEGORY_OF_OTHER[case["id"]]
    return CATEGORY_OF_CLASS[klass]


@pytest.fixture(scope="module")
def rules() -> list:
    return load_rules([], use_env=False)


def _findings(case: dict, rules: list) -> List[Finding]:
    return evaluate(rules, ingest_text(case["report"], origin_detail=case["id"]).facts).findings


def _hit(case: dict, findings: List[Finding]) -> bool:
    expected = _expected(case)
    if expected is None:
        return not any(f.severity == "error" for f in findings)
    return any(f.severity in ("error", "warning") and f.category in expected for f in findings)


def _params() -> list:
    if not CASES:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"corpus not found at {CORPUS} (../shared/corpus)"))]
    out = []
    for case in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[case["id"]])] if case["id"] in KNOWN_GAPS else []
        out.append(pytest.param(case, id=case["id"], marks=marks))
    return out


@pytest.mark.parametrize("case", _params())
def test_check_from_finds_the_root_cause_category(case: dict, rules: list) -> None:
    findings = _findings(case, rules)
    shown = [(f.id, f.severity, f.category) for f in findings if f.severity != "info"]
    expected = _expected(case)
    if expected is None:
        assert _hit(case, findings), f"healthy environment got an error finding: {shown}"
    else:
        assert _hit(case, findings), f"expected an error/warning of {sorted(expected)}, got {shown}"


def test_recall_and_false_positives_on_the_corpus(rules: list, capsys: pytest.CaptureFixture) -> None:
    if not CASES:
        pytest.skip(f"corpus not found at {CORPUS} (../shared/corpus)")
    problems = [c for c in CASES if _expected(c) is not None]
    healthy = [c for c in CASES if _expected(c) is None]
    hits = [c["id"] for c in problems if _hit(c, _findings(c, rules))]
    false_positives = [c["id"] for c in healthy if not _hit(c, _findings(c, rules))]
    with capsys.disabled():
        print(
            f"\ncorpus: recall {len(hits)}/{len(problems)} problem cases with the right category; "
            f"false positives {len(false_positives)}/{len(healthy)} healthy cases with an error; "
            f"known gaps {len(KNOWN_GAPS)}"
        )
    assert not false_positives
    assert len(hits) == len(problems) - len([g for g in KNOWN_GAPS if g in {c["id"] for c in problems}])


def test_every_known_gap_names_a_corpus_case() -> None:
    if not CASES:
        pytest.skip(f"corpus not found at {CORPUS} (../shared/corpus)")
    ids = {c["id"] for c in CASES}
    assert set(KNOWN_GAPS) <= ids
    assert set(CATEGORY_OF_OTHER) <= ids
