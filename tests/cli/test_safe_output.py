"""Output is safe: no terminal escapes from input, no crash on a narrow encoding, every shell word quoted."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from rocm_doctor.facts.model import Facts
from rocm_doctor.shells import quote_argv
from rocm_doctor.judge.cases import load_baseline, overlay

TESTS = Path(__file__).resolve().parents[1]
DOCKER = TESTS / "machines" / "docker-2x7900xt-rocm62"
BASELINE = TESTS / "rule_cases" / "baseline.json"
# A CUDA torch on an AMD GPU whose name, in amd-smi's JSON, carries a clipboard write and a title change.
HOSTILE_NAME = "AMD Radeon\\u001b]52;c;ZXZpbA==\\u0007\\u001b]0;pwned\\u0007\\u009b2J RX 7900 XTX"
PASTE = (
    "PyTorch version: 2.3.0+cu121\nIs debug build: False\nCUDA used to build PyTorch: 12.1\n\n"
    "$ amd-smi static --json\n"
    '[{"gpu": 0, "asic": {"market_name": "' + HOSTILE_NAME + '", "target_graphics_version": "gfx1100",'
    ' "vendor_id": "0x1002", "device_id": "0x744c"}}]\n'
)
TERMINAL_ACTS_ON = ("\x1b", "\x07", "\x9b")


@pytest.fixture
def paste(tmp_path: Path) -> Path:
    path = tmp_path / "paste.txt"
    path.write_text(PASTE, encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [["check", "-v"], ["facts", "-v"], ["report"]])
def test_terminal_escapes_from_a_paste_are_printed_escaped(run_cli, paste: Path, command) -> None:
    result = run_cli(*command, "--from", str(paste))
    assert result.exit_code in (0, 1), result.stderr
    output = result.stdout + result.stderr
    assert not [c for c in TERMINAL_ACTS_ON if c in output]
    if command[0] in ("check", "facts"):
        assert "\\u001b]52;c;ZXZpbA==" in output  # shown, as text


def test_the_report_json_keeps_the_value_so_it_reads_back_the_same(run_cli, paste: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.md"
    assert run_cli("report", "--no-redact", "--from", str(paste), "--output", str(report)).exit_code == 0
    assert not [c for c in TERMINAL_ACTS_ON if c in report.read_text(encoding="utf-8")]
    again = run_cli("facts", "--json", "--from", str(report))
    assert "\\u009b2J RX 7900 XTX" in again.stdout
    assert "\x1b]52;c;ZXZpbA==\x07" in json.loads(again.stdout)["gpus"]["agents"][0]["name"]["value"]


@pytest.mark.parametrize(
    "command", [["check"], ["rules", "list"], ["facts"], ["report"], ["explain", "RD101"], ["check", "--from"],
                ["facts", "--from"], ["report", "--from"]],
)
def test_a_stream_that_cannot_encode_the_symbols_gets_ascii_not_a_crash(command, monkeypatch, tmp_path: Path) -> None:
    # As with PYTHONIOENCODING=cp1252, or `rocm-doctor check > out.txt` on Windows; the paste names its GPU in Chinese.
    import importlib

    if command[-1] == "--from":
        paste = tmp_path / "paste.txt"
        paste.write_text(PASTE.replace("RX 7900 XTX", "RX 7900 XTX 显卡"), encoding="utf-8")
        command = command + [str(paste)]

    app_module = importlib.import_module("rocm_doctor.cli.app")
    out, err = io.BytesIO(), io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="cp1252", newline="\n"))
    monkeypatch.setattr(sys, "stderr", io.TextIOWrapper(err, encoding="cp1252", newline="\n"))
    monkeypatch.setenv("NO_COLOR", "1")
    machine = command[0] in ("check", "facts", "report") and "--from" not in command
    args = command + (["--machine", str(DOCKER)] if machine else [])
    monkeypatch.setattr(sys, "argv", ["rocm-doctor", *args])
    with pytest.raises(SystemExit) as exit_info:
        app_module.main()
    sys.stdout.flush()
    sys.stderr.flush()
    assert exit_info.value.code in (0, 1, None), err.getvalue()
    assert b"internal error" not in err.getvalue()
    if command[0] == "check":
        assert "✗".encode("utf-8") not in out.getvalue() and b"x " in out.getvalue()
    if "--from" in command and command[0] != "check":
        assert b"\\u663e\\u5361" in out.getvalue()


def _facts_with_python(executable: str) -> Facts:
    return Facts.from_dict(overlay(load_baseline(BASELINE), {
        "python": {"executable": {"status": "known", "value": executable, "source": "paste"}},
    }))


def test_an_interpreter_path_from_a_paste_is_quoted_in_every_printed_command(run_cli, tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text(_facts_with_python(f"/usr/bin/python3; touch {tmp_path}/pwned #").to_json(), encoding="utf-8")
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("numpy\n", encoding="utf-8")
    result = run_cli("fix", "--facts", str(facts), "--requirements", str(requirements))
    assert f"$ '/usr/bin/python3; touch {tmp_path}/pwned #' -m pip install -r" in result.stdout
    assert "$ /usr/bin/python3; touch" not in result.stdout


def test_windows_commands_are_quoted_for_powershell() -> None:
    command = (r"C:\Program Files\Python312\python.exe; rm x", "-m", "pip", "install", "torch[a,b]")
    assert quote_argv("powershell", command) == r"& 'C:\Program Files\Python312\python.exe; rm x' -m pip install 'torch[a,b]'"
    plain = (r"C:\venv\Scripts\python.exe", "-m", "pip", "install", "numpy<2")
    assert quote_argv("powershell", plain) == r"C:\venv\Scripts\python.exe -m pip install 'numpy<2'"


def test_fix_pip_prints_commands_with_terminal_escapes_from_a_paste_escaped(run_cli, tmp_path: Path) -> None:
    # fix --pip writes bare command lines (for scripts); a pasted interpreter path may carry a title change.
    machine = Facts.from_json((TESTS / "machines" / "linux-amd-cuda-wheel" / "facts.json").read_text(encoding="utf-8"))
    hostile = "/usr/bin/py\x1b]0;pwned\x07\u202ethon3"
    data = machine.to_dict() if hasattr(machine, "to_dict") else json.loads(machine.to_json())
    data["python"]["executable"] = {"status": "known", "value": hostile, "source": "paste"}
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps(data), encoding="utf-8")
    result = run_cli("fix", "--facts", str(facts), "--pip")
    assert result.exit_code == 0 and "-m pip install" in result.stdout, result.stderr
    assert not any(char in result.stdout for char in TERMINAL_ACTS_ON + ("\u202e",))


def test_a_safe_console_does_not_run_richs_highlighter_unless_asked() -> None:
    # Found by the long fuzz run: rich's repr highlighter backtracks quadratically on long hostile lines
    # (a 6,000-character line of a paste took over a minute in a console that kept rich's default).
    from rocm_doctor.render.safe import SafeConsole

    def printed(**options) -> str:
        out = io.StringIO()
        SafeConsole(file=out, force_terminal=True, color_system="truecolor", **options).print("GPU 0: 24 GB, 'ok' True")
        return out.getvalue()

    assert "\x1b[" not in printed()
    assert "\x1b[" in printed(highlight=True)  # the check can fail: asked for, rich colours numbers
