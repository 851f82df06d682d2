"""Whether a version number can be a ROCm release at all (``rules/data/amdgpu_driver.yaml`` ``series``).

Public API: :func:`not_a_rocm_release(version)` -> True only where the number is surely no ROCm release.

The ``series`` list holds AMD's ROCm release series in order (5.1 ... 7.2, from AMD's user and
kernel-space support matrix and amdgpu-docs). A major release that a later major followed is closed:
its last series is the last it will have (5.7 before 6.0, 6.4 before 7.0). A minor beyond a closed
major's last (6.10, 6.12, 6.16, 5.16) is no ROCm release; such numbers are the amdgpu kernel module's own
version (``modinfo amdgpu``, ``dkms status``, rocminfo's "ROCk module version 6.10.5 is loaded": the
``releases`` rows of the same table pair 6.10.5 with ROCm 6.3, 6.12.12 with 6.4), which reports write in
a "ROCm:" field (ollama/ollama#9999: "ROCm: 6.10.5" beside "ROCk module version 6.10.5 is loaded").
Everything else is left undecided (False): releases before the table's first series (5.0, 4.x, 3.10,
2.10 are real), and the open major's later minors (TheRock's 7.9 to 7.14 are real releases).
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Tuple

from rocm_doctor.knowledge._tables import cached_view

TABLE = "amdgpu_driver"
_MAJOR_MINOR = re.compile(r"^\s*v?(\d{1,3})\.(\d{1,3})(?!\d)")


def _closed_majors(data: Any) -> Dict[int, int]:
    """{major: its last minor} for every major that a later major followed in ``series``."""
    pairs: List[Tuple[int, int]] = []
    for item in (data or {}).get("series") or []:
        match = _MAJOR_MINOR.match(str(item))
        if match:
            pairs.append((int(match.group(1)), int(match.group(2))))
    if not pairs:
        return {}
    newest = max(major for major, _minor in pairs)
    last: Dict[int, int] = {}
    for major, minor in pairs:
        if major < newest:
            last[major] = max(minor, last.get(major, minor))
    return last


def not_a_rocm_release(version: Any, data: Any = None) -> bool:
    """True when ``version`` (``6.10.5``, ``6.12.12``) has a minor beyond the last series of a closed major."""
    match = _MAJOR_MINOR.match(str(version))
    if not match:
        return False
    last = cached_view(TABLE, data, _closed_majors).get(int(match.group(1)))
    return last is not None and int(match.group(2)) > last
