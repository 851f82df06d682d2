"""Read many nodes' JSON documents into small per-node summaries.

Accepted, told apart by their content:

* ``rocm-doctor/check/1`` (``check --json``): facts and findings;
* ``rocm-doctor/bench/1`` (``bench --json``): benchmark figures;
* a facts document (``facts --json``): judged here with the rules, so it gets findings too.

A node's name is its file name up to the first dot (``gpu017.json``, ``gpu017.bench.json``);
a file named ``check``, ``facts`` or ``bench`` takes its folder's name
(``out/gpu017/check.json``), which is how Ansible's ``fetch`` lays files out. Documents of the
same node merge (a check and a bench). A file that cannot be read is skipped with the reason:
one that is not a regular file (a FIFO is never waited on), one over ``json.max_bytes``,
``json.max_depth`` or ``number.max_digits``, and one whose facts are over ``facts.max_gpus``,
``facts.max_entries`` or ``facts.max_text`` (the reason names the limit).
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from rocm_doctor import bounded_json
from rocm_doctor.bench.results import BENCH_SCHEMA
from rocm_doctor.errors import InputError
from rocm_doctor.facts.model import looks_like_facts
from rocm_doctor.files import kind_of, read_limited, walk_tree
from rocm_doctor.model.rules import ACTIONS, SEVERITY_ORDER, Rule, default_action
from rocm_doctor.judge.report import SCHEMA as CHECK_SCHEMA
from rocm_doctor.facts.model import Facts, FactsFileError, raw_over_limit, scan_limits
from rocm_doctor.limits import JSON_BYTES, JSON_DEPTH
from rocm_doctor.stack import Figure, devices_of, figures_of_tests, headline_figures, known_value, stack_of

GENERIC_NAMES = ("check", "facts", "bench")


@dataclass(frozen=True)
class NodeFinding:
    """What the aggregate keeps of one finding."""

    id: str
    action: str
    severity: str
    title: str
    gpu: Optional[int] = None


@dataclass
class Node:
    """One node's summary, merged from its documents."""

    name: str
    files: List[str] = field(default_factory=list)
    stack: Optional[Dict[str, str]] = None
    devices: Optional[Dict[str, str]] = None
    findings: List[NodeFinding] = field(default_factory=list)
    model: Optional[str] = None
    """The benchmarked GPU model (device name, else gfx target)."""
    figures: List[Figure] = field(default_factory=list)
    figures_from_bench: bool = False
    """The figures came from a ``bench --json`` document (they win over a check's)."""


@dataclass(frozen=True)
class Skipped:
    """A file that was not used, and why."""

    file: str
    reason: str


def node_name(path: Path) -> str:
    """``gpu017.bench.json`` -> ``gpu017``; ``gpu017/check.json`` -> ``gpu017``."""
    stem = path.name.split(".", 1)[0]
    return path.parent.name if stem in GENERIC_NAMES and path.parent.name else stem


def expand(paths: Sequence[Path]) -> List[Path]:
    """Files as given, and every ``*.json`` below each folder (sorted); a missing path is bad input.

    A named path that is not a regular file (a FIFO, a device) is bad input too; one found in a
    folder is listed, and :meth:`Reader.read` skips it with the reason, without waiting on it.
    """
    files: List[Path] = []
    for path in paths:
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            raise InputError(f"{path}: no such file or folder") from None
        except OSError as exc:
            raise InputError(f"{path}: {exc.strerror or exc}") from None
        if stat.S_ISDIR(mode):
            # A folder that cannot be listed is kept as an entry: reading it fails and it is skipped with the reason.
            files += sorted(p for p, kind in walk_tree(path, unreadable=True)
                            if kind is None or (p.name.endswith(".json") and not stat.S_ISDIR(kind)))
        elif stat.S_ISREG(mode):
            files.append(path)
        else:
            raise InputError(f"{path}: is {kind_of(mode)}, not a regular file")
    return files


def read_document(path: Path) -> Any:
    """The JSON document in ``path``, held to ``json.max_bytes``, ``json.max_depth`` and ``number.max_digits``.

    Raises OSError (cannot read), InputError (not a regular file, too large) or ValueError
    (not JSON, or over a JSON limit: :class:`bounded_json.JsonLimitError`).
    """
    data = read_limited(path, JSON_BYTES)
    return bounded_json.loads(data.decode(json.detect_encoding(data), "surrogatepass"))


def facts_part(document: Any) -> Any:
    """The facts a document holds, as :meth:`Reader._merge` reads them (None for a bench document)."""
    if not isinstance(document, dict):
        return None
    schema = document.get("schema")
    if schema == CHECK_SCHEMA:
        return document.get("facts")
    if schema != BENCH_SCHEMA and looks_like_facts(document):
        return document
    return None


def read_scanned(path: Path) -> Tuple[Any, bool]:
    """:func:`read_document` with the limits walked once: (the document, whether its facts are over a
    facts limit). Raises as :func:`read_document` does."""
    data = read_limited(path, JSON_BYTES)
    document = bounded_json.parse(data.decode(json.detect_encoding(data), "surrogatepass"))
    too_deep, facts_over = scan_limits(document, facts_part(document))
    if too_deep:
        raise bounded_json.JsonLimitError(bounded_json.TOO_DEEP.format(limit=JSON_DEPTH))
    return document, facts_over


def _reason(exc: Exception, path: Path) -> str:
    """An error's message without the file name it starts with (the skipped entry names the file)."""
    return str(exc).removeprefix(f"{path}: ")


class Reader:
    """Turns documents into :class:`Node` summaries; ``rules`` judge facts documents and name actions."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules = list(rules)
        self._actions = {rule.id: rule.effective_action for rule in rules}

    def read(self, files: Iterable[Path]) -> Tuple[Dict[str, Node], List[Skipped]]:
        nodes: Dict[str, Node] = {}
        skipped: List[Skipped] = []
        for path in files:
            try:
                document, facts_over = read_scanned(path)
            except OSError as exc:
                skipped.append(Skipped(str(path), exc.strerror or str(exc)))
                continue
            except InputError as exc:  # not a regular file, over json.max_bytes
                skipped.append(Skipped(str(path), _reason(exc, path)))
                continue
            except bounded_json.JsonLimitError as exc:
                skipped.append(Skipped(str(path), str(exc)))
                continue
            except (UnicodeDecodeError, ValueError) as exc:
                skipped.append(Skipped(str(path), f"not JSON ({type(exc).__name__})"))
                continue
            name = node_name(path)
            node = nodes.setdefault(name, Node(name))
            problem = self._merge(node, document, facts_over)
            if problem is not None:
                skipped.append(Skipped(str(path), problem))
                if not node.files:
                    del nodes[name]
            else:
                node.files.append(str(path))
        return nodes, skipped

    def _merge(self, node: Node, document: Any, facts_over: Optional[bool] = None) -> Optional[str]:
        """Fold one document into ``node``; a reason when it cannot be used.

        ``facts_over``: what :func:`scan_limits` said of its facts (None: not scanned, check them here);
        the exact reason is asked of :func:`raw_over_limit` only when they are over.
        """
        if not isinstance(document, dict):
            return "not a rocm-doctor document (a JSON object is expected)"
        schema = document.get("schema")
        if schema == BENCH_SCHEMA:
            return self._merge_bench(node, document)
        if schema == CHECK_SCHEMA:
            facts, findings = document.get("facts"), document.get("findings")
            if not isinstance(facts, dict) or not isinstance(findings, list):
                return "a check document without facts and findings"
            problem = raw_over_limit(facts) if facts_over is not False else None
            if problem is not None:
                return f"facts over a limit: {problem}"
            return self._merge_facts(node, facts, [self._finding(f) for f in findings if isinstance(f, dict)])
        if looks_like_facts(document):
            return self._merge_judged(node, document, facts_over)
        return "not a rocm-doctor check, facts or bench document"

    def _merge_facts(self, node: Node, facts: Mapping[str, Any], findings: List[NodeFinding]) -> Optional[str]:
        if node.stack is not None:
            return f"a second facts/check document for node {node.name}"
        node.stack, node.devices, node.findings = stack_of(facts), devices_of(facts), findings
        figures = headline_figures(facts)
        if figures:
            model = known_value(facts, "bench.device_name") or known_value(facts, "bench.gfx")
            if not node.figures_from_bench:
                node.model, node.figures = str(model or "unknown GPU"), figures
        return None

    def _merge_judged(self, node: Node, document: Dict[str, Any], facts_over: Optional[bool] = None) -> Optional[str]:
        # Imported only when a facts document is judged here, for start-up speed (downward: fleet is above the pipeline).
        from rocm_doctor.pipeline import evaluate

        problem = raw_over_limit(document) if facts_over is not False else None
        if problem is not None:
            return f"facts over a limit: {problem}"
        try:
            facts = Facts.from_dict(document)
        except FactsFileError as exc:
            return str(exc)
        result = evaluate(self.rules, facts)
        findings = [NodeFinding(f.id, f.action, f.severity, f.title, f.gpu) for f in result.findings]
        return self._merge_facts(node, document, findings)

    def _merge_bench(self, node: Node, document: Dict[str, Any]) -> Optional[str]:
        tests = document.get("tests")
        info = document.get("info") if isinstance(document.get("info"), dict) else {}
        if not isinstance(tests, dict):
            return "a bench document without tests"
        if node.figures_from_bench:
            return f"a second bench document for node {node.name}"
        node.model = str(info.get("name") or info.get("gcn_arch") or "unknown GPU")
        node.figures, node.figures_from_bench = figures_of_tests(tests), True
        return None

    def _finding(self, raw: Mapping[str, Any]) -> NodeFinding:
        rule_id = str(raw.get("id", "?"))
        severity = _choice(raw.get("severity"), tuple(SEVERITY_ORDER)) or "error"
        action = _choice(raw.get("action"), ACTIONS) or self._actions.get(rule_id) or default_action(severity)
        gpu = raw.get("gpu") if isinstance(raw.get("gpu"), int) else None
        return NodeFinding(rule_id, action, severity, str(raw.get("title", "")), gpu)


def _choice(value: Any, allowed: Sequence[str]) -> Optional[str]:
    """``value`` when it is one of ``allowed`` (a document may hold anything there), else None."""
    return value if isinstance(value, str) and value in allowed else None
