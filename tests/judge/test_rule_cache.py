"""The shipped rule database is parsed and validated once per installed version and kept on disk;
user rule files are always read fresh (rocm_doctor/cache.py, judge/loader.py, data.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, List

import pytest

from rocm_doctor import cache, data
from rocm_doctor.errors import InputError
from rocm_doctor.judge import loader


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_ENV, str(folder))
    monkeypatch.setattr(loader, "_SHIPPED", {})
    return folder


RULE_FILES_COPIED = ("driver.yaml", "env.yaml", "platform.yaml")
"""The rule files of the copy: what the cache does is the same for any number of files, and parsing all 70 (half a
second of CPU) in each of these tests, some twice, was most of this file's time. The whole shipped database goes
through the same cache in every other test that loads rules (each test worker and each command a test starts)."""


@pytest.fixture
def rules_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the shipped database (its tables, release and retired ids, and three of its rule files) that the
    loader and the tables read as the shipped one."""
    root = tmp_path / "rules"
    shipped = data.rules_dir()
    shutil.copytree(shipped, root, ignore=lambda folder, names: [
        n for n in names if Path(folder) == shipped and n.endswith(".yaml") and n != loader.RETIRED_FILE and n not in RULE_FILES_COPIED])
    assert sorted(p.name for p in loader._files_in(root)) == sorted(RULE_FILES_COPIED)
    monkeypatch.setattr(loader, "rules_dir", lambda: root)
    monkeypatch.setattr(data, "rules_dir", lambda: root)
    data.load_table.cache_clear()
    data.load_table_head.cache_clear()
    yield root
    data.load_table.cache_clear()
    data.load_table_head.cache_clear()


def counting(monkeypatch: pytest.MonkeyPatch) -> List[Path]:
    """Record every rule file the loader parses."""
    parsed: List[Path] = []
    original: Callable = loader.load_rule_file

    def spy(path: Path):  # type: ignore[no-untyped-def]
        parsed.append(path)
        return original(path)

    monkeypatch.setattr(loader, "load_rule_file", spy)
    return parsed


def entries(folder: Path, prefix: str) -> List[Path]:
    return sorted(folder.glob(f"{prefix}-*.pickle"))


def test_the_shipped_rules_are_parsed_once_then_read_from_the_cache(
    cache_dir: Path, rules_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed = counting(monkeypatch)
    first = loader.load_rules(use_env=False)
    assert parsed and len(entries(cache_dir, "rules")) == 1
    parsed.clear()
    monkeypatch.setattr(loader, "_SHIPPED", {})  # a new process
    again = loader.load_rules(use_env=False)
    assert parsed == []
    assert again == first
    assert [(r.source_file, r.source_line) for r in again] == [(r.source_file, r.source_line) for r in first]


def test_a_changed_shipped_rule_file_is_parsed_again_not_served_stale(
    cache_dir: Path, rules_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loader.load_rules(use_env=False)
    target = rules_copy / "driver.yaml"
    text = target.read_text(encoding="utf-8")
    title = next(r.title for r in loader.load_rules(use_env=False) if r.source_file == str(target))
    target.write_text(text.replace(title, title + " (edited)", 1), encoding="utf-8")
    monkeypatch.setattr(loader, "_SHIPPED", {})
    titles = {r.title for r in loader.load_rules(use_env=False) if r.source_file == str(target)}
    assert title + " (edited)" in titles


def test_a_corrupt_entry_is_rebuilt(cache_dir: Path, rules_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = loader.load_rules(use_env=False)
    (entry,) = entries(cache_dir, "rules")
    entry.write_bytes(b"\x80\x05not a pickle at all")
    monkeypatch.setattr(loader, "_SHIPPED", {})
    parsed = counting(monkeypatch)
    assert loader.load_rules(use_env=False) == expected
    assert parsed, "the damaged entry was used"
    monkeypatch.setattr(loader, "_SHIPPED", {})
    parsed.clear()
    assert loader.load_rules(use_env=False) == expected
    assert parsed == [], "the entry was not rewritten whole"


def test_an_entry_another_user_could_have_written_is_not_trusted(
    cache_dir: Path, rules_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not hasattr(os, "getuid"):
        pytest.skip("file modes are POSIX")
    loader.load_rules(use_env=False)
    (entry,) = entries(cache_dir, "rules")
    entry.chmod(0o666)
    monkeypatch.setattr(loader, "_SHIPPED", {})
    parsed = counting(monkeypatch)
    loader.load_rules(use_env=False)
    assert parsed


def test_another_version_of_rocm_doctor_never_reuses_an_entry(
    cache_dir: Path, rules_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loader.load_rules(use_env=False)
    monkeypatch.setattr(cache, "__version__", "999.0.0")
    monkeypatch.setattr(loader, "_SHIPPED", {})
    parsed = counting(monkeypatch)
    loader.load_rules(use_env=False)
    assert parsed
    assert len(entries(cache_dir, "rules")) == 2


def test_a_user_rule_file_is_read_fresh_every_time(cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = data.rules_dir() / "driver.yaml"
    user = tmp_path / "mine.yaml"
    user.write_text(shipped.read_text(encoding="utf-8").replace("id: RD", "id: XX").replace("name: ", "name: my-"),
                    encoding="utf-8")
    first = [r for r in loader.load_rules([user], use_env=False) if r.source_file == str(user)]
    assert first
    user.write_text(user.read_text(encoding="utf-8").replace(first[0].title, "Changed by the user", 1), encoding="utf-8")
    again = [r for r in loader.load_rules([user], use_env=False) if r.source_file == str(user)]
    assert "Changed by the user" in {r.title for r in again}
    for entry in cache_dir.glob("*.pickle"):
        assert str(user).encode() not in entry.read_bytes()


def test_a_data_table_comes_from_the_cache_and_a_changed_table_is_read_again(
    cache_dir: Path, rules_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = data.load_table("xnack")
    assert entries(cache_dir, "table-xnack")
    data.load_table.cache_clear()
    monkeypatch.setattr(data, "read_yaml", lambda *a, **k: pytest.fail("parsed although cached"))
    assert data.load_table("xnack") == table
    monkeypatch.undo()
    monkeypatch.setenv(cache.CACHE_ENV, str(cache_dir))
    monkeypatch.setattr(data, "rules_dir", lambda: rules_copy)
    path = rules_copy / "data" / "xnack.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\nextra_key_for_the_test: 1\n", encoding="utf-8")
    data.load_table.cache_clear()
    assert data.load_table("xnack")["extra_key_for_the_test"] == 1


def test_no_cache_folder_means_every_load_parses(monkeypatch: pytest.MonkeyPatch, rules_copy: Path) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, "")
    monkeypatch.setattr(loader, "_SHIPPED", {})
    parsed = counting(monkeypatch)
    loader.load_rules(use_env=False)
    assert parsed


WRITER = """
import sys
from rocm_doctor import cache
value = cache.cached("race", "k" * 64, lambda: list(range(200_000)))
assert value == list(range(200_000))
"""


def test_concurrent_writers_leave_one_whole_entry_and_no_temporary_file(cache_dir: Path) -> None:
    env = {**os.environ, cache.CACHE_ENV: str(cache_dir)}
    writers = [subprocess.Popen([sys.executable, "-c", WRITER], env=env, stderr=subprocess.PIPE) for _ in range(6)]
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err.decode(errors="replace")
    assert [p.name for p in cache_dir.iterdir() if p.name.startswith(".")] == []
    assert cache.cached("race", "k" * 64, lambda: pytest.fail("the entry was not whole")) == list(range(200_000))


def test_the_table_check_dates_of_the_database_in_use_come_from_the_cached_heads(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rocm_doctor import ruledb

    data.load_table_head.cache_clear()
    expected = ruledb.table_checks()  # fills the heads' entries
    data.load_table_head.cache_clear()
    monkeypatch.setattr(ruledb, "read_yaml", lambda *a, **k: pytest.fail("a whole table was parsed for its header"))
    monkeypatch.setattr(data, "read_yaml", lambda *a, **k: pytest.fail("a whole table was parsed for its header"))
    assert ruledb.table_checks() == expected
    data.load_table_head.cache_clear()


def test_old_entries_of_a_name_are_removed_beyond_the_newest_few_and_other_names_are_kept(cache_dir: Path) -> None:
    keys = [f"{n:x}" * 64 for n in range(cache.KEEP_PER_ENTRY + 3)]
    for age, key in enumerate(keys):
        cache.cached("table-x", key[:64], lambda key=key: key)
        written = cache.entry_path(cache_dir, "table-x", key[:64])
        os.utime(written, (1_000_000 + age, 1_000_000 + age))  # written one after another
    cache.cached("table-x-head", "f" * 64, lambda: "head")
    left = sorted(p.name for p in cache_dir.iterdir() if p.name.startswith("table-x-") and "head" not in p.name)
    assert left == sorted(cache.entry_path(cache_dir, "table-x", k[:64]).name for k in keys[-cache.KEEP_PER_ENTRY:])
    assert cache.entry_path(cache_dir, "table-x-head", "f" * 64).is_file()


def test_the_signature_table_is_built_once_then_read_from_the_cache_and_rebuilt_when_the_table_changes(
    cache_dir: Path, rules_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rocm_doctor.ingest import signatures as table

    built: List[int] = []
    original = table.build
    monkeypatch.setattr(table, "build", lambda rows: built.append(1) or original(rows))
    first = table.signatures.__wrapped__()
    again = table.signatures.__wrapped__()  # as a new process would: from the entry
    assert len(built) == 1 and again == first and again[0].pattern._compiled is None
    path = rules_copy / "data" / "signatures.yaml"
    text = path.read_text(encoding="utf-8")
    meaning = first[0].meaning.split("\n")[0].strip()
    path.write_text(text.replace(meaning, "Edited. " + meaning, 1), encoding="utf-8")
    data.load_table.cache_clear()
    assert table.signatures.__wrapped__()[0].meaning.startswith("Edited. ")
    path.write_text(text.replace("\n    pattern: ", "\n    context: '(unclosed'\n    pattern: ", 1), encoding="utf-8")
    data.load_table.cache_clear()
    with pytest.raises(InputError, match=r"signatures\[0\]\.context: invalid regex"):
        table.signatures.__wrapped__()


def test_a_source_stamp_changes_with_the_file_and_names_a_missing_one(tmp_path: Path) -> None:
    source_stamps = cache.source_stamps
    code = tmp_path / "code"
    code.mkdir()
    module = code / "rows.py"
    module.write_text("A = 1\n")
    before = source_stamps([code])
    module.write_text("A = 22\n")
    assert source_stamps([code]) != before
    gone = tmp_path / "gone.py"
    assert source_stamps([gone]) == [f"{gone.as_posix()}:missing"]
