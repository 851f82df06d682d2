"""Which platform tags of ``Fix.platforms`` a machine matches."""

from __future__ import annotations

from typing import FrozenSet, Iterable

from rocm_doctor.facts.model import Facts


def machine_platforms(facts: Facts) -> FrozenSet[str]:
    """The ``Fix.platforms`` tags that describe this machine (``linux``, ``windows``, ``wsl2``, ``container``).

    A machine whose OS is unknown matches every tag: a fix is then shown rather than hidden.
    """
    tags = set()
    os_name = facts.host.os.value if facts.host.os.is_known else None
    if os_name == "windows":
        tags.add("windows")
    elif os_name == "linux":
        tags.add("linux")
    elif os_name is None:
        tags.update({"linux", "windows", "wsl2", "container"})
    if facts.host.wsl_version.is_known and facts.host.wsl_version.value == 2:
        tags.add("wsl2")
    if facts.host.container.is_known:
        tags.add("container")
    return frozenset(tags)


def applies(fix_platforms: Iterable[str], machine: FrozenSet[str]) -> bool:
    """A fix with no platforms applies everywhere; otherwise it needs one tag in common."""
    wanted = set(fix_platforms)
    return not wanted or bool(wanted & machine)


def is_windows(facts: Facts) -> bool:
    """The target machine runs Windows (not WSL)."""
    return facts.host.os.is_known and facts.host.os.value == "windows"
