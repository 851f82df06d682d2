"""Synthetic findings and facts for the fix tests (the planner only reads these fields)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from rocm_doctor.facts.model import Facts
from rocm_doctor.model.rules import Finding


def finding(fid: str, *fixes: Any, severity: str = "warning") -> Finding:
    return Finding(
        id=fid, name=fid.lower(), severity=severity, category="env", action="config", area="test",
        title=f"title {fid}", message="m", explanation="e", fixes=list(fixes),
    )


def _k(value: Any) -> Dict[str, Any]:
    return {"status": "known", "value": value, "source": "test"}


def machine_facts(
    os_name: str = "linux",
    python: str = "3.12.3",
    gfx: List[str] = ("gfx1100",),
    rocm: Optional[str] = None,
    installed: Optional[Dict[str, str]] = None,
    container: bool = False,
    integrated: Optional[List[bool]] = None,
    render_gid: Optional[int] = None,
    distro: Optional[str] = None,
    torch_rocm: Optional[str] = None,
    wsl: bool = False,
    env: Optional[Dict[str, str]] = None,
) -> Facts:
    agents = []
    for index, target in enumerate(gfx):
        agent = {"index": index, "source": "test", "gfx": _k(target), "vendor": _k("AMD")}
        if integrated is not None:
            agent["integrated"] = _k(integrated[index])
        agents.append(agent)
    data: Dict[str, Any] = {
        "host": {"os": _k(os_name)},
        "python": {"version": _k(python), "executable": _k("/env/bin/python")},
        "gpus": {"agents": agents},
    }
    if container:
        data["host"]["container"] = _k("docker")
    if wsl:
        data["host"]["wsl_version"] = _k(2)
    if env is not None:
        data["env"] = {"vars": _k(env)}
    if distro:
        data["host"]["distro_id"] = _k("ubuntu")
        data["host"]["distro_version"] = _k(distro)
    if rocm:
        data["rocm"] = {"version": _k(rocm)}
    if installed is not None:
        data["packages"] = {"installed": _k(installed)}
    if render_gid is not None:
        data["permissions"] = {"render_group_gid": _k(render_gid)}
    if torch_rocm:
        data["torch"] = {"rocm_version": _k(torch_rocm)}
    return Facts.from_dict(data)
