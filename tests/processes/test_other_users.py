"""A process of another user, without root: listed with what could be read and why the rest could not."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import List, Optional

import pytest

from process_support import MachineWithLiveProcesses, fake_torch, recorded_gpu_machine, start_child
from rocm_doctor.facts.process_scan import scan_processes
from rocm_doctor.judge.process_verdict import judge_process

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.live_machine, pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")]


def test_permission_denied_maps_make_the_verdict_unknown_naming_the_other_user(tmp_path: Path) -> None:
    """Simulated: the kernel refuses /proc/<pid>/maps of another user's process (ptrace access mode)."""
    folder = recorded_gpu_machine(tmp_path)
    child = start_child(fake_torch(tmp_path / "site", "rocm", "2.9.1+rocm6.4"))
    try:
        machine = MachineWithLiveProcesses(folder, live_roots=[tmp_path])
        original = machine.live.read_text

        def refuse(path: str, max_bytes: int = 1 << 20) -> str:
            if path == f"/proc/{child.pid}/maps":
                raise PermissionError(13, "Permission denied", path)
            return original(path, max_bytes=max_bytes)

        machine.live.read_text = refuse  # type: ignore[method-assign]
        machine.recorded.meta["identity"]["uid"] = os.getuid() + 4242  # rocm-doctor runs as someone else
        scan = scan_processes(machine)
        row = next(r for r in scan.readings if r.entry.pid == child.pid)
        verdict = judge_process(row, scan.amd_gpus)
        assert verdict.verdict == "unknown"
        assert "another user's process" in verdict.reason
        assert row.entry.user  # what could be read is still there
        from rich.console import Console

        from rocm_doctor.render.ps import ps_document, render_ps

        console = Console(record=True, width=200, no_color=True)
        render_ps(ps_document(scan), console)
        lines = console.export_text().splitlines()
        assert all(len(line) <= 80 for line in lines)
        assert any(line.strip() == verdict.reason for line in lines)  # the whole reason, on the process's second line
    finally:
        child.stop()


def _python_for_nobody() -> Optional[List[str]]:
    """An interpreter of this Python version that user nobody may run (ours may live under /root)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return None
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    for python in (sys.executable, shutil.which(f"python{version}"), f"/usr/bin/python{version}"):
        if not python:
            continue
        done = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", python, "-c",
                               "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True, timeout=60)
        if done.returncode == 0 and done.stdout.strip() == version:
            return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", python]
    return None


def test_ps_as_an_unprivileged_user_lists_roots_gpu_process_as_unknown_with_the_reason(tmp_path: Path) -> None:
    """Real: `rocm-doctor ps --json` run as nobody, a python process of root's that mapped libtorch_hip."""
    runner = _python_for_nobody()
    if runner is None:
        pytest.skip("needs root, setpriv and a Python that user nobody can run")
    site = tmp_path / "site"
    child = start_child(fake_torch(site, "rocm", "2.9.1+rocm6.4"))
    try:
        paths = os.pathsep.join([str(ROOT), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
        done = subprocess.run([*runner, "-m", "rocm_doctor", "ps", "--json"], capture_output=True, text=True, timeout=120,
                              env={"PATH": "/usr/bin:/bin", "HOME": "/tmp", "PYTHONPATH": paths}, cwd="/")
        if done.returncode != 0 and "Permission denied" in done.stderr and "import" in done.stderr.lower():
            pytest.skip("user nobody cannot read this test's Python packages")
        assert done.returncode == 0, done.stderr
        document = json.loads(done.stdout)
        row = next(p for p in document["processes"] if p["pid"] == child.pid)
        assert row["user"] == "root"
        assert row["verdict"] == "unknown"
        assert "another user's process (root)" in row["reason"]
        assert row["libraries"] is None and row["problems"]
    finally:
        child.stop()
