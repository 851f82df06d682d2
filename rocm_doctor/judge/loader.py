"""Load rule files into :class:`~rocm_doctor.model.rules.Rule` objects, or fail with one line.

Sources, in order: the shipped database (``rules_dir()/*.yaml``), then every
``ROCM_DOCTOR_RULES`` entry (``os.pathsep``-separated), then every ``--rules PATH``;
a directory contributes its ``*.yaml``/``*.yml`` files in name order.

Every problem is a :class:`RuleFileError` whose message is one line::

    rules/pytorch.yaml:42: rule RD101: field 'fixes[0].kind': Input should be 'env', 'pip', ...

Line numbers come from a YAML loader that records where every mapping key and list
item starts. Checked at load time: the pydantic schema (unknown keys are errors),
duplicate YAML keys, duplicate ids and names, retired ids (``rules/retired.yaml``),
the structure of every condition, and every fact path used in a condition or a
``{placeholder}``.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, Hashable, Iterable, List, Optional, Sequence, Tuple

from pydantic import VERSION as PYDANTIC_VERSION
from pydantic import ValidationError

from rocm_doctor.cache import cached, key_of, source_stamps
from rocm_doctor.data import read_yaml, rules_dir, safe_loader
from rocm_doctor.errors import InputError
from rocm_doctor.judge import conditions, paths
from rocm_doctor.judge.interpolate import fix_templates, placeholders
from rocm_doctor.model.fixes import FIX_TYPES
from rocm_doctor.model.rules import Rule

ENV_VAR = "ROCM_DOCTOR_RULES"
RETIRED_FILE = "retired.yaml"
ID_PATTERN = re.compile(r"^[A-Z]{2,}[0-9]{3,}$")
NAME_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
TEMPLATE_FIELDS = ("title", "message")

class RuleFileError(InputError):
    """A rule file that cannot be used; the message is ``file:line: ...``."""


class LineDict(dict):
    """A YAML mapping that remembers the line of each key (1-based)."""

    lines: Dict[Any, int]
    line: int


class LineList(list):
    """A YAML sequence that remembers the line of each item (1-based)."""

    lines: List[int]
    line: int


class _DuplicateKey(Exception):
    def __init__(self, key: Any, line: int) -> None:
        super().__init__(key)
        self.key = key
        self.line = line


@lru_cache(maxsize=1)
def _line_loader() -> Any:
    """The safe loader that builds LineDict/LineList and rejects duplicate keys; made on first use, so that
    PyYAML is imported only when a rule file is parsed (the shipped rules usually come from the cache)."""
    import yaml

    class _LineLoader(safe_loader()):  # type: ignore[misc]
        """SafeLoader that builds LineDict/LineList and rejects duplicate keys."""

    _LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    _LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
    return _LineLoader


def _construct_mapping(loader: Any, node: Any) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.lines = {}
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, Hashable):
            from yaml.constructor import ConstructorError  # PyYAML is loaded: this runs inside it

            raise ConstructorError(None, None, "a mapping key is a list or mapping", key_node.start_mark)
        if key in result:
            raise _DuplicateKey(key, key_node.start_mark.line + 1)
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader: Any, node: Any) -> LineList:
    result = LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.lines = [child.start_mark.line + 1 for child in node.value]
    result.line = node.start_mark.line + 1
    return result




def parse_yaml(path: Path) -> Any:
    """Parse a YAML file into LineDict/LineList; errors name the file and line."""
    try:
        return read_yaml(path, loader=_line_loader(), error=RuleFileError)
    except FileNotFoundError as exc:
        raise RuleFileError(f"{path}: {exc.strerror or exc}") from None
    except _DuplicateKey as exc:
        raise RuleFileError(f"{path}:{exc.line}: duplicate key '{exc.key}'") from None


def format_loc(loc: Sequence[Any]) -> str:
    """``('fixes', 0, 'kind')`` -> ``fixes[0].kind``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def line_of(data: Any, loc: Sequence[Any]) -> Optional[int]:
    """The line of the deepest element of ``loc`` found in a LineDict/LineList tree."""
    line = getattr(data, "line", None)
    node = data
    for part in loc:
        if isinstance(node, LineDict) and part in node:
            line = node.lines.get(part, line)
            node = node[part]
        elif isinstance(node, LineList) and isinstance(part, int) and 0 <= part < len(node):
            line = node.lines[part]
            node = node[part]
        else:
            break
    return line


def _error(path: Path, line: Optional[int], rule_id: Optional[str], loc: Sequence[Any], message: str) -> RuleFileError:
    where = f"{path}:{line}" if line else str(path)
    rule = f" rule {rule_id}:" if rule_id else ""
    field = f" field '{format_loc(loc)}':" if loc else ""
    return RuleFileError(f"{where}:{rule}{field} {message}")


def _pydantic_message(error: Dict[str, Any]) -> str:
    if error["type"] == "extra_forbidden":
        return "unknown key"
    if error["type"] == "missing":
        return "required field is missing"
    if error["type"] == "union_tag_invalid":
        kinds = [f"'{k}'" for k in FIX_TYPES]
        return f"Input should be {', '.join(kinds[:-1])} or {kinds[-1]}"
    return str(error["msg"])


def _check_templates(path: Path, entry: LineDict, rule: Rule) -> None:
    for_each_gpu = rule.for_each == "gpu"
    templates: List[Tuple[Tuple[Any, ...], str]] = [((name,), getattr(rule, name)) for name in TEMPLATE_FIELDS]
    for index, fix in enumerate(rule.fixes):
        templates += [(("fixes", index), text) for text in fix_templates(fix)]
    for loc, text in templates:
        for placeholder in placeholders(text):
            problem = paths.check(placeholder, for_each_gpu)
            if problem is not None:
                message = f"placeholder {{{placeholder}}}: {problem}"
                raise _error(path, line_of(entry, loc), rule.id, loc, message)


def _without_union_tag(loc: Tuple[Any, ...]) -> Tuple[Any, ...]:
    """pydantic names the kind of a fix in the error location (``fixes.0.env.set``); the YAML has no such level."""
    out = list(loc)
    for position in range(len(out) - 2):
        if out[position] == "fixes" and isinstance(out[position + 1], int) and out[position + 2] in FIX_TYPES:
            del out[position + 2]
            break
    return tuple(out)


def _build_rule(path: Path, entry: Any, index: int, rules_list: LineList) -> Rule:
    rule_id = entry.get("id") if isinstance(entry, dict) else None
    rule_id = rule_id if isinstance(rule_id, str) else None
    if not isinstance(entry, LineDict):
        raise _error(path, rules_list.lines[index], None, (), f"rules[{index}] is not a mapping")
    try:
        rule = Rule.model_validate(dict(entry))
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = _without_union_tag(tuple(first["loc"]))
        if first["type"] == "union_tag_invalid":  # an unknown fix kind: name the field, list the kinds
            loc = loc + ("kind",)
        raise _error(path, line_of(entry, loc), rule_id, loc, _pydantic_message(first)) from None
    if not ID_PATTERN.match(rule.id):
        raise _error(path, line_of(entry, ("id",)), rule.id, ("id",), "ids look like RD101 (capital letters, digits)")
    if not NAME_PATTERN.match(rule.name):
        raise _error(path, line_of(entry, ("name",)), rule.id, ("name",), "names are kebab-case")
    try:
        conditions.validate(rule.when, rule.for_each == "gpu")
    except conditions.ConditionError as exc:
        loc = ("when",) + exc.loc
        raise _error(path, line_of(entry, loc), rule.id, loc, str(exc)) from None
    _check_templates(path, entry, rule)
    if rule.category_from is not None:
        problem = paths.check(rule.category_from, rule.for_each == "gpu")
        if problem is not None:
            raise _error(path, line_of(entry, ("category_from",)), rule.id, ("category_from",), problem)
    return rule.model_copy(update={"source_file": str(path), "source_line": entry.line})


def load_rule_file(path: Path) -> List[Rule]:
    """Every rule of one file, validated on its own (no cross-file checks)."""
    data = parse_yaml(path)
    if data is None:
        return []
    if not isinstance(data, LineDict):
        raise RuleFileError(f"{path}:1: a rule file is a mapping with a 'rules' list")
    extra = [k for k in data if k != "rules"]
    if extra:
        raise RuleFileError(f"{path}:{data.lines[extra[0]]}: unknown top-level key '{extra[0]}' (expected 'rules')")
    rules_list = data.get("rules")
    if rules_list is None:
        return []
    if not isinstance(rules_list, LineList):
        raise RuleFileError(f"{path}:{data.lines['rules']}: 'rules' must be a list")
    return [_build_rule(path, entry, index, rules_list) for index, entry in enumerate(rules_list)]


def load_retired(directory: Optional[Path] = None) -> Dict[str, str]:
    """Retired ids (never to be reused) -> where they are listed."""
    path = (directory or rules_dir()) / RETIRED_FILE
    if not path.is_file():
        return {}
    data = parse_yaml(path)
    entries = data.get("retired") if isinstance(data, LineDict) else None
    if data is not None and (not isinstance(data, LineDict) or set(data) != {"retired"} or not isinstance(entries, list)):
        raise RuleFileError(f"{path}:1: expected 'retired: [ids]'")
    retired: Dict[str, str] = {}
    for index, item in enumerate(entries or []):
        rule_id = item.get("id") if isinstance(item, dict) else item
        if not isinstance(rule_id, str):
            raise RuleFileError(f"{path}:{entries.lines[index]}: a retired entry is an id or a mapping with 'id'")
        retired[rule_id] = f"{path}:{entries.lines[index]}"
    return retired


def _files_in(path: Path) -> List[Path]:
    if path.is_dir():
        found = sorted(list(path.glob("*.yaml")) + list(path.glob("*.yml")))
        return [p for p in found if p.name != RETIRED_FILE]
    if path.exists():  # a file, or a FIFO or device that reading then refuses by name
        return [path]
    raise RuleFileError(f"{path}: no such rule file or directory")


def rule_sources(extra: Iterable[os.PathLike] = (), use_env: bool = True, builtin: bool = True) -> List[Path]:
    """The rule files to load, in order."""
    roots: List[Path] = [rules_dir()] if builtin else []
    if use_env:
        roots += [Path(p) for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p.strip()]
    roots += [Path(p) for p in extra]
    files: List[Path] = []
    for root in roots:
        if root == rules_dir() and not root.is_dir():
            continue
        if not files:  # nothing to repeat yet: resolving each file (a few lstat calls each) would keep them all
            files = _files_in(root)
            continue
        seen = {f.resolve() for f in files}
        files += [f for f in _files_in(root) if f.resolve() not in seen]
    return files


_CODE = (Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent / "model")
"""The code that builds and validates rules: part of the shipped rules' cache key, so that a source checkout
whose code changed under the same version never reuses rules validated by other code."""
_SHIPPED: Dict[str, Tuple[Dict[str, List[Rule]], Dict[str, str]]] = {}


def _shipped_key(root: Path, files: Sequence[Path]) -> str:
    parts: List[Any] = [str(root), PYDANTIC_VERSION]
    for path in [*files, root / RETIRED_FILE]:
        parts += [path.name, path.read_bytes() if path.is_file() else b""]
    return key_of(parts + source_stamps(_CODE))


def shipped_rules() -> Tuple[Dict[str, List[Rule]], Dict[str, str]]:
    """(rule file name -> its validated rules, retired ids) of the shipped database, parsed and validated
    once per installed version and file content, then read from the cache (:mod:`rocm_doctor.cache`)."""
    root = rules_dir()
    files = _files_in(root) if root.is_dir() else []
    key = _shipped_key(root, files)
    if key not in _SHIPPED:
        _SHIPPED[key] = cached("rules", key, lambda: ({f.name: load_rule_file(f) for f in files}, load_retired(root)))
    return _SHIPPED[key]


def _where(rule: Rule) -> str:
    return f"{rule.source_file}:{rule.source_line}"


def load_files(files: Iterable[Path], retired: Optional[Dict[str, str]] = None) -> List[Rule]:
    """Load and cross-check rule files: ids and names unique, no retired id.

    Shipped rule files come validated from the cache; every other file is read fresh.
    """
    files = list(files)
    root = rules_dir()
    shipped, shipped_retired = shipped_rules() if any(p.parent == root for p in files) else ({}, None)
    if retired is None:
        retired = shipped_retired if shipped_retired is not None else load_retired()
    rules: List[Rule] = []
    seen_ids: Dict[str, Rule] = {}
    seen_names: Dict[str, Rule] = {}
    for path in files:
        own = shipped.get(path.name) if path.parent == root else None
        for rule in own if own is not None else load_rule_file(path):
            if rule.id in retired:
                raise RuleFileError(f"{_where(rule)}: rule {rule.id}: field 'id': {rule.id} is retired ({retired[rule.id]})")
            for key, value, seen in (("id", rule.id, seen_ids), ("name", rule.name, seen_names)):
                if value in seen:
                    first = seen[value]
                    raise RuleFileError(
                        f"{_where(rule)}: rule {rule.id}: field '{key}': duplicate {key} {value}, "
                        f"first defined at {first.source_file}:{first.source_line}"
                    )
                seen[value] = rule
            rules.append(rule)
    return rules


def load_rules(extra: Iterable[os.PathLike] = (), use_env: bool = True, builtin: bool = True) -> List[Rule]:
    """The shipped rules plus ``ROCM_DOCTOR_RULES`` plus ``extra`` paths, validated."""
    return load_files(rule_sources(extra, use_env=use_env, builtin=builtin))


def validate_alone(path: os.PathLike) -> Tuple[List[Rule], List[Tuple[Rule, Rule]]]:
    """The rules of ``path`` checked on their own (ids and names unique within it, none retired),
    and each rule whose id is also a shipped rule's, paired with that shipped rule.

    A checkout's ``rules/`` beside an installed rocm-doctor holds the same ids as the installed
    copy: that is a shadow to report, not a duplicate, when the folder is what is being checked.
    """
    files = rule_sources([path], use_env=False, builtin=False)
    retired = dict(load_retired())
    if Path(path).is_dir():
        retired.update(load_retired(Path(path)))
    rules = load_files(files, retired)
    mine = {f.resolve() for f in files}
    shipped = {
        rule.id: rule
        for rule in load_files([f for f in rule_sources(use_env=False) if f.resolve() not in mine])
    }
    return rules, [(rule, shipped[rule.id]) for rule in rules if rule.id in shipped]

