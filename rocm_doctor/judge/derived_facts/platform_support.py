"""Derived facts about the operating system AMD supports per ROCm release (rules/data/rocm_os.yaml)."""

from __future__ import annotations

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.knowledge import rocm_os
from rocm_doctor.numbers import is_index, small_int

SOURCE = "rocm.version + /etc/os-release + rules/data/rocm_os.yaml"


@machine_fact(
    "rocm_os_supported",
    "Whether AMD's compatibility matrix lists this Linux distribution version for the installed "
    "ROCm release (rules/data/rocm_os.yaml, ROCm 6.0.0-7.2.3); unknown for releases the table "
    "does not cover; absent when no system ROCm is installed or the OS is not Linux.",
)
def rocm_os_supported(facts: Facts, tables: Tables) -> Fact:
    host, rocm = facts.host, facts.rocm.version
    if host.os.status == "known" and host.os.value != "linux":
        return absent("host", "not Linux")
    if rocm.status == "absent":
        return absent(rocm.source or "rocm", "no system ROCm is installed")
    if not (rocm.is_known and host.distro_id.is_known and host.distro_version.is_known):
        return unknown("the ROCm version or the distribution is not known")
    verdict = rocm_os.supported_os(str(rocm.value), str(host.distro_id.value), str(host.distro_version.value), tables["rocm_os"])
    if verdict is None:
        return unknown(f"rules/data/rocm_os.yaml has no row for ROCm {rocm.value}")
    return known(verdict, SOURCE)


@machine_fact(
    "rocm_os_listed",
    "The distributions AMD lists for the installed ROCm release, for messages "
    "('Ubuntu 24.04, 22.04; RHEL 9.4, ...'); unknown when the release is not tabled.",
)
def rocm_os_listed(facts: Facts, tables: Tables) -> Fact:
    rocm = facts.rocm.version
    if not rocm.is_known:
        return unknown("the ROCm version is not known")
    listed = rocm_os.listed_os(str(rocm.value), tables["rocm_os"])
    return known(listed, "rules/data/rocm_os.yaml") if listed else unknown(f"no row for ROCm {rocm.value}")


def _parts(text: str):
    head = str(text).split("+")[0].split("-")[0]
    parts = head.split(".")
    numbers = tuple(small_int(p) for p in parts if is_index(p))
    return numbers if len(numbers) == len(parts) else None  # type: ignore[return-value]


@machine_fact(
    "torch_rocm_patch_differs",
    "torch was built for the same ROCm major.minor as the system ROCm but another patch release "
    "(AMD's WSL and repo.radeon.com wheels carry the patch: +rocm6.4.1 against a 6.4.2 system); "
    "absent when either version has no patch level or the series differ.",
)
def torch_rocm_patch_differs(facts: Facts, tables: Tables) -> Fact:
    torch_rocm, system = facts.torch.rocm_version, facts.rocm.version
    if not torch_rocm.is_known or not system.is_known:
        missing = torch_rocm if not torch_rocm.is_known else system
        if missing.status == "absent":
            return absent(missing.source or "versions", "no ROCm version to compare")
        return unknown(missing.reason or "a ROCm version is not known")
    wheel, host = _parts(str(torch_rocm.value)), _parts(str(system.value))
    if wheel is None or host is None or len(wheel) < 3 or len(host) < 3 or wheel[:2] != host[:2]:
        return absent("torch.rocm_version + rocm.version", "no patch-level comparison applies")
    return known(wheel[:3] != host[:3], "torch.rocm_version + rocm.version")
