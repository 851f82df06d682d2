"""Operating-system strings as tools print them: Python's platform string, OS names, kernels.

* ``Linux-6.8.0-55-generic-x86_64-with-glibc2.39`` (``platform.platform()``, collect_env);
* ``Linux-5.15.153.1-microsoft-standard-WSL2-x86_64-with-glibc2.35`` (WSL2: the kernel
  release carries ``microsoft-standard-WSL2``, e.g. ``6.6.87.2-microsoft-standard-WSL2``);
* ``Windows-10-10.0.22631-SP0`` (Windows reports 10 in the first field for Windows 11;
  the build number decides: Windows 11 is build >= 22000);
* ``Ubuntu 22.04.5 LTS``, ``Windows 11``, ``Windows 10 IoT LTSC 10.0.19044``.
"""

from __future__ import annotations

import re
from typing import List, Optional

from rocm_doctor.ingest.blocks import Line
from rocm_doctor.ingest.model import TRUST_TOOL, Absent, Observation
from rocm_doctor.lazy_regex import when_used

WINDOWS_11_BUILD = 22000

_DISTROS = (
    ("red hat enterprise linux", "rhel"),
    ("rocky linux", "rocky"),
    ("almalinux", "almalinux"),
    ("linux mint", "linuxmint"),
    ("opensuse leap", "opensuse-leap"),
    ("opensuse tumbleweed", "opensuse-tumbleweed"),
    ("sles", "sles"),
    ("suse linux enterprise", "sles"),
    ("centos stream", "centos"),
    ("centos", "centos"),
    ("ubuntu", "ubuntu"),
    ("debian", "debian"),
    ("fedora", "fedora"),
    ("arch linux", "arch"),
    ("manjaro", "manjaro"),
    ("pop!_os", "pop"),
    # Ubuntu's flavours ship Ubuntu's base-files, whose os-release says ID=ubuntu
    ("kubuntu", "ubuntu"),
    ("xubuntu", "ubuntu"),
    ("lubuntu", "ubuntu"),
    # distributions AMD does not list, by the names users write: what is read is that they are Linux
    # and none of AMD's; the ids are the names lower-cased, not checked against each os-release
    ("nixos", "nixos"),
    ("endeavouros", "endeavouros"),
    ("cachyos", "cachyos"),
    ("gentoo", "gentoo"),
    ("nobara", "nobara"),
    ("bazzite", "bazzite"),
    ("zorin os", "zorin"),
    ("elementary os", "elementary"),
    ("garuda", "garuda"),
)
_KERNEL_RE = when_used(r"^\d+\.\d+(?:\.\d+)*(?:[-+.][0-9A-Za-z._+-]*)?$")
_WIN_VERSION_RE = when_used(r"\b10\.0\.(\d{5})\b")


def kernel_observations(release: str, line: Line, trust: int = TRUST_TOOL) -> List[Observation]:
    """A Linux kernel release (``6.8.0-45-generic``): host.os linux, the release, WSL2 if it says so."""
    release = release.strip()
    if not _KERNEL_RE.match(release):
        return []
    out = [Observation("host.os", "linux", line, trust), Observation("host.kernel_release", release, line, trust)]
    if "microsoft-standard-wsl2" in release.lower():
        out.append(Observation("host.wsl_version", 2, line, trust))
    elif "microsoft" not in release.lower():
        # WSL kernels always name Microsoft in their release (6.6.87.2-microsoft-standard-WSL2).
        out.append(Observation("host.wsl_version", Absent(f"kernel {release} is not a WSL kernel"), line, trust))
    return out


_WINDOWS_RELEASE = when_used(r"\bwin(?:dows?)?[\s-]*(10|11)\b", re.IGNORECASE)
"""The release in the spellings reports use: ``Windows 11``, ``Windows11``, ``Win 10 Pro``, ``win11``,
``window 11`` (ROCm/TheRock#1719 "Windows 10.0.26100"; ollama/ollama#3107 "Windows Rocm";
ROCm/ROCm#4872 "Windows 11 system"; users write "win11" and "window 11" in issue titles and fields)."""


def windows_observations(text: str, line: Line, trust: int = TRUST_TOOL) -> List[Observation]:
    """``Windows 11``, ``Windows-10-10.0.22631-SP0``, ``Windows 10 IoT LTSC 10.0.19044``."""
    out = [Observation("host.os", "windows", line, trust)]
    build_match = _WIN_VERSION_RE.search(text)
    if build_match:
        build = int(build_match.group(1))
        out.append(Observation("host.windows_build", build, line, trust))
        out.append(Observation("host.windows_version", f"10.0.{build}", line, trust))
        out.append(Observation("host.windows_release", "11" if build >= WINDOWS_11_BUILD else "10", line, trust))
        return out
    release = _WINDOWS_RELEASE.search(text)
    if release and not re.match(r"(?i)windows-10-", text):
        out.append(Observation("host.windows_release", release.group(1), line, trust))
    return out


def python_platform_observations(text: str, line: Line, trust: int = TRUST_TOOL) -> List[Observation]:
    """Python's ``platform.platform()`` string."""
    text = text.strip()
    if text.lower().startswith("windows"):
        return windows_observations(text, line, trust)
    if text.lower().startswith("macos") or text.lower().startswith("darwin"):
        return [Observation("host.os", "macos", line, trust)]
    match = re.match(r"^Linux-(.+?)-(x86_64|aarch64|ppc64le|s390x)(?:-with-.*)?$", text)
    if match is None:
        return []
    out = kernel_observations(match.group(1), line, trust)
    out.append(Observation("host.arch", match.group(2), line, trust))
    return out


def distro_id(name: str) -> Optional[str]:
    """os-release style ID for a distribution's pretty name."""
    lowered = name.lower()
    for prefix, ident in _DISTROS:
        if lowered.startswith(prefix):
            return ident
    return None


def distro_observations(name: str, line: Line, trust: int = TRUST_TOOL) -> List[Observation]:
    """A distribution's pretty name (``Ubuntu 22.04.5 LTS``) or a Windows name."""
    name = name.strip()
    if re.match(r"(?i)(microsoft\s+)?windows\b", name):
        return windows_observations(name, line, trust)
    ident = distro_id(name)
    if ident is None:
        return []
    out = [
        Observation("host.os", "linux", line, trust),
        Observation("host.distro_id", ident, line, trust),
        Observation("host.distro_name", name, line, trust),
    ]
    version = re.search(r"(?:^|\s|(?<=[A-Za-z])-)(\d+(?:\.\d+)?)\b", name)  # "Ubuntu-22.04", as WSL names it
    if version is None:
        # "Ubuntu24.04", "ubuntu22.04": the release joined to the name (ROCm/pytorch#1337, pytorch/pytorch#98257,
        # ROCm/legacy-rocm-build#1505); only right after the name's letters, and only a year.month release
        version = re.match(r"[A-Za-z!_]+(\d{2}\.\d{2})\b", name)
    if version:
        out.append(Observation("host.distro_version", version.group(1), line, trust))
    return out
