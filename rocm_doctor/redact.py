"""Remove the user name, host name and home directory from text a user is about to share.

Used by ``facts --record`` (recorded machine folders) and by reports. The
placeholders are stable so that redacted paths stay consistent with each other:
``/home/alice/venv`` becomes ``/home/<user>/venv`` everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Pattern, Tuple

USER = "<user>"
HOST = "<host>"

_NOT_SECRET = frozenset({"", "root", "user", "admin", "localhost", "localhost.localdomain"})
"""Names that identify nobody; replacing them would only mangle unrelated text."""
_MIN_LENGTH = 3
"""Shorter names match too much unrelated text to be replaced safely."""


def _word(value: str) -> Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9_.-])" + re.escape(value) + r"(?![A-Za-z0-9_-])", re.IGNORECASE)


@dataclass(frozen=True)
class Redactor:
    """An ordered list of (pattern, placeholder) replacements."""

    rules: Tuple[Tuple[Pattern[str], str], ...] = ()

    @classmethod
    def from_identity(cls, user: Optional[str], host: Optional[str] = None,
                      homes: Iterable[str] = ()) -> "Redactor":
        """Replace home directories first (with the user part kept as ``<user>``), then host, then user."""
        rules: List[Tuple[Pattern[str], str]] = []
        user = (user or "").strip()
        for home in sorted({h.rstrip("/\\") for h in homes if h and h.rstrip("/\\")}, key=len, reverse=True):
            if len(home) < 2 or home in ("/root",):
                continue
            replacement = _home_placeholder(home, user)
            rules.append((re.compile(re.escape(home) + r"(?=$|[/\\])", re.IGNORECASE), replacement))
        names = []
        if host and host.lower() not in _NOT_SECRET:
            names.append((host, HOST))
            short = host.split(".", 1)[0]
            if short != host and len(short) >= _MIN_LENGTH and short.lower() not in _NOT_SECRET:
                names.append((short, HOST))
        if user.lower() not in _NOT_SECRET and len(user) >= _MIN_LENGTH:
            names.append((user, USER))
        for value, placeholder in sorted(names, key=lambda item: len(item[0]), reverse=True):
            rules.append((_word(value), placeholder))
        return cls(tuple(rules))

    def text(self, value: str) -> str:
        """The redacted text."""
        for pattern, placeholder in self.rules:
            value = pattern.sub(lambda _m, p=placeholder: p, value)
        return value

    def data(self, value: Any) -> Any:
        """Redact every string (keys included) inside lists and dicts."""
        return map_strings(value, self.text)


def map_strings(value: Any, fn: Callable[[str], str]) -> Any:
    """Apply ``fn`` to every string (dict keys included) inside nested lists and dicts."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, dict):
        return {map_strings(k, fn): map_strings(v, fn) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [map_strings(v, fn) for v in value]
    return value


def _home_placeholder(home: str, user: str) -> str:
    """``/home/alice`` -> ``/home/<user>``; a home that does not end in the user name -> ``~``."""
    separator = "\\" if "\\" in home else "/"
    parent, _, last = home.rpartition(separator)
    if user and last.lower() == user.lower():
        return f"{parent}{separator}{USER}"
    return "~"


# --- Identifiers (added for `rocm-doctor report`): IP and MAC addresses, UUIDs, serial numbers. ---

_IDENTIFIER_PATTERNS: Tuple[Tuple[str, Pattern[str]], ...] = (
    ("uuid", re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9A-Za-z])", re.IGNORECASE)),
    ("uuid", re.compile(r"(?<![0-9A-Za-z])GPU-[0-9a-f]{16,32}(?![0-9A-Za-z])", re.IGNORECASE)),
    ("mac", re.compile(r"(?<![0-9A-Za-z:-])(?:[0-9a-f]{2}([:-]))(?:[0-9a-f]{2}\1){4}[0-9a-f]{2}(?![0-9A-Za-z:-])", re.IGNORECASE)),
    (
        "ip",
        re.compile(r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\w.])"),
    ),
    ("ip", re.compile(r"(?<![\w:])(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}(?![\w:])", re.IGNORECASE)),
)
_SERIAL = re.compile(
    r"(?P<key>\b(?:serial(?:[ _-]?(?:number|no\.?|num))?|sn)\b\s*[:=]\s*\"?)(?P<value>[A-Za-z0-9][A-Za-z0-9._/-]{3,})",
    re.IGNORECASE,
)
_NOT_A_SERIAL = frozenset({"n/a", "na", "none", "unknown", "not", "default", "0", "to"})
_KEEP_IPS = frozenset({"127.0.0.1", "0.0.0.0", "255.255.255.255"})


class IdentifierRedactor:
    """IP and MAC addresses, UUIDs and serial numbers -> numbered placeholders (``<ip-1>``, ``<uuid-2>``).

    The same value gets the same placeholder everywhere in one report, so readers can
    still tell that two lines name the same device. Loopback and unspecified IPs stay.
    """

    def __init__(self) -> None:
        self.seen: Dict[Tuple[str, str], str] = {}

    def _placeholder(self, kind: str, value: str) -> str:
        key = (kind, value.lower())
        if key not in self.seen:
            count = sum(1 for k in self.seen if k[0] == kind) + 1
            self.seen[key] = f"<{kind}-{count}>"
        return self.seen[key]

    def text(self, value: str) -> str:
        """The text with every identifier replaced."""
        value = _SERIAL.sub(self._serial, value)
        for kind, pattern in _IDENTIFIER_PATTERNS:
            value = pattern.sub(lambda m, k=kind: self._identifier(k, m.group(0)), value)
        return value

    def _serial(self, match: "re.Match[str]") -> str:
        raw = match.group("value")
        if raw.lower() in _NOT_A_SERIAL:
            return match.group(0)
        return match.group("key") + self._placeholder("serial", raw)

    def _identifier(self, kind: str, raw: str) -> str:
        if kind == "ip" and raw in _KEEP_IPS:
            return raw
        return self._placeholder(kind, raw)

    def data(self, value: Any) -> Any:
        """Redact every string (keys included) inside lists and dicts."""
        return map_strings(value, self.text)


@dataclass
class ReportRedactor:
    """Identity (user, host, home) then identifiers: what a shared report needs removed."""

    identity: Redactor
    identifiers: IdentifierRedactor

    @classmethod
    def create(cls, identity: Redactor) -> "ReportRedactor":
        return cls(identity, IdentifierRedactor())

    def text(self, value: str) -> str:
        return self.identifiers.text(self.identity.text(value))

    def data(self, value: Any) -> Any:
        return self.identifiers.data(self.identity.data(value))
