"""A reader that raises is a crashed check with its log, never a silence: what it would have read is
unknown, and a report whose readers crashed is not "a report in which nothing was recognised"."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import rocm_doctor.ingest as ingest
from rocm_doctor.ingest import ingest_text

PASTE = "PyTorch version: 2.5.1+rocm6.2\nRuntimeError: HIP error: invalid device function\n"


def _raising(read):
    raise ValueError("a reader bug")


def _with_first_reader_raising(monkeypatch: pytest.MonkeyPatch) -> str:
    parser, gate, every_line = ingest.PARSERS[0]
    _raising.__module__ = parser.__module__
    monkeypatch.setattr(ingest, "PARSERS", [(_raising, lambda read: True, every_line), *ingest.PARSERS[1:]])
    return f"reader {parser.__module__.rsplit('.', 1)[-1]}._raising"


def test_a_reader_that_raises_is_one_crash_row_with_its_log(monkeypatch: pytest.MonkeyPatch) -> None:
    what = _with_first_reader_raising(monkeypatch)
    facts = ingest_text(PASTE + "\n```\nmore text\n```\n").facts
    rows = [c for c in facts.meta.crashes if c.what == what]
    assert len(rows) == 1  # once, although it raised on every block
    assert rows[0].reason == "ValueError: a reader bug"
    assert rows[0].log and "a reader bug" in Path(rows[0].log).read_text()
    os.unlink(rows[0].log)


def test_the_other_readers_still_read_when_one_crashes(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_first_reader_raising(monkeypatch)
    facts = ingest_text(PASTE).facts
    assert facts.torch.version.value == "2.5.1+rocm6.2"
    assert "hip_invalid_device_function" in facts.symptoms.signatures.value
    for crash in facts.meta.crashes:
        os.unlink(crash.log)


def test_no_reader_crashes_on_a_normal_report() -> None:
    assert ingest_text(PASTE).facts.meta.crashes == []


def test_check_from_a_paste_whose_only_reader_crashed_reports_the_crash_not_an_empty_paste(
    monkeypatch: pytest.MonkeyPatch, run_cli, tmp_path: Path
) -> None:
    monkeypatch.setattr(ingest, "PARSERS", [(_raising, lambda read: True, False)])
    paste = tmp_path / "report.txt"
    paste.write_text(PASTE)
    result = run_cli("check", "--from", str(paste))
    assert "nothing in it was recognised" not in result.stderr
    assert "crashed" in result.stdout + result.stderr
    assert "a reader bug" in result.stdout + result.stderr
    assert result.exit_code != 0
    for line in (result.stdout + result.stderr).splitlines():
        if "rocm-doctor-crash-" in line:
            for word in line.split():
                if "rocm-doctor-crash-" in word and os.path.exists(word.strip("()`'\".,")):
                    os.unlink(word.strip("()`'\".,"))


@pytest.mark.parametrize("module, name", [("install_log", "replacement_across_blocks"), ("mentions", "drop_superseded_cuda_index_installs")])
def test_a_pass_over_the_blocks_that_raises_is_a_crash_row_as_a_reader_is(monkeypatch: pytest.MonkeyPatch, module: str, name: str) -> None:
    """The passes that run after the readers (an install command in one block and pip's output in the next; a CUDA
    index install a later ROCm one replaced) were silenced on an exception: the context they decide was then missing
    without a word (RD963 or RD767 gone, or RD767 kept for a superseded command)."""

    def raising(*args: object) -> None:
        raise ValueError("a pass bug")

    raising.__module__ = f"rocm_doctor.ingest.formats.{module}"
    raising.__name__ = name
    monkeypatch.setattr(getattr(ingest, module), name, raising)
    facts = ingest_text(PASTE).facts
    rows = [c for c in facts.meta.crashes if c.what == f"reader {module}.{name}"]
    assert [row.reason for row in rows] == ["ValueError: a pass bug"]
    assert facts.torch.version.value == "2.5.1+rocm6.2"  # the readers' facts stay
    for crash in facts.meta.crashes:
        os.unlink(crash.log)
