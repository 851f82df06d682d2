"""The optional amdsmi layer of GPU discovery (the ``amdsmi`` Python bindings).

The bindings load ``libamd_smi.so`` and talk to the driver in-process, so this is
the one probe that reaches the machine without the ``System`` interface; the GPU
gatherer calls it only on a live Linux machine and only when the user did not
turn it off. :func:`read_amdsmi` is the only function that touches the bindings;
:func:`records_to_dicts` turns their answers into plain dicts that the gatherer
maps like any other layer (and tests feed directly).
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Dict, List, Optional, Tuple

AMDSMI_TIMEOUT = 10.0
"""Seconds the bindings may take; they run in a daemon thread that is abandoned after that."""


def _call(func: Callable[..., Any], *args: Any) -> Any:
    try:
        return func(*args)
    except Exception:  # noqa: BLE001 - one unsupported query must not lose the GPU
        return None


def _query(amdsmi: Any) -> List[Dict[str, Any]]:
    amdsmi.amdsmi_init()
    try:
        records: List[Dict[str, Any]] = []
        for handle in amdsmi.amdsmi_get_processor_handles():
            records.append(
                {
                    "asic": _call(amdsmi.amdsmi_get_gpu_asic_info, handle) or {},
                    "bdf": _call(amdsmi.amdsmi_get_gpu_device_bdf, handle),
                    "vram": _call(amdsmi.amdsmi_get_gpu_vram_info, handle) or {},
                    "kfd": _call(getattr(amdsmi, "amdsmi_get_gpu_kfd_info", lambda h: None), handle) or {},
                }
            )
        return records
    finally:
        _call(amdsmi.amdsmi_shut_down)


def read_amdsmi(timeout: float = AMDSMI_TIMEOUT) -> Tuple[Optional[List[Dict[str, Any]]], str, str]:
    """Ask the bindings for every GPU: (records or None, status, detail).

    status is ``answered``, ``absent`` (bindings not importable) or ``failed``.
    """
    try:
        import amdsmi  # type: ignore[import-not-found]
    except ImportError:
        return None, "absent", "the amdsmi Python package is not installed"
    except Exception as exc:  # noqa: BLE001 - a missing libamd_smi.so raises at import
        return None, "failed", f"importing amdsmi failed: {type(exc).__name__}: {exc}"

    box: Dict[str, Any] = {}

    def worker() -> None:
        try:
            box["records"] = _query(amdsmi)
        except Exception as exc:  # noqa: BLE001
            box["error"] = f"{type(exc).__name__}: {exc}"

    thread = threading.Thread(target=worker, name="rocm-doctor-amdsmi", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        return None, "failed", f"amdsmi did not answer within {timeout:.0f} s"
    if "error" in box:
        return None, "failed", f"amdsmi failed: {box['error']}"
    records = box.get("records") or []
    return records, "answered", f"{len(records)} GPU(s)"


def _as_int(value: Any) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        try:
            return int(text, 16) if text.startswith("0x") else int(text)
        except ValueError:
            return None
    return None


def records_to_dicts(records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Plain per-GPU values: name, vendor_id, device_id, gfx, compute_units, pci_bus, vram_bytes, kfd_node."""
    out: List[Dict[str, Any]] = []
    for record in records:
        asic = record.get("asic") or {}
        vram = record.get("vram") or {}
        kfd = record.get("kfd") or {}
        name = asic.get("market_name")
        gfx = asic.get("target_graphics_version")
        vram_mb = _as_int(vram.get("vram_size"))
        out.append(
            {
                "name": name if isinstance(name, str) and name and name != "N/A" else None,
                "vendor_id": _as_int(asic.get("vendor_id")),
                "device_id": _as_int(asic.get("device_id")),
                "gfx": gfx if isinstance(gfx, str) and gfx.startswith("gfx") else None,
                "compute_units": _as_int(asic.get("num_compute_units")),
                "pci_bus": record.get("bdf") if isinstance(record.get("bdf"), str) else None,
                "vram_bytes": vram_mb * 1024 * 1024 if vram_mb else None,
                "kfd_node": _as_int(kfd.get("node_id")),
            }
        )
    return out
