"""The group id a GPU device node has inside a container, LXC guest or pod, and a pod's numeric groups.

``permissions.gpu_node_gids`` (a merged list) collects the numbers a report shows as the group of
``/dev/kfd`` or a ``/dev/dri/renderD*`` where the program runs, when that group is known only by its number:

* an ``ls -l`` row whose group column is a bare id (``crw-rw---- 1 root 106 242, 0 ... /dev/kfd``): no group
  of that id exists where ls ran, the device having kept the host's render gid (ROCm/k8s-device-plugin#39,
  gid 106 in a pod; dlandon/zoneminder.machine.learning#105, renderD128 owned by 109 in a container). A
  ``nogroup``/``nobody`` group (or 65534) is the kernel's overflow gid: the host group is not mapped into the
  container's user namespace (an unprivileged LXC guest; DEFAULT_OVERFLOWGID in include/linux/highuid.h);
* a Proxmox VE container entry ``devN: /dev/kfd,gid=44`` (pct.conf ``dev[n]``: "Group ID to be assigned to the
  device node", proxmox/pve-container src/PVE/LXC/Config.pm), where ``/dev/kfd`` given video's 44 while the
  render nodes had 992 cost ROCm its compute node (community-scripts/ProxmoxVE#15401). Without ``gid=`` the node
  gets group 0, mode 0660 in the guest (create_passthrough_device_node, src/PVE/LXC.pm): ``/dev/kfd`` root:root
  after a plain ``dev1: /dev/kfd`` (Hal0ai/hal0#1954);
* an LXD/Incus ``lxc|incus config device add C NAME unix-char source=/dev/kfd gid=N`` (the unix-char device's
  ``gid``, 0 when not given, mode 0660, canonical/lxd doc/reference/devices_unix_char.md;
  ROCm/legacy-rocm-build#886 shares /dev/kfd with a guest so).

A node that every user may open (others' bits rw in ls, a ``mode=`` of 0666) is left out: its group does not
decide anything. A named group (``root render``, the host's own listing) is left out too: the name says nothing
of a number. ``lxc.cgroup2.devices.allow`` and ``lxc.mount.entry`` lines give no gid and are not read.

``permissions.group_ids`` (a hint, below ``id``'s own numbers, which :mod:`.commands` reads) from a pod's
``securityContext`` that runs as a named non-root uid with a ``runAsGroup``: that group, ``fsGroup`` and
``supplementalGroups`` are the numeric groups the kubelet gives the container's process (Kubernetes
PodSecurityContext); the image's own memberships could add only groups it names, never a bare id.
"""

from __future__ import annotations

from typing import List, Optional

from rocm_doctor.ingest.blocks import Block, Line
from rocm_doctor.ingest.formats.common import make_piece
from rocm_doctor.ingest.model import TRUST_HINT, Observation, Piece
from rocm_doctor.lazy_regex import when_used

OVERFLOW_GID = 65534
"""The kernel's overflow gid, shown as ``nogroup`` (Debian) or ``nobody`` (Fedora) for an unmapped group."""

_LS_ROW = when_used(
    # rev62b: the owner by name (``ls -ln`` prints numbers for every node, a host's too) and no ``+`` (an ACL, logind's
    # grant to the seat's user, opens the node beyond its group)
    r"^[ \t]{0,12}c[rwx-]{6}(?P<other>[rwx-]{3})\.?[ \t]{1,8}\d{1,4}[ \t]{1,8}[A-Za-z_][\w.-]{0,31}[ \t]{1,8}"
    r"(?P<group>\d{1,10}|nogroup|nobody)[ \t]{1,8}\d{1,4},[ \t]{0,4}\d{1,4}[ \t]{1,8}[^\n]{0,40}?"
    r"(?:/dev/kfd|\bkfd|renderD\d{1,4})[ \t]{0,4}$"
)
_PVE_DEV = when_used(
    r"^[ \t]{0,8}dev\d{1,3}:[ \t]{0,4}(?:path=)?(?:/dev/kfd|/dev/dri/renderD\d{1,4})(?P<opts>(?:,[\w-]{1,16}=[^,\s]{1,32}){0,8})[ \t]{0,8}$"
)
_LXD_DEVICE = when_used(
    r"^[ \t]{0,8}(?:sudo[ \t]{1,4})?(?:lxc|incus)[ \t]{1,4}config[ \t]{1,4}device[ \t]{1,4}add[ \t]{1,4}\S{1,64}[ \t]{1,4}\S{1,64}"
    r"[ \t]{1,4}unix-char(?P<opts>(?:[ \t]{1,4}[\w.-]{1,16}=\S{1,64}){1,10})[ \t]{0,8}$"
)
_OPTION = when_used(r"([\w.-]{1,16})=(\S{1,64})")
_GPU_PATH = when_used(r"/dev/kfd|/dev/dri/renderD\d{1,4}")
_RUN_AS_USER = when_used(r"^[ \t]{0,40}(?:-[ \t]{1,4})?runAsUser:[ \t]{0,4}(\d{1,10})[ \t]{0,8}(?:#[^\n]{0,200})?$")
_RUN_AS_GROUP = when_used(r"^[ \t]{0,40}(?:-[ \t]{1,4})?(?:runAsGroup|fsGroup):[ \t]{0,4}(\d{1,10})[ \t]{0,8}(?:#[^\n]{0,200})?$")
_SUPPLEMENTAL = when_used(r"^[ \t]{0,40}(?:-[ \t]{1,4})?supplementalGroups:[ \t]{0,8}(?:\[(?P<inline>[^\]\n]{0,200})\])?[ \t]{0,8}(?:#[^\n]{0,200})?$")
_LIST_ITEM = when_used(r"^[ \t]{0,40}-[ \t]{1,4}[\"']?(\d{1,10})[\"']?[ \t]{0,8}(?:#[^\n]{0,200})?$")


def _open_to_all(mode: Optional[str]) -> bool:
    """An octal ``mode=`` whose others' digit grants read and write (0666, 666)."""
    return mode is not None and mode.isdigit() and int(mode[-1]) & 6 == 6


def _listed_gid(line: Line) -> Optional[int]:
    row = _LS_ROW.match(line.text)
    if row is None or row.group("other").startswith("rw"):
        return None
    group = row.group("group")
    return int(group) if group.isdigit() else OVERFLOW_GID


def _configured_gid(line: Line) -> Optional[int]:
    """The ``gid=`` a Proxmox ``devN:`` entry or an LXD/Incus unix-char device gives a GPU node in the guest."""
    text = line.text
    pve = _PVE_DEV.match(text) if "dev" in text else None
    lxd = _LXD_DEVICE.match(text) if pve is None and "unix-char" in text else None
    found = pve or lxd
    if found is None:
        return None
    options = dict(option.groups() for option in _OPTION.finditer(found.group("opts")))
    if lxd is not None and not any(_GPU_PATH.fullmatch(options.get(key, "")) for key in ("source", "path")):
        return None
    # without gid= both give the node group 0 inside the guest, mode 0660 (pve-container's
    # create_passthrough_device_node in src/PVE/LXC.pm; LXD's unix-char defaults): only root's group opens it
    gid = options.get("gid", "0")
    if not gid.isdigit() or _open_to_all(options.get("mode")):
        return None
    return int(gid)


def _node_gids(block: Block) -> List[Piece]:
    pieces: List[Piece] = []
    for line in block.lines:
        gid = _listed_gid(line) if "kfd" in line.text or "renderD" in line.text else None
        if gid is None and ("dev" in line.text or "unix-char" in line.text):
            gid = _configured_gid(line)
        if gid is not None:
            pieces.append(make_piece("gpu-node-gid", [line], [Observation("permissions.gpu_node_gids", [gid], line)]))
    return pieces


def _pod_groups(block: Block) -> List[Piece]:
    """A pod's numeric groups: ``runAsGroup``, ``fsGroup`` and ``supplementalGroups``, where the same block runs
    the pod as a non-root ``runAsUser`` and names its ``runAsGroup`` (without it the primary group is the image's)."""
    if "supplementalGroups" not in block.text or "runAsGroup" not in block.text:
        return []
    lines = block.lines
    user: Optional[int] = None
    ids: List[int] = []
    first: Optional[Line] = None
    has_primary = False
    for index, line in enumerate(lines):
        found = _RUN_AS_USER.match(line.text)
        if found is not None:
            user = int(found.group(1))
            continue
        found = _RUN_AS_GROUP.match(line.text)
        if found is not None:
            has_primary = has_primary or "runAsGroup" in line.text
            ids.append(int(found.group(1)))
            continue
        head = _SUPPLEMENTAL.match(line.text)
        if head is None:
            continue
        first = first or line
        if head.group("inline") is not None:
            items = [item.strip().strip("\"'") for item in head.group("inline").split(",")]
            if not all(item.isdigit() for item in items if item):
                return []
            ids.extend(int(item) for item in items if item)
            continue
        for row in lines[index + 1 : index + 17]:
            item = _LIST_ITEM.match(row.text)
            if item is None:
                break
            ids.append(int(item.group(1)))
    if not user or not has_primary or first is None:
        return []
    unique = list(dict.fromkeys(ids))
    observations = [Observation(path, unique, first, TRUST_HINT) for path in ("permissions.group_ids", "permissions.unnamed_group_ids")]
    return [make_piece("pod-group-ids", [first], observations)]


def parse(block: Block) -> List[Piece]:
    return _node_gids(block) + _pod_groups(block)
