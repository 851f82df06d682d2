"""Which platform tags of ``Fix.platforms`` a machine matches."""

from __future__ import annotations

from typing import FrozenSet, Iterable, Optional

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


WSL_PYTORCH_GUIDE = "https://rocm.docs.amd.com/projects/radeon-ryzen/en/docs-7.2/docs/install/installrad/wsl/install-pytorch.html"
"""AMD's WSL PyTorch guide (cited by rule RD351)."""


def docker_unsupported(facts: Facts) -> Optional[str]:
    """Why a Linux ``/dev/kfd`` container recipe does not fit this machine, None when it does."""
    if is_windows(facts):
        return (
            "a Windows host has no /dev/kfd: ROCm containers need a Linux host with the amdgpu driver "
            "(Docker Desktop cannot pass an AMD GPU through); use native Linux for containers"
        )
    if facts.host.wsl_version.is_known and facts.host.wsl_version.value == 2:
        return (
            "WSL2 has no /dev/kfd (see RD350): a container there reaches the GPU through /dev/dxg with the WSL ROCm "
            f"runtime mounted in, as AMD's WSL guide describes ({WSL_PYTORCH_GUIDE}); rocm-doctor does not generate that recipe"
        )
    amd = [a for a in facts.gpus.agents if a.vendor.is_known and a.vendor.value == "AMD"]
    if not amd and facts.gpus.discovery.status in ("known", "absent"):
        return "no AMD GPU was found on this machine, so there is no GPU to pass to a container"
    return None
