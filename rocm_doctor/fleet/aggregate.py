"""What an operator asks first about a fleet: which nodes drifted, what is wrong where, which GPU is slow.

Pure functions over :class:`~rocm_doctor.fleet.load.Node` summaries.

* **Stack and GPU layout**: per dimension (driver, rocm, torch, ..., GPU order, visible
  devices), the values with node counts. A value held by more than half of the nodes is
  the fleet's; the nodes with another value are the odd ones out. Without such a majority
  the dimension is reported as split and nobody is called odd.
* **Findings** by rule, most severe action class first, with the nodes that have them.
* **Benchmark outliers**, relative to peers: for each GPU model and figure, the median and
  the median absolute deviation (MAD) over the nodes that measured it. A figure is an
  outlier when it is at most ``MAX_RATIO`` of the median *and* its robust z-score
  (0.6745 x (value - median) / MAD, Iglewicz and Hoaglin) is below ``MIN_Z``; with
  fewer than ``MIN_PEERS`` nodes nothing is judged (the model: :mod:`rocm_doctor.noise`). No spec-peak table is needed.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from rocm_doctor.fleet.load import Node, NodeFinding, Skipped
from rocm_doctor.health.verdict import EXIT_CODES, rank
from rocm_doctor.model.rules import ACTION_ORDER, SEVERITY_ORDER
from rocm_doctor.noise import MAX_RATIO, MIN_PEERS, MIN_Z, far_below, median_mad  # noqa: F401 - MAX_RATIO, MIN_Z re-exported

# The noise model (median/MAD) is shared with ``diff``: rocm_doctor/noise.py.
OUTLIER_ACTION = "triage"
"""A GPU far slower than its peers needs a person (link width, slot, cooling, firmware)."""
DRIFT_ACTION = "config"
"""A node whose stack differs from the fleet's is a software configuration to fix."""


@dataclass(frozen=True)
class Value:
    value: str
    count: int
    nodes: List[str]


@dataclass(frozen=True)
class Dimension:
    """One stack or layout dimension across the fleet."""

    name: str
    values: List[Value]
    """Most common first."""
    majority: Optional[str]
    """The value of more than half of the nodes, if there is one."""
    total: int

    @property
    def odd(self) -> List[Value]:
        return [v for v in self.values if self.majority is not None and v.value != self.majority]

    def sentence(self, value: Value) -> str:
        """``3 of 64 nodes run driver 6.8.5; 61 run 6.16.13``."""
        base = f"{value.count} of {self.total} nodes run {self.name} {value.value}"
        majority = next((v for v in self.values if v.value == self.majority), None)
        return base + (f"; {majority.count} run {majority.value}" if majority else "")


@dataclass(frozen=True)
class RuleNodes:
    """One rule's findings across the fleet."""

    id: str
    action: str
    severity: str
    title: str
    nodes: List[str]


@dataclass(frozen=True)
class Outlier:
    node: str
    model: str
    test: str
    metric: str
    unit: str
    value: float
    median: float
    mad: float
    ratio: float
    peers: int


@dataclass(frozen=True)
class FleetReport:
    """The aggregate view."""

    nodes: int
    files: int
    skipped: List[Skipped]
    stack: List[Dimension]
    devices: List[Dimension]
    findings: List[RuleNodes]
    outliers: List[Outlier]
    odd_nodes: Dict[str, List[str]] = field(default_factory=dict)
    """Node -> why it stands out (drift, outliers), sorted by node."""

    @property
    def verdict(self) -> str:
        """The worst action class: findings, outliers (triage), drift (config); unreadable files make it unknown."""
        verdicts = ["ok"] + [f.action for f in self.findings]
        verdicts += [OUTLIER_ACTION] * bool(self.outliers)
        verdicts += [DRIFT_ACTION] * any(d.odd for d in self.stack + self.devices)
        verdicts += ["unknown"] * bool(self.skipped)
        return max(verdicts, key=rank)

    def exit_code(self, fail_on: str = "monitor") -> int:
        """The verdict's exit code (as ``health``'s), or 0 below ``fail_on``."""
        verdict = self.verdict
        return EXIT_CODES[verdict] if rank(verdict) >= rank(fail_on) else 0


def spread(name: str, values: Mapping[str, str]) -> Dimension:
    """Node -> value, as a dimension with counts, majority and node lists."""
    by_value: Dict[str, List[str]] = defaultdict(list)
    for node in sorted(values):
        by_value[values[node]].append(node)
    ordered = sorted(by_value.items(), key=lambda item: (-len(item[1]), item[0]))
    counted = [Value(value, len(nodes), nodes) for value, nodes in ordered]
    total = len(values)
    majority = counted[0].value if counted and counted[0].count * 2 > total else None
    return Dimension(name, counted, majority, total)


def _dimensions(nodes: Sequence[Node], attribute: str) -> List[Dimension]:
    maps = [(n.name, getattr(n, attribute)) for n in nodes if getattr(n, attribute) is not None]
    names = list(maps[0][1]) if maps else []
    return [spread(key, {node: data[key] for node, data in maps}) for key in names]


def by_rule(nodes: Sequence[Node]) -> List[RuleNodes]:
    """Findings grouped by rule, most severe first (action, severity, then how many nodes)."""
    first: Dict[str, NodeFinding] = {}
    holders: Dict[str, set] = defaultdict(set)
    for node in nodes:
        for finding in node.findings:
            first.setdefault(finding.id, finding)
            holders[finding.id].add(node.name)
    rows = [RuleNodes(f.id, f.action, f.severity, f.title, sorted(holders[rid])) for rid, f in first.items()]
    return sorted(rows, key=lambda r: (-ACTION_ORDER[r.action], -SEVERITY_ORDER[r.severity], -len(r.nodes), r.id))


def outliers(nodes: Sequence[Node]) -> List[Outlier]:
    """Figures far below the median of the same GPU model's figures (see the module notes)."""
    groups: Dict[Tuple[str, str, str, str], List[Tuple[str, float]]] = defaultdict(list)
    for node in nodes:
        for figure in node.figures:
            groups[(node.model or "unknown GPU", figure.test, figure.label, figure.unit)].append((node.name, figure.value))
    found: List[Outlier] = []
    for (model, test, metric, unit), measured in groups.items():
        if len(measured) < MIN_PEERS:
            continue
        median, mad = median_mad([v for _, v in measured])
        if median <= 0:
            continue
        for name, value in measured:
            if far_below(value, median, mad):
                found.append(Outlier(name, model, test, metric, unit, value, median, mad, value / median, len(measured)))
    return sorted(found, key=lambda o: (o.ratio, o.node, o.test, o.metric))



def aggregate(nodes: Mapping[str, Node], skipped: Sequence[Skipped], files: int) -> FleetReport:
    """The whole report."""
    ordered = [nodes[name] for name in sorted(nodes)]
    stack = _dimensions(ordered, "stack")
    devices = _dimensions(ordered, "devices")
    slow = outliers(ordered)
    odd: Dict[str, List[str]] = defaultdict(list)
    for dimension in stack + devices:
        for value in dimension.odd:
            for node in value.nodes:
                odd[node].append(f"{dimension.name} {value.value} (fleet: {dimension.majority})")
    for outlier in slow:
        odd[outlier.node].append(
            f"{outlier.test} {outlier.metric} {outlier.value:.4g} {outlier.unit} = {outlier.ratio:.0%} of its "
            f"{outlier.peers - 1} peers' median {outlier.median:.4g} ({outlier.model})"
        )
    return FleetReport(
        nodes=len(ordered),
        files=files,
        skipped=list(skipped),
        stack=stack,
        devices=devices,
        findings=by_rule(ordered),
        outliers=slow,
        odd_nodes={name: odd[name] for name in sorted(odd)},
    )

