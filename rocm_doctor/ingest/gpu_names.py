"""Marketing names -> rows of the GPU table (``rules/data/gpus.yaml``).

People and tools name GPUs in many spellings: ``AMD Radeon RX 6700 XT``,
``RX580``, ``7900xt``, lspci's ``Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M]``.
A name is cut at ``/`` into variants (``6700``, ``6700 XT`` ...), each variant is
reduced to a key (lower case, without ``AMD``, ``Radeon``, ``RX``, ``PRO``,
``Instinct``, ``(TM)``, spaces and parenthesised notes) and looked up among the
keys of the table's product names. A name gives a gfx target only when every
variant that matched agrees on one; variants without a digit (``Radeon
Graphics``) never match, because they name no single product.

The table belongs to :mod:`rocm_doctor.facts.gpu_table`; this module only reads it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Dict, List, Optional

from rocm_doctor.facts import gpu_table
from rocm_doctor.facts.gpu_table import GpuModel

_NOISE = re.compile(r"\((?:tm|r)\)|\(.*?\)|\b(?:amd|ati|radeon|rx|pro|ai|instinct|graphics|series)\b", re.IGNORECASE)
_PREFIX = re.compile(r"^(?:(?:amd|ati|radeon|rx|pro|ai|instinct)\s*)+", re.IGNORECASE)


def name_key(variant: str) -> Optional[str]:
    """``AMD Radeon RX 6700 XT`` -> ``6700xt``; None when nothing with a digit is left."""
    text = _NOISE.sub(" ", variant.lower())
    key = re.sub(r"[^0-9a-z]", "", text)
    key = _PREFIX.sub("", key)
    if not key or not any(ch.isdigit() for ch in key) or len(key) > 16:
        return None
    return key


def variants(name: str) -> List[str]:
    """The names a ``/``-separated product string stands for."""
    return [part for part in re.split(r"\s*/\s*", name) if part.strip()]


@lru_cache(maxsize=1)
def _index() -> Dict[str, List[GpuModel]]:
    models: Dict[str, List[GpuModel]] = {}
    for model in gpu_table._models()[0].values():
        for variant in variants(model.product):
            key = name_key(variant)
            if key is not None:
                models.setdefault(key, []).append(model)
    return models


def lookup_name(name: str) -> Optional[GpuModel]:
    """The table row for a GPU name, or None when the name is unknown or ambiguous."""
    try:
        index = _index()
    except Exception:  # noqa: BLE001 - a broken table must not break ingesting; the gatherer reports it
        return None
    found: List[GpuModel] = []
    for variant in variants(name[:200]):
        key = name_key(variant)
        if key is not None and key in index:
            found.extend(index[key])
    if not found or len({m.gfx for m in found}) != 1:
        return None
    return found[0]
