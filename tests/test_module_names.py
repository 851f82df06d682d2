"""A module binds each top-level name once: two branches that each add a ``_TABLE_RULE`` to one module merge
without a conflict, and the later binding silently replaces the earlier one for every function that reads it."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path
from typing import Iterator, List

PACKAGE = Path(__file__).resolve().parents[1] / "rocm_doctor"


def _top_level_names(tree: ast.Module) -> Iterator[str]:
    """Names bound by the module's own statements (not inside ``if``/``try``, where a second binding is a fallback)."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    yield target.id


def twice_bound(source: str) -> List[str]:
    counts = Counter(_top_level_names(ast.parse(source)))
    return sorted(name for name, count in counts.items() if count > 1 and name != "__all__")


def test_the_check_finds_a_name_bound_twice() -> None:
    assert twice_bound("_RULE = 1\ndef f():\n    return _RULE\n_RULE = 2\n") == ["_RULE"]
    assert twice_bound("try:\n    import re2 as re\nexcept ImportError:\n    import re\nX = 1\n") == []


def test_no_module_binds_a_top_level_name_twice() -> None:
    found = {str(path.relative_to(PACKAGE)): names for path in sorted(PACKAGE.rglob("*.py")) if (names := twice_bound(path.read_text(encoding="utf-8")))}
    assert found == {}
