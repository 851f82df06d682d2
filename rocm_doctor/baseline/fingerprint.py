"""Whether ``check`` has anything new to remember: a fingerprint of the last state it saved as ``last-good``.

Saving ``last-good`` redacts the facts and compares them with the state already saved, which costs a
tenth of a second; most ``check`` runs see the same machine as the last one. The fingerprint (the
SHA-256 of the facts without their gathering metadata, the finding ids and the rule database) is
stored beside the baselines, and a run whose fingerprint is the stored one saves nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Iterable

from rocm_doctor.dbstore import data_dir

FILE = ".last-good.sha256"
SAVED = "last-good.json"
"""The baseline the fingerprint stands for (``baseline.store``'s file of ``last-good``)."""
LAST_GOOD_VAR = "ROCM_DOCTOR_LAST_GOOD"
"""``off`` (or ``0``, ``no``, ``false``): ``check`` does not save the last good state."""
_OFF = ("0", "off", "no", "false")


def last_good_enabled() -> bool:
    return os.environ.get(LAST_GOOD_VAR, "").strip().lower() not in _OFF


def _path() -> Path:
    return data_dir() / "baselines" / FILE


VOLATILE = (("cpu", "memory_available_bytes"), ("torch", "live", "import_seconds"))
"""Facts that change from one run to the next on an unchanged machine (``diff`` does not compare them).
One missed here only costs the full comparison, which then finds nothing to keep."""


def fingerprint(facts_json: dict, finding_ids: Iterable[str], rule_database: str) -> str:
    """The fingerprint of a state: its facts (without ``meta``, when and how long they were gathered,
    and the :data:`VOLATILE` ones), the ids of its findings and the rule database that judged it."""
    state = {k: v for k, v in facts_json.items() if k != "meta"}
    for path in VOLATILE:
        _drop(state, path)
    text = json.dumps([state, sorted(finding_ids), rule_database], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _drop(state: dict, path: tuple) -> None:
    """Remove ``path`` from ``state``, copying each dict on the way (the caller's facts stay whole)."""
    if len(path) == 1:
        state.pop(path[0], None)
        return
    inner = state.get(path[0])
    if not isinstance(inner, dict):
        return
    state[path[0]] = inner = dict(inner)
    _drop(inner, path[1:])


def already_saved(value: str) -> bool:
    """Whether ``value`` is the fingerprint of the state saved last, and that state is still there
    (an unreadable file, or ``baseline rm last-good``: no)."""
    try:
        return _path().read_text(encoding="ascii").strip() == value and (_path().parent / SAVED).is_file()
    except (OSError, UnicodeDecodeError):
        return False


def remember(value: str) -> None:
    """Store ``value`` as the fingerprint of the state saved last (atomically; best effort)."""
    folder = _path().parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=".last-good-", dir=folder)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(value + "\n")
        os.replace(temp, _path())
    except OSError:
        pass
