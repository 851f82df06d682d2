"""Test-wide guards: no test touches the real machine unless it says so."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator

# Compiled modules are cached under .pytest_cache even where PYTHONDONTWRITEBYTECODE is set (some CI and
# container images set it): otherwise every xdist worker and every command a test starts compiles the
# package and pytest rewrites every test module again, about a fifth of a 2-core run's CPU. Nothing is
# written next to the sources; the commands tests start inherit the same cache.
if sys.dont_write_bytecode:
    _PYCACHE = Path(__file__).resolve().parents[1] / ".pytest_cache" / "pycache"
    sys.pycache_prefix = str(_PYCACHE)
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = str(_PYCACHE)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# The torch the tests start (bench workers, the torch probe of a live check, fix --apply's re-check) computes on the
# CPU: with OpenMP's default of one thread per core, each of the two xdist workers' torch children spreads its
# measurement windows over both cores of a 2-core CI machine and spins between parallel regions. One thread each
# (where the run's environment does not set a number) does the same work for a fifth less CPU; no test checks a
# thread count.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import pytest  # noqa: E402
import yaml  # noqa: E402

import rocm_doctor.system.live as live  # noqa: E402

# The tests read the rule tables and the corpora with ``yaml.safe_load``, which is PyYAML's pure-Python loader:
# in each test worker that was seconds of collection alone. They read with libyaml's safe loader where PyYAML
# has it, as rocm_doctor itself does (rocm_doctor.data.safe_loader); both build the same plain values.
if getattr(yaml, "__with_libyaml__", False):
    yaml.safe_load = lambda stream: yaml.load(stream, Loader=yaml.CSafeLoader)  # noqa: S506 - a safe loader

MACHINES = Path(__file__).parent / "machines"
"""Recorded machines shipped as fixtures (one folder each)."""

_SCRUB_PREFIXES = ("HSA_", "HIP_", "ROCR_", "ROCM_", "PYTORCH_", "TORCH_", "AMD_", "MIOPEN_", "GPU_", "ROCM_DOCTOR_")


class YouForgotToUseARecordedMachine(AssertionError):
    """Raised when a test constructs LiveSystem without the live_machine marker."""


def _refuse_live_system(self: object) -> None:
    raise YouForgotToUseARecordedMachine(
        "this test reached the real machine through LiveSystem; use a RecordedSystem "
        "or mark the test @pytest.mark.live_machine"
    )


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite tests/machines/*/facts.json from the current gatherers instead of comparing.",
    )
    parser.addoption(
        "--all-pastes",
        action="store_true",
        default=False,
        help="Plant secrets in every real paste of the corpora, not the fixed sixth CI checks.",
    )


from cli_runner import CliResult, run_cli  # noqa: E402,F401 - one runner for every test folder


@pytest.fixture
def unlistable(monkeypatch: pytest.MonkeyPatch):
    """``unlistable("private")``: folders of that name cannot be listed (PermissionError), as another
    user's folder would be; root can list any folder, so the refusal is played."""
    import os

    real_scandir = os.scandir

    def install(name: str) -> None:
        def scandir(path):  # type: ignore[no-untyped-def]
            if Path(path).name == name:
                raise PermissionError(13, "Permission denied", str(path))
            return real_scandir(path)

        monkeypatch.setattr(os, "scandir", scandir)

    return install


@pytest.fixture(scope="session")
def _shipped_release_day():
    """The shipped database's release day, read once per run (no test changes the shipped ``RELEASE`` file;
    reading it before each of some 11,000 tests was a second or two of a run's CPU)."""
    import datetime

    from rocm_doctor import dbstore as store

    release = store.shipped_release()
    return None if release is None else datetime.date(*release.release[:3])


@pytest.fixture(autouse=True)
def _test_isolation(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
                    tmp_path_factory: pytest.TempPathFactory, _shipped_release_day) -> Iterator[None]:
    """What every test gets, in this order (one fixture, not five: pytest's own work for each fixture of each of
    some 12,000 tests was about a second of CPU per fixture over a run):

    * no test touches the real machine through LiveSystem unless it is marked ``live_machine``;
    * the developer's own ROCm variables do not leak into tests (every ``HSA_``, ``ROCM_`` ... variable and
      ``CUDA_VISIBLE_DEVICES`` removed);
    * the parsed rule database is cached in this test run's folder (each pytest-xdist worker has its own), never
      in the user's cache folder (set after the scrub, which removes every ROCM_* variable);
    * temporary files (crash logs above all: several tests make a command crash on purpose) go to this run's
      folder, which pytest removes, not the machine's /tmp;
    * the shipped rule database: an empty data folder (a user's own ``rules update`` never reaches a test), and
      today pinned to the database's release day so that no output grows an "old database" note as the
      calendar moves on.

    The commands that tests start inherit the variables."""
    import tempfile

    from rocm_doctor import cache, dbage as age, dbstore as store

    if request.node.get_closest_marker("live_machine") is None:
        monkeypatch.setattr(live.LiveSystem, "__init__", _refuse_live_system)
    for name in list(os.environ):
        if name.startswith(_SCRUB_PREFIXES) or name == "CUDA_VISIBLE_DEVICES":
            monkeypatch.delenv(name, raising=False)
    base = tmp_path_factory.getbasetemp()
    monkeypatch.setenv(cache.CACHE_ENV, str(base / "rule-cache"))
    folder = base / "tmp"
    folder.mkdir(exist_ok=True)
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setenv(store.DATA_DIR_VAR, str(base / "empty-data-folder"))
    day = _shipped_release_day
    if day is not None:
        monkeypatch.setattr(age, "today", lambda: day)
    store.forget()
    yield
    store.pin(None)
    store.forget()


HEAVIEST_FILES_FIRST = (
    "tests/bench/test_runner_classifications.py",
    "tests/ingest/test_corpus.py",
    "tests/ingest/test_anchors.py",
    "tests/facts/test_secret_redaction.py",
    "tests/ingest/test_linear_patterns.py",
    "tests/ingest/test_metamorphic.py",
    "tests/ruledb/test_rules_update.py",
    "tests/baseline/test_auto.py",
    "tests/contrib/test_ansible.py",
    "tests/ingest/test_anchors_of_readers_and_secrets.py",
    "tests/ingest/test_report.py",
    "tests/contrib/test_slurm.py",
    "tests/cli/test_input_limits.py",
)
"""The files that cost the most (CPU of the tests and their children, or time spent waiting on a deadline),
largest first, as measured on 2026-12-01 (session 55, a per-test CPU plugin and ``--durations``). Under
``--dist loadfile`` a file runs whole on one worker, in the order collected: pytest-randomly's shuffle sometimes
put two of these last, and one of CI's two cores sat idle for most of a minute (3 min 34 s against 4 min 28 s
for the same commit). Starting them first leaves the short files to fill the end. Within every file, and among
all other files, the random order stays."""


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    root = Path(str(config.rootpath))
    rank = {name: index for index, name in enumerate(HEAVIEST_FILES_FIRST)}
    by_path: dict = {}  # a file's rank, worked out once per file, not once per each of its tests (some 2,400 in one)

    def heaviness(item: pytest.Item) -> int:
        path = str(item.path)
        if path not in by_path:
            try:
                by_path[path] = rank.get(Path(path).relative_to(root).as_posix(), len(rank))
            except ValueError:
                by_path[path] = len(rank)
        return by_path[path]

    items.sort(key=heaviness)  # a stable sort: the order within each rank is the one collected
