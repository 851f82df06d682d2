"""The floors of docs/architecture.md, held to the code: no import runs up a floor, no import circle.

Imports are read with :mod:`ast` from every module under ``rocm_doctor/``, those inside functions
included (an import hidden in a function to dodge a cycle is still an arrow).
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Set, Tuple

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rocm_doctor"
DOC = ROOT / "docs" / "architecture.md"

Edge = Tuple[str, str, str, int]
"""(importing module, imported module, file, line)."""


def module_names(package: Path = PACKAGE) -> Dict[str, Path]:
    """``rocm_doctor.x.y`` -> its file, for every module and package ``__init__``."""
    names: Dict[str, Path] = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def imports_of(name: str, path: Path, known: Dict[str, Path]) -> List[Edge]:
    """Every ``rocm_doctor`` module that ``name`` imports, wherever the import statement is."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    where = str(path.relative_to(ROOT)) if ROOT in path.parents else str(path)
    edges: List[Edge] = []
    for node in ast.walk(tree):
        targets: List[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]
        for target in targets:
            while target not in known and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in known and target.startswith("rocm_doctor") and target != name:
                edges.append((name, target, where, node.lineno))
    return edges


@lru_cache(maxsize=1)
def import_graph() -> Tuple[Edge, ...]:
    """The package's import arrows, read once per test process (two tests read them; parsing every module is the cost)."""
    known = module_names()
    return tuple(edge for name, path in known.items() for edge in imports_of(name, path, known))


def floors_from_doc(text: str) -> Dict[str, int]:
    """``| 5 | judge |`` rows of the floor table -> {package: floor}; ``base`` names the root modules."""
    floors: Dict[str, int] = {}
    for match in re.finditer(r"^\| *(\d+) *\| *([^|]+?) *\|", text, re.M):
        for package in re.findall(r"`([A-Za-z_]+)`", match.group(2)):
            floors[package] = int(match.group(1))
    return floors


FLOORS = floors_from_doc(DOC.read_text(encoding="utf-8"))


def package_of(module: str) -> str:
    """The room a module lives in: its package under ``rocm_doctor``, a root module the table names
    (``pipeline``), or ``base`` for the other root modules."""
    parts = module.split(".")
    if len(parts) == 1:
        return "base"  # rocm_doctor/__init__.py: the version
    if (PACKAGE / parts[1]).is_dir() or parts[1] in FLOORS:
        return parts[1]
    return "base"


def floor_of(module: str) -> int:
    return FLOORS[package_of(module)]


def test_the_floor_table_names_every_package_and_the_base() -> None:
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and any(p.glob("*.py"))}
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    assert "base" in FLOORS
    assert sorted(packages - set(FLOORS)) == [], "give each new package a floor in docs/architecture.md"
    assert sorted(set(FLOORS) - packages - modules - {"base"}) == [], "docs/architecture.md names a package that is gone"


def test_no_import_runs_from_a_lower_floor_to_a_higher_one_or_across_a_floor() -> None:
    wrong = []
    for source, target, where, line in import_graph():
        a, b = package_of(source), package_of(target)
        if a == b:
            continue
        if floor_of(source) < floor_of(target):
            wrong.append(f"{where}:{line}: {source} (floor {floor_of(source)}) imports {target} (floor {floor_of(target)})")
        elif floor_of(source) == floor_of(target):
            wrong.append(f"{where}:{line}: {source} imports {target}, a neighbour on floor {floor_of(source)}")
    assert wrong == []


def test_the_import_graph_has_no_cycle() -> None:
    graph: Dict[str, Set[str]] = {}
    for source, target, _where, _line in import_graph():
        graph.setdefault(source, set()).add(target)
    state: Dict[str, int] = {}  # 1: on the current path, 2: done
    cycles: List[List[str]] = []

    def visit(node: str, path: List[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    assert cycles == []


def test_an_import_inside_a_function_is_an_arrow_too(tmp_path: Path) -> None:
    package = tmp_path / "rocm_doctor"
    (package / "judge").mkdir(parents=True)
    (package / "remedy").mkdir()
    for folder in (package, package / "judge", package / "remedy"):
        (folder / "__init__.py").write_text("", encoding="utf-8")
    (package / "remedy" / "decide.py").write_text("def decide():\n    pass\n", encoding="utf-8")
    engine = package / "judge" / "engine.py"
    engine.write_text("def evaluate():\n    from rocm_doctor.remedy.decide import decide\n    return decide()\n", encoding="utf-8")
    known = module_names(package)
    edges = imports_of("rocm_doctor.judge.engine", engine, known)
    assert [(source, target, line) for source, target, _where, line in edges] == [
        ("rocm_doctor.judge.engine", "rocm_doctor.remedy.decide", 2)
    ]
