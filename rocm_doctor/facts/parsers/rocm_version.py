"""ROCm and HIP version strings.

* ``/opt/rocm/.info/version``: ``6.2.0-66`` (release, dash, build number);
* ``hipconfig --version``: ``6.2.41133-dd7f95766`` (HIP major.minor.patch, dash, git hash),
  printed without a trailing newline;
* install directories: ``/opt/rocm-6.2.0``.
"""

from __future__ import annotations

import re
from typing import Optional

_RELEASE_RE = re.compile(r"^\s*(\d+\.\d+(?:\.\d+)?)(?:[-~.+][0-9A-Za-z.~+-]*)?\s*$")
_HIP_RE = re.compile(r"(\d+\.\d+\.\d+)(?:-[0-9a-f]+)?")
_INSTALL_RE = re.compile(r"^rocm-(\d+\.\d+(?:\.\d+)?)(?:-\d+)?$")


def parse_version_file(text: str) -> Optional[str]:
    """``6.2.0-66`` -> ``6.2.0``; the first non-empty line counts; None if it is not a version."""
    for line in text.splitlines():
        if line.strip():
            match = _RELEASE_RE.match(line)
            return match.group(1) if match else None
    return None


def parse_hipconfig_version(text: str) -> Optional[str]:
    """``6.2.41133-dd7f95766`` -> ``6.2.41133``; None when no version is printed."""
    match = _HIP_RE.search(text.strip().splitlines()[-1] if text.strip() else "")
    return match.group(1) if match else None


def install_version(name: str) -> Optional[str]:
    """``rocm-6.2.0`` (a directory name under /opt) -> ``6.2.0``; None for other names."""
    match = _INSTALL_RE.match(name)
    return match.group(1) if match else None
