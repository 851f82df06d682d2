"""``check``, ``explain`` and ``rules`` through the real entry point: output and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge_helpers import FIXTURES, fact, write_facts
from rocm_doctor.judge import loader
from rocm_doctor.ruledb import rule_database_info

RULES = str(FIXTURES / "engine_rules.yaml")
NO_GPU = {
    "gpus": {
        "discovery": {"status": "absent", "source": "gpu discovery"},
        "attempts": [
            {"layer": "kfd", "status": "absent", "detail": "/sys/class/kfd missing"},
            {"layer": "pci", "status": "empty", "detail": "no AMD display controller"},
        ],
        "agents": [],
    }
}


@pytest.fixture(autouse=True)
def only_fixture_rules(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped database is tested elsewhere; here only the fixture rules count."""
    empty = tmp_path_factory.mktemp("no-shipped-rules")
    monkeypatch.setattr(loader, "rules_dir", lambda: empty)


def _check(run_cli, tmp_path: Path, make_facts, change=None, *args: str):
    path = write_facts(tmp_path, make_facts(change or {}))
    return run_cli("check", "--facts", str(path), "--rules", RULES, *args)


def test_healthy_machine_exits_0_with_a_plain_summary(run_cli, tmp_path, make_facts) -> None:
    result = _check(run_cli, tmp_path, make_facts)
    assert result.exit_code == 0
    assert "✓ No problems found (3 rules checked)." in result.stdout


def test_an_error_finding_exits_1_and_prints_message_evidence_fix_and_reference(run_cli, tmp_path, make_facts) -> None:
    result = _check(run_cli, tmp_path, make_facts, {"torch": {"flavour": fact("cuda", "torch/version.py")}})
    assert result.exit_code == 1
    out = result.stdout
    assert "pytorch\n  ✗ cuda build of PyTorch on an AMD machine  TST001" in out
    assert "PyTorch 2.13.0+rocm7.2 is a cuda build." in out
    evidence = [line for line in out.splitlines() if line.strip().startswith("evidence:")]
    assert len(evidence) == 1 and "torch.flavour=cuda" in evidence[0]  # one line by default; -v shows each with its source
    verbose = _check(run_cli, tmp_path, make_facts, {"torch": {"flavour": fact("cuda", "torch/version.py")}}, "-v")
    assert "evidence: torch.flavour = cuda  (from torch/version.py)" in verbose.stdout
    assert "fix: Install the ROCm build for ROCm 7.2.0." in out
    # the exact commands the chooser decided, never an internal intent name
    assert "-m pip install --index-url https://download.pytorch.org/whl/rocm" in out
    assert "install-rocm-torch" not in out
    assert "see: https://example.invalid/TST001" in out
    assert out.rstrip().endswith("✗ 1 error (3 rules checked).")


@pytest.mark.parametrize(
    ("fail_on", "expected"), [(None, 0), ("error", 0), ("warning", 1), ("info", 1)]
)
def test_fail_on_sets_the_threshold(run_cli, tmp_path, make_facts, fail_on, expected) -> None:
    wheel = {"torch": {"live": {"arch_list": fact(["gfx90a"])}}}  # TST002: a warning
    args = ("--fail-on", fail_on) if fail_on else ()
    assert _check(run_cli, tmp_path, make_facts, wheel, *args).exit_code == expected


def test_info_findings_count_only_with_fail_on_info(run_cli, tmp_path, make_facts) -> None:
    override = {"env": {"vars": fact({"HSA_OVERRIDE_GFX_VERSION": "11.0.0"})}}
    assert _check(run_cli, tmp_path, make_facts, override, "--fail-on", "warning").exit_code == 0
    assert _check(run_cli, tmp_path, make_facts, override, "--fail-on", "info").exit_code == 1


def test_info_findings_and_undecided_rules_show_only_with_verbose(run_cli, tmp_path, make_facts) -> None:
    change = {
        "env": {"vars": fact({"HSA_OVERRIDE_GFX_VERSION": "11.0.0"})},
        "torch": {"live": {"arch_list": {"status": "unknown", "reason": "--no-torch"}}},
    }
    quiet = _check(run_cli, tmp_path, make_facts, change)
    assert "HSA_OVERRIDE_GFX_VERSION is set" not in quiet.stdout
    assert "1 info (shown with -v)" in quiet.stdout and "1 undecided (-v lists them)" in quiet.stdout
    loud = _check(run_cli, tmp_path, make_facts, change, "-v")
    assert "• HSA_OVERRIDE_GFX_VERSION is set  TST003 (preview)" in loud.stdout
    assert "? TST002 gfx-not-in-wheel-test [GPU 0 (AMD Radeon RX 7900 XTX, gfx1100)]: " \
           "torch.live.arch_list (unknown: --no-torch)" in loud.stdout


def test_json_output_is_the_versioned_document(run_cli, tmp_path, make_facts) -> None:
    result = _check(run_cli, tmp_path, make_facts, {"torch": {"flavour": fact("cuda")}}, "--json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["schema"] == "rocm-doctor/check/1"
    assert document["rule_database"] == {
        k: rule_database_info()[k] for k in ("version", "checked", "release", "released", "origin")
    }
    assert document["summary"] == {"error": 1, "warning": 0, "info": 0}
    assert set(document["findings"][0]) == {
        "id", "name", "severity", "category", "action", "area", "title", "message", "evidence", "fixes", "references", "gpu",
        "remedy",
    }


def test_no_amd_gpu_is_said_plainly_with_the_layers_tried(run_cli, tmp_path, make_facts) -> None:
    result = _check(run_cli, tmp_path, make_facts, NO_GPU)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1] == "No AMD GPU was found on this machine."  # under the version header
    assert "Looked in: kfd (absent: /sys/class/kfd missing); pci (empty: no AMD display controller)." in result.stdout


def test_a_bad_rule_file_is_one_line_and_exit_2(run_cli, tmp_path, make_facts) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(Path(RULES).read_text().replace("kind: pip", "kind: pipx"), encoding="utf-8")
    result = _check(run_cli, tmp_path, make_facts, None, "--rules", str(bad))
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    # The rest of the line is pydantic's wording; the kinds it offers are ours.
    assert line.startswith(f"error: {bad}:16: rule TST001: field 'fixes[0].kind': "), line
    assert all(kind in line for kind in ("env", "pip", "docker", "code", "manual")), line


def test_a_bad_facts_file_is_exit_2(run_cli, tmp_path) -> None:
    path = tmp_path / "facts.json"
    path.write_text("{not json", encoding="utf-8")
    result = run_cli("check", "--facts", str(path))
    assert result.exit_code == 2 and "Traceback" not in result.stderr


def test_explain_prints_the_full_rule(run_cli) -> None:
    result = run_cli("explain", "TST002", "--rules", RULES)
    assert result.exit_code == 0
    out = result.stdout
    for expected in ("TST002 gfx-not-in-wheel-test", "What it checks", "all of:", "gpu.is_amd eq true",
                     "Why it matters", "Fixes", "set HSA_OVERRIDE_GFX_VERSION_<KFD node>=11.0.0",
                     "References", "https://example.invalid/TST002", "since: 0.1.0", "one finding per GPU"):
        assert expected in out, expected
    assert run_cli("explain", "override-set-test", "--rules", RULES).exit_code == 0


def test_explain_unknown_rule_is_exit_2(run_cli) -> None:
    result = run_cli("explain", "RD999", "--rules", RULES)
    assert result.exit_code == 2 and "no rule RD999" in result.stderr


def test_rules_list_table_and_json(run_cli) -> None:
    table = run_cli("rules", "list", "--rules", RULES)
    assert table.exit_code == 0 and "TST002" in table.stdout and "3 rules" in table.stdout
    database = rule_database_info()
    assert (
        f"rule database {database['version']} (release {database['release']}, shipped), "
        f"data tables checked {database['checked']}"
    ) in table.stdout
    document = json.loads(run_cli("rules", "list", "--json", "--rules", RULES).stdout)
    assert document["rule_database"]["version"] == database["version"]
    assert document["rule_database"]["checked"] == database["checked"]
    assert document["rule_database"]["tables"]["torch_wheels"]["against"]
    assert [r["id"] for r in document["rules"]] == ["TST001", "TST002", "TST003"]
    assert document["rules"][0]["source"].endswith("engine_rules.yaml:3")


def test_rules_validate_counts_a_good_file_and_rejects_a_bad_one(run_cli, tmp_path) -> None:
    good = run_cli("rules", "validate", RULES)
    assert (good.exit_code, good.stdout.strip()) == (0, f"{RULES}: 3 rules valid")
    bad = tmp_path / "bad.yaml"
    bad.write_text(Path(RULES).read_text().replace("severity: warning", "severity: fatal"), encoding="utf-8")
    result = run_cli("rules", "validate", str(bad))
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert f"{bad}:24: rule TST002: field 'severity':" in result.stderr


def test_check_report_and_bench_commands_use_the_bench_modules_levels() -> None:
    from rocm_doctor.bench import BenchLevel
    from rocm_doctor.bench.worker import LEVELS
    from rocm_doctor.cli import bench_cmd, check_cmd, report_cmd

    assert check_cmd.BenchLevel is BenchLevel
    assert report_cmd.BenchLevel is BenchLevel
    assert bench_cmd.BenchLevel is BenchLevel
    assert tuple(level.value for level in BenchLevel) == LEVELS  # the worker's own copy, run without rocm_doctor


def test_a_check_without_bench_does_not_import_the_bench_worker() -> None:
    import subprocess
    import sys

    code = "import sys, rocm_doctor.cli.check_cmd; print('rocm_doctor.bench.worker' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout.strip() == "False"


def test_bench_cannot_judge_a_recorded_machine(run_cli, tmp_path, make_facts) -> None:
    result = _check(run_cli, tmp_path, make_facts, None, "--bench", "quick")
    assert result.exit_code == 2 and "--bench runs on this machine" in result.stderr


def test_validating_a_rules_folder_checks_it_alone_and_names_the_shipped_ids_it_shadows(
    run_cli, tmp_path, monkeypatch
) -> None:
    """A checkout's rules/ beside an installed copy: the same ids are a shadow to report, not duplicates."""
    import shutil

    installed = tmp_path / "site-packages" / "rocm_doctor" / "_rules"
    shutil.copytree(FIXTURES, installed, ignore=lambda _d, names: [n for n in names if n != "engine_rules.yaml"])
    checkout = tmp_path / "checkout" / "rules"
    checkout.mkdir(parents=True)
    shutil.copy(RULES, checkout / "engine_rules.yaml")
    monkeypatch.setattr(loader, "rules_dir", lambda: installed)
    result = run_cli("rules", "validate", str(checkout))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == f"{checkout}: 3 rules valid"
    assert "3 of these ids are also shipped rules" in result.stderr and str(installed) in result.stderr
    assert "TST001, TST002" in result.stderr


def test_validating_a_rules_folder_still_refuses_an_id_twice_within_it(run_cli, tmp_path) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    for name in ("a.yaml", "b.yaml"):
        (folder / name).write_text(Path(RULES).read_text(encoding="utf-8"), encoding="utf-8")
    result = run_cli("rules", "validate", str(folder))
    assert result.exit_code == 2
    assert "duplicate id TST001" in result.stderr and "a.yaml" in result.stderr


def test_validating_the_shipped_folder_itself_names_no_shadow(run_cli, tmp_path, monkeypatch) -> None:
    import shutil

    installed = tmp_path / "_rules"
    installed.mkdir()
    shutil.copy(RULES, installed / "engine_rules.yaml")
    monkeypatch.setattr(loader, "rules_dir", lambda: installed)
    result = run_cli("rules", "validate", str(installed))
    assert (result.exit_code, result.stdout.strip(), result.stderr) == (0, f"{installed}: 3 rules valid", "")
