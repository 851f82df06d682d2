"""``fleet --baseline DIR``: each node against its own earlier record, not only against its peers.

Pure functions over :class:`~rocm_doctor.fleet.load.Node` summaries read from two folders laid out
alike (the same node names): which nodes changed since the earlier run, what changed on them (stack
and GPU layout), and which findings appeared or disappeared there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional

from rocm_doctor.fleet.load import Node


@dataclass(frozen=True)
class NodeSince:
    """What changed on one node since its earlier record."""

    node: str
    changes: List[str] = field(default_factory=list)
    """``torch 2.5.1+rocm6.2 -> 2.6.0+rocm6.2``."""
    appeared: List[str] = field(default_factory=list)
    disappeared: List[str] = field(default_factory=list)


@dataclass(frozen=True)
class FleetSince:
    baseline: str
    changed: List[NodeSince]
    unchanged: int
    new_nodes: List[str]
    gone_nodes: List[str]


def _dims(node: Node) -> Optional[Dict[str, str]]:
    if node.stack is None and node.devices is None:
        return None
    return {**(node.stack or {}), **(node.devices or {})}


def node_since(earlier: Node, now: Node) -> NodeSince:
    old, new = _dims(earlier), _dims(now)
    changes = []
    if old is not None and new is not None:
        changes = [f"{key} {old.get(key)} -> {new.get(key)}" for key in new if key in old and old[key] != new[key]]
    before = {f.id for f in earlier.findings}
    after = {f.id for f in now.findings}
    return NodeSince(now.name, changes, sorted(after - before), sorted(before - after))


def since(baseline: str, earlier: Mapping[str, Node], now: Mapping[str, Node]) -> FleetSince:
    """Nodes compared with their own earlier record, by name."""
    changed: List[NodeSince] = []
    unchanged = 0
    for name in sorted(set(earlier) & set(now)):
        found = node_since(earlier[name], now[name])
        if found.changes or found.appeared or found.disappeared:
            changed.append(found)
        else:
            unchanged += 1
    return FleetSince(baseline, changed, unchanged, sorted(set(now) - set(earlier)), sorted(set(earlier) - set(now)))


def since_document(report: FleetSince) -> Dict[str, Any]:
    return {
        "baseline": report.baseline,
        "changed": [
            {"node": n.node, "changes": n.changes, "findings_appeared": n.appeared, "findings_disappeared": n.disappeared}
            for n in report.changed
        ],
        "unchanged": report.unchanged,
        "new_nodes": report.new_nodes,
        "gone_nodes": report.gone_nodes,
    }


def since_lines(report: FleetSince) -> List[str]:
    total = len(report.changed) + report.unchanged
    lines = [f"Since {report.baseline}: {len(report.changed)} of {total} nodes changed"]
    for node in report.changed:
        parts = node.changes + [f"+{i}" for i in node.appeared] + [f"-{i}" for i in node.disappeared]
        lines.append(f"  {node.node}: " + "; ".join(parts))
    if report.new_nodes:
        lines.append(f"  not in the baseline: {', '.join(report.new_nodes)}")
    if report.gone_nodes:
        lines.append(f"  only in the baseline: {', '.join(report.gone_nodes)}")
    return lines


def since_markdown(report: FleetSince) -> str:
    lines = since_lines(report)
    return f"\n## {lines[0]}\n\n" + "".join(f"- {line.strip()}\n" for line in lines[1:])
