"""``rocm-doctor ps`` and ``--pid`` through the real entry point, on this machine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cli_runner import run_cli  # noqa: F401  (the fixture)
from process_support import fake_torch, start_child

pytestmark = [pytest.mark.live_machine, pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")]

# The child says whether its torch is a CPU build before it says ready: one torch start, not a probe and then a child
# (each import of torch is seconds of wall time).
REAL_TORCH = "import sys, torch\nprint(torch.version.hip is None and torch.version.cuda is None, flush=True)\nprint('ready', flush=True)\nsys.stdin.read()\n"


def test_ps_lists_a_running_cpu_torch_process_as_no_gpu_build_and_exits_0(run_cli) -> None:
    child = subprocess.Popen([sys.executable, "-c", REAL_TORCH], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    try:
        assert child.stdout is not None
        if child.stdout.readline().strip() != "True":
            pytest.skip("this interpreter has no CPU build of torch")
        assert child.stdout.readline().strip() == "ready"
        result = run_cli("ps")
        assert result.exit_code == 0, result.stderr
        line = next(l for l in result.stdout.splitlines() if l.startswith(f"{child.pid} "))
        assert line.split()[-1] == "no-gpu-build"
        assert all(len(l) <= 80 for l in result.stdout.splitlines())
        document = json.loads(run_cli("ps", "--json").stdout)
        row = next(p for p in document["processes"] if p["pid"] == child.pid)
        assert row["torch"]["flavour"] == "cpu" and row["torch"]["version"].endswith("+cpu")
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(timeout=60)


def test_check_pid_of_a_process_that_is_not_running_is_bad_input(run_cli) -> None:
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait(timeout=60)
    result = run_cli("check", "--pid", str(done.pid), "--no-torch")
    assert result.exit_code == 2
    assert f"--pid {done.pid}" in result.stderr and "Traceback" not in result.stderr


def test_pid_cannot_be_combined_with_a_facts_file(run_cli, tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text("{}", encoding="utf-8")
    result = run_cli("check", "--pid", "1", "--facts", str(facts))
    assert result.exit_code == 2 and "--pid" in result.stderr


def test_facts_record_pid_keeps_the_process_snapshot_redacted_and_replays_it(run_cli, tmp_path: Path) -> None:
    site = tmp_path / "site"
    child = start_child(fake_torch(site, "rocm", "2.9.1+rocm6.4"),
                        env={"PATH": "/usr/bin:/bin", "HSA_OVERRIDE_GFX_VERSION": "11.0.0", "API_TOKEN": "s3cret-value"})
    try:
        folder = tmp_path / "recorded"
        live = run_cli("facts", "--record", str(folder), "--pid", str(child.pid), "--no-torch", "--json")
        assert live.exit_code == 0, live.stderr
        meta = yaml.safe_load((folder / "machine.yaml").read_text(encoding="utf-8"))
        item = next(p for p in meta["processes"] if p["pid"] == child.pid)
        assert item["environ"]["HSA_OVERRIDE_GFX_VERSION"] == "11.0.0"
        assert "API_TOKEN" not in item["environ"]
        assert "s3cret-value" not in (folder / "machine.yaml").read_text(encoding="utf-8")
        assert (folder / "files" / "proc" / str(child.pid) / "maps").is_file()
    finally:
        child.stop()
    replayed = run_cli("facts", "--machine", str(folder), "--pid", str(child.pid), "--no-torch", "--json")
    assert replayed.exit_code == 0, replayed.stderr
    before, after = json.loads(live.stdout)["process"], json.loads(replayed.stdout)["process"]
    for name in ("libraries", "torch_flavour", "torch_version", "launcher_vars"):
        assert after[name]["value"] == before[name]["value"], name
    assert after["torch_version"]["value"] == "2.9.1+rocm6.4"
    assert json.loads(replayed.stdout)["env"]["vars"]["value"]["HSA_OVERRIDE_GFX_VERSION"] == "11.0.0"


def test_a_command_with_newlines_stays_on_its_one_line() -> None:
    from rich.console import Console

    from rocm_doctor.render.ps import PsDocument, PsProcess, render_ps

    row = PsProcess(pid=7, user="u", command=["python", "-c", "import torch\nimport time\ttime.sleep(9)"], runtime_installs=[],
                    gpus=[], verdict="no-gpu-build", reason="a CPU build", problems=[])
    console = Console(record=True, width=200, no_color=True)
    render_ps(PsDocument(tool_version="0", scanned=1, candidates=1, processes=[row], skipped=[]), console)
    lines = console.export_text().splitlines()
    assert lines[1].startswith("7 ") and lines[1].split()[-1] == "no-gpu-build"
    assert all(len(line) <= 80 for line in lines)
