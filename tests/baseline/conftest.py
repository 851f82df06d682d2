"""Fixtures: the in-process CLI runner, and a data folder of the test's own (baselines are written there)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_runner import run_cli  # noqa: F401


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from rocm_doctor import dbstore as store

    folder = tmp_path / "data"
    monkeypatch.setenv(store.DATA_DIR_VAR, str(folder))
    return folder
