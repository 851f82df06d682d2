"""``fix --apply`` end to end: a throwaway venv, a local index on 127.0.0.1 with wheels built
here, pip really uninstalling and installing, and the re-check really gathering and judging.

The rule used is a test rule file (loaded by the real loader, judged by the real engine);
what is under test is the apply-and-recheck loop, not the rule database.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterator

import pytest

from rocm_doctor.facts.context import GatherOptions
from rocm_doctor.facts.gather import gather
from rocm_doctor.fix.installer import apply_commands, refreshed, run_command
from rocm_doctor.remedy.decide import Context, decide
from rocm_doctor.remedy.pip import Command
from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules

from .helpers import machine_facts
from .localindex import fake_torch, serve, write_simple_index

RULE = """\
rules:
  - id: RD990
    name: test-non-rocm-torch
    severity: error
    category: torch-build
    area: pytorch
    when: {fact: torch.flavour, in: [cuda, cpu]}
    title: Test rule - torch is not a ROCm build
    message: "torch {torch.version} is a {torch.flavour} build."
    explanation: Test rule for the apply loop.
    fixes:
      - kind: pip
        intent: install-rocm-torch
        text: Replace it with the ROCm build.
    references:
      - url: https://github.com/Comfy-Org/comfy-cli/issues/289
"""


def pip_env() -> Dict[str, str]:
    """The child's environment: pip sees only the local index, not this machine's pip.conf or PIP_*."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_CACHE_DIR="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


@pytest.fixture(scope="module")
def venv_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dict[str, object]]:
    """One throwaway venv and local index for the apply tests of this file (a venv with pip is the slowest setup here)."""
    root = tmp_path_factory.mktemp("apply")
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True, timeout=300)
    python = str(root / "venv" / "bin" / "python")
    local = root / "local"
    local.mkdir()
    cpu_wheel = fake_torch(local, "2.13.0+cpu", hip=None)
    rocm_dir = root / "rocm-wheels"
    rocm_dir.mkdir()
    fake_torch(rocm_dir, "2.13.0+rocm7.2", hip="7.2.26015-test")
    write_simple_index(root / "index", rocm_dir)
    rule_file = root / "rule.yaml"
    rule_file.write_text(RULE)
    for base in serve(root / "index"):
        yield {"python": python, "index": f"{base}/simple", "rules": load_rules([rule_file], use_env=False, builtin=False),
               "rule_file": rule_file, "cpu_wheel": cpu_wheel}


@pytest.fixture
def world(venv_world: Dict[str, object]) -> Iterator[Dict[str, object]]:
    """The shared venv with the CPU torch installed before each test (again, where a test before replaced it by the
    ROCm one), so that each apply test starts from the same venv whatever the order."""
    subprocess.run(
        [str(venv_world["python"]), "-m", "pip", "install", "--no-index", str(venv_world["cpu_wheel"])],
        check=True, timeout=300, env=pip_env(), capture_output=True,
    )
    yield venv_world


def _live(python: str):
    from rocm_doctor.system.live import LiveSystem

    return gather(LiveSystem(), GatherOptions(python=python, torch=False))


@pytest.mark.live_machine
def test_apply_replaces_the_cpu_torch_and_the_recheck_confirms_it(world: Dict[str, object]) -> None:
    python = str(world["python"])
    amd = machine_facts(gfx=["gfx1100"], python="3.11.7")
    before = refreshed(amd, _live(python))
    assert before.torch.flavour.value == "cpu"
    findings = evaluate(world["rules"], before).findings
    assert [f.id for f in findings] == ["RD990"]
    plan = decide(findings, before, Context(python=python, index_url=str(world["index"]))).plan
    commands = [Command(tuple(argv), step.text) for step in plan.of_kind("pip") for argv in step.argv]
    assert commands[0].argv[:5] == (python, "-m", "pip", "uninstall", "-y")
    lines = []
    report = apply_commands(
        commands, ["RD990"], before, lambda: _live(python), world["rules"], lines.append, timeout=600, env=pip_env()
    )
    assert report.run.ok, report.run.reason
    assert any("Successfully uninstalled torch-2.13.0+cpu" in line for line in lines)
    assert any("Successfully installed torch-2.13.0+rocm7.2" in line for line in lines)
    assert report.rechecked and report.resolved == ["RD990"] and report.remaining == []
    after = _live(python)
    assert after.torch.flavour.value == "rocm" and after.torch.version.value == "2.13.0+rocm7.2"


@pytest.mark.live_machine
def test_apply_through_the_cli_installs_from_the_local_index_and_rechecks(world: Dict[str, object], tmp_path: Path) -> None:
    """Live: this machine, a throwaway venv, a requested torch; the test rule must be resolved (the fix command
    through the real CLI; it shares this file's venv and index instead of building its own)."""
    result = subprocess.run(
        [sys.executable, "-m", "rocm_doctor", "fix", "--python", str(world["python"]), "--no-torch", "--torch", "2.13",
         "--rules", str(world["rule_file"]), "--index-url", str(world["index"]), "--apply", "--yes"],
        capture_output=True, text=True, timeout=600, env={**pip_env(), "NO_COLOR": "1", "COLUMNS": "400"}, cwd=tmp_path,
    )
    assert "Successfully installed torch-2.13.0+rocm7.2" in result.stdout, result.stdout + result.stderr
    assert "resolved: RD990" in result.stdout


def test_the_first_failure_stops_the_run_with_the_reason(tmp_path: Path) -> None:
    failing = Command((sys.executable, "-c", "import sys; print('boom'); sys.exit(3)"), "fail")
    never = Command((sys.executable, "-c", f"open({str(tmp_path / 'ran')!r}, 'w')"), "never")
    lines = []
    report = apply_commands([failing, never], ["RD1"], machine_facts(), lambda: pytest.fail("no recheck"), [], lines.append)
    assert not report.run.ok and report.run.reason == "exit code 3: boom"
    assert report.run.failed is failing and not (tmp_path / "ran").exists()
    assert lines == ["boom"] and not report.rechecked


def test_privileged_commands_are_never_run() -> None:
    reason = run_command(Command(("sudo", "true"), "x"), lambda line: None)
    assert reason is not None and "never runs privileged" in reason


def test_a_command_past_its_timeout_is_stopped() -> None:
    reason = run_command(Command((sys.executable, "-c", "import time; time.sleep(30)"), "slow"), lambda l: None, timeout=0.5)
    assert reason == "timed out after 0.5 s"
