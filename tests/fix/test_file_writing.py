"""Writing a user's file: only regular files, through links, read-only kept, encoding kept, no lines lost."""

from __future__ import annotations

import codecs
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from rocm_doctor.errors import InputError
from rocm_doctor.files import read_limited, update_file
from rocm_doctor.fix.envfile import begin_marker, end_marker, write_env_file
from rocm_doctor.model.remedy import EnvChange
from rocm_doctor.limits import EDIT_BYTES, Limit, LimitError

CHANGES = [EnvChange("HSA_OVERRIDE_GFX_VERSION", "10.3.0", ("RD201",))]
MACHINE = Path(__file__).resolve().parents[1] / "machines" / "docker-2x7900xt-rocm62"


def _no_backups(folder: Path) -> bool:
    return not list(folder.glob("*.rocm-doctor.bak"))


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_a_device_node_as_env_file_is_refused_and_stays_a_device() -> None:
    with pytest.raises(InputError, match="character device"):
        write_env_file(Path("/dev/null"), "bash", CHANGES)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_fix_write_env_to_dev_null_is_exit_2_and_leaves_the_device(run_cli) -> None:
    result = run_cli("fix", "--machine", str(MACHINE), "--write-env", "--env-file", "/dev/null", "--shell", "bash")
    assert result.exit_code == 2 and "/dev/null: is a character device" in result.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_as_env_file_is_refused_at_once_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "env.fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(InputError, match="FIFO"):
        write_env_file(fifo, "bash", CHANGES)
    with pytest.raises(InputError, match="FIFO"):
        read_limited(fifo, EDIT_BYTES)
    assert time.monotonic() - started < 5
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_linked_env_file_updates_the_file_it_points_to_and_stays_a_link(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "rocm.sh"
    target.write_text("export KEEP=1\n", encoding="utf-8")
    link = tmp_path / "rocm.sh"
    link.symlink_to(target)
    result = write_env_file(link, "bash", CHANGES)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert result.path == target
    assert "export KEEP=1\n" in target.read_text(encoding="utf-8")
    assert "HSA_OVERRIDE_GFX_VERSION" in target.read_text(encoding="utf-8")
    assert result.backup is not None and result.backup.parent == dotfiles


def test_a_read_only_env_file_is_left_alone_unless_forced(tmp_path: Path) -> None:
    path = tmp_path / "rocm.sh"
    path.write_text("export KEEP=1\n", encoding="utf-8")
    path.chmod(0o444)
    with pytest.raises(InputError, match="read-only.*--force"):
        write_env_file(path, "bash", CHANGES)
    assert path.read_text(encoding="utf-8") == "export KEEP=1\n" and _no_backups(tmp_path)
    write_env_file(path, "bash", CHANGES, force=True)
    assert "HSA_OVERRIDE_GFX_VERSION" in path.read_text(encoding="utf-8")
    assert stat.S_IMODE(path.stat().st_mode) == 0o444


@pytest.mark.parametrize(
    "codec, bom", [("utf-16", b""), ("utf-16-be", codecs.BOM_UTF16_BE), ("utf-8-sig", b""), ("utf-32", b"")]
)
def test_a_powershell_profile_keeps_its_encoding_and_byte_order_mark(tmp_path: Path, codec: str, bom: bytes) -> None:
    profile = tmp_path / "profile.ps1"
    profile.write_bytes(bom + "# mein Profil: Grüße\r\n$env:KEEP = 'ü'\r\n".encode(codec))
    head = profile.read_bytes()[:4]
    write_env_file(profile, "powershell", CHANGES)
    data = profile.read_bytes()
    assert data[:4] == head
    text = data[len(bom):].decode(codec)
    assert text.startswith("# mein Profil: Grüße\r\n$env:KEEP = 'ü'\r\n")
    assert "$env:HSA_OVERRIDE_GFX_VERSION = '10.3.0'\r\n" in text
    assert write_env_file(profile, "powershell", CHANGES).changed is False


def test_utf16_without_a_byte_order_mark_is_refused_untouched(tmp_path: Path) -> None:
    profile = tmp_path / "profile.ps1"
    original = "$env:KEEP = '1'\r\n".encode("utf-16-le")
    profile.write_bytes(original)
    with pytest.raises(InputError, match="NUL bytes and no byte-order mark"):
        write_env_file(profile, "powershell", CHANGES)
    assert profile.read_bytes() == original


def test_a_latin1_file_keeps_its_bytes_and_refuses_non_ascii_additions(tmp_path: Path) -> None:
    path = tmp_path / "rocm.sh"
    path.write_bytes("# Gr\xfc\xdfe\n".encode("latin-1"))
    write_env_file(path, "bash", CHANGES)
    assert path.read_bytes().startswith(b"# Gr\xfc\xdfe\n")
    with pytest.raises(InputError, match="not UTF-8"):
        write_env_file(path, "bash", [EnvChange("MY_VAR", "grüße", ("RD1",))])


def test_a_file_with_its_own_utf8_beside_stray_bytes_takes_ascii_lines_without_blaming_them(tmp_path: Path) -> None:
    # The refusal named the file's own "é" as non-ASCII "new lines".
    path = tmp_path / "rocm.sh"
    original = "# café\n".encode("utf-8") + b"# \xff\n"
    path.write_bytes(original)
    write_env_file(path, "bash", CHANGES)
    assert path.read_bytes().startswith(original)


def test_a_form_feed_does_not_end_a_line_so_the_kept_line_survives(tmp_path: Path) -> None:
    # The closing marker after a form feed is not a marker line: the block has no end, nothing is written.
    path = tmp_path / "rocm.sh"
    original = f"{begin_marker('bash')}\nexport OLD=1\nKEEP_ME=1\f{end_marker('bash')}\n"
    path.write_text(original, encoding="utf-8")
    with pytest.raises(InputError, match=r"rocm.sh: .*found the first at line 1 and the second at no line"):
        write_env_file(path, "bash", CHANGES)
    assert path.read_text(encoding="utf-8") == original and _no_backups(tmp_path)


@pytest.mark.parametrize("separator", ["\x0b", "\x1c", "\x85", "\u2028"])
def test_other_unicode_line_breaks_do_not_split_marker_lines(tmp_path: Path, separator: str) -> None:
    path = tmp_path / "rocm.sh"
    original = f"export A=1{separator}{begin_marker('bash')}\nexport B=2\n"
    path.write_text(original, encoding="utf-8")
    write_env_file(path, "bash", CHANGES)
    assert path.read_text(encoding="utf-8").startswith(original)


def test_repeated_markers_are_refused_naming_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "rocm.sh"
    begin, end = begin_marker("bash"), end_marker("bash")
    original = f"{begin}\n{end}\nexport KEEP=1\n{begin}\r\n{end}\r"
    path.write_text(original, encoding="utf-8", newline="")
    with pytest.raises(InputError, match="lines 1, 4 and the second at lines 2, 5"):
        write_env_file(path, "bash", CHANGES)
    assert path.read_bytes() == original.encode()


def test_an_env_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.sh"
    path.write_text("# x\n" * 100, encoding="utf-8")
    with pytest.raises(LimitError, match="edit.max_bytes"):
        update_file(path, lambda old: old + "x", limit=Limit("edit.max_bytes", 100, "bytes"))


def test_unset_names_from_a_rule_are_checked_so_no_command_reaches_the_shell(tmp_path: Path) -> None:
    path = tmp_path / "rocm.sh"
    with pytest.raises(InputError, match="not a valid identifier"):
        write_env_file(path, "bash", [EnvChange(f"FOO; touch {tmp_path}/pwned", None, ("RD1",))])
    assert not path.exists() and not (tmp_path / "pwned").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX appends")
def test_lines_appended_by_another_program_during_writes_are_never_lost(tmp_path: Path) -> None:
    path = tmp_path / "rocm.sh"
    path.write_text("export FIRST=1\n", encoding="utf-8")
    stop = tmp_path / "stop"
    # The other program appends until told to stop, so every one of our writes overlaps its appends however
    # slowly either side runs on a loaded machine; it prints how many lines it appended.
    appender = subprocess.Popen(
        [sys.executable, "-c",
         "import os, sys, time\n"
         "i = 0\n"
         "while not os.path.exists(sys.argv[2]):\n"
         "    with open(sys.argv[1], 'a') as f: f.write(f'export L{i}=1\\n')\n"
         "    i += 1\n"
         "    time.sleep(0.001)\n"
         "print(i)",
         str(path), str(stop)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while "export L0=1" not in path.read_text(encoding="utf-8") and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "export L0=1" in path.read_text(encoding="utf-8"), "the other program must be appending before we write"
        for writes in range(10):
            write_env_file(path, "bash", [EnvChange("HSA_OVERRIDE_GFX_VERSION", f"10.3.{writes}", ("RD201",))])
    finally:
        stop.touch()
        appended = int(appender.communicate(timeout=60)[0])
    text = path.read_text(encoding="utf-8")
    missing = [i for i in range(appended) if f"export L{i}=1\n" not in text]
    assert appended > 0 and missing == []


def test_a_write_waits_for_the_lock_another_writer_holds(tmp_path: Path) -> None:
    fcntl = pytest.importorskip("fcntl")
    path = tmp_path / "rocm.sh"
    path.write_text("export KEEP=1\n", encoding="utf-8")
    with open(path, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        releaser = threading.Timer(0.3, lambda: fcntl.flock(held, fcntl.LOCK_UN))
        releaser.start()
        started = time.monotonic()
        write_env_file(path, "bash", CHANGES)
        releaser.join()
    assert time.monotonic() - started >= 0.25
    assert "HSA_OVERRIDE_GFX_VERSION" in path.read_text(encoding="utf-8")


def test_an_env_file_of_too_many_lines_is_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "rocm.sh"
    path.write_text("\n" * 100_001, encoding="utf-8")
    with pytest.raises(LimitError, match="100,001 lines.*edit.max_lines"):
        write_env_file(path, "bash", CHANGES)
    assert path.read_text(encoding="utf-8") == "\n" * 100_001
