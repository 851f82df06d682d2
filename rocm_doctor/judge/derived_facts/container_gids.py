"""Derived fact: a GPU device node's group id that the user's groups lack, by number.

Inside a container, LXC guest or pod, /dev/kfd and /dev/dri/renderD* keep the group id the host (or the guest's
device entry) gave them, and the kernel checks that number against the process's group ids; names do not count.
An image's ``render`` group has its own id (ROCm/rocm-examples#172: the container user's groups were
``109(render)`` while the nodes had the host's 110, fixed by adding 110), so ``in_render_group`` by name can be
true while the node stays closed. This fact compares the numbers: ``permissions.gpu_node_gids`` (the ids a
listing or a device entry shows, only where no name is known for them) against ``permissions.group_ids`` (``id``'s
numbers, or a pod's securityContext groups). Root is left out: it opens the nodes whatever their group.
"""

from __future__ import annotations

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact


@machine_fact(
    "gpu_node_gids_user_lacks",
    "The group ids of /dev/kfd or /dev/dri/renderD* shown by number where the program runs (an ls -l in a container, "
    "an LXC/Proxmox/LXD device entry's gid=) that are not among the user's numeric groups (id's, or a pod's "
    "securityContext), as '106' or '106, 65534'. Absent when every such id is held, when no node id or no numeric "
    "groups are shown, or when the user is root.",
)
def gpu_node_gids_user_lacks(facts: Facts, tables: Tables) -> Fact:
    permissions = facts.permissions
    nodes = permissions.gpu_node_gids
    if not nodes.is_known or not nodes.value:
        return absent(nodes.source or "paste", "the report shows no GPU device node's group by number")
    groups = permissions.group_ids
    if not groups.is_known:
        if groups.status == "unknown" and groups.reason and "different values" in groups.reason:
            return unknown(groups.reason)
        return absent(groups.source or "paste", "the report does not show the user's groups by number (id)")
    root = permissions.is_root
    if root.is_known and root.value is True:
        return absent(root.source or "paste", "the user is root, who opens the device nodes whatever their group")
    held = set(groups.value or [])
    lacking = [gid for gid in dict.fromkeys(nodes.value) if gid not in held]
    if not lacking:
        return absent(groups.source or "paste", "the user holds every group id the GPU device nodes show")
    return known(", ".join(str(gid) for gid in lacking), f"{nodes.source or 'paste'}; {groups.source or 'paste'}")


@machine_fact(
    "gpu_node_gids_all_held",
    "True when the user's numeric groups include, each as a bare number (id's ',106', a pod's securityContext), every "
    "group id the report shows by number for /dev/kfd or /dev/dri/renderD* (the host's render gid was given, as "
    "--group-add 106 or supplementalGroups). An id that `id` names (992(render)) while a listing shows it bare was "
    "listed somewhere else (the host's id beside the container's ls), so it does not count. Absent otherwise.",
)
def gpu_node_gids_all_held(facts: Facts, tables: Tables) -> Fact:
    permissions = facts.permissions
    nodes, bare = permissions.gpu_node_gids, permissions.unnamed_group_ids
    if not (nodes.is_known and nodes.value and bare.is_known and bare.value):
        return absent("paste", "the report does not show both a GPU node's group id and the user's groups as bare numbers")
    if not set(nodes.value) <= set(bare.value):
        return absent(bare.source or "paste", "a group id a GPU device node shows is not among the user's bare group numbers")
    return known(True, f"{nodes.source or 'paste'}; {bare.source or 'paste'}")
