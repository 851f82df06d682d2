"""What a person reads from the console: recognised pastes, readable templates, counts that match the
entries, widths that hold, a spinner only on a terminal, versions in the header, platform notes (issue 19)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest
from rich.console import Console

from rocm_doctor import __version__
from rocm_doctor.facts.model import Facts
from rocm_doctor.judge.cases import load_baseline, overlay
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.model.rules import Finding
from rocm_doctor.ruledb import rule_database_info

from cli_runner import run_cli  # noqa: F401 - the fixture

TESTS = Path(__file__).resolve().parents[1]
MACHINES = TESTS / "machines"
DOCKER = MACHINES / "docker-2x7900xt-rocm62"
WINDOWS = MACHINES / "win11-9070xt-rocm72"
WSL2 = MACHINES / "wsl2-7900xtx-pytorchorg"
RX6700 = MACHINES / "ubuntu2204-6700xt"
BASELINE = TESTS / "rule_cases" / "baseline.json"
TENSILE_GFX1032 = (
    "```\nrocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek for GPU arch : gfx1032\n```\n"
)
RAW_TEMPLATE = re.compile(r"\{[a-z_]+\.[a-z_.]+\}")


def doctor(*args: str, stdin: str = "", columns: int = 200) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROCM_DOCTOR_")}
    env.update(NO_COLOR="1", COLUMNS=str(columns))
    return subprocess.run([sys.executable, "-m", "rocm_doctor", *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=120, check=False)


# Item 2: a paste with nothing readable


def test_a_paste_with_nothing_readable_says_so_shows_what_to_paste_and_exits_2() -> None:
    result = doctor("check", "--from", "-", stdin="hello world\n")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert "nothing in it was recognised" in result.stderr
    for command in ("rocminfo", "python -m torch.utils.collect_env", "uname -a"):
        assert command in result.stderr


def test_every_command_reading_a_paste_refuses_one_with_nothing_readable(run_cli, tmp_path: Path) -> None:
    paste = tmp_path / "paste.txt"
    paste.write_text("My training is slow, any ideas?\n", encoding="utf-8")
    for command in (["facts"], ["fix"], ["report"]):
        result = run_cli(*command, "--from", str(paste))
        assert result.exit_code == 2 and "nothing in it was recognised" in result.stderr, (command, result.stderr)


# Item 3: templates read as names where no machine is at hand


def test_explain_names_the_placeholders_of_the_title_message_and_fixes(run_cli) -> None:
    result = run_cli("explain", "RD201")
    assert result.exit_code == 0
    assert not RAW_TEMPLATE.search(result.stdout), RAW_TEMPLATE.search(result.stdout)
    assert "<gfx target> is in no PyTorch ROCm wheel" in result.stdout
    assert "HSA_OVERRIDE_GFX_VERSION_<KFD node>=10.3.0" in result.stdout


def test_rules_list_shows_no_raw_template(run_cli) -> None:
    result = run_cli("rules", "list")
    assert result.exit_code == 0
    assert not RAW_TEMPLATE.search(result.stdout), RAW_TEMPLATE.search(result.stdout)
    assert "<gfx target> is in no PyTorch ROCm wheel" in result.stdout


def test_a_paste_verdict_names_the_facts_the_report_lacks_and_shows_the_ones_it_gives() -> None:
    result = doctor("check", "--from", "-", stdin=TENSILE_GFX1032)
    assert result.returncode == 1, result.stderr
    asked = [line for line in result.stdout.splitlines() if "would decide" in line]
    assert asked
    for line in asked:
        assert "…" not in line and not RAW_TEMPLATE.search(line), line
    # the report gives the gfx target: shown; it does not give the torch version: named
    assert any("RD202 torch <torch version> has no gfx1032 kernels" in line for line in asked), asked


def test_a_finding_on_a_paste_names_the_facts_the_report_does_not_give() -> None:
    result = doctor("check", "--from", "-", stdin="GPU arch : gfx1032\nOS: Ubuntu 22.04\n")
    assert "RD511" in result.stdout, result.stdout
    assert "kernels for <GPU name> (gfx1032)" in result.stdout and "unknown (gfx1032)" not in result.stdout


# Item 4: counts that match what is shown


def _finding(gpu: int, title: str = "hipBLASLt is not enabled for gfx1100") -> Finding:
    return Finding(id="RD160", name="x", severity="warning", category="blas", action="config", area="blas",
                   title=title, message="m", explanation="e", gpu=gpu)


def test_per_gpu_findings_that_read_the_same_are_one_problem_and_count_once() -> None:
    from rocm_doctor.judge.report import as_problems, count

    merged = as_problems([_finding(0), _finding(1), _finding(2, title="hipBLASLt is not enabled for gfx1030")])
    assert [p.gpus for p in merged] == [[0, 1], [2]]
    assert count(merged).warning == 2


def test_check_counts_the_entries_it_shows(run_cli) -> None:
    result = run_cli("check", "--machine", str(DOCKER))
    heads = [line for line in result.stdout.splitlines() if re.match(r"^  ! .*  RD\d{3}", line)]
    summary = result.stdout.strip().splitlines()[-1]
    assert f"{len(heads)} warnings" in summary, (heads, summary)
    assert any("[GPUs 0, 1" in line for line in heads)  # the merged entry names both GPUs


# Item 5: widths


def test_fleet_wraps_its_lines_to_columns(tmp_path: Path) -> None:
    from fleet_gen import write_fleet

    write_fleet(tmp_path / "fleet", 12, load_rules(use_env=False), old_driver=range(0, 5), other_torch=(3,), slow={4: 0.3})
    result = doctor("fleet", str(tmp_path / "fleet"), columns=80)
    lines = result.stdout.splitlines()
    assert "gpu00004" in result.stdout and max(len(line) for line in lines) <= 80, max(lines, key=len)


@pytest.mark.parametrize("command", [["facts", "--machine", str(RX6700)], ["facts", "-v", "--machine", str(RX6700)],
                                     ["rules", "list"]])
def test_tables_have_no_trailing_spaces(run_cli, command: List[str]) -> None:
    result = run_cli(*command)
    assert result.exit_code == 0
    padded = [line for line in result.stdout.splitlines() if line != line.rstrip()]
    assert not padded, padded[:3]


@pytest.mark.parametrize("group", [[], ["rules"]])
def test_help_lists_every_command_summary_whole_at_80_columns(group: List[str]) -> None:
    from rocm_doctor.cli.app import SUMMARIES

    result = doctor(*group, "--help", columns=80)
    commands = result.stdout[result.stdout.index("Commands:"):].splitlines()[1:]
    assert commands and not [line for line in commands if line.rstrip().endswith("...")], commands
    prefix = f"{group[0]} " if group else ""
    for name, summary in SUMMARIES.items():
        if name.startswith(prefix) and " " not in name[len(prefix):]:
            assert summary in result.stdout, (name, summary)


# Item 6: a spinner while the live machine is read, on a terminal only


def _gather_reporting_torch(source, progress=None) -> Facts:
    if progress is not None:
        progress("torch")
    return Facts.from_dict(load_baseline(BASELINE))


@pytest.mark.parametrize("terminal", [True, False])
def test_a_live_gathering_shows_what_it_reads_on_a_terminal_and_nothing_when_piped(monkeypatch, terminal: bool) -> None:
    import rocm_doctor.cli.pasted as pasted
    from rocm_doctor.cli.inputs import FactsSource

    stream = io.StringIO()
    console = Console(file=stream, force_terminal=terminal, width=100)
    monkeypatch.setattr(pasted, "stderr_console", lambda: console)
    monkeypatch.setattr(pasted, "load_facts", _gather_reporting_torch)
    pasted.load_facts_noting_pieces(FactsSource(timeout=60.0))
    if terminal:
        assert "Starting torch in the target interpreter (up to 60 s)" in stream.getvalue()
    else:
        assert stream.getvalue() == ""


def test_the_spinner_is_ascii_on_a_stream_that_cannot_encode_braille(monkeypatch) -> None:
    import rocm_doctor.cli.pasted as pasted
    from rocm_doctor.cli.inputs import FactsSource

    raw = io.BytesIO()
    console = Console(file=io.TextIOWrapper(raw, encoding="cp1252", errors="strict", newline="\n"), force_terminal=True, width=100)
    monkeypatch.setattr(pasted, "stderr_console", lambda: console)
    monkeypatch.setattr(pasted, "load_facts", _gather_reporting_torch)
    pasted.load_facts_noting_pieces(FactsSource(timeout=60.0))  # a braille frame would raise UnicodeEncodeError
    console.file.flush()
    assert b"Starting torch" in raw.getvalue()


# Item 11: fix texts


def test_a_visible_devices_fix_never_counts_to_zero_minus_one() -> None:
    data = overlay(load_baseline(BASELINE), {"env": {"vars": {"status": "known", "value": {"HIP_VISIBLE_DEVICES": "0"},
                                                               "source": "test"}}})
    data["gpus"]["agents"] = []
    result = evaluate([r for r in load_rules(use_env=False) if r.id == "RD321"], Facts.from_dict(data))
    [finding] = [f for f in result.findings if f.id == "RD321"]
    text = " ".join(fix.text or "" for fix in finding.fixes)
    assert "minus one" not in text and "rocm-doctor facts" in text


def test_a_missing_kernel_error_in_a_paste_gives_one_override_finding_not_two() -> None:
    result = doctor("check", "--from", "-", stdin=TENSILE_GFX1032)
    assert "RD504" in result.stdout and "RD511" not in result.stdout
    titles = {r.id: r.title for r in load_rules(use_env=False) if r.id in ("RD504", "RD511")}
    assert titles["RD504"] != titles["RD511"]


# Item 15: versions in the header, --quiet


def test_the_check_header_names_rocm_doctor_and_the_rule_database(run_cli) -> None:
    database = rule_database_info()
    first = run_cli("check", "--machine", str(RX6700)).stdout.splitlines()[0]
    assert __version__ in first and database["version"] in first and database["checked"] in first, first


@pytest.mark.parametrize("machine, code", [(RX6700, 1), (WINDOWS, 0)])
def test_quiet_prints_nothing_and_answers_with_the_exit_code(run_cli, machine: Path, code: int) -> None:
    result = run_cli("check", "-q", "--machine", str(machine))
    assert (result.exit_code, result.stdout, result.stderr) == (code, "", "")


def test_quiet_on_a_paste_prints_nothing_either(run_cli, tmp_path: Path) -> None:
    paste = tmp_path / "paste.txt"
    paste.write_text(TENSILE_GFX1032, encoding="utf-8")
    result = run_cli("check", "--quiet", "--from", str(paste))
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", "")


def test_quiet_still_prints_a_crash_as_an_error(run_cli, monkeypatch) -> None:
    from rocm_doctor.facts import gather as gather_module

    original = gather_module._gatherers

    def boom(ctx):
        raise RuntimeError("injected crash in gpus")

    monkeypatch.setattr(gather_module, "_gatherers", lambda: [(n, c, boom if n == "gpus" else g) for n, c, g in original()])
    result = run_cli("check", "-q", "--machine", str(RX6700))
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr.startswith("error: gatherer gpus crashed: RuntimeError: injected crash in gpus"), result.stderr


# Item 17: platform notes in the default output


@pytest.mark.parametrize("machine, note", [
    (WINDOWS, "AMD documents PyTorch on Windows for inference; train under WSL2 or Linux  RD344"),
    (WSL2, "WSL2 uses /dev/dxg, not /dev/kfd  RD350"),
])
def test_a_windows_or_wsl2_machine_shows_its_platform_notes_without_v(run_cli, machine: Path, note: str) -> None:
    result = run_cli("check", "--machine", str(machine))
    lines = result.stdout.splitlines()
    [line] = [line for line in lines if note in line]
    assert line.startswith("  • ")
    after = lines[lines.index(line) + 1]
    assert not after.startswith("    evidence"), after  # one line: -v prints the whole finding
    assert "platform note" in lines[-1]


def test_check_from_says_what_changed_since_the_state_the_report_says_worked_without_verbose(run_cli, tmp_path: Path) -> None:
    paste = tmp_path / "report.txt"
    paste.write_text("After upgrading torch from 2.4.1+rocm6.1 to 2.5.0+rocm6.2 I get HIP error: invalid device function on my RX 6700 XT\n")
    result = run_cli("check", "--from", str(paste))
    assert "torch.version: 2.4.1+rocm6.1 -> 2.5.0+rocm6.2" in result.stdout
