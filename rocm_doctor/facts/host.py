"""Host facts: operating system, distribution, kernel, WSL, container and GPU device files.

Facts that belong to another operating system stay unknown with the reason
``not applicable on <OS>`` (see :mod:`rocm_doctor.facts.common`).
"""

from __future__ import annotations

import re
import shlex
from typing import Any, Dict, List, Optional, Tuple

from rocm_doctor.facts.common import file_fact, not_applicable, os_kind, read_file
from rocm_doctor.facts.context import GatherContext
from rocm_doctor.facts.model import HostFacts
from rocm_doctor.facts.value import Fact, absent, failed, known
from rocm_doctor.shells import shell_name
from rocm_doctor.system.base import System

OS_RELEASE_PATHS = ("/etc/os-release", "/usr/lib/os-release")
OSRELEASE_PATH = "/proc/sys/kernel/osrelease"
PROC_VERSION_PATH = "/proc/version"
MACOS_VERSION_PLIST = "/System/Library/CoreServices/SystemVersion.plist"
WINDOWS_11_FIRST_BUILD = 22000
"""Windows 11 reports version 10.0 with build numbers from 22000 on."""


def parse_os_release(text: str) -> Dict[str, str]:
    """``KEY=value`` lines of os-release(5); values may be shell-quoted."""
    values: Dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, raw = line.split("=", 1)
        try:
            parts = shlex.split(raw)
        except ValueError:
            parts = [raw.strip("\"'")]
        values[key.strip()] = parts[0] if parts else ""
    return values


def wsl_version_from_kernel(text: str, has_dxg: bool) -> Optional[int]:
    """1 or 2 when a kernel string is WSL's, None otherwise.

    WSL2 kernels are named ``...-microsoft-standard-WSL2``; WSL1 reports a fake
    ``4.4.0-19041-Microsoft`` kernel. ``/dev/dxg`` only exists in WSL2.
    """
    lowered = text.lower()
    if "microsoft" not in lowered:
        return None
    if "wsl2" in lowered or "microsoft-standard" in lowered or has_dxg:
        return 2
    return 1


_CGROUP_MARKERS: Tuple[Tuple[str, str], ...] = (
    ("kubepods", "kubernetes"),
    ("libpod", "podman"),
    ("docker", "docker"),
    ("containerd", "docker"),
    ("lxc", "lxc"),
)


def container_from_cgroup(text: str) -> Optional[str]:
    """The container runtime named in ``/proc/1/cgroup`` (cgroup v1 paths carry it)."""
    lowered = text.lower()
    for marker, runtime in _CGROUP_MARKERS:
        if marker in lowered:
            return runtime
    return None


def _detect_container(system: System) -> Fact[str]:
    env = system.environ()
    if env.get("KUBERNETES_SERVICE_HOST"):
        return known("kubernetes", "env:KUBERNETES_SERVICE_HOST")
    for name in ("SINGULARITY_CONTAINER", "APPTAINER_CONTAINER"):
        if env.get(name):
            return known("singularity", f"env:{name}")
    cgroup = read_file(system, "/proc/1/cgroup")
    if cgroup.text is not None and container_from_cgroup(cgroup.text) == "kubernetes":
        return known("kubernetes", "/proc/1/cgroup")
    if system.exists("/run/.containerenv"):
        return known("podman", "/run/.containerenv")
    if system.exists("/.dockerenv"):
        return known("docker", "/.dockerenv")
    if cgroup.text is not None:
        runtime = container_from_cgroup(cgroup.text)
        if runtime is not None:
            return known(runtime, "/proc/1/cgroup")
    marker = read_file(system, "/run/systemd/container")
    if marker.text and marker.text.strip():
        return known(marker.text.strip().splitlines()[0], "/run/systemd/container")
    sources = "/.dockerenv, /run/.containerenv, /proc/1/cgroup, container variables"
    return absent(sources, "no container marker found")


def _os_release(system: System) -> Tuple[Optional[Dict[str, str]], str, Fact[Any]]:
    """The parsed os-release file and its path, or None and the fact that says why not."""
    problem: Fact[Any] = absent(", ".join(OS_RELEASE_PATHS), "no os-release file")
    for path in OS_RELEASE_PATHS:
        result = read_file(system, path)
        if result.text is not None:
            return parse_os_release(result.text), path, problem
        if result.problem is not None and result.problem.status == "failed":
            problem = result.problem
    return None, "", problem


def _os_release_facts(system: System) -> Dict[str, Fact[Any]]:
    values, source, problem = _os_release(system)
    facts: Dict[str, Fact[Any]] = {}
    for name, key in (("distro_id", "ID"), ("distro_version", "VERSION_ID"), ("distro_name", "PRETTY_NAME")):
        if values is None:
            facts[name] = problem
        elif values.get(key):
            facts[name] = known(values[key], source)
        else:
            facts[name] = absent(source, f"{key} is not set in {source}")
    return facts


def _render_nodes(system: System) -> Fact[List[str]]:
    try:
        names = system.list_dir("/dev/dri")
    except FileNotFoundError:
        return absent("/dev/dri", "/dev/dri does not exist")
    except OSError as exc:
        return failed("/dev/dri", f"cannot list /dev/dri: {exc.strerror or exc}")
    return known([f"/dev/dri/{n}" for n in names if n.startswith("renderD")], "/dev/dri")


def _shm_bytes(system: System) -> Fact[int]:
    size = system.disk_size("/dev/shm")
    if size is not None:
        return known(size, "/dev/shm")
    if not system.exists("/dev/shm"):
        return absent("/dev/shm", "/dev/shm does not exist")
    return failed("/dev/shm", "the size of /dev/shm could not be read")


def _kernel_release(system: System) -> Fact[str]:
    fact = file_fact(system, OSRELEASE_PATH, lambda text: text.strip() or None)
    if fact.is_known:
        return fact
    release = system.platform().release
    return known(release, "platform.release()") if release else fact


def _wsl_version(system: System, has_dxg: bool) -> Fact[int]:
    readable: List[str] = []
    problems: List[str] = []
    for path in (OSRELEASE_PATH, PROC_VERSION_PATH):
        result = read_file(system, path)
        if result.text is None:
            assert result.problem is not None and result.problem.reason is not None
            problems.append(result.problem.reason)
            continue
        readable.append(path)
        version = wsl_version_from_kernel(result.text, has_dxg)
        if version is not None:
            return known(version, path)
    if not readable:
        return failed(PROC_VERSION_PATH, "; ".join(problems))
    return absent(", ".join(readable), "the kernel is not a WSL kernel")


def _windows_facts(system: System) -> Dict[str, Fact[Any]]:
    version = system.platform().version.strip()
    source = "platform.version()"
    match = re.match(r"^(\d{1,18})\.(\d{1,18})\.(\d{1,18})(?!\d)", version)
    if not match:
        reason = f"unrecognised Windows version {version!r}"
        return {
            "windows_version": failed(source, reason),
            "windows_build": failed(source, reason),
            "windows_release": failed(source, reason),
        }
    build = int(match.group(3))
    release = "11" if build >= WINDOWS_11_FIRST_BUILD else match.group(1)
    return {
        "windows_version": known(match.group(0), source),
        "windows_build": known(build, source),
        "windows_release": known(release, source),
    }


def parse_macos_plist(text: str) -> Optional[str]:
    """``ProductVersion`` from SystemVersion.plist."""
    match = re.search(r"<key>ProductVersion</key>\s*<string>([^<]+)</string>", text)
    return match.group(1).strip() if match else None


def gather_host(ctx: GatherContext) -> HostFacts:
    """OS, distribution, kernel, WSL, container, device files."""
    system = ctx.system
    kind = os_kind(system)
    platform = system.platform()
    values: Dict[str, Fact[Any]] = {}
    if kind is None:
        values["os"] = failed("platform.system()", f"unsupported operating system {platform.system!r}")
    else:
        values["os"] = known(kind, "platform.system()")
    values["arch"] = known(platform.machine, "platform.machine()") if platform.machine else failed(
        "platform.machine()", "the machine architecture was not reported"
    )
    na = not_applicable(kind)
    linux_only = ("distro_id", "distro_version", "distro_name", "wsl_version", "container", "dev_kfd", "dev_dri",
                  "dev_dxg", "render_nodes", "shm_bytes")
    windows_only = ("windows_version", "windows_build", "windows_release")
    for name in linux_only + windows_only + ("macos_version", "kernel_release"):
        values[name] = na
    if kind == "linux":
        values.update(_os_release_facts(system))
        values["kernel_release"] = _kernel_release(system)
        for name in ("kfd", "dri", "dxg"):
            values[f"dev_{name}"] = known(system.exists(f"/dev/{name}"), f"/dev/{name}")
        values["wsl_version"] = _wsl_version(system, bool(values["dev_dxg"].value))
        values["container"] = _detect_container(system)
        values["render_nodes"] = _render_nodes(system)
        values["shm_bytes"] = _shm_bytes(system)
    elif kind == "windows":
        values.update(_windows_facts(system))
    elif kind == "macos":
        values["macos_version"] = file_fact(system, MACOS_VERSION_PLIST, parse_macos_plist)
        if platform.release:
            values["kernel_release"] = known(platform.release, "platform.release()")
    values["shell"] = _shell(system, kind)
    return HostFacts(**values)


def _shell(system: System, kind: Optional[str]) -> Fact[Any]:
    """The shell rocm-doctor was started from, else the login shell; absent when neither is a known shell."""
    parent = system.parent_process()
    if parent and shell_name(parent):
        return known(shell_name(parent), "parent process")
    login = system.environ().get("SHELL", "") if kind != "windows" else ""
    if login and shell_name(login):
        return known(shell_name(login), "env:SHELL")
    return absent("parent process", "rocm-doctor was not started from a shell it knows")
