"""Windows HIP SDK: ``HIP_PATH``, the versioned ``HIP_PATH_NN`` variables and ``amdhip64_*.dll``.

The HIP runtime DLL is looked for in ``%HIP_PATH%\\bin``, ``C:\\Windows\\System32``
(the display driver installs it there) and ``site-packages\\_rocm_sdk_core\\bin``
(AMD's pip-installed ROCm, TheRock#1278). ``driver_version`` comes from WMI and is
filled by the GPU gatherer; it stays unknown here.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List

from rocm_doctor.facts.common import join_path, not_applicable, os_kind
from rocm_doctor.facts.context import GatherContext
from rocm_doctor.facts.model import PythonFacts, WindowsHipFacts
from rocm_doctor.facts.value import Fact, absent, known, unknown

_HIP_PATH_NN = re.compile(r"^HIP_PATH_(\d)(\d{1,17})$")
_DLL = re.compile(r"^amdhip64(_\d+)?\.dll$", re.IGNORECASE)


def sdk_versions(env: Dict[str, str]) -> List[str]:
    """``HIP_PATH_57`` -> ``5.7``, ``HIP_PATH_61`` -> ``6.1``, sorted."""
    found = []
    for name in env:
        match = _HIP_PATH_NN.match(name)
        if match:
            found.append((int(match.group(1)), int(match.group(2))))
    return [f"{major}.{minor}" for major, minor in sorted(set(found))]


def _dll_dirs(ctx: GatherContext, env: Dict[str, str]) -> List[str]:
    dirs = []
    if env.get("HIP_PATH"):
        dirs.append(join_path(env["HIP_PATH"], "bin"))
    system_root = env.get("SYSTEMROOT") or "C:\\Windows"
    dirs.append(join_path(system_root, "System32"))
    python = ctx.sections.get("python")
    if isinstance(python, PythonFacts) and python.site_packages.is_known:
        dirs += [join_path(d, "_rocm_sdk_core", "bin") for d in python.site_packages.value or []]
    return dirs


def _dlls(ctx: GatherContext, env: Dict[str, str]) -> Fact[List[str]]:
    found: List[str] = []
    looked: List[str] = []
    for directory in _dll_dirs(ctx, env):
        looked.append(directory)
        try:
            names = ctx.system.list_dir(directory)
        except OSError:
            continue
        found += [join_path(directory, n) for n in names if _DLL.match(n)]
    source = "; ".join(looked)
    return known(found, source) if found else absent(source, "no amdhip64 DLL found")


def gather_windows(ctx: GatherContext) -> WindowsHipFacts:
    """HIP SDK facts on Windows; unknown elsewhere."""
    kind = os_kind(ctx.system)
    if kind != "windows":
        na = not_applicable(kind)
        return WindowsHipFacts(**{name: na for name in WindowsHipFacts.model_fields})
    # Windows variable names are case-insensitive; os.environ reports them upper-cased.
    env = {k.upper(): v for k, v in ctx.system.environ().items()}
    values: Dict[str, Fact[Any]] = {
        "hip_path": known(env["HIP_PATH"], "env:HIP_PATH") if env.get("HIP_PATH") else absent(
            "env:HIP_PATH", "HIP_PATH is not set (no HIP SDK installed)"
        ),
        "amdhip_dlls": _dlls(ctx, env),
        "driver_version": unknown("not read here: the display driver version comes from WMI, per adapter in gpus.agents"),
    }
    versions = sdk_versions(env)
    values["hip_sdk_versions"] = known(versions, "env:HIP_PATH_*") if versions else absent(
        "env:HIP_PATH_*", "no HIP_PATH_NN variable is set"
    )
    return WindowsHipFacts(**values)
