"""Each recorded machine gets exactly the findings a ROCm expert would give.

The expected findings of ``tests/machines/<name>/`` are written down, with the reason for
each one, in ``tests/machines/<name>/findings.yaml``:

* ``findings``: every finding (errors, warnings and info) as ``{id, gpu, severity, why}``;
  ``why`` is the expert's explanation and names the fact (facts.md section, upstream issue)
  that makes the finding right for that machine.
* ``undecided_ok``: the rules that may stay undecided on that machine, ``{id, gpu, why}``
  (a fact they need cannot be read there). A rule that becomes undecided and is not listed
  fails the test, so a fact that regresses to unknown is noticed.

The test gathers the machine with ``RecordedSystem``, evaluates the shipped rules and compares
the set of ``(id, gpu, severity)`` with the golden exactly. After an intended rule change run
``pytest tests/test_machine_findings.py --update-golden``: it rewrites the id/gpu/severity
entries and keeps every existing ``why``; new entries get ``why: "TODO explain"`` and the test
fails until a person has explained them, so a golden is never accepted unexplained.

A few findings carry more than their id: the exact remedy (``HSA_OVERRIDE_GFX_VERSION=10.3.0``
on the RX 6700 XT), the override value named by the no-op finding, the category of the CUDA
wheel error. Those are pinned by the tests at the end of this file.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

import pytest
import yaml

from rocm_doctor.facts.context import GatherOptions
from rocm_doctor.facts.gather import gather
from rocm_doctor.facts.model import Facts
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.model.rules import Finding
from rocm_doctor.judge.report import CheckResult
from rocm_doctor.system.recorded import RecordedSystem

MACHINES = Path(__file__).parent / "machines"
NAMES = sorted(p.name for p in MACHINES.iterdir() if (p / "machine.yaml").is_file())
GOLDEN = "findings.yaml"
TODO = "TODO explain"
_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}

Key = Tuple[str, Optional[int], str]
"""(rule id, GPU index or None, severity) of one finding."""


@lru_cache(maxsize=None)
def facts_of(name: str) -> Facts:
    return gather(RecordedSystem(MACHINES / name), GatherOptions(use_amdsmi=False), origin="recorded")


@lru_cache(maxsize=None)
def judged(name: str) -> CheckResult:
    return evaluate(load_rules(use_env=False), facts_of(name))


def actual_keys(result: CheckResult) -> Set[Key]:
    return {(f.id, f.gpu, f.severity) for f in result.findings}


def actual_undecided(result: CheckResult) -> Set[Tuple[str, Optional[int]]]:
    return {(u.id, u.gpu) for u in result.undecided}


def read_golden(name: str) -> Dict[str, Any]:
    path = MACHINES / name / GOLDEN
    if not path.is_file():
        return {"findings": [], "undecided_ok": []}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {"findings": data.get("findings") or [], "undecided_ok": data.get("undecided_ok") or []}


def golden_keys(entries: List[Dict[str, Any]]) -> Dict[Key, str]:
    return {(e["id"], e.get("gpu"), e["severity"]): str(e.get("why") or TODO) for e in entries}


def _header(path: Path) -> str:
    """The leading comment block of an existing golden (kept on rewrite)."""
    if not path.is_file():
        return ""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return "\n".join(lines) + "\n" if lines else ""


def write_golden(name: str, result: CheckResult) -> None:
    """Rewrite id/gpu/severity (and the undecided list) from ``result``, keeping every ``why``."""
    path = MACHINES / name / GOLDEN
    old = read_golden(name)
    whys = golden_keys(old["findings"])
    undecided_whys = {(e["id"], e.get("gpu")): str(e.get("why") or TODO) for e in old["undecided_ok"]}
    keys = sorted(actual_keys(result), key=lambda k: (_SEVERITY_ORDER[k[2]], k[0], -1 if k[1] is None else k[1]))
    findings = [{"id": i, "gpu": g, "severity": s, "why": whys.get((i, g, s), TODO)} for i, g, s in keys]
    undecided = [
        {"id": i, "gpu": g, "why": undecided_whys.get((i, g), TODO)}
        for i, g in sorted(actual_undecided(result), key=lambda k: (k[0], -1 if k[1] is None else k[1]))
    ]
    body = yaml.safe_dump(
        {"findings": findings, "undecided_ok": undecided}, sort_keys=False, allow_unicode=True, width=100
    )
    path.write_text(_header(path) + body, encoding="utf-8")


def _describe(keys: Set[Key], whys: Dict[Key, str]) -> str:
    return "\n".join(f"  {i} gpu={g} {s}" + (f": {whys[(i, g, s)]}" if (i, g, s) in whys else "") for i, g, s in sorted(keys, key=str))


def test_every_recorded_machine_has_a_findings_golden() -> None:
    missing = [name for name in NAMES if not (MACHINES / name / GOLDEN).is_file()]
    assert not missing, f"no {GOLDEN} for {missing}; run pytest {__file__} --update-golden and explain each entry"


@pytest.mark.parametrize("name", NAMES)
def test_recorded_machine_gets_exactly_the_expert_findings(name: str, request: pytest.FixtureRequest) -> None:
    result = judged(name)
    if request.config.getoption("--update-golden"):
        write_golden(name, result)
    golden = read_golden(name)
    expected = golden_keys(golden["findings"])
    actual = actual_keys(result)
    unexpected, missing = actual - set(expected), set(expected) - actual
    assert not unexpected and not missing, (
        f"{name}: findings differ from {GOLDEN}\n"
        f"unexpected (fired, not in the golden):\n{_describe(unexpected, {})}\n"
        f"missing (in the golden, did not fire):\n{_describe(missing, expected)}"
    )
    unexplained = [key for key, why in expected.items() if why.strip() in ("", TODO)]
    assert not unexplained, f"{name}: explain these findings in {GOLDEN} (why): {sorted(unexplained, key=str)}"


@pytest.mark.parametrize("name", NAMES)
def test_recorded_machine_leaves_only_the_expected_rules_undecided(name: str) -> None:
    allowed = {(e["id"], e.get("gpu")): str(e.get("why") or TODO) for e in read_golden(name)["undecided_ok"]}
    surprising = actual_undecided(judged(name)) - set(allowed)
    assert not surprising, f"{name}: undecided but not in undecided_ok of {GOLDEN}: {sorted(surprising, key=str)}"
    unexplained = [key for key, why in allowed.items() if why.strip() in ("", TODO)]
    assert not unexplained, f"{name}: explain these undecided rules in {GOLDEN} (why): {sorted(unexplained, key=str)}"


def test_golden_entries_name_real_rules_and_severities() -> None:
    rules = {r.id: r for r in load_rules(use_env=False)}
    for name in NAMES:
        for entry in read_golden(name)["findings"]:
            assert entry["id"] in rules, f"{name}: {entry['id']} is not a rule"
            assert rules[entry["id"]].severity == entry["severity"], f"{name}: {entry['id']} severity"


def _finding(name: str, rule_id: str, gpu: Optional[int] = None) -> Finding:
    matches = [f for f in judged(name).findings if f.id == rule_id and f.gpu == gpu]
    assert matches, f"{name}: {rule_id} (gpu {gpu}) did not fire"
    return matches[0]


def test_the_cuda_wheel_machine_gets_torch_build_as_an_error() -> None:
    finding = _finding("linux-amd-cuda-wheel", "RD100")
    assert (finding.category, finding.severity) == ("torch-build", "error")


def test_the_rx_6700_xt_is_told_to_set_the_10_3_0_override() -> None:
    finding = _finding("ubuntu2204-6700xt", "RD201", gpu=0)
    assert finding.category == "gfx-unsupported"
    env_fixes = [fix for fix in finding.fixes if fix.kind == "env"]
    assert any(fix.set.get("HSA_OVERRIDE_GFX_VERSION") == "10.3.0" for fix in env_fixes)


@pytest.mark.parametrize(
    ("name", "gpus", "value", "gfx"),
    [("docker-2x7900xt-rocm62", [0, 1], "11.0.0", "gfx1100"), ("win11-strixhalo-preview", [0], "11.5.1", "gfx1151")],
)
def test_the_no_op_override_names_its_value_and_is_removed(name: str, gpus: List[int], value: str, gfx: str) -> None:
    for gpu in gpus:
        finding = _finding(name, "RD212", gpu=gpu)
        assert f"HSA_OVERRIDE_GFX_VERSION={value}" in finding.message and gfx in finding.message
        assert any("HSA_OVERRIDE_GFX_VERSION" in fix.unset for fix in finding.fixes)


def test_the_hipblaslt_finding_survives_prefer_hipblaslt_0_because_addmm_needs_its_own_switch() -> None:
    # TORCH_BLAS_PREFER_HIPBLASLT=0 is set on the Docker machine, but the 2.5-era addmm path
    # takes hipBLASLt regardless (facts.md E.1, Blas.cpp): the remedy adds DISABLE_ADDMM_CUDA_LT=1.
    assert facts_of("docker-2x7900xt-rocm62").env.vars.value["TORCH_BLAS_PREFER_HIPBLASLT"] == "0"
    finding = _finding("docker-2x7900xt-rocm62", "RD160", gpu=0)
    assert any(getattr(fix, "set", {}).get("DISABLE_ADDMM_CUDA_LT") == "1" for fix in finding.fixes)


def test_the_cpu_only_machine_has_no_amd_gpu_and_no_warning() -> None:
    facts = facts_of("cpu-only")
    assert not [a for a in facts.gpus.agents if a.vendor.is_known and a.vendor.value == "AMD"]
    assert not [f for f in judged("cpu-only").findings if f.severity in ("error", "warning")]
