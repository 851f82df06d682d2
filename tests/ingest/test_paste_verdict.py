"""A verdict on a pasted report says what it rests on: asks, coverage, unexplained errors, nothing matched."""

from __future__ import annotations

import json

from ingest_helpers import ingest

from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.judge.report import CheckResult

RULES = load_rules([], use_env=False)


def _check(text: str) -> CheckResult:
    return evaluate(RULES, ingest(text).facts)


def test_a_rule_open_only_for_an_unshown_variable_becomes_an_ask_with_the_command() -> None:
    result = _check("OS: Ubuntu 22.04 (WSL2)\nROCm: 7.2.1\nGPU: RX 7900 XTX\n")
    asked = {a.id: a for a in result.asks}
    assert "RD352" in asked
    assert any(c.linux.startswith("env | grep") for c in asked["RD352"].collect)
    assert all(f.id != "RD352" for f in result.findings)


def test_asks_never_count_as_findings_and_need_supporting_facts() -> None:
    result = _check("Something went wrong, please help.\n")
    assert not result.asks and not [f for f in result.findings if f.severity == "error"]


def test_coverage_names_the_areas_shown_and_what_to_paste_for_the_others() -> None:
    result = _check("GPU: RX 6700 XT\nOS: Ubuntu 22.04\n")
    areas = {a.name: a for a in result.coverage}
    assert areas["GPU and gfx target"].shown and areas["platform"].shown
    assert not areas["PyTorch build"].shown and "collect_env" in areas["PyTorch build"].collect.linux
    assert not areas["permissions"].shown and areas["permissions"].collect.linux.startswith("id")


def test_a_live_machine_gets_no_asks_and_no_coverage(tmp_path) -> None:
    from rocm_doctor.facts.model import Facts

    live = Facts()
    result = evaluate(RULES, live)
    assert result.asks == [] and result.coverage == []


def test_a_recognised_error_no_rule_explains_is_a_finding_in_its_signatures_category() -> None:
    result = _check("torch.AcceleratorError: HIP error: device kernel image is invalid\n")
    unexplained = [f for f in result.findings if f.id == "RD599"]
    assert unexplained and unexplained[0].category == "gfx-unsupported"


def test_an_explained_signature_is_not_reported_twice() -> None:
    result = _check("ROCk module is loaded\nUnable to open /dev/kfd read-write: Permission denied\n")
    assert any(f.id == "RD516" for f in result.findings)
    assert not any(f.id == "RD599" for f in result.findings)


def test_check_from_never_prints_a_bare_green_tick(tmp_path, run_cli) -> None:
    paste = tmp_path / "report.md"
    paste.write_text("My training is slow, any ideas?\nOS: Ubuntu 22.04\n", encoding="utf-8")  # one area, no finding
    result = run_cli("check", "--from", str(paste))
    out = result.stdout
    assert result.exit_code == 0
    assert "No problems found" not in out
    assert "No known cause matches what the report shows" in out
    assert "https://github.com/ROCm/ROCm/issues" in out
    assert "1 of 7 areas" in out


def test_check_json_carries_asks_and_coverage(tmp_path, run_cli) -> None:
    paste = tmp_path / "report.md"
    paste.write_text("OS: Ubuntu 22.04 (WSL2)\nROCm: 7.2.1\nGPU: RX 7900 XTX\n", encoding="utf-8")
    document = json.loads(run_cli("check", "--from", str(paste), "--json").stdout)
    assert document["asks"] and document["coverage"]
    assert {a["name"] for a in document["coverage"]} >= {"GPU and gfx target", "environment"}


def test_an_env_fix_for_a_variable_a_dockerfile_sets_says_to_change_it_there() -> None:
    text = "GPU: RX 7900 XTX\n\n```dockerfile\nFROM rocm/pytorch:latest\nENV HSA_OVERRIDE_GFX_VERSION=10.3.0\n```\n"
    result = _check(text)
    remedies = [f.remedy for f in result.findings if f.remedy and any("HSA_OVERRIDE_GFX_VERSION" in s.env for g in f.remedy.groups for o in g.options for s in o.steps)]
    assert remedies
    texts = [o.text for r in remedies for g in r.groups for o in g.options]
    assert any("Dockerfile" in t and "block 2 line 5" in t and "change it there" in t for t in texts)
    shell_only = _check("GPU: RX 7900 XTX\n\n```\n$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ python train.py\n```\n")
    assert any(o.steps for f in shell_only.findings if f.remedy for g in f.remedy.groups for o in g.options)
    assert not any("change it there" in o.text for f in shell_only.findings if f.remedy for g in f.remedy.groups for o in g.options)
