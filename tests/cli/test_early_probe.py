"""The children started before the CLI's imports (the torch probe, the target interpreter's self-description):
when they start, when they are adopted, and that they never outlive the doctor."""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from pathlib import Path

import pytest

from rocm_doctor.cli.early import early_request
from rocm_doctor.system.live import StartedCommand


@pytest.mark.parametrize(
    "argv",
    [
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
def test_nothing_starts_early_when_the_command_will_not_gather_the_live_machine(argv) -> None:
    assert early_request(argv) is None


def test_early_children_use_the_target_interpreter_and_timeout_as_typer_will(monkeypatch) -> None:
    from rocm_doctor.cli import early

    assert early_request(["check", "--python", "/venv/bin/python", "--timeout=5"]) == ("/venv/bin/python", 5.0, True)
    monkeypatch.setattr(early, "_default_target", lambda: "/active/venv/bin/python")  # the gathering's own resolver
    assert early_request(["facts", "--json"]) == ("/active/venv/bin/python", 60.0, True)
    assert early_request(["check", "--no-torch"]) == ("/active/venv/bin/python", 60.0, False)  # python-info only


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


@pytest.mark.live_machine
def test_check_without_torch_adopts_the_early_self_description_and_starts_no_probe(tmp_path: Path, monkeypatch, capsys) -> None:
    import importlib

    app_module = importlib.import_module("rocm_doctor.cli.app")
    runs = tmp_path / "runs"
    python = _fake_python(
        tmp_path,
        f'case "$3" in *torch*) echo probe >> {runs};; '
        f'*) echo info >> {runs}; echo \'{{"executable": "{tmp_path}/python", "version": "3.12.1", "implementation": "CPython", '
        f'"prefix": "{tmp_path}", "base_prefix": "/usr", "site_packages": []}}\';; esac',
    )
    monkeypatch.setattr(sys, "argv", ["rocm-doctor", "facts", "--json", "--no-torch", "--python", str(python)])
    with pytest.raises(SystemExit) as exit_info:
        app_module.main()
    assert exit_info.value.code == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["python"]["version"]["value"] == "3.12.1"
    assert runs.read_text().split() == ["info"]  # started once, before the imports, and adopted; no probe


def test_an_early_child_that_is_not_what_gathering_would_run_is_cancelled() -> None:
    from rocm_doctor.facts.context import GatherOptions
    from rocm_doctor.facts.gather import gather
    from rocm_doctor.system.recorded import RecordedSystem

    class Early:
        argv = ["/another/python", "-I", "-c", "pass"]
        timeout = 10.0
        cancelled = False

        def cancel(self) -> None:
            self.cancelled = True

        def result(self):  # pragma: no cover - must never be collected
            raise AssertionError("an early child for another command was collected")

    stray = Early()
    machine = Path(__file__).resolve().parents[1] / "machines" / "cpu-only"
    gather(RecordedSystem(machine), GatherOptions(torch=False, started_early=(stray,)))
    assert stray.cancelled
