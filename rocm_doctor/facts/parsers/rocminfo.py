"""``rocminfo`` output -> agents.

The format (ROCm 5.x to 7.x)::

    ROCk module version 6.8.5 is loaded      (or "WSL environment detected." on WSL)
    =====================
    HSA System Attributes
    ...
    *******
    Agent 2
    *******
      Name:                    gfx1100
      Marketing Name:          Radeon RX 7900 XTX
      Vendor Name:             AMD
      Node:                    1
      Device Type:             GPU
      Chip ID:                 29772(0x744c)
      BDFID:                   3072
      Compute Unit:            96
      Memory Properties:       APU             (integrated GPUs only, ROCm >= 6.0)
      Pool Info:
        Pool 1
          Segment:                 GLOBAL; FLAGS: COARSE GRAINED
          Size:                    25149440(0x17fc000) KB
    *** Done ***

Agent keys sit at two spaces of indent, pool keys deeper. WSL builds omit
``Uuid``, ``BDFID`` and ``ASIC Revision``; trailing spaces vary. Output cut off
part way (a crash, a timeout) still yields the agents read so far, with
``complete`` False.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

_AGENT_RE = re.compile(r"^\s*Agent\s+(\d{1,18})\s*$")
_KEY_RE = re.compile(r"^(\s*)([A-Za-z][^:]*?)\s*:\s*(.*?)\s*$")
_POOL_RE = re.compile(r"^\s+Pool\s+(\d+)\s*$")
_LEADING_INT_RE = re.compile(r"^\s*(\d{1,18})(?!\d)")


@dataclass
class RocminfoAgent:
    """One HSA agent as rocminfo printed it."""

    number: int
    """The ``Agent N`` number (1-based, CPUs included)."""
    fields: Dict[str, str] = field(default_factory=dict)
    """Agent-level ``key: value`` pairs (first occurrence wins)."""
    pools: List[Tuple[str, Optional[int]]] = field(default_factory=list)
    """(segment, size in KB) of every memory pool."""

    def get(self, key: str) -> Optional[str]:
        value = self.fields.get(key)
        return value if value else None

    def get_int(self, key: str) -> Optional[int]:
        """The leading integer of a value such as ``29772(0x744c)``."""
        value = self.fields.get(key)
        match = _LEADING_INT_RE.match(value or "")
        return int(match.group(1)) if match else None

    @property
    def name(self) -> Optional[str]:
        return self.get("Name")

    @property
    def device_type(self) -> Optional[str]:
        return self.get("Device Type")

    @property
    def is_gpu(self) -> bool:
        return (self.device_type or "").upper() == "GPU"

    @property
    def is_apu(self) -> bool:
        """rocminfo prints ``Memory Properties: APU`` for integrated GPUs."""
        return "APU" in (self.get("Memory Properties") or "").upper().split()

    @property
    def vram_kb(self) -> Optional[int]:
        """Size of the first coarse-grained GLOBAL pool (the device's memory), in KB."""
        for segment, size in self.pools:
            upper = segment.upper()
            if upper.startswith("GLOBAL") and "COARSE GRAINED" in upper and size is not None:
                return size
        return None


@dataclass
class RocminfoReport:
    """What one run of rocminfo said."""

    agents: List[RocminfoAgent]
    complete: bool
    """The ``*** Done ***`` trailer was seen."""
    wsl: bool
    """``WSL environment detected.`` was printed (ROCm on WSL2)."""
    hsa_agents_seen: bool
    """The ``HSA Agents`` header was printed (False means this is not rocminfo output)."""

    @property
    def gpus(self) -> List[RocminfoAgent]:
        return [agent for agent in self.agents if agent.is_gpu]


def parse_rocminfo(text: str) -> RocminfoReport:
    """Parse rocminfo's text; never raises."""
    agents: List[RocminfoAgent] = []
    current: Optional[RocminfoAgent] = None
    in_pool = False
    pool_segment: Optional[str] = None
    complete = False
    wsl = False
    hsa_agents_seen = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("*** Done ***"):
            complete = True
            break
        if stripped == "WSL environment detected.":
            wsl = True
            continue
        if stripped == "HSA Agents":
            hsa_agents_seen = True
            continue
        match = _AGENT_RE.match(line)
        if match:
            current = RocminfoAgent(number=int(match.group(1)))
            agents.append(current)
            in_pool = False
            continue
        if current is None:
            continue
        if _POOL_RE.match(line):
            in_pool = True
            pool_segment = None
            continue
        key_match = _KEY_RE.match(line)
        if key_match is None:
            continue
        indent, key, value = len(key_match.group(1)), key_match.group(2), key_match.group(3)
        if indent <= 2:
            if key in ("ISA Info", "Pool Info", "Cache Info"):
                in_pool = False
            current.fields.setdefault(key, value)
            continue
        if in_pool and key == "Segment":
            pool_segment = value
        elif in_pool and key == "Size" and pool_segment is not None:
            size = _LEADING_INT_RE.match(value)
            current.pools.append((pool_segment, int(size.group(1)) if size else None))
            pool_segment = None
    return RocminfoReport(agents=agents, complete=complete, wsl=wsl, hsa_agents_seen=hsa_agents_seen)
