"""The suite's heaviest files are started first, so a 2-core CI run does not end on one busy core."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def heaviest(request: pytest.FixtureRequest) -> tuple:
    # tests/conftest.py is loaded as a plugin (the tests are not a package, so it cannot be imported by name).
    lists = [plugin.HEAVIEST_FILES_FIRST for plugin in request.config.pluginmanager.get_plugins()
             if hasattr(plugin, "HEAVIEST_FILES_FIRST")]
    assert len(lists) == 1
    return lists[0]


def test_every_file_named_heaviest_exists_so_the_list_does_not_rot(heaviest: tuple) -> None:
    missing = [name for name in heaviest if not (ROOT / name).is_file()]
    assert not missing, f"rename or drop these in tests/conftest.py: {missing}"


def test_the_heaviest_files_are_collected_before_the_others(request: pytest.FixtureRequest, heaviest: tuple) -> None:
    paths = [Path(str(item.path)).relative_to(ROOT).as_posix() for item in request.session.items]
    present = [name for name in heaviest if name in paths]
    firsts = [paths.index(name) for name in present]
    assert firsts == sorted(firsts), "the heavy files are not in the listed order"
    others = [index for index, path in enumerate(paths) if path not in heaviest]
    if present and others:
        assert max(index for index, path in enumerate(paths) if path in present) < min(others)
