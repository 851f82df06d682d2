"""Recorded machines replay their process snapshot: ``ps --machine`` and ``check --machine --pid``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from cli_runner import run_cli  # noqa: F401  (the fixture)
from rocm_doctor.facts.process_scan import scan_processes
from rocm_doctor.render.ps import ps_document
from rocm_doctor.system.recorded import RecordedMachineError, RecordedSystem

APP = "C:\\Apps\\ComfyUI\\python_embeded"


def _windows_machine(folder: Path) -> Path:
    (folder / "files").mkdir(parents=True)
    meta = {
        "platform": {"system": "Windows", "release": "11", "machine": "AMD64"},
        "identity": {"user": "user"},
        "env": {"PATH": "C:\\Windows"},
        "processes": [{
            "pid": 5120, "ppid": 4000, "name": "python.exe", "user": "PC\\user", "exe": APP + "\\python.exe",
            "cmdline": [APP + "\\python.exe", "main.py"], "age_seconds": 900.0,
            "environ": {"PATH": "C:\\Program Files\\AMD\\ROCm\\6.2\\bin;C:\\Windows"},
            "modules": [
                APP + "\\Lib\\site-packages\\torch\\lib\\torch_cpu.dll",
                APP + "\\Lib\\site-packages\\torch\\lib\\torch_hip.dll",
                APP + "\\Lib\\site-packages\\torch\\lib\\amdhip64_6.dll",
                "C:\\Program Files\\AMD\\ROCm\\6.2\\bin\\amdhip64_6.dll",
            ],
        }, {"pid": 4000, "name": "explorer.exe", "user": "PC\\user", "cmdline": ["explorer.exe"]}],
    }
    (folder / "machine.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    return folder


def test_a_windows_app_with_the_hip_sdk_on_path_loads_two_hip_runtimes(tmp_path: Path) -> None:
    document = ps_document(scan_processes(RecordedSystem(_windows_machine(tmp_path / "m"))))
    assert [p.pid for p in document.processes] == [5120]
    row = document.processes[0]
    assert row.verdict == "mixed-runtimes"
    assert "C:\\Program Files\\AMD\\ROCm\\6.2\\bin" in row.reason
    assert row.torch is not None and row.torch.flavour == "rocm"


def test_ps_machine_prints_the_recorded_snapshot(run_cli, tmp_path: Path) -> None:
    result = run_cli("ps", "--machine", str(_windows_machine(tmp_path / "m")), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["processes"][0]["verdict"] == "mixed-runtimes"


def test_check_machine_pid_judges_the_recorded_process(run_cli, tmp_path: Path) -> None:
    folder = _windows_machine(tmp_path / "m")
    result = run_cli("check", "--machine", str(folder), "--pid", "5120", "--no-torch", "--json")
    document = json.loads(result.stdout)
    assert "RD772" in {f["id"] for f in document["findings"]}
    assert document["facts"]["process"]["parents"]["value"] == ["explorer.exe (4000)"]


def test_a_recorded_process_entry_of_the_wrong_shape_is_refused_naming_the_field(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    (folder / "files").mkdir(parents=True)
    (folder / "machine.yaml").write_text(yaml.safe_dump({"processes": [{"pid": "5120"}]}), encoding="utf-8")
    with pytest.raises(RecordedMachineError, match=r"processes\[0\]\.pid"):
        RecordedSystem(folder)


def test_a_recorded_process_whose_environment_was_unreadable_is_refused_by_check_pid(run_cli, tmp_path: Path) -> None:
    folder = tmp_path / "m"
    (folder / "files").mkdir(parents=True)
    meta = {"processes": [{"pid": 77, "name": "python3", "user": "alice", "uid": 1001, "environ_error": "permission"}]}
    (folder / "machine.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    result = run_cli("check", "--machine", str(folder), "--pid", "77", "--no-torch")
    assert result.exit_code == 2
    assert "readable only by its owner or root" in result.stderr and "Traceback" not in result.stderr


def test_health_pid_judges_the_process_through_its_budget(run_cli, tmp_path: Path) -> None:
    """health wraps the system in its budget; the process view inside must still be found."""
    result = run_cli("health", "--machine", str(_windows_machine(tmp_path / "m")), "--pid", "5120", "--no-torch", "--json")
    document = json.loads(result.stdout)
    assert document["worst"] == "RD772"


def test_ps_shows_a_windows_script_not_the_interpreter_path(tmp_path: Path) -> None:
    from rich.console import Console

    from rocm_doctor.render.ps import render_ps

    console = Console(record=True, width=200, no_color=True)
    render_ps(ps_document(scan_processes(RecordedSystem(_windows_machine(tmp_path / "m")))), console)
    line = console.export_text().splitlines()[1]
    assert line.split()[:3] == ["5120", "PC\\user", "main.py"]


def test_facts_pid_shows_the_process_section_and_facts_without_it_does_not(run_cli, tmp_path: Path) -> None:
    folder = _windows_machine(tmp_path / "m")
    with_pid = run_cli("facts", "--machine", str(folder), "--pid", "5120", "--no-torch")
    without = run_cli("facts", "--machine", str(folder), "--no-torch")
    assert "runtime_installs" in with_pid.stdout and "explorer.exe (4000)" in with_pid.stdout
    assert "runtime_installs" not in without.stdout


def test_recording_one_process_keeps_no_list_of_the_other_gpu_processes(tmp_path: Path) -> None:
    from rocm_doctor.facts.context import GatherOptions
    from rocm_doctor.facts.gather import gather
    from rocm_doctor.system.process_view import ProcessView
    from rocm_doctor.system.record import RecordingSystem

    folder = tmp_path / "m"
    proc = folder / "files" / "sys" / "class" / "kfd" / "kfd" / "proc"
    for pid in (77, 78):
        (proc / str(pid)).mkdir(parents=True)
        (proc / str(pid) / "vram_2834").write_text("4096\n", encoding="utf-8")
    (folder / "files" / "proc" / "77").mkdir(parents=True)
    (folder / "files" / "proc" / "77" / "maps").write_text("", encoding="utf-8")
    meta = {"platform": {"system": "Linux"}, "processes": [
        {"pid": 77, "name": "python3", "cmdline": ["python3", "a.py"], "environ": {"PATH": "/usr/bin"}},
        {"pid": 78, "name": "python3", "cmdline": ["python3", "b.py"], "environ": {"PATH": "/usr/bin"}}]}
    (folder / "machine.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    recorder = RecordingSystem(RecordedSystem(folder))
    facts = gather(ProcessView.attach(recorder, 77), GatherOptions(pid=77, torch=False), origin="recorded")
    assert facts.process.vram_bytes.value == 4096
    assert "/sys/class/kfd/kfd/proc" not in recorder.dirs
    assert sorted(recorder.processes_seen) == [77]
