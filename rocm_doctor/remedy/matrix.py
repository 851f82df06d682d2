"""The support matrix as data: per gfx target, which torch builds carry kernels for it, and more.

``rocm-doctor matrix --json`` prints the ``rocm-doctor/matrix/1`` document built here. Every row
comes from the same tables the rules read (``rules/data/torch_wheels.yaml``, ``rocm_support.yaml``,
``rocm_os.yaml``, ``amdgpu_driver.yaml``, ``hipblaslt.yaml``, ``gfx_overrides.yaml``, ``gpus.yaml``),
and each target's ``recommended`` build is the one :func:`~rocm_doctor.wheels.choice.choose_torch`
decides for a machine with that GPU, so the matrix and ``check`` can never disagree. The format is
documented for installers in ``docs/matrix.md``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from rocm_doctor import __version__
from rocm_doctor.data import load_table
from rocm_doctor.errors import InputError
from rocm_doctor.knowledge import gpu_table
from rocm_doctor.facts.model import Facts
from rocm_doctor.knowledge import hipblaslt, overrides, rocm_os, rocm_support, torch_wheels
from rocm_doctor.knowledge._tables import version_key
from rocm_doctor.wheels import wheeldata
from rocm_doctor.wheels.choice import Machine, NoChoice, choose_torch
from rocm_doctor.remedy.pip import Target, torch_commands

SCHEMA = "rocm-doctor/matrix/1"
PLATFORMS = ("linux", "windows")


def all_targets() -> List[str]:
    """Every gfx target the GPU table knows (a row in ``targets`` or a device), oldest first."""
    data = load_table(gpu_table.TABLE)
    found = {str(row["gfx"]) for row in data.get("targets") or [] if isinstance(row, dict) and row.get("gfx")}
    found |= {str(row["gfx"]) for row in data.get("devices") or [] if isinstance(row, dict) and row.get("gfx")}
    return sorted(found, key=_gfx_key)


def _gfx_key(gfx: str) -> Tuple[int, int, int, str]:
    split = gpu_table.split_gfx(gfx)
    return (*split, gfx) if split else (999, 0, 0, gfx)


def gfx_for_gpu(name: str) -> str:
    """The gfx target of a GPU named as people name it (``RX 7900 XTX``, ``Radeon 780M``); InputError when unknown."""
    model = gpu_table.model_for_name(name)
    if model is None:
        raise InputError(f"no GPU named {name!r} in the GPU table; `rocm-doctor matrix` lists every gfx target")
    return model.gfx


def _gpus(gfx: str) -> List[Dict[str, Any]]:
    return [
        {"product": m.product, "pci_id": m.device_id, "integrated": m.integrated}
        for m in sorted(gpu_table.models_for_gfx(gfx), key=lambda m: m.device_id)
    ]


def _kernels(torch: str, gfx: str, rocm: Optional[str] = None) -> Optional[bool]:
    return wheeldata.gfx_in_wheel(torch, rocm, gfx)


def _pytorch_org(gfx: str) -> List[Dict[str, Any]]:
    """pytorch.org release series whose wheels carry (or may carry) kernels for ``gfx``, newest first."""
    rows = []
    for release in wheeldata.releases():
        variants = [v for v in sorted(release.rocm, key=version_key, reverse=True) if _kernels(release.torch, gfx, v) is not False]
        if not variants:
            continue
        certain = all(_kernels(release.torch, gfx, v) is True for v in variants)
        vision, audio = wheeldata.companions(release.torch)
        rows.append({
            "torch": release.torch,
            "channel": release.channel,
            "rocm": variants,
            "kernels": "yes" if certain else "uncertain",
            "python": list(release.python) + list(release.free_threaded),
            "torchvision": vision,
            "torchaudio": audio,
            "index_urls": [wheeldata.pytorch_index(v) for v in variants],
            "platforms": ["linux-x86_64"],
            "source": release.source,
        })
    return rows


def _amd_windows(gfx: str) -> List[Dict[str, Any]]:
    return [
        {
            "torch": r.torch, "rocm": r.rocm, "python": list(r.python), "torchvision": r.torchvision,
            "torchaudio": r.torchaudio, "preview": r.preview, "wheel_url": r.wheel_url, "docs": r.docs,
            "runtime_supports_gfx": rocm_support.windows_runtime_supported(gfx, r.rocm),
        }
        for r in wheeldata.windows_releases()
        if not wheeldata.windows_blocks(gfx, r.rocm)
    ]


def _therock(gfx: str) -> Dict[str, Any]:
    return {
        "linux": rocm_support.therock_status(gfx, "linux"),
        "windows": rocm_support.therock_status(gfx, "windows"),
        "device_extra": f"device-{gpu_table.base_gfx(gfx)}" if rocm_support.therock_device_extra(gfx) else None,
        "index_url": wheeldata.therock_index(),
        "python": list(wheeldata.therock_python()),
    }


def _rocm_linux(gfx: str) -> List[Dict[str, Any]]:
    rows = []
    for spec, targets, source in rocm_support.support().linux:
        supported = None if targets is None else gpu_table.base_gfx(gfx) in targets
        if gpu_table.base_gfx(gfx) in rocm_support.support().retired:
            supported = False
        rows.append({"rocm": str(spec), "supported": supported, "source": source})
    return rows


def _rocm_windows(gfx: str) -> List[Dict[str, Any]]:
    return [
        {"rocm": row.rocm, "supported": rocm_support.windows_runtime_supported(gfx, row.rocm), "source": row.source}
        for row in sorted((r for r in rocm_support.support().windows if not r.partial), key=lambda r: version_key(r.rocm), reverse=True)
    ]


def _hipblaslt(gfx: str, pytorch_org: Sequence[Dict[str, Any]]) -> List[Dict[str, Any]]:
    rows = []
    for release in pytorch_org:
        for variant in release["rocm"]:
            rows.append({
                "torch": release["torch"], "rocm": variant,
                "allowed": hipblaslt.allowed(gfx, release["torch"], variant),
                "preferred": hipblaslt.preferred(gfx, release["torch"], variant),
            })
    return rows


def _override(gfx: str) -> Optional[Dict[str, Any]]:
    found = overrides.table().workaround(gfx)
    if found is None:
        return None
    value, recommended, source = found
    return {"variable": "HSA_OVERRIDE_GFX_VERSION", "value": value, "recommended": recommended, "source": source}


def machine_for(gfx: str, platform: str, python: Optional[str] = None) -> Machine:
    """The machine the matrix's recommendation is for: one GPU of ``gfx``, nothing else known."""
    return Machine(windows=platform == "windows", wsl=False, container=False, python=python, gfx=(gfx,), host_rocm=None)


def recommended(gfx: str, platform: str, python: Optional[str] = None) -> Dict[str, Any]:
    """What ``check``'s fix plan installs on such a machine, with the exact commands, or why nothing fits."""
    try:
        choice = choose_torch(machine_for(gfx, platform, python))
    except NoChoice as refusal:
        return {"build": None, "why_not": refusal.message, "ruled_out": list(refusal.ruled_out)}
    commands, _requirements, notes = torch_commands(choice, Facts(), Target("python"))
    return {
        "build": {
            "route": choice.route, "torch": choice.torch, "rocm": choice.rocm, "index_url": choice.index_url,
            "torchvision": choice.torchvision, "torchaudio": choice.torchaudio, "extras": list(choice.gfx_extras),
            "python_required": choice.python_required,
        },
        "commands": [list(c.argv) for c in commands],
        "notes": notes,
        "reasons": list(choice.reasons),
    }


def target_entry(gfx: str, python: Optional[str] = None) -> Dict[str, Any]:
    models = gpu_table.models_for_gfx(gfx)
    pytorch_org = _pytorch_org(gfx)
    return {
        "gfx": gfx,
        "family": gpu_table.family_of(gfx),
        "gpus": _gpus(gfx),
        "integrated": bool(models) and all(m.integrated for m in models),
        "recommended": {platform: recommended(gfx, platform, python) for platform in PLATFORMS},
        "pytorch_org": pytorch_org,
        "amd_windows": _amd_windows(gfx),
        "therock": _therock(gfx),
        "rocm_linux": _rocm_linux(gfx),
        "rocm_windows": _rocm_windows(gfx),
        "hipblaslt": _hipblaslt(gfx, pytorch_org),
        "override": _override(gfx),
    }


def _rocm_os_rows() -> List[Dict[str, Any]]:
    """Per ROCm release (newest first), the distributions AMD lists: os-release id -> versions."""
    releases = rocm_os.all_releases()
    return [{"rocm": version, "os": releases[version]} for version in sorted(releases, key=version_key, reverse=True)]


def _driver_rows() -> List[Dict[str, Any]]:
    table = load_table("amdgpu_driver")
    return [dict(row) for row in table.get("support") or [] if isinstance(row, dict)]


def build_document(targets: Optional[Sequence[str]] = None, python: Optional[str] = None) -> Dict[str, Any]:
    """The ``rocm-doctor/matrix/1`` document, for ``targets`` (default: every gfx the GPU table knows)."""
    from rocm_doctor.ruledb import rule_database_info

    database = rule_database_info()
    chosen = list(targets) if targets else all_targets()
    return {
        "schema": SCHEMA,
        "tool_version": __version__,
        "rule_database": {key: database[key] for key in ("version", "release", "released", "origin", "checked")},
        "python": python,
        "targets": [target_entry(gfx, python) for gfx in chosen],
        "rocm_os": _rocm_os_rows(),
        "kernel_driver": _driver_rows(),
        "pytorch_org_index": torch_wheels.wheels().raw.get("pytorch_org", {}).get("index_url"),
        "sources": {name: table["against"] for name, table in database["tables"].items()},
    }
