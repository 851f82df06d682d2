"""Issue 19 item 19: an env file must not contradict its own plan, and no user line is lost."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from dotenv import dotenv_values

from rocm_doctor.fix.envconflicts import assignment, comment_prefix
from rocm_doctor.fix.envfile import write_env_file
from rocm_doctor.model.remedy import EnvChange

from .test_seed_cases import MACHINES, machine

BOX = "docker-2x7900xt-rocm62"  # the plan unsets HSA_OVERRIDE_GFX_VERSION and HSA_XNACK
USER = b"FOO=1\nHSA_OVERRIDE_GFX_VERSION=11.5.1\r\nBAR=two # mine\n"
UNSET = [EnvChange("HSA_OVERRIDE_GFX_VERSION", None, ("RD212",))]
SET = [EnvChange("HSA_OVERRIDE_GFX_VERSION", "10.3.0", ("RD201",))]


def _write_user_file(tmp_path: Path) -> Path:
    path = tmp_path / "user.env"
    path.write_bytes(USER)
    return path


def test_a_dotenv_line_setting_a_variable_the_plan_unsets_is_named_and_the_write_exits_1(doctor, tmp_path: Path) -> None:
    path = _write_user_file(tmp_path)
    result = doctor("fix", "--machine", machine(BOX), "--write-env", "--env-file", "user.env", "--shell", "dotenv", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "user.env:2: 'HSA_OVERRIDE_GFX_VERSION=11.5.1' sets HSA_OVERRIDE_GFX_VERSION, which the plan unsets" in result.stdout
    assert "still contradicts the plan" in result.stdout and "--comment-out-conflicts" in result.stdout
    assert "Load it with" not in result.stdout  # no success while the file contradicts the plan
    assert path.read_bytes().startswith(USER)  # every user line kept, byte for byte


def test_comment_out_conflicts_comments_the_line_with_a_marker_keeps_a_backup_and_every_other_byte(doctor, tmp_path: Path) -> None:
    path = _write_user_file(tmp_path)
    result = doctor(
        "fix", "--machine", machine(BOX), "--write-env", "--env-file", "user.env", "--shell", "dotenv",
        "--comment-out-conflicts", cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Commented out, as it contradicts the plan: user.env:2:" in result.stdout
    marker = comment_prefix("dotenv").encode()
    assert path.read_bytes().startswith(b"FOO=1\n" + marker + b"HSA_OVERRIDE_GFX_VERSION=11.5.1\r\nBAR=two # mine\n")
    (backup,) = tmp_path.glob("user.env.*.rocm-doctor.bak")
    assert backup.read_bytes() == USER
    assert "HSA_OVERRIDE_GFX_VERSION" not in dotenv_values(path)  # python-dotenv no longer sets it
    again = doctor(
        "fix", "--machine", machine(BOX), "--write-env", "--env-file", "user.env", "--shell", "dotenv",
        "--comment-out-conflicts", cwd=tmp_path,
    )
    assert again.returncode == 0 and "already has these settings" in again.stdout


def test_a_dry_run_names_the_contradicting_line_exits_1_and_changes_nothing(doctor, tmp_path: Path) -> None:
    path = _write_user_file(tmp_path)
    result = doctor(
        "fix", "--machine", machine(BOX), "--write-env", "--env-file", "user.env", "--shell", "dotenv", "--dry-run", cwd=tmp_path
    )
    assert result.returncode == 1
    assert "user.env:2:" in result.stdout and path.read_bytes() == USER


def test_on_a_terminal_the_user_is_asked_before_a_line_is_commented_out(run_cli, tmp_path, monkeypatch) -> None:
    from rocm_doctor.cli import fix_cmd

    path = _write_user_file(tmp_path)
    monkeypatch.setattr(fix_cmd, "_interactive", lambda: True)
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    result = run_cli("fix", "--machine", str(MACHINES / BOX), "--write-env", "--env-file", str(path), "--shell", "dotenv")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "Comment these lines out" in result.stdout
    assert comment_prefix("dotenv").encode() + b"HSA_OVERRIDE_GFX_VERSION=11.5.1\r\n" in path.read_bytes()


def test_on_a_terminal_a_no_leaves_the_line_and_exits_1(run_cli, tmp_path, monkeypatch) -> None:
    from rocm_doctor.cli import fix_cmd

    path = _write_user_file(tmp_path)
    monkeypatch.setattr(fix_cmd, "_interactive", lambda: True)
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n"))
    result = run_cli("fix", "--machine", str(MACHINES / BOX), "--write-env", "--env-file", str(path), "--shell", "dotenv")
    assert result.exit_code == 1
    assert path.read_bytes().startswith(USER)


def test_a_shell_line_after_the_block_that_sets_another_value_contradicts_the_plan(tmp_path: Path) -> None:
    path = tmp_path / "env.sh"
    first = write_env_file(path, "bash", SET)
    assert first.conflicts == ()
    path.write_bytes(path.read_bytes() + b"export HSA_OVERRIDE_GFX_VERSION=11.0.0\n")
    again = write_env_file(path, "bash", SET)
    assert [(c.line, c.name, c.found) for c in again.conflicts] == [(len(path.read_text().splitlines()), "HSA_OVERRIDE_GFX_VERSION", "11.0.0")]
    fixed = write_env_file(path, "bash", SET, comment_out_conflicts=True)
    assert fixed.conflicts == () and len(fixed.commented_out) == 1
    sourced = subprocess.run(
        ["bash", "-c", f'. "{path}" && printf %s "$HSA_OVERRIDE_GFX_VERSION"'], capture_output=True, text=True, timeout=30
    )
    assert sourced.stdout == "10.3.0"


def test_a_shell_line_before_the_block_is_overridden_by_it_and_is_no_conflict(tmp_path: Path) -> None:
    path = tmp_path / "env.sh"
    path.write_bytes(b"export HSA_OVERRIDE_GFX_VERSION=11.0.0\n")
    result = write_env_file(path, "bash", SET)
    assert result.conflicts == ()
    sourced = subprocess.run(
        ["bash", "-c", f'. "{path}" && printf %s "$HSA_OVERRIDE_GFX_VERSION"'], capture_output=True, text=True, timeout=30
    )
    assert sourced.stdout == "10.3.0"


def test_a_dotenv_line_setting_the_plans_own_value_is_no_conflict(tmp_path: Path) -> None:
    path = tmp_path / "a.env"
    write_env_file(path, "dotenv", SET)
    path.write_bytes(path.read_bytes() + b"HSA_OVERRIDE_GFX_VERSION=10.3.0\n")
    assert write_env_file(path, "dotenv", SET).conflicts == ()


@pytest.mark.parametrize(
    ("shell", "line", "expected"),
    [
        ("dotenv", "export X='a b'", [("X", "a b")]),
        ("dotenv", "X=1 # c", [("X", "1")]),
        ("bash", "export X='1'", [("X", "1")]),
        ("bash", "X=1 python run.py", []),
        ("bash", "unset X Y", [("X", None), ("Y", None)]),
        ("fish", "set -gx X 1", [("X", "1")]),
        ("fish", "set -e X", [("X", None)]),
        ("powershell", "$env:X = 'it''s'", [("X", "it's")]),
        ("powershell", "Remove-Item Env:X -ErrorAction SilentlyContinue", [("X", None)]),
        ("cmd", 'set "X=1"', [("X", "1")]),
        ("cmd", "set X=", [("X", None)]),
        ("bash", "# export X=1", []),
    ],
)
def test_each_shells_plain_assignments_are_read(shell: str, line: str, expected) -> None:
    assert assignment(shell, line) == expected


@pytest.mark.parametrize("shell", ["dotenv", "bash", "fish", "powershell", "cmd"])
def test_reading_a_hostile_line_is_linear_in_its_length(shell: str) -> None:
    import time

    spaces = " " * 200_000
    lines = [
        f"$env:X = a{spaces}b", f"export X=a{spaces}b", f"unset X{' X' * 50_000} !", f'set "X=a{spaces}', f"X='{spaces}",
        "set -gx X " + "'a' " * 50_000 + "'",
    ]
    started = time.process_time()
    for line in lines:
        assignment(shell, line)
    assert time.process_time() - started < 10  # CPU seconds (a loaded machine made wall time fail); a quadratic pattern takes minutes on these lines
