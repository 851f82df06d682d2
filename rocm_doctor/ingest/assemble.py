"""Weigh the partial facts of every recognised piece and build one Facts snapshot.

* A fact given by several pieces takes the value of the most trusted kind of text
  (machine output over a template field over a hint from an error message); two
  different values at the same trust make the fact unknown, naming both lines.
* ``symptoms.signatures`` is the union of every piece; ``packages.installed`` merges.
* GPUs: the most authoritative listing (rocminfo, amd-smi, rocm-smi, a HIP-level
  listing, torch, lspci, then labelled fields and error messages) gives the agents;
  other listings only fill fields an agent lacks, when they clearly name the same GPU.
* A rocm-doctor facts document in the paste is the base: the pieces only fill
  facts it left unknown. Inside a rocm-doctor report it is used alone, so that
  ``check --from report.md`` reproduces the findings exactly.
* Every fact the paste does not give stays unknown, with that reason.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from pydantic import ValidationError

from rocm_doctor import __version__
from rocm_doctor.facts.model import Facts, Section
from rocm_doctor.facts.value import Fact
from rocm_doctor.ingest.formats.common import TABLE_FIELDS
from rocm_doctor.facts.gpu_table import name_key
from rocm_doctor.ingest.model import Absent, GpuSighting, Observation, Piece

NOT_IN_PASTE = "not in the pasted report"
LAYER_ORDER = ("rocminfo", "amd-smi", "rocm-smi", "hip", "torch", "pci", "report")
DISCOVERY_NAMES = {"amd-smi": "amdsmi"}
_MERGED_LISTS = {"symptoms.signatures"}
_MERGED_DICTS = {"packages.installed"}


def _skeleton(model: type) -> Dict[str, Any]:
    """Every Fact field of a section as an unknown fact, nested like the model."""
    out: Dict[str, Any] = {}
    for name, info in model.model_fields.items():
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, Fact):
            out[name] = {"status": "unknown", "reason": NOT_IN_PASTE}
        elif isinstance(annotation, type) and issubclass(annotation, Section):
            out[name] = _skeleton(annotation)
    return out


def _slot(tree: Dict[str, Any], path: str) -> Tuple[Optional[Dict[str, Any]], str]:
    """The parent dict of a fact path and the last key; (None, key) when the path is not a fact."""
    parts = path.split(".")
    node: Any = tree
    for part in parts[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
        if node is None:
            return None, parts[-1]
    leaf = node.get(parts[-1]) if isinstance(node, dict) else None
    if not isinstance(leaf, dict) or "status" not in leaf:
        return None, parts[-1]
    return node, parts[-1]


def _decide(path: str, observations: List[Observation]) -> Optional[Dict[str, Any]]:
    if path in _MERGED_LISTS:
        merged: List[Any] = []
        for obs in observations:
            merged += [v for v in (obs.value if isinstance(obs.value, list) else [obs.value]) if v not in merged]
        return {"status": "known", "value": merged, "source": observations[0].line.source}
    if path in _MERGED_DICTS:
        combined: Dict[str, Any] = {}
        for obs in observations:
            if isinstance(obs.value, dict):
                combined.update(obs.value)
        return {"status": "known", "value": combined, "source": observations[0].line.source}
    top = max(obs.trust for obs in observations)
    best = [obs for obs in observations if obs.trust == top]
    values: List[Any] = []
    for obs in best:
        if obs.value not in values:
            values.append(obs.value)
    if len(values) == 1 and isinstance(values[0], Absent):
        return {"status": "absent", "source": best[0].line.source, "reason": values[0].reason}
    if len(values) == 1:
        return {"status": "known", "value": values[0], "source": best[0].line.source}
    shown = "; ".join(f"{obs.value!r} ({obs.line.source})" for obs in best[:4])
    return {"status": "unknown", "reason": f"the report gives different values: {shown}"}


def _same_gpu(a: Dict[str, Any], b: Dict[str, Any]) -> bool:
    for key in ("device_id", "gfx"):
        if a.get(key) and b.get(key):
            return a[key] == b[key]
    if a.get("name") and b.get("name"):
        return name_key(a["name"]) is not None and name_key(a["name"]) == name_key(b["name"])
    return False


def _agents(sightings: List[GpuSighting]) -> Tuple[List[Dict[str, Any]], Optional[str]]:
    by_layer: Dict[str, List[GpuSighting]] = {}
    for sighting in sightings:
        by_layer.setdefault(sighting.layer, []).append(sighting)
    primary = next((layer for layer in LAYER_ORDER if by_layer.get(layer)), None)
    if primary is None:
        return [], None
    agents = []
    for index, group in enumerate(_by_position(by_layer[primary])):
        fields: Dict[str, Any] = {}
        sources: Dict[str, str] = {}
        for sighting in group:  # one device shown by several lines (name, then gcnArchName)
            for key, value in sighting.fields.items():
                if key != TABLE_FIELDS and key not in fields:
                    fields[key], sources[key] = value, _field_source(sighting, key)
        agents.append({"index": index, "layer": primary, "sighting": group[0], "fields": fields, "sources": sources})
    for layer in LAYER_ORDER:
        if layer == primary:
            continue
        others = by_layer.get(layer, [])
        for other in others:
            matches = [a for a in agents if _same_gpu(a["fields"], other.fields)]
            amd_agents = [a for a in agents if a["fields"].get("vendor") == "AMD"]
            amd_others = [o for o in others if o.fields.get("vendor") == "AMD"]
            if not matches and len(amd_agents) == 1 and len(amd_others) == 1 and other.fields.get("vendor") == "AMD":
                target = amd_agents[0]["fields"]
                if not any(target.get(k) and other.fields.get(k) and target[k] != other.fields[k] for k in ("gfx", "device_id")):
                    matches = amd_agents
            if len(matches) != 1:
                continue
            agent = matches[0]
            for key, value in other.fields.items():
                if key != TABLE_FIELDS and key not in agent["fields"]:
                    agent["fields"][key] = value
                    agent["sources"][key] = _field_source(other, key)
    return agents, primary


def _by_position(sightings: List[GpuSighting]) -> List[List[GpuSighting]]:
    """Sightings of one listing grouped by device position, in position order."""
    groups: Dict[int, List[GpuSighting]] = {}
    for sighting in sightings:
        groups.setdefault(sighting.position, []).append(sighting)
    return [groups[position] for position in sorted(groups)]


def _field_source(sighting: GpuSighting, key: str) -> str:
    source = f"{sighting.layer} ({sighting.line.source})"
    if key in sighting.fields.get(TABLE_FIELDS, ()):
        source += " via rules/data/gpus.yaml"
    return source


def _agent_dict(agent: Dict[str, Any]) -> Dict[str, Any]:
    sighting: GpuSighting = agent["sighting"]
    out: Dict[str, Any] = {"index": agent["index"], "source": f"paste:{agent['layer']} ({sighting.line.source})"}
    for key, value in agent["fields"].items():
        out[key] = {"status": "known", "value": value, "source": agent["sources"][key]}
    return out


def _torch_devices(sightings: List[GpuSighting]) -> Optional[List[Dict[str, Any]]]:
    groups = _by_position([s for s in sightings if s.layer == "torch"])
    if not groups:
        return None

    def first(group: List[GpuSighting], key: str) -> Any:
        return next((s.fields[key] for s in group if s.fields.get(key)), None)

    return [{"index": i, "name": first(g, "name"), "gcn_arch_name": first(g, "gfx")} for i, g in enumerate(groups)]


def _validate(tree: Dict[str, Any]) -> Facts:
    """Validate; a value of the wrong type makes its fact unknown instead of failing."""
    for _ in range(100):
        try:
            return Facts.model_validate(tree)
        except ValidationError as exc:
            if not _drop(tree, exc.errors()[0]["loc"]):
                break
    return Facts.model_validate({"meta": tree.get("meta", {})})


def _drop(tree: Dict[str, Any], loc: Tuple[Any, ...]) -> bool:
    """Make the fact at ``loc`` unknown (or drop the list item holding it); False if nothing changed."""
    node: Any = tree
    trail: List[Tuple[Any, Any]] = []
    for part in loc:
        try:
            child = node[part]
        except (KeyError, IndexError, TypeError):
            break
        trail.append((node, part))
        node = child
    for parent, key in reversed(trail):
        value = parent[key]
        if isinstance(value, dict) and "status" in value:
            if value.get("reason") == "the report's value could not be read":
                return False
            parent[key] = {"status": "unknown", "reason": "the report's value could not be read"}
            return True
        if isinstance(parent, list):
            del parent[key]
            return True
    return False


def assemble(pieces: List[Piece], origin_detail: Optional[str] = None, documents_only: bool = False) -> Facts:
    """One Facts snapshot from the pieces (see the module docstring)."""
    base = next((p.facts for p in reversed(pieces) if p.facts is not None), None)
    meta = {"origin": "paste", "origin_detail": origin_detail, "tool_version": __version__}
    if base is not None:
        tree = base.model_dump(mode="json")
        tree["meta"].update({"origin": "paste", "origin_detail": origin_detail})
        if documents_only:
            return _validate(tree)
    else:
        tree = _skeleton(Facts)
        tree["meta"] = meta
    grouped: Dict[str, List[Observation]] = {}
    for piece in pieces:
        for obs in piece.observations:
            grouped.setdefault(obs.path, []).append(obs)
    for path, observations in grouped.items():
        parent, key = _slot(tree, path)
        if parent is None:
            continue
        status = parent[key].get("status")
        if path in _MERGED_LISTS and status in ("known", "absent"):
            # A facts document plus a pasted log: the log's signatures add to the document's.
            observations = [Observation(path, parent[key].get("value") or [], observations[0].line)] + observations
        elif status != "unknown":
            continue
        decided = _decide(path, observations)
        if decided is not None:
            parent[key] = decided
    if tree["symptoms"]["signatures"].get("status") == "unknown":
        tree["symptoms"]["signatures"] = {"status": "known", "value": [], "source": "paste: no error signature matched"}
    sightings = [s for piece in pieces for s in piece.gpus]
    if not tree.get("gpus", {}).get("agents"):
        agents, layer = _agents(sightings)
        if layer is not None:
            name = DISCOVERY_NAMES.get(layer, layer)
            source = agents[0]["sighting"].line.source
            tree["gpus"] = {
                "discovery": {"status": "known", "value": f"paste:{name}", "source": source},
                "attempts": [{"layer": f"paste:{name}", "status": "answered", "count": len(agents), "detail": source}],
                "agents": [_agent_dict(a) for a in agents],
            }
    devices = _torch_devices(sightings)
    live = tree["torch"]["live"]
    if devices is not None and live["devices"].get("status") == "unknown":
        live["devices"] = {"status": "known", "value": devices, "source": "paste:torch"}
    return _validate(tree)

