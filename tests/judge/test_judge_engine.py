"""The engine: per-GPU evaluation, evidence, ordering, undecided rules, interpolated fixes."""

from __future__ import annotations

from judge_helpers import FIXTURE_RULES, fact, two_gpu_overlay
from rocm_doctor.judge.cases import overlay
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_files
from rocm_doctor.ruledb import rule_database_info

RULES = load_files(FIXTURE_RULES, retired={})
WHEEL_WITHOUT_GFX1100 = {"torch": {"live": {"arch_list": fact(["gfx90a", "gfx942"])}}}


def _ids(result):
    return [(f.id, f.gpu) for f in result.findings]


def test_healthy_baseline_gives_no_findings(make_facts) -> None:
    result = evaluate(RULES, make_facts())
    assert result.findings == [] and result.undecided == []
    assert result.summary.model_dump() == {"error": 0, "warning": 0, "info": 0}


def test_for_each_gpu_gives_one_finding_per_affected_gpu(make_facts) -> None:
    facts = make_facts(overlay(two_gpu_overlay(), WHEEL_WITHOUT_GFX1100))
    result = evaluate(RULES, facts)
    per_gpu = [f for f in result.findings if f.id == "TST002"]
    assert [f.gpu for f in per_gpu] == [0, 1]
    assert per_gpu[1].message == "AMD Radeon RX 6700 XT (gfx1031) is not in the wheel's arch list: gfx90a, gfx942."
    assert per_gpu[1].fixes[0].set == {"HSA_OVERRIDE_GFX_VERSION_2": "11.0.0"}
    assert per_gpu[0].fixes[1].commands == ["export HSA_OVERRIDE_GFX_VERSION_1=11.0.0"]
    assert per_gpu[1].fixes[2].run_flags == ["--env=HIP_VISIBLE_DEVICES=1"]


def test_for_each_runs_over_every_agent_and_rules_filter_by_vendor(make_facts) -> None:
    change = overlay(two_gpu_overlay(), WHEEL_WITHOUT_GFX1100)
    change["gpus"]["agents"][1]["vendor"] = fact("NVIDIA")
    change["gpus"]["agents"][1]["vendor_id"] = fact("0x10de")
    result = evaluate(RULES, make_facts(change))
    assert [f.gpu for f in result.findings if f.id == "TST002"] == [0]


def test_evidence_names_each_fact_with_status_value_and_source(make_facts) -> None:
    result = evaluate(RULES, make_facts({"torch": {"flavour": fact("cuda", "torch/version.py")}}))
    (finding,) = result.findings
    assert [(e.path, e.status, e.value, e.source) for e in finding.evidence] == [
        ("derived.has_amd_gpu", "known", True, "GPU discovery (kfd)"),
        ("torch.flavour", "known", "cuda", "torch/version.py"),
    ]
    assert finding.title == "cuda build of PyTorch on an AMD machine"
    assert finding.fixes[0].index_url == "https://download.pytorch.org/whl/rocm7.2"


def test_unknown_facts_make_rules_undecided_not_silent(make_facts) -> None:
    unknown = {"status": "unknown", "reason": "--no-torch"}
    result = evaluate(RULES, make_facts({"torch": {"live": {"arch_list": unknown}}}))
    assert result.findings == []
    (undecided,) = result.undecided
    assert (undecided.id, undecided.gpu, undecided.missing) == (
        "TST002",
        0,
        ["torch.live.arch_list (unknown: --no-torch)"],
    )


def test_findings_are_sorted_by_severity_then_area_then_id_then_gpu(make_facts) -> None:
    change = overlay(two_gpu_overlay(), WHEEL_WITHOUT_GFX1100)
    change["torch"]["flavour"] = fact("cpu")
    change["env"] = {"vars": fact({"HSA_OVERRIDE_GFX_VERSION": "10.3.0"})}
    result = evaluate(RULES, make_facts(change))
    assert _ids(result) == [("TST001", None), ("TST002", 0), ("TST002", 1), ("TST003", None)]
    assert result.summary.model_dump() == {"error": 1, "warning": 2, "info": 1}
    assert [f.id for f in result.at_or_above("warning")] == ["TST001", "TST002", "TST002"]


def test_the_json_document_has_the_public_keys(make_facts) -> None:
    result = evaluate(RULES, make_facts({"torch": {"flavour": fact("cuda")}}))
    document = result.to_document()
    assert list(document) == ["schema", "tool_version", "rule_database", "facts", "findings", "undecided", "asks", "coverage", "summary", "crashes"]
    assert document["rule_database"]["version"].startswith("rules-")
    assert document["rule_database"]["checked"] == rule_database_info()["checked"]
    assert document["schema"] == "rocm-doctor/check/1"
    assert sorted(document["findings"][0]) == sorted(
        ["id", "name", "severity", "category", "action", "area", "title", "message", "evidence", "fixes", "references", "gpu",
         "remedy"]
    )
    assert document["facts"]["torch"]["flavour"]["value"] == "cuda"
