"""``rocm-doctor facts`` on recorded machines: JSON, the human tables, -v, --facts, --record, bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from core_machine import build_machine, dist_info, python_info
from typer.testing import CliRunner

from rocm_doctor.cli.app import _register_commands, app
from rocm_doctor.facts import python_env
from rocm_doctor.facts.model import Facts

SITE = "/usr/lib/python3/dist-packages"


@pytest.fixture()
def machine(tmp_path):
    system = build_machine(
        tmp_path,
        files={"/etc/os-release": "ID=ubuntu\nVERSION_ID=\"22.04\"\n", **dist_info(SITE, "numpy", "1.26.4"),
               **dist_info(SITE, "transformers", "4.46.0")},
        commands=[{"label": python_env.LABEL, "returncode": 0, "stdout": python_info([SITE])}],
        env={"HSA_OVERRIDE_GFX_VERSION": "10.3.0", "PATH": "/usr/bin"},
    )
    return system.folder


def invoke(*args):
    _register_commands()
    return CliRunner().invoke(app, ["facts", *args], env={"NO_COLOR": "1", "COLUMNS": "200"})


def test_json_is_the_only_stdout_and_round_trips(machine):
    result = invoke("--json", "--no-torch", "--machine", str(machine))
    assert result.exit_code == 0, result.output
    facts = Facts.from_json(result.stdout)
    assert facts.meta.origin == "recorded"
    assert facts.env.vars.value == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}
    assert facts.torch.version.status == "absent"
    assert facts.torch.live.probe.reason == "--no-torch"


def test_human_output_has_a_table_per_section_and_hides_not_applicable_facts(machine):
    result = invoke("--machine", str(machine), "--no-torch")
    assert result.exit_code == 0, result.output
    for title in ("host", "python", "gpus", "torch", "packages", "env", "permissions"):
        assert f"\n{title}" in result.stdout
    assert "HSA_OVERRIDE_GFX_VERSION=10.3.0" in result.stdout
    assert "numpy=1.26.4" in result.stdout and "transformers=4.46.0" in result.stdout
    assert "windows_build" not in result.stdout
    assert "unknown: --no-torch" in result.stdout


def test_verbose_adds_sources_and_not_applicable_facts(machine):
    result = invoke("--machine", str(machine), "--no-torch", "-v")
    assert "/etc/os-release" in result.stdout
    assert "windows_build" in result.stdout and "not applicable on Linux" in result.stdout


def test_facts_file_is_read_back(machine, tmp_path):
    saved = tmp_path / "facts.json"
    saved.write_text(invoke("--json", "--no-torch", "--machine", str(machine)).stdout)
    result = invoke("--json", "--facts", str(saved))
    assert json.loads(result.stdout)["host"]["distro_version"]["value"] == "22.04"


def test_record_from_a_recorded_machine_replays(machine, tmp_path):
    out = tmp_path / "copy"
    first = invoke("--json", "--no-torch", "--machine", str(machine), "--record", str(out))
    assert first.exit_code == 0, first.output
    again = invoke("--json", "--no-torch", "--machine", str(out))
    replayed, original = json.loads(again.stdout), json.loads(first.stdout)
    assert replayed["permissions"]["user"]["value"] == "<user>"  # the user name is redacted
    for facts in (replayed, original):
        del facts["meta"], facts["permissions"]["user"], facts["permissions"]["groups"]
    assert replayed == original


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--machine", "/no/such/folder"], "no such recorded machine folder"),
        (["--facts", "{tmp}/bad.json"], "not JSON"),
        (["--record", "{tmp}", "--facts", "{tmp}/bad.json"], "cannot be combined with --facts"),
        (["--timeout", "0"], "--timeout must be a positive"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    (tmp_path / "bad.json").write_text("{nope")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    done = subprocess.run([sys.executable, "-m", "rocm_doctor", "facts", *argv], capture_output=True, text=True,
                          timeout=120, env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr


@pytest.mark.live_machine
def test_recording_this_machine_replays_to_the_same_facts(tmp_path):
    folder = tmp_path / "me"
    base = [sys.executable, "-m", "rocm_doctor", "facts", "--json", "--no-torch"]
    live = subprocess.run(base + ["--record", str(folder)], capture_output=True, text=True, timeout=120)
    assert live.returncode == 0, live.stderr
    replay = subprocess.run(base + ["--machine", str(folder)], capture_output=True, text=True, timeout=120)
    assert replay.returncode == 0, replay.stderr
    from rocm_doctor.redact import ReportRedactor
    from rocm_doctor.system.live import LiveSystem
    from rocm_doctor.system.record import redactor_for

    # The replay sees the redacted machine: compare with the live facts as the redactor leaves them
    # (identifier placeholders are numbered in the order each text met them).
    def numberless(text: str) -> str:
        return re.sub(r"<(ip|mac|uuid|serial)-\d+>", r"<\1>", text)

    first = json.loads(numberless(ReportRedactor.create(redactor_for(LiveSystem())).text(live.stdout)))
    second = json.loads(numberless(replay.stdout))
    del first["meta"], second["meta"]
    assert second == first
