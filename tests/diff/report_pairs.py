"""Before/after machines built from public reports (``pairs.yaml``): only what each thread states is known."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import yaml

from rocm_doctor.facts.model import Facts

PAIRS_FILE = Path(__file__).parent / "pairs.yaml"


def _known(value: Any, source: str) -> Dict[str, Any]:
    return {"status": "known", "value": value, "source": source}


def build_facts(settings: Dict[str, Any], source: str) -> Facts:
    """Facts in which exactly ``settings`` (dotted fact paths, plus ``gpus``: [[gfx, name], ...]) are known."""
    data: Dict[str, Any] = {"meta": {"origin": "facts-file", "origin_detail": source}}
    for path, value in settings.items():
        if path == "gpus":
            data["gpus"] = {
                "discovery": _known("report", source),
                "agents": [
                    {"index": i, "source": "report", "gfx": _known(gfx, source), "name": _known(name, source),
                     "vendor": _known("AMD", source), "vendor_id": _known("0x1002", source)}
                    for i, (gfx, name) in enumerate(value)
                ],
            }
            continue
        node = data
        *parents, leaf = path.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = _known(value, source)
    return Facts.from_dict(data)


def load_pairs() -> List[Dict[str, Any]]:
    pairs = yaml.safe_load(PAIRS_FILE.read_text(encoding="utf-8"))["pairs"]
    for pair in pairs:
        pair["before_facts"] = build_facts({**pair.get("both", {}), **pair["before"]}, pair["source"])
        pair["after_facts"] = build_facts({**pair.get("both", {}), **pair["after"]}, pair["source"])
    return pairs
