"""``rocm-doctor report``: redaction, round trip through ``check --from``, writing files."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest
from typer.testing import CliRunner

import rocm_doctor.system.record as record
from rocm_doctor.cli.app import _register_commands, app
from rocm_doctor.cli.inputs import FactsSource, load_facts
from rocm_doctor.ingest import ingest_report_file
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.ruledb import rule_database_version

MACHINES = Path(__file__).parents[1] / "machines"
IDENTIFYING = ["alicesmith", "alicebox-ws", "/home/alicesmith", "192.168.7.42", "3c:7c:3f:aa:bb:cc",
               "0f5c2e4a-1b2c-4d5e-8f90-123456789abc", "SN12345XYZ"]

_register_commands()


def _machines() -> List[Path]:
    return sorted(p for p in MACHINES.iterdir() if (p / "machine.yaml").is_file()) if MACHINES.is_dir() else []


def _invoke(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


@pytest.fixture
def alice_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A recorded machine whose user, home, host, addresses, UUID and serial are known strings."""
    source = MACHINES / "ubuntu2204-6700xt"
    if not source.is_dir():
        pytest.skip("recorded machine ubuntu2204-6700xt not present")
    folder = tmp_path / "alice"
    shutil.copytree(source, folder)
    for name in ("machine.yaml", "commands.yaml"):
        path = folder / name
        text = path.read_text(encoding="utf-8").replace("/home/user", "/home/alicesmith")
        path.write_text(text.replace("  user: user", "  user: alicesmith"), encoding="utf-8")
    (folder / "files/home/user").rename(folder / "files/home/alicesmith")
    cmdline = folder / "files/proc/cmdline"
    cmdline.write_text(
        cmdline.read_text().strip()
        + " ip=192.168.7.42 mac=3c:7c:3f:aa:bb:cc root=UUID=0f5c2e4a-1b2c-4d5e-8f90-123456789abc serial=SN12345XYZ\n"
    )
    monkeypatch.setattr(record, "local_host_name", lambda: "alicebox-ws")
    return folder


def test_the_report_keeps_none_of_the_machines_identifying_strings(alice_machine: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.md"
    unredacted = _invoke("report", "--machine", str(alice_machine), "--no-redact").stdout
    assert "/home/alicesmith" in unredacted and "192.168.7.42" in unredacted
    _invoke("report", "--machine", str(alice_machine), "--output", str(out))
    text = out.read_text(encoding="utf-8")
    for secret in IDENTIFYING:
        assert secret.lower() not in text.lower(), secret
    assert "/home/<user>/" in text
    # The address, MAC, UUID and serial were kernel parameters: a report keeps only the GPU's.
    assert "other parameters left out" in text


def test_the_report_has_findings_facts_table_versions_and_facts_json(alice_machine: Path) -> None:
    text = _invoke("report", "--machine", str(alice_machine)).stdout
    assert text.startswith("<!-- rocm-doctor report v1")
    assert f"rule database {rule_database_version()}" in text
    assert "## Findings" in text and "RD201" in text
    assert "| GPU 0 | AMD Radeon RX 6700 XT (gfx1031, discrete) |" in text
    assert "<details><summary>Facts (rocm-doctor facts --json)</summary>" in text


@pytest.mark.parametrize("machine", _machines() or [pytest.param(None, marks=pytest.mark.skip(reason="no recorded machines"))],
                         ids=lambda p: p.name if p else "none")
def test_check_from_the_report_reproduces_the_findings(machine: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.md"
    _invoke("report", "--machine", str(machine), "--output", str(out))
    rules = load_rules([], use_env=False)
    direct = evaluate(rules, load_facts(FactsSource(machine=machine)))
    read_back = ingest_report_file(str(out))
    again = evaluate(rules, read_back.facts)
    assert [(f.id, f.gpu, f.severity) for f in again.findings] == [(f.id, f.gpu, f.severity) for f in direct.findings]
    assert [p.kind for p in read_back.pieces] == ["rocm-doctor-facts"]


def test_rule_database_version_follows_the_rule_files(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("rules: []\n")
    first = rule_database_version(tmp_path)
    assert first.startswith("rules-") and len(first) == len("rules-") + 12
    assert rule_database_version(tmp_path) == first
    (tmp_path / "a.yaml").write_text("rules: [] # changed\n")
    assert rule_database_version(tmp_path) != first


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rocm_doctor", *args], input=stdin, capture_output=True, text=True, timeout=120)


def test_report_never_overwrites_a_file_that_is_not_a_report(run_cli, tmp_path: Path) -> None:
    machine = MACHINES / "cpu-only"
    if not machine.is_dir():
        pytest.skip("recorded machine cpu-only not present")
    notes = tmp_path / "notes.md"
    notes.write_text("my notes\n")
    result = run_cli("report", "--machine", str(machine), "--output", str(notes))
    assert result.exit_code == 2 and "not a rocm-doctor report" in result.stderr
    assert notes.read_text() == "my notes\n"
    earlier = tmp_path / "earlier.md"
    assert run_cli("report", "--machine", str(machine), "--output", str(earlier)).exit_code == 0
    assert run_cli("report", "--machine", str(machine), "--output", str(earlier)).exit_code == 0


def test_check_from_stdin_lists_the_recognised_pieces_and_judges(run_cli) -> None:
    paste = "```\nrocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek for GPU arch : gfx1032\n```\n"
    result = _cli("check", "--from", "-", stdin=paste)
    assert result.returncode == 1
    assert "RD504" in result.stdout and "HSA_OVERRIDE_GFX_VERSION=10.3.0" in result.stdout
    assert "Recognised in the report:" in result.stderr and "error:tensile_library_missing_arch  block 1, line 2" in result.stderr
    # stdin is the behaviour above (a child process); a missing file goes through the same entry point in-process
    missing = run_cli("check", "--from", "/nonexistent/report.md")
    assert missing.exit_code == 2 and "Traceback" not in missing.stderr


def test_a_bench_that_ran_is_summarised_in_the_report(tmp_path: Path) -> None:
    machine = MACHINES / "ubuntu2204-6700xt"
    if not machine.is_dir():
        pytest.skip("recorded machine ubuntu2204-6700xt not present")
    facts = load_facts(FactsSource(machine=machine))
    source = "rocm-doctor bench --level quick"
    tests = {
        "gemm": {"status": "ok", "seconds": 1.2, "metrics": {}, "figures": [
            {"test": "gemm", "metric": "fp16", "value": 61.5, "unit": "TFLOPS", "fraction": 0.5}]},
        "copy_integrity": {"status": "error", "seconds": 0.3, "step": "h2d", "reason": "access violation", "metrics": {}, "figures": []},
    }
    bench = {"level": {"status": "known", "value": "quick", "source": source},
             "device": {"status": "known", "value": "cuda", "source": source},
             "tests": {"status": "known", "value": tests, "source": source}}
    path = tmp_path / "facts.json"
    path.write_text(facts.model_copy(update={"bench": facts.bench.model_validate(bench)}).to_json(), encoding="utf-8")
    text = _invoke("report", "--facts", str(path)).stdout
    assert "## Benchmark" in text
    assert "| gemm | ok | fp16 61.5 TFLOPS (50% of peak) |" in text
    assert "| copy_integrity | error | h2d; access violation |" in text


def test_a_report_from_a_paste_keeps_the_paste_as_its_source(tmp_path: Path) -> None:
    paste = tmp_path / "issue.md"
    paste.write_text("### GPU\n\nAMD Radeon RX 6700 XT\n\nRuntimeError: HIP error: invalid device function\n", encoding="utf-8")
    text = _invoke("report", "--from", str(paste)).stdout
    assert "RD504" in text and "paste:block 1 line 3" in text
    again = tmp_path / "report.md"
    again.write_text(text, encoding="utf-8")
    assert ingest_report_file(str(again)).facts.symptoms.signatures.value == ["hip_invalid_device_function"]


def _python_with_torch() -> str:
    for candidate in (sys.executable, "/tmp/torchvenv/bin/python"):
        if not Path(candidate).exists():
            continue
        probe = subprocess.run([candidate, "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec('torch') is None)"],
                               capture_output=True, timeout=60)
        if probe.returncode == 0:
            return candidate
    pytest.skip("no interpreter with torch installed (CI installs torch==2.13.0 into the test interpreter)")


def test_report_with_bench_runs_the_quick_benchmark_and_summarises_it(tmp_path: Path) -> None:
    python = _python_with_torch()
    out = tmp_path / "report.md"
    result = _cli("report", "--bench", "quick", "--python", python, "--no-torch", "--output", str(out))
    assert result.returncode == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    assert "## Benchmark" in text and "| gemm |" in text
    assert ingest_report_file(str(out)).facts.bench.level.value == "quick"


def test_a_fact_with_curly_quotes_or_a_no_break_space_reads_back_from_the_report_exactly(alice_machine: Path) -> None:
    # the paste reader folds typography to ASCII; the report's JSON escapes it so its facts still round-trip
    from rocm_doctor.ingest import ingest_text
    from rocm_doctor.report.markdown import build_report

    facts = load_facts(FactsSource(machine=alice_machine))
    odd = facts.model_copy(update={"python": facts.python.model_copy(update={"executable": facts.python.executable.model_copy(update={"value": "/home/u/Bob\u2019s\u00a0env/bin/python"})})})
    result = evaluate(load_rules([], use_env=False), odd)
    again = ingest_text(build_report(result, rule_database_version())).facts
    assert again.python.executable.value == "/home/u/Bob\u2019s\u00a0env/bin/python"


def test_a_fact_where_cjk_text_meets_a_latin_word_reads_back_from_the_report_exactly(alice_machine: Path) -> None:
    # the paste reader puts a space where CJK text meets a Latin letter or digit ("RX7900显卡"); the report's JSON escapes
    # such a character, and full-width forms (folded to ASCII too), so the value still round-trips
    from rocm_doctor.ingest import ingest_text
    from rocm_doctor.report.markdown import build_report

    facts = load_facts(FactsSource(machine=alice_machine))
    for value in ("RX7900显卡python", "模型（新）python", "ｐｙｔｈｏｎ３"):
        odd = facts.model_copy(update={"python": facts.python.model_copy(update={"executable": facts.python.executable.model_copy(update={"value": value})})})
        again = ingest_text(build_report(evaluate(load_rules([], use_env=False), odd), rule_database_version())).facts
        assert again.python.executable.value == value
