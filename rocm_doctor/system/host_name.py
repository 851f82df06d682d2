"""The host name of the machine rocm-doctor runs on, for redaction.

Kept apart from :mod:`rocm_doctor.system.record` so that redacting a live machine's state (the
last-good copy every ``check`` keeps) does not import the recorder, YAML and the recorded-machine
schema.
"""

from __future__ import annotations

import socket


def local_host_name() -> str:
    """This machine's host name (for redaction only)."""
    return socket.gethostname()
