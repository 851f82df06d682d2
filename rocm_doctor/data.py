"""Locate and load the rule database shipped with rocm-doctor (``rules/``)."""

from __future__ import annotations

import pickle
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Type

from rocm_doctor.cache import cached, key_of
from rocm_doctor.errors import InputError
from rocm_doctor.files import read_limited
from rocm_doctor.limits import INTEGER_DIGITS, YAML_BYTES, YAML_DEPTH, YAML_NODES
from rocm_doctor.dbstore import active_update, pinned, shipped_dir

def safe_loader() -> Any:
    """libyaml's safe loader when PyYAML was built with it (ten times faster), else the Python one.

    PyYAML is imported on first use, for start-up speed only: on most runs the rule database comes
    from the cache (:mod:`rocm_doctor.cache`) and no YAML is parsed.
    """
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def __getattr__(name: str) -> Any:
    if name == "SAFE_LOADER":  # the loader class, imported only when someone asks for it
        return safe_loader()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def rules_dir() -> Path:
    """The rule database in use: an update installed by ``rules update`` while it is newer than the
    shipped one (see :mod:`rocm_doctor.dbstore`), else the shipped database (inside the
    installed package, or the repository's ``rules/``)."""
    folder = pinned()
    if folder is not None:
        return folder
    update = active_update()
    return update.rules if update is not None else shipped_dir()


def read_yaml(path: Path, loader: Any = None, error: Type[InputError] = InputError) -> Any:
    """Parse a YAML file with a safe loader; every problem is ``error`` naming the file (and line).

    The file is read only if it is a regular file within ``yaml.max_bytes``, and loaded only
    after :func:`yaml_shape_problem` has passed it (nesting, aliases, integers).
    A missing file raises FileNotFoundError: callers decide whether that is an error.
    ``loader``: :func:`safe_loader` or a subclass of it (the default is the safe loader).
    """
    import yaml  # on first use (see safe_loader)

    loader = loader if loader is not None else safe_loader()
    data = read_limited(path, YAML_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start})") from None
    problem = yaml_shape_problem(text, loader)
    if problem is not None:
        line, message = problem
        raise error(f"{path}:{line}: {message}")
    try:
        return yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader (or a subclass of one)
    except RecursionError:  # pragma: no cover - the shape check refuses deep documents first
        raise error(f"{path}: not valid YAML (nested too deeply)") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem_text = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise error(f"{path}{line}: not valid YAML ({problem_text})") from None
    except ValueError as exc:  # a value the constructor cannot build (an explicitly tagged bad number)
        raise error(f"{path}: not valid YAML ({exc})") from None


_INTEGER = re.compile(r"[-+]?(?:0b[0-1_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?::[0-5]?[0-9])*)")
"""What YAML 1.1 reads as an integer (PyYAML's resolver), written in any base."""
_INT_TAG = "tag:yaml.org,2002:int"


def yaml_shape_problem(text: str, loader: Any = None) -> Optional[Tuple[int, str]]:
    """``(line, message)`` when the document is over a limit, else None; one pass over the parser's events.

    The events come from the parser without recursion, so this is safe on any input; the
    loader (libyaml's included) recurses once per nesting level and builds every alias, so
    it runs only on a document that is within ``yaml.max_depth`` and ``yaml.max_nodes``
    (aliases counted expanded) and has no integer over ``number.max_digits``. Syntax errors
    are left to the loader, which names them.
    """
    import yaml  # on first use (see safe_loader)

    opening = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    closing = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    parser = (loader if loader is not None else safe_loader())(text)
    sizes: Dict[str, int] = {}
    stack: List[List[Any]] = [[None, 0]]
    """Open collections: [anchor, nodes so far]; the first entry counts the whole stream."""
    total = 0
    try:
        while parser.check_event():
            event = parser.get_event()
            line = event.start_mark.line + 1
            if isinstance(event, closing):
                anchor, count = stack.pop()
                if anchor is not None:
                    sizes[anchor] = count
                stack[-1][1] += count
                continue
            if isinstance(event, yaml.AliasEvent):
                if any(entry[0] == event.anchor for entry in stack):
                    return line, f"alias *{event.anchor} refers to a mapping or list that contains it"
                added = sizes.get(event.anchor, 1)
            elif isinstance(event, opening):
                if len(stack) > YAML_DEPTH.value:
                    return line, f"nested too deeply (limit {YAML_DEPTH})"
                stack.append([event.anchor, 1])
                added = 0
                total += 1
            elif isinstance(event, yaml.ScalarEvent):
                if len(event.value) > INTEGER_DIGITS.value and _is_integer(event):
                    return line, f"an integer of {len(event.value):,} characters (limit {INTEGER_DIGITS})"
                if event.anchor is not None:
                    sizes[event.anchor] = 1
                added = 1
            else:
                continue
            stack[-1][1] += added
            total += added
            if total > YAML_NODES.value:
                return line, f"too many values with every alias expanded (limit {YAML_NODES})"
    except yaml.YAMLError:
        return None
    finally:
        parser.dispose()
    return None


def _is_integer(event: Any) -> bool:
    plain = not event.style and event.implicit[0]
    return (plain or event.tag == _INT_TAG) and _INTEGER.fullmatch(event.value) is not None


def _table_path_and_key(name: str) -> Tuple[Path, str]:
    path = rules_dir() / "data" / f"{name}.yaml"
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: data table missing from the rule database") from None
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror or exc}") from None
    return path, key_of([str(path), raw])


def table_key(name: str) -> str:
    """The cache key of ``rules/data/<name>.yaml`` as it is now (its path and bytes, this version, this Python)."""
    return _table_path_and_key(name)[1]


@lru_cache(maxsize=None)
def load_table(name: str) -> Any:
    """Load ``rules/data/<name>.yaml``; a malformed table is an InputError naming the line.

    Parsed once per installed version and table content, then read from the cache (:mod:`rocm_doctor.cache`).
    """
    path, key = _table_path_and_key(name)
    return cached(f"table-{name}", key, lambda: read_yaml(path))


HEAD_BYTES = 4096
"""A top-level field of a table is in its head when it pickles to at most this many bytes."""
HEADER_FIELDS = ("checked", "against")
"""Always in the head, however long: when the table was checked and against which sources (the
variable registry checks against some eighty tagged source trees)."""


@lru_cache(maxsize=None)
def load_table_head(name: str) -> Dict[str, Any]:
    """The small top-level fields of ``rules/data/<name>.yaml`` (its prefixes, dates, sources: not its
    rows), read from their own cache entry so that a caller that needs only these never loads the rows."""
    _path, key = _table_path_and_key(name)

    def build() -> Dict[str, Any]:
        table = load_table(name)
        if not isinstance(table, dict):
            return {}
        return {
            k: v for k, v in table.items()
            if k in HEADER_FIELDS or len(pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL)) <= HEAD_BYTES
        }

    return cached(f"table-{name}-head", key, build)
