"""Env files: each format is read back by the real program that consumes it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Dict, List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocm_doctor.errors import InputError
from rocm_doctor.fix.envfile import (
    begin_marker,
    default_shell,
    end_marker,
    merge,
    render_block,
    write_env_file,
)
from rocm_doctor.model.remedy import EnvChange

TRICKY = "it's \"quoted\" $HOME `x` \\back ; & | * ü"
SETS = [
    EnvChange("HSA_OVERRIDE_GFX_VERSION", "10.3.0", ("RD201",)),
    EnvChange("PYTORCH_HIP_ALLOC_CONF", "expandable_segments:True,garbage_collection_threshold:0.8", ("RD301",)),
]
UNSET = EnvChange("HIP_DISABLE_IPC", None, ("RD401",))


def _read_back(argv: List[str], path: Path, preset: Dict[str, str]) -> Dict[str, str]:
    env = {"PATH": os.environ["PATH"], "ENVFILE": str(path), **preset}
    done = subprocess.run(argv, env=env, capture_output=True, timeout=30, check=True)
    pairs = [item.split(b"=", 1) for item in done.stdout.split(b"\0") if b"=" in item]
    return {k.decode(): v.decode() for k, v in pairs}


SHELL_RUNS = {
    "bash": ("bash", ["bash", "-c", '. "$ENVFILE" && env -0']),
    "zsh": ("zsh", ["zsh", "-c", '. "$ENVFILE" && env -0']),
    "dash": ("bash", ["dash", "-c", '. "$ENVFILE" && env -0']),
    "fish": ("fish", ["fish", "--no-config", "-c", "source $ENVFILE; and env -0"]),
}


@pytest.mark.parametrize("program", sorted(SHELL_RUNS))
def test_sourcing_the_file_in_the_real_shell_sets_and_unsets_the_variables(program: str, tmp_path: Path) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed on this machine")
    shell, argv = SHELL_RUNS[program]
    path = tmp_path / "env"
    changes = SETS + [EnvChange("ODD_VALUE", TRICKY, ("RD999",)), UNSET]
    write_env_file(path, shell, changes)
    seen = _read_back(argv, path, {"HIP_DISABLE_IPC": "1"})
    assert seen["HSA_OVERRIDE_GFX_VERSION"] == "10.3.0"
    assert seen["PYTORCH_HIP_ALLOC_CONF"] == SETS[1].value
    assert seen["ODD_VALUE"] == TRICKY
    assert "HIP_DISABLE_IPC" not in seen


def test_powershell_file_is_read_back_by_pwsh(tmp_path: Path) -> None:
    if shutil.which("pwsh") is None:
        pytest.skip("pwsh (PowerShell 7) is not installed on this machine")
    path = tmp_path / "env.ps1"
    write_env_file(path, "powershell", SETS + [EnvChange("ODD_VALUE", TRICKY, ("RD999",)), UNSET])
    argv = ["pwsh", "-NoProfile", "-Command", '. $env:ENVFILE; Get-ChildItem Env: | ForEach-Object { "$($_.Name)=$($_.Value)`0" } | Write-Host -NoNewline']
    seen = _read_back(argv, path, {"HIP_DISABLE_IPC": "1"})
    assert seen["ODD_VALUE"] == TRICKY
    assert "HIP_DISABLE_IPC" not in seen


def test_powershell_and_cmd_lines_quote_for_their_shell() -> None:
    ps = render_block("powershell", [EnvChange("A", "it's", ("X",)), UNSET]).lines
    assert "$env:A = 'it''s'" in ps
    assert "Remove-Item Env:HIP_DISABLE_IPC -ErrorAction SilentlyContinue" in ps
    cmd = render_block("cmd", [EnvChange("A", "50%", ("X",)), UNSET]).lines
    assert 'set "A=50%%"' in cmd
    assert 'set "HIP_DISABLE_IPC="' in cmd
    assert cmd[0].startswith("REM >>>")


def test_cmd_refuses_a_value_it_cannot_carry() -> None:
    with pytest.raises(InputError, match="cmd cannot carry"):
        render_block("cmd", [EnvChange("A", 'say "hi"', ("X",))])


def docker_env_file(path: Path) -> Dict[str, str]:
    """Read an env file the way ``docker run --env-file`` does (docs: "Set environment variables").

    Docker's rules: a line whose first non-blank character is ``#`` is a comment, blank
    lines are skipped, ``VAR=VAL`` sets VAL literally (no quote removal, no expansion,
    the value runs to the end of the line), ``VAR`` alone copies the variable from
    the caller's environment.
    """
    values: Dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.lstrip()
        if not line or line.startswith("#"):
            continue
        name, sep, value = line.partition("=")
        if sep:
            values[name] = value
        elif name in os.environ:
            values[name] = os.environ[name]
    return values


def test_dotenv_file_reads_the_same_in_python_dotenv_and_docker(tmp_path: Path) -> None:
    from dotenv import dotenv_values

    path = tmp_path / ".env"
    result = write_env_file(path, "dotenv", SETS + [UNSET])
    expected = {c.name: c.value for c in SETS}
    assert dict(dotenv_values(path)) == expected
    assert docker_env_file(path) == expected
    assert any("dotenv cannot unset HIP_DISABLE_IPC" in note for note in result.notes)
    assert "cannot unset a variable" in path.read_text()


def test_dotenv_refuses_values_the_two_readers_would_disagree_on() -> None:
    with pytest.raises(InputError, match="docker --env-file and python-dotenv"):
        render_block("dotenv", [EnvChange("A", "two words", ("X",))])


def test_default_shell_follows_the_platform_and_login_shell() -> None:
    assert default_shell("windows", "/bin/zsh") == "powershell"
    assert default_shell("linux", "/usr/bin/fish") == "fish"
    assert default_shell("linux", "/bin/tcsh") == "bash"
    assert default_shell(None, None) == "bash"


def test_merge_keeps_user_lines_and_backs_up_the_previous_file(tmp_path: Path) -> None:
    path = tmp_path / "profile.sh"
    original = "# my settings\nexport FOO=1\n\nalias ll='ls -l'"
    path.write_text(original)
    first = write_env_file(path, "bash", SETS)
    assert first.changed and first.backup is not None
    assert first.backup.read_text() == original
    text = path.read_text()
    assert text.startswith(original + "\n")
    assert text.count(begin_marker("bash")) == 1
    second = write_env_file(path, "bash", SETS)
    assert not second.changed and second.backup is None
    assert path.read_text() == text


def test_rewrite_replaces_only_the_managed_block(tmp_path: Path) -> None:
    path = tmp_path / "env.sh"
    block = render_block("bash", SETS).lines
    path.write_text("A=1\n" + "\n".join(block) + "\nB=2\n")
    write_env_file(path, "bash", [SETS[0]])
    text = path.read_text()
    assert text.startswith("A=1\n") and text.endswith("\nB=2\n")
    assert "PYTORCH_HIP_ALLOC_CONF" not in text
    assert "HSA_OVERRIDE_GFX_VERSION='10.3.0'" in text


def test_dry_run_shows_a_unified_diff_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "env.sh"
    path.write_text("KEEP=1\n")
    result = write_env_file(path, "bash", SETS, dry_run=True)
    assert result.diff.startswith("--- a/env.sh\n+++ b/env.sh\n")
    assert "+export HSA_OVERRIDE_GFX_VERSION='10.3.0'" in result.diff
    assert path.read_text() == "KEEP=1\n"
    assert list(tmp_path.iterdir()) == [path]


def test_unbalanced_markers_are_refused_not_guessed(tmp_path: Path) -> None:
    path = tmp_path / "env.sh"
    path.write_text(begin_marker("bash") + "\nexport X=1\n")
    with pytest.raises(InputError, match="unbalanced"):
        write_env_file(path, "bash", SETS)
    assert path.read_text() == begin_marker("bash") + "\nexport X=1\n"


def test_crlf_files_get_crlf_block_lines(tmp_path: Path) -> None:
    path = tmp_path / "env.ps1"
    path.write_bytes(b"$env:KEEP = '1'\r\n")
    write_env_file(path, "powershell", SETS)
    data = path.read_bytes()
    assert data.startswith(b"$env:KEEP = '1'\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")


_marker_free = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60).filter(
    lambda s: ">>> rocm-doctor" not in s and "<<< rocm-doctor" not in s
)


@settings(max_examples=150, deadline=None)
@given(
    before=st.lists(_marker_free, max_size=8),
    after=st.lists(_marker_free, max_size=8),
    newline=st.sampled_from(["\n", "\r\n"]),
    had_block=st.booleans(),
)
def test_merge_property_unrelated_lines_survive_and_second_write_is_a_noop(
    before: List[str], after: List[str], newline: str, had_block: bool
) -> None:
    old_block = render_block("bash", [SETS[1]]).lines
    new_block = render_block("bash", SETS + [UNSET]).lines
    # Lines may contain any characters, including stray \r or \n inside them.
    head = newline.join(before)
    tail = newline.join(after)
    if had_block:
        existing = head + (newline if head else "") + newline.join(old_block) + newline + tail
    else:
        existing = head + (newline if head and tail else "") + tail
    merged = merge(existing, "bash", new_block)
    if had_block:
        begin, end = begin_marker("bash"), end_marker("bash")
        start, stop = merged.index(begin), merged.index(end) + len(end)
        old_start, old_stop = existing.index(begin), existing.index(end) + len(end)
        assert merged[:start] == existing[:old_start]
        assert merged[stop:] == existing[old_stop:]
    else:
        assert merged.startswith(existing)
    assert merge(merged, "bash", new_block) == merged
