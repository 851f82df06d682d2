"""The target interpreter (``--python``): asked about itself in a child process.

The child runs ``python -I -c PYTHON_INFO_SCRIPT`` (isolated mode: no current
directory on ``sys.path``, no ``PYTHON*`` variables) and prints one JSON object.
The script uses the standard library only, so it works in any environment; it lives in
:mod:`rocm_doctor.facts.python_info_script` so the CLI can start it before its own imports.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from rocm_doctor.facts.common import json_objects
from rocm_doctor.facts.context import GatherContext, failed_section
from rocm_doctor.facts.model import PythonFacts
from rocm_doctor.facts.python_info_script import LABEL, info_argv, info_timeout
from rocm_doctor.facts.value import Fact, absent, known
from rocm_doctor.system.base import Started

_REQUIRED = ("executable", "version", "implementation", "prefix", "base_prefix", "site_packages")


def parse_python_info(stdout: str) -> Dict[str, Any]:
    """The JSON object the info script printed (the last JSON line); ValueError if there is none."""
    objects = list(json_objects(stdout))
    if objects:
        data = objects[-1]
        missing = [k for k in _REQUIRED if k not in data]
        if missing:
            raise ValueError(f"the python-info output lacks {', '.join(missing)}")
        if not isinstance(data["site_packages"], list):
            raise ValueError("site_packages in the python-info output is not a list")
        return data
    raise ValueError("the python-info output contains no JSON object")


def _basename(path: str) -> str:
    return path.rstrip("\\/").replace("\\", "/").rsplit("/", 1)[-1]


def env_kind_and_name(info: Dict[str, Any]) -> tuple[str, Optional[str]]:
    """``venv`` (prefix differs from base_prefix), ``conda`` (prefix has conda-meta) or ``system``."""
    prefix = str(info["prefix"])
    if prefix != info["base_prefix"]:
        return "venv", _basename(prefix)
    if info.get("is_conda"):
        if info.get("conda_prefix") == prefix and info.get("conda_default_env"):
            return "conda", str(info["conda_default_env"])
        return "conda", _basename(prefix)
    return "system", None


def _selected_by(ctx: GatherContext) -> Fact[str]:
    return known(ctx.target[1], "rocm_doctor.facts.target")


def _failed(ctx: GatherContext, source: str, reason: str) -> PythonFacts:
    """Every fact failed, but why this interpreter was the target is still known."""
    return failed_section(PythonFacts, source, reason).model_copy(update={"selected_by": _selected_by(ctx)})


def start_python_info(ctx: GatherContext) -> Started:
    """Start the info script in the target interpreter."""
    timeout = info_timeout(ctx.options.command_timeout, ctx.options.torch_timeout)
    return ctx.system.start(info_argv(ctx.python), timeout=timeout, label=LABEL)


def gather_python(ctx: GatherContext) -> PythonFacts:
    """Run the info script in the target interpreter (or collect the run the CLI started early)."""
    python = ctx.python
    source = f"{python} -I -c <{LABEL}>"
    result = ctx.result_of(LABEL, start_python_info)
    if not result.ok:
        reason = result.failure_reason()
        if result.missing:
            reason = f"the target interpreter {python} was not found"
        return _failed(ctx, source, reason)
    try:
        info = parse_python_info(result.stdout)
    except ValueError as exc:
        return _failed(ctx, source, str(exc))
    kind, name = env_kind_and_name(info)
    site_packages: List[str] = [str(d) for d in info["site_packages"]]
    env_name: Fact[str] = known(name, source) if name else absent(source, "not a virtual or conda environment")
    return PythonFacts(
        executable=known(str(info["executable"]), source),
        selected_by=_selected_by(ctx),
        version=known(str(info["version"]), source),
        implementation=known(str(info["implementation"]), source),
        prefix=known(str(info["prefix"]), source),
        env_kind=known(kind, source),
        env_name=env_name,
        site_packages=known(site_packages, source),
    )
