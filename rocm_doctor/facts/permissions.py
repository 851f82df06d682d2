"""The user's access to the GPU device files (Linux only).

ROCm needs read and write access to ``/dev/kfd`` and the ``/dev/dri/renderD*``
nodes; distributions grant it through the ``render`` (and older ``video``) group.
Inside a container the group may only be known by its number
(``--group-add 110``), so membership is tested by name and by gid.
"""

from __future__ import annotations

from typing import Any, Dict, List

from rocm_doctor.facts.common import not_applicable, os_kind
from rocm_doctor.facts.context import GatherContext
from rocm_doctor.facts.model import HostFacts, PermissionsFacts
from rocm_doctor.facts.value import Fact, absent, failed, known

KFD = "/dev/kfd"


def _in_group(name: str, groups: List[str], group_ids: Dict[str, int]) -> bool:
    gid = group_ids.get(name)
    return name in groups or (gid is not None and str(gid) in groups)


def _render_nodes_rw(ctx: GatherContext) -> Fact[bool]:
    host = ctx.sections.get("host")
    nodes = host.render_nodes if isinstance(host, HostFacts) else None
    if nodes is None:
        return failed("/dev/dri", "the render nodes are not known")
    if nodes.status == "absent":
        return absent("/dev/dri", nodes.reason)
    if not nodes.is_known:
        return failed("/dev/dri", f"the render nodes are not known: {nodes.reason}")
    if not nodes.value:
        return absent("/dev/dri", "no /dev/dri/renderD* node exists")
    results = {node: ctx.system.access(node, write=True) for node in nodes.value}
    source = ", ".join(nodes.value)
    if any(v is None for v in results.values()):
        unknown_nodes = [n for n, v in results.items() if v is None]
        return failed(source, f"access to {', '.join(unknown_nodes)} could not be tested")
    denied = [n for n, v in results.items() if not v]
    if denied:
        return Fact(status="known", value=False, source=source, reason=f"no read/write access to {', '.join(denied)}")
    return known(True, source)


def gather_permissions(ctx: GatherContext) -> PermissionsFacts:
    """User, groups and device access."""
    kind = os_kind(ctx.system)
    if kind != "linux":
        na = not_applicable(kind)
        return PermissionsFacts(**{name: na for name in PermissionsFacts.model_fields})
    ident = ctx.system.identity()
    source = "identity"
    values: Dict[str, Fact[Any]] = {
        "user": known(ident.user, source) if ident.user else failed(source, "the user name was not reported"),
        "is_root": known(ident.uid == 0, source) if ident.uid is not None else failed(
            source, "the user id was not reported"
        ),
        "groups": known(list(ident.groups), source),
        "in_render_group": known(_in_group("render", ident.groups, ident.group_ids), source),
        "in_video_group": known(_in_group("video", ident.groups, ident.group_ids), source),
    }
    gid = ident.group_ids.get("render")
    values["render_group_gid"] = known(gid, "/etc/group") if gid is not None else absent(
        "/etc/group", "this system has no render group"
    )
    kfd = ctx.system.access(KFD, write=True)
    values["kfd_rw"] = absent(KFD, f"{KFD} does not exist") if kfd is None else known(kfd, KFD)
    values["render_nodes_rw"] = _render_nodes_rw(ctx)
    # read from a pasted report (id, ls -l in a container, an LXC device entry); on a machine kfd_rw and
    # render_nodes_rw test the access itself
    values["group_ids"] = absent(source, "a machine's access is tested directly (kfd_rw, render_nodes_rw), not compared by group id")
    values["unnamed_group_ids"] = absent(source, "a machine's access is tested directly (kfd_rw, render_nodes_rw), not compared by group id")
    values["gpu_node_gids"] = absent(source, "a machine's access is tested directly (kfd_rw, render_nodes_rw), not compared by group id")
    return PermissionsFacts(**values)
