"""The live torch probe's script and command line, with no imports of rocm-doctor's own.

Kept apart so the CLI can start the probe before it imports anything heavy
(:mod:`rocm_doctor.cli.early`); :mod:`rocm_doctor.facts.torch_probe` reads its output.
"""

from __future__ import annotations

from typing import List

LABEL = "torch-probe"

TORCH_PROBE_SCRIPT = r"""
import json, sys, time

def emit(**fields):
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()

def stage(name, body):
    emit(stage=name, status="start")
    try:
        result = body()
    except BaseException as exc:
        emit(stage=name, status="error", error="%s: %s" % (type(exc).__name__, str(exc).strip()[:500]))
        raise SystemExit(1)
    emit(stage=name, status="ok", **result)

def do_import():
    global torch
    started = time.monotonic()
    import torch
    return {
        "seconds": round(time.monotonic() - started, 3),
        "version": getattr(torch, "__version__", None),
        "hip": getattr(torch.version, "hip", None),
        "cuda": getattr(torch.version, "cuda", None),
    }

def do_cuda_init():
    available = bool(torch.cuda.is_available())
    return {"is_available": available, "device_count": int(torch.cuda.device_count()) if available else 0}

def do_devices():
    devices = []
    if torch.cuda.is_available():
        for index in range(torch.cuda.device_count()):
            props = torch.cuda.get_device_properties(index)
            devices.append({
                "index": index,
                "name": getattr(props, "name", None),
                "gcnArchName": getattr(props, "gcnArchName", None),
                "total_memory": getattr(props, "total_memory", None),
            })
    return {"devices": devices}

def do_arch_list():
    return {"arch_list": list(torch.cuda.get_arch_list()) if torch.cuda.is_available() else []}

def do_kernel():
    if not torch.cuda.is_available():
        return {"ran": False}
    value = (torch.ones(4, device="cuda") * 2).sum().item()
    torch.cuda.synchronize()
    return {"ran": True, "value": value}

stage("import", do_import)
stage("cuda_init", do_cuda_init)
stage("devices", do_devices)
stage("arch_list", do_arch_list)
stage("kernel", do_kernel)
emit(stage="done", status="ok")
"""


def probe_argv(python: str) -> List[str]:
    """The command that runs the probe in the target interpreter (isolated mode: no user site, no cwd)."""
    return [python, "-I", "-c", TORCH_PROBE_SCRIPT]
