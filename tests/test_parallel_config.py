"""Under pytest-xdist the project's configuration keeps a file's tests on one worker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

MODULE = '''
import os
import pytest

@pytest.fixture(scope="module")
def built():
    with open(os.environ["BUILT_LOG"], "a") as log:
        log.write(os.environ.get("PYTEST_XDIST_WORKER", "-") + "\\n")

@pytest.mark.parametrize("n", range(8))
def test_uses_the_module_fixture(built, n):
    pass
'''


def test_a_module_fixture_is_built_once_when_the_suite_runs_on_two_workers(tmp_path: Path) -> None:
    # A Slurm cluster, a venv or a local index is a module fixture: split across workers it was built twice
    # (xdist_group marks would not help: pytest 9.2 ignores them, pytest-dev/pytest-xdist#1386).
    pytest.importorskip("xdist")
    (tmp_path / "test_shared.py").write_text(MODULE, encoding="utf-8")
    log = tmp_path / "built.log"
    # Only xdist is loaded (the other installed plugins took two thirds of the three processes' CPU time and have
    # no say in how tests are shared); with an empty configuration instead of ours the fixture is still built twice.
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path),
         "-p", "xdist.plugin", "-n", "2", "-p", "no:randomly", "-p", "no:cacheprovider", "-q", str(tmp_path / "test_shared.py")],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
        env=dict(os.environ, BUILT_LOG=str(log), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1"),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(log.read_text().splitlines()) == 1, done.stdout


def test_a_test_run_caches_the_rule_database_in_its_own_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    # Not the user's cache folder (a test must not write there, nor read what a user's run left),
    # and one per pytest-xdist worker.
    from rocm_doctor import cache

    assert cache.cache_dir() == tmp_path_factory.getbasetemp() / "rule-cache"
