"""Windows display adapters from PowerShell.

The command ``Get-CimInstance Win32_VideoController | Select-Object
Name,PNPDeviceID,DriverVersion,AdapterRAM | ConvertTo-Json`` prints one JSON
object for a single adapter and a list for several (Windows PowerShell 5.1
escapes ``&`` as ``\\u0026``; JSON decoding undoes that). ``PNPDeviceID`` reads
``PCI\\VEN_1002&DEV_744C&SUBSYS_...&REV_C8\\6&...``. ``AdapterRAM`` is a
32-bit field: it saturates near 4 GiB, so it is not a VRAM size.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import List, Optional, Tuple

from rocm_doctor import bounded_json

_PNP_RE = re.compile(r"PCI\\VEN_([0-9A-F]{4})&DEV_([0-9A-F]{4})", re.IGNORECASE)


class WmiParseError(ValueError):
    """PowerShell printed something that is not the expected JSON."""


@dataclass(frozen=True)
class WmiAdapter:
    """One Win32_VideoController instance."""

    name: Optional[str]
    pnp_device_id: Optional[str]
    vendor_id: Optional[str]
    """``0x1002``."""
    device_id: Optional[str]
    """``0x744c``."""
    driver_version: Optional[str]
    adapter_ram: Optional[int]


def parse_pnp_device_id(value: str) -> Optional[Tuple[str, str]]:
    """``PCI\\VEN_1002&DEV_744C&...`` -> (``0x1002``, ``0x744c``); None for non-PCI devices."""
    match = _PNP_RE.search(value or "")
    if match is None:
        return None
    return f"0x{match.group(1).lower()}", f"0x{match.group(2).lower()}"


def _text(value: object) -> Optional[str]:
    return str(value).strip() or None if value is not None else None


def parse_video_controllers(text: str) -> List[WmiAdapter]:
    """Adapters from ConvertTo-Json output; empty output means no adapter. Raises WmiParseError."""
    body = text.lstrip("\ufeff").strip()
    if not body:
        return []
    try:
        data = bounded_json.loads(body)
    except json.JSONDecodeError as exc:
        raise WmiParseError(f"not JSON: {exc.msg} at line {exc.lineno}") from None
    except bounded_json.JsonLimitError as exc:
        raise WmiParseError(str(exc)) from None
    items = data if isinstance(data, list) else [data]
    adapters: List[WmiAdapter] = []
    for item in items:
        if not isinstance(item, dict):
            raise WmiParseError("expected JSON objects with Name and PNPDeviceID")
        pnp = _text(item.get("PNPDeviceID"))
        ids = parse_pnp_device_id(pnp or "")
        ram = item.get("AdapterRAM")
        adapters.append(
            WmiAdapter(
                name=_text(item.get("Name")),
                pnp_device_id=pnp,
                vendor_id=ids[0] if ids else None,
                device_id=ids[1] if ids else None,
                driver_version=_text(item.get("DriverVersion")),
                adapter_ram=ram if isinstance(ram, int) else None,
            )
        )
    return adapters
