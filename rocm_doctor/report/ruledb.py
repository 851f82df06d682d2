"""The rule database version printed in reports: a content hash of the shipped rule files.

``rules-<12 hex digits>`` is the SHA-256 over every ``*.yaml`` file under the rule
database (``rules/`` in the repository, ``rocm_doctor/_rules`` in the wheel), taken in
sorted relative-path order, each as ``<relative path>\\0<bytes>\\0``. It changes whenever a
rule or a data table changes and never needs bumping by hand; two reports with the
same version were judged by the same rules and tables.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Optional

from rocm_doctor.data import rules_dir

PREFIX = "rules-"
DIGITS = 12


def rule_database_version(directory: Optional[Path] = None) -> str:
    """``rules-<hash>`` of the rule database in ``directory`` (default: the shipped one)."""
    root = Path(directory) if directory is not None else rules_dir()
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.yaml"), key=lambda p: p.relative_to(root).as_posix()):
        digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return PREFIX + digest.hexdigest()[:DIGITS]
