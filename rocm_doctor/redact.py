"""Remove user names, host names, home directories and identifiers from what a user is about to share.

Used by ``facts --record`` (recorded machine folders) and by reports. The names come
from the data being redacted (see :meth:`Redactor.from_names`); IP and MAC addresses,
UUIDs and serial numbers are found by their shape or their key. The placeholders are
stable so that redacted paths stay consistent with each other: ``/home/alice/venv``
becomes ``/home/<user>/venv`` everywhere.
"""

from __future__ import annotations

import ipaddress
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
        """One user and one host: see :meth:`from_names`."""
        return cls.from_names([user or ""], [host or ""], homes)

    @classmethod
    def from_names(cls, users: Iterable[str], hosts: Iterable[str], homes: Iterable[str] = ()) -> "Redactor":
        """Replace home directories first (their user part kept as ``<user>``), then host names, then user names.

        The names come from the data being redacted (its identity, environment, host name
        files and paths), so a recording or report of another machine loses its names too.
        A home's last part counts as a user name.
        """
        rules: List[Tuple[Pattern[str], str]] = []
        clean_homes = sorted({h.rstrip("/\\") for h in homes if h and h.rstrip("/\\")}, key=lambda h: (-len(h), h))
        users = {u.strip() for u in users if u and u.strip()}
        users |= {re.split(r"[/\\]", home)[-1] for home in clean_homes if _HOME.match(home)}
        for home in clean_homes:
            if len(home) < 2 or home in ("/root",):
                continue
            replacement = _home_placeholder(home, users)
            rules.append((re.compile(re.escape(home) + r"(?=$|[/\\])", re.IGNORECASE), replacement))
        names = []
        for host in {h.strip() for h in hosts if h and h.strip()}:
            if host.lower() in _NOT_SECRET:
                continue
            names.append((host, HOST))
            short = host.split(".", 1)[0]
            if short != host and len(short) >= _MIN_LENGTH and short.lower() not in _NOT_SECRET:
                names.append((short, HOST))
        names += [(user, USER) for user in users if user.lower() not in _NOT_SECRET and len(user) >= _MIN_LENGTH]
        for value, placeholder in sorted(set(names), key=lambda item: (-len(item[0]), item)):
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

    def file(self, path: str, text: str) -> str:
        """A file's text (the same as :meth:`text`; :class:`ReportRedactor` also knows serial files)."""
        return self.text(text)


_HOME = re.compile(r"^(/home/[^/]+|/Users/[^/]+|[A-Za-z]:\\Users\\[^\\]+)$", re.IGNORECASE)
_HOME_IN = re.compile(r"(?<![\w.-])(/home/[^/\s'\"]+|/Users/[^/\s'\"]+|[A-Za-z]:\\Users\\[^\\\s'\"]+)", re.IGNORECASE)


def homes_in(texts: Iterable[str]) -> List[str]:
    """Home directories named anywhere in ``texts`` (``/home/alice/venv`` -> ``/home/alice``)."""
    found: List[str] = []
    for text in texts:
        for match in _HOME_IN.finditer(text):
            if match.group(1) not in found:
                found.append(match.group(1))
    return found


def strings_in(value: Any) -> List[str]:
    """Every string (dict keys included) inside nested lists and dicts."""
    found: List[str] = []
    map_strings(value, lambda text: found.append(text) or text)
    return found


def map_strings(value: Any, fn: Callable[[str], str]) -> Any:
    """Apply ``fn`` to every string (dict keys included) inside nested lists and dicts."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, dict):
        return {map_strings(k, fn): map_strings(v, fn) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [map_strings(v, fn) for v in value]
    return value


def _home_placeholder(home: str, users: Iterable[str]) -> str:
    """``/home/alice`` -> ``/home/<user>``; a home that does not end in a user name -> ``~``."""
    separator = "\\" if "\\" in home else "/"
    parent, _, last = home.rpartition(separator)
    if last.lower() in {u.lower() for u in users}:
        return f"{parent}{separator}{USER}"
    return "~"


# --- Identifiers: IP and MAC addresses, UUIDs, serial numbers. ---

_IDENTIFIER_PATTERNS: Tuple[Tuple[str, Pattern[str]], ...] = (
    ("uuid", re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9A-Za-z])", re.IGNORECASE)),
    ("uuid", re.compile(r"(?<![0-9A-Za-z])GPU-[0-9a-f]{16,32}(?![0-9A-Za-z])", re.IGNORECASE)),
    # 6 to 20 octets with one separator (EUI-48, EUI-64, InfiniBand), and a hardware type prefix
    # as in BOOTIF=01-aa-bb-cc-dd-ee-ff; Cisco's dotted aabb.ccdd.eeff.
    ("mac", re.compile(r"(?<![0-9A-Za-z:.-])[0-9a-f]{2}([:-])(?:[0-9a-f]{2}\1){4,18}[0-9a-f]{2}(?![0-9A-Za-z:-])", re.IGNORECASE)),
    ("mac", re.compile(r"(?<![0-9A-Za-z.])[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}(?![0-9A-Za-z.])", re.IGNORECASE)),
    # Every IPv6 spelling (full, ::-compressed, with an embedded IPv4, with a %zone); confirmed by ipaddress.
    ("ipv6", re.compile(r"(?<![\w:.])(?:[0-9a-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9a-f]{1,4})?(?:%[\w.-]+)?(?![\w:])",
                        re.IGNORECASE)),
    ("ip", re.compile(r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\w.])")),
)
_SERIAL_KEY = (
    r"(?:[A-Za-z0-9]*[_ -]?)?(?:serial(?:[ _-]?(?:number|no\.?|num|id))?|unique[ _-]?id|product[ _-]?uuid|sn)"
)
"""``serial``, ``Serial Number``, ``serial_number``, ``SerialNumber``, ``asic_serial``, ``board_serial``,
``unique_id``, ``product_uuid``, ``sn``: how tools spell a serial's key."""
_SERIAL = re.compile(
    r"(?P<key>(?<![A-Za-z0-9])" + _SERIAL_KEY + r"[\"']?\s*[:=]\s*[\"']?)(?P<value>[A-Za-z0-9][A-Za-z0-9._/:-]{3,})",
    re.IGNORECASE,
)
_SERIAL_NAME = re.compile(r"^" + _SERIAL_KEY + r"$", re.IGNORECASE)
_NOT_A_SERIAL = frozenset({"n/a", "na", "none", "unknown", "not", "default", "0", "to", "null", "true", "false"})
_KEEP_IPS = frozenset({"127.0.0.1", "0.0.0.0", "255.255.255.255", "::1", "::"})


def is_serial_key(name: str) -> bool:
    """Whether a key or file name names a serial number (``serial_number``, ``unique_id``, ``SerialNumber``)."""
    return _SERIAL_NAME.match(name.strip()) is not None


def _is_ipv6(text: str) -> bool:
    """A real IPv6 address, not code like ``x[1::2]`` or ``a::b`` (eight groups, a group of 3+ hex digits or an IPv4)."""
    if text.count(":") < 7 and not re.search(r"[0-9a-f]{3}|\.", text, re.IGNORECASE):
        return False
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


class IdentifierRedactor:
    """IP and MAC addresses, UUIDs and serial numbers -> numbered placeholders (``<ip-1>``, ``<uuid-2>``).

    The same value gets the same placeholder everywhere in one report, so readers can
    still tell that two lines name the same device. Loopback and unspecified IPs stay.
    A serial is found by its key in text (``Serial Number: X``, ``"asic_serial": "X"``), in
    data (a dict key) and in a file name (``/sys/.../serial_number``).
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
        if raw.lower() in _NOT_A_SERIAL or raw.startswith("<"):
            return match.group(0)
        return match.group("key") + self._placeholder("serial", raw)

    def serial(self, value: str) -> str:
        """A whole value known to be a serial (under a serial key, or in a serial file)."""
        stripped = value.strip()
        if not stripped or stripped.lower() in _NOT_A_SERIAL:
            return value
        return value.replace(stripped, self._placeholder("serial", stripped))

    def _identifier(self, kind: str, raw: str) -> str:
        if raw in _KEEP_IPS:
            return raw
        if kind == "ipv6":
            if not _is_ipv6(raw):
                return raw
            kind = "ip"
        return self._placeholder(kind, raw)

    def data(self, value: Any) -> Any:
        """Redact every string (keys included) inside lists and dicts; a serial key's value whole."""
        if isinstance(value, dict):
            return {
                self.data(k): self.serial(v) if isinstance(k, str) and isinstance(v, str) and is_serial_key(k) else self.data(v)
                for k, v in value.items()
            }
        if isinstance(value, (list, tuple)):
            return [self.data(v) for v in value]
        return self.text(value) if isinstance(value, str) else value


@dataclass
class ReportRedactor:
    """Identity (user, host, home) then identifiers: what a shared report or recording needs removed."""

    identity: Redactor
    identifiers: IdentifierRedactor

    @classmethod
    def create(cls, identity: Redactor) -> "ReportRedactor":
        return cls(identity, IdentifierRedactor())

    def text(self, value: str) -> str:
        return self.identifiers.text(self.identity.text(value))

    def data(self, value: Any) -> Any:
        return self.identifiers.data(self.identity.data(value))

    def file(self, path: str, text: str) -> str:
        """A file's text: a whole serial when its name names one (``serial_number``), else :meth:`text`."""
        name = re.split(r"[/\\]", path)[-1]
        return self.identifiers.serial(text) if is_serial_key(name) else self.text(text)
