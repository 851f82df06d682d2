"""The torch probe started before the CLI's imports: when it starts, when it is adopted, and that it never outlives the doctor."""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from pathlib import Path

import pytest

from rocm_doctor.cli.early import early_probe_request
from rocm_doctor.system.live import StartedCommand


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--no-torch"],
        ["check", "--machine", "tests/machines/cpu-only"],
        ["fix", "--facts=f.json"],
        ["report", "--from", "-"],
        ["facts", "--record", "out"],
        ["check", "--help"],
        ["bench"],
        ["explain", "RD100"],
        [],
        ["check", "--timeout", "soon"],
        ["check", "--timeout", "0"],
    ],
)
def test_no_early_probe_when_the_command_will_not_run_the_live_probe(argv) -> None:
    assert early_probe_request(argv) is None


def test_early_probe_uses_the_target_interpreter_and_timeout_as_typer_will(monkeypatch) -> None:
    from rocm_doctor.cli import early

    assert early_probe_request(["check", "--python", "/venv/bin/python", "--timeout=5"]) == ("/venv/bin/python", 5.0)
    monkeypatch.setattr(early, "_default_target", lambda: "/active/venv/bin/python")  # the gathering's own resolver
    assert early_probe_request(["facts", "--json"]) == ("/active/venv/bin/python", 60.0)


def _fake_python(tmp_path: Path, body: str) -> Path:
    script = tmp_path / "python"
    script.write_text("#!/bin/sh\n" + body + "\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead for our purpose; /proc tells.
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "\tZ" in status.read_text())


def test_cancel_kills_the_whole_process_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    started = StartedCommand(["/bin/sh", "-c", f"sleep 30 & echo $! > {pidfile}; wait"], timeout=60)
    deadline = time.monotonic() + 60
    while not (pidfile.exists() and pidfile.read_text().strip()):
        assert time.monotonic() < deadline, "the shell never started its grandchild"
        time.sleep(0.01)
    grandchild = int(pidfile.read_text())
    started.cancel()
    assert not _alive(grandchild)  # cancel returns once what it killed has exited


def test_result_counts_the_timeout_from_the_start(tmp_path: Path) -> None:
    started = StartedCommand(["/bin/sh", "-c", "sleep 5"], timeout=0.5)
    time.sleep(0.6)
    begin = time.monotonic()
    result = started.result()
    assert result.timed_out and time.monotonic() - begin < 1.0


@pytest.mark.live_machine
def test_an_early_probe_of_a_command_that_fails_is_killed_not_orphaned(tmp_path: Path, monkeypatch) -> None:
    import importlib

    app_module = importlib.import_module("rocm_doctor.cli.app")
    pidfile = tmp_path / "pid"
    python = _fake_python(tmp_path, f"echo $$ > {pidfile}; exec sleep 30")
    bad_rules = tmp_path / "bad.yaml"
    bad_rules.write_text("rules: [\n")
    monkeypatch.setattr(sys, "argv", ["rocm-doctor", "check", "--python", str(python), "--rules", str(bad_rules)])
    with pytest.raises(SystemExit) as exit_info:
        app_module.main()
    assert exit_info.value.code == 2
    # Killed before it wrote its pid, it writes nothing later; once it wrote it, it must be gone now
    # (the doctor returns only once what it killed has exited).
    written = pidfile.read_text().strip() if pidfile.exists() else ""
    if written:
        assert not _alive(int(written))


@pytest.mark.live_machine
def test_gathering_adopts_the_early_probe_instead_of_starting_a_second_one(tmp_path: Path, monkeypatch, capsys) -> None:
    import importlib

    app_module = importlib.import_module("rocm_doctor.cli.app")
    runs = tmp_path / "runs"
    site = tmp_path / "site"
    (site / "torch-2.13.0+cpu.dist-info").mkdir(parents=True)
    (site / "torch-2.13.0+cpu.dist-info" / "METADATA").write_text("Name: torch\nVersion: 2.13.0+cpu\n")
    (site / "torch").mkdir()
    (site / "torch" / "version.py").write_text("__version__ = '2.13.0+cpu'\nhip = None\ncuda = None\n")
    # The fake interpreter answers the python-info probe like a venv without torch, and counts probe runs.
    python = _fake_python(
        tmp_path,
        f'case "$3" in *torch*) echo run >> {runs}; echo \'{{"stage": "done", "status": "ok"}}\';; '
        f'*) echo \'{{"executable": "{tmp_path}/python", "version": "3.12.1", "implementation": "CPython", '
        f'"prefix": "{tmp_path}", "base_prefix": "/usr", "site_packages": ["{tmp_path}/site"]}}\';; esac',
    )
    monkeypatch.setattr(sys, "argv", ["rocm-doctor", "facts", "--json", "--python", str(python)])
    with pytest.raises(SystemExit) as exit_info:
        app_module.main()
    assert exit_info.value.code == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["torch"]["version"]["value"] == "2.13.0+cpu"  # torch was found, so the probe result was used
    assert runs.read_text().count("run") == 1
