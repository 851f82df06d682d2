"""Remove secrets, user names, host names, home directories and identifiers from what a user is about to share.

Used by ``facts --record`` (recorded machine folders) and by reports, through one
:class:`ReportRedactor`. Credentials go first (``rocm_doctor.redact_secrets``); the names
come from the data being redacted (see :meth:`Redactor.from_names`); the folders a user
made under a home directory are replaced (:class:`HomePathRedactor`); IP and MAC addresses,
UUIDs and serial numbers are found by their shape or their key. The placeholders are
stable so that redacted paths stay consistent with each other: ``/home/alice/acme/venv``
becomes ``/home/<user>/<name-1>/venv`` everywhere. What is removed and what is kept:
``docs/redaction.md``.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Literal, Optional, Pattern, Tuple, get_origin

from pydantic import BaseModel

from rocm_doctor.redact_secrets import SECRET, SecretRedactor, is_secret_name, is_version_number

USER = "<user>"
HOST = "<host>"

_NOT_SECRET = frozenset({"", "root", "user", "admin", "localhost", "localhost.localdomain",
                         # The default accounts and host names of distributions, cloud images and notebooks.
                         "ubuntu", "debian", "fedora", "archlinux", "raspberrypi", "ec2-user", "jovyan"})
"""Names that identify nobody; replacing them would only mangle unrelated text (``ubuntu-22.04``)."""
_MIN_LENGTH = 3
"""Shorter names match too much unrelated text to be replaced safely."""


def _word(value: str) -> Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9_.-])" + re.escape(value) + r"(?![A-Za-z0-9_-])", re.IGNORECASE)


def _in_word(value: str) -> Pattern[str]:
    """A host name wherever it stands between other letters' separators: ``cache-quokka-node-77``, ``quokka_01``."""
    return re.compile(r"(?<![A-Za-z0-9])" + re.escape(value) + r"(?![A-Za-z0-9])", re.IGNORECASE)


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
            # Host names are chosen to be unique, so they go wherever they stand in a word; a user
            # name (``amd``, ``rocm``) only as a word of its own.
            rules.append((_in_word(value) if placeholder == HOST else _word(value), placeholder))
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


# --- Folders a user made under a home directory. ---

_HOME_TAIL = re.compile(
    r"(?P<home>(?<![\w.~-])(?:/home|/Users)/(?P<name><user>|[^/\\\s'\"<>|;,=:]{1,255})"
    r"|(?<![\w./-])/root"
    r"|(?<![A-Za-z0-9])[A-Za-z]:(?:\\{1,2}|/)Users(?:\\{1,2}|/)(?P<winname><user>|[^/\\\s'\"<>|;,=:]{1,255})"
    r"|(?<![\w~.-])~)"
    r"(?P<tail>[/\\][^\s'\"<>|;,=:*?()\[\]{}`$#]{0,4096})",
    re.IGNORECASE,
)
"""A home directory (``/home/alice``, ``/Users/alice``, ``C:\\Users\\alice``, ``/root``, ``~``) and the path under it.
Single character classes and bounded repeats only: linear in the text."""
_NOT_A_USER = frozenset({"<user>", "shared", "public", "default", "all users"})
_KEPT_NAMES = frozenset({
    # Python environments and the tools that make them.
    ".venv", "venv", "env", "envs", ".virtualenvs", "virtualenvs", ".conda", "conda", "miniconda", "miniconda3",
    "anaconda", "anaconda3", "miniforge", "miniforge3", "mambaforge", "micromamba", ".pyenv", "pyenv", "versions",
    "shims", "pipx", "venvs", "uv", ".uv", "pip", "pkgs", "python", "scripts", "lib", "lib64", "bin", "sbin",
    "include", "share", "etc", "opt", "site-packages", "dist-packages", "lib-dynload", "__pycache__",
    # Caches and settings of the stack rocm-doctor looks at.
    ".local", "local", ".cache", "cache", ".config", "huggingface", "hub", "torch", "triton", "kernels", "miopen",
    ".miopen", "rocm", "hip", ".triton", "torch_extensions",
    # The folders every desktop has, and a shell's own files.
    "desktop", "documents", "downloads", "appdata", "roaming", "programs", "library", "tmp", "temp",
    ".bashrc", ".bash_profile", ".profile", ".zshrc", ".condarc",
})
_PYTHON_DIR = re.compile(r"^(?:python|Python)[0-9]{0,2}(?:\.[0-9]{1,3})?t?$")
_KEPT_SUFFIXES = frozenset({
    "py", "pyc", "so", "dll", "exe", "sh", "bat", "ps1", "fish", "txt", "log", "json", "yaml", "yml", "toml", "cfg",
    "ini", "md", "whl", "ipynb", "pt", "pth", "safetensors", "ckpt", "onnx", "env",
})
_ALL_KEPT_AFTER = frozenset({"site-packages", "dist-packages"})
"""What is installed from a package index has public names: the path under it is kept whole."""


class HomePathRedactor:
    """Each folder or file name under a home directory that the user chose -> ``<name-N>``.

    The names the tools make (``.venv``, ``lib``, ``python3.12``, ``site-packages`` and all under it)
    stay, so a report still says where torch was loaded from; a file keeps its suffix
    (``<name-2>.py``). The same name gets the same placeholder everywhere in one report or
    recording, so two paths that shared a folder still do. The home's own last part becomes
    ``<user>``.
    """

    def __init__(self) -> None:
        self.seen: Dict[str, str] = {}

    def _placeholder(self, name: str) -> str:
        key = name.lower()
        if key not in self.seen:
            self.seen[key] = f"<name-{len(self.seen) + 1}>"
        return self.seen[key]

    def _component(self, part: str) -> str:
        if not part or part in (".", "..") or part.startswith("<") or part.lower() in _KEPT_NAMES or _PYTHON_DIR.match(part):
            return part
        stem, dot, suffix = part.rpartition(".")
        if dot and stem and suffix.lower() in _KEPT_SUFFIXES:
            if stem.lower() in _KEPT_NAMES or _PYTHON_DIR.match(stem):
                return part  # python.exe, pip.exe
            return self._placeholder(stem) + "." + suffix
        return self._placeholder(part)

    def _path(self, match: "re.Match[str]") -> str:
        home = match.group("home")
        name = match.group("name") or match.group("winname")
        if name and name.lower() not in _NOT_A_USER:
            home = home[: len(home) - len(name)] + USER
        parts = re.split(r"([/\\]+)", match.group("tail"))
        kept_after = False
        out = []
        for i, part in enumerate(parts):
            if i % 2 or kept_after:
                out.append(part)
                continue
            out.append(self._component(part))
            kept_after = part.lower() in _ALL_KEPT_AFTER
        return home + "".join(out)

    def text(self, value: str) -> str:
        return _HOME_TAIL.sub(self._path, value)

    def data(self, value: Any) -> Any:
        return map_strings(value, self.text)


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
    """The one redactor of what leaves the machine (a report, a recording): secrets, then identity
    (user, host, home), then the folders under a home, then identifiers."""

    identity: Redactor
    identifiers: IdentifierRedactor
    secrets: SecretRedactor = field(default_factory=SecretRedactor)
    homes: HomePathRedactor = field(default_factory=HomePathRedactor)

    @classmethod
    def create(cls, identity: Redactor) -> "ReportRedactor":
        return cls(identity, IdentifierRedactor())

    def learn(self, value: Any) -> None:
        """Read a whole document first, so that a piece of a secret found in one value goes from every other."""
        self.secrets.learn(value)

    def text(self, value: str) -> str:
        return self.identifiers.text(self.homes.text(self.identity.text(self.secrets.text(value))))

    def data(self, value: Any) -> Any:
        return self.identifiers.data(self.homes.data(self.identity.data(self.secrets.data(value))))

    def file(self, path: str, text: str) -> str:
        """A file's text: a whole serial when its name names one (``serial_number``), else :meth:`text`."""
        name = re.split(r"[/\\]", path)[-1]
        return self.identifiers.serial(text) if is_serial_key(name) else self.text(text)


def redacted_along(model: Any, dump: Any, clean: Callable[[Any], Any]) -> Any:
    """``dump`` (``model``, a pydantic model, dumped to JSON) with every value redacted, walked along the schema.

    The field names of the facts and of the objects inside a fact's value (a torch device's
    ``name``) are the schema, not the user's data: a user called ``name`` or ``python`` must not
    rename one and make the facts invalid, nor one called ``known`` change a fact's status (a
    field with fixed values is not redacted). Keys of free mappings (environment variables,
    packages) are data, and ``clean`` redacts them with their values. An object with a ``name``
    that says it is secret (an environment setting ``HF_TOKEN``) loses its ``value`` whole.
    """
    if isinstance(model, BaseModel) and isinstance(dump, dict):
        fields = type(model).model_fields
        secret = is_secret_name(dump.get("name"))
        return {
            key: item if key in fields and get_origin(fields[key].annotation) is Literal
            else SECRET if secret and key == "value" and isinstance(item, str) and item and not is_version_number(item)
            else redacted_along(getattr(model, key, None), item, clean)
            for key, item in dump.items()
        }
    if isinstance(model, (list, tuple)) and isinstance(dump, list) and len(model) == len(dump):
        return [redacted_along(value, item, clean) for value, item in zip(model, dump)]
    return clean(dump)
