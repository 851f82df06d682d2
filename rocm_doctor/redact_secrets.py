"""Remove credentials from what a user is about to share: by their shape, and by the name they are stored under.

Shapes are the token formats that maintained secret scanners recognise (the forms of Yelp's
detect-secrets 1.5.0, ``detect_secrets/plugins/``, plus the prefixes the providers give their
tokens: Hugging Face ``hf_``, Anthropic ``sk-ant-``, Google ``AIza``, ``GOCSPX-``, ``ya29.``),
written here as patterns that run in linear time: every quantifier repeats a single character
class, never a group; a pattern that ends in its repeated class fails within its minimum length
or takes the whole run, and the one pattern that needs something after a run (JWT) bounds it.
detect-secrets' own patterns are not used at run time: several are quadratic on
input a paste can hold (measured on 20,000 characters: its npm pattern 7 s, its JWT pattern
0.7 s), and it knows no Hugging Face, Anthropic or Google Cloud key (its OpenAI pattern needs the marker T3BlbkFJ). The tests
use it as an independent check that nothing it recognises survives a report.

A value stored under a name that says it is secret (``*TOKEN*``, ``*SECRET*``, ``*PASSWORD*``,
``*_KEY``, ``*CREDENTIAL*``: see :func:`is_secret_name`) is removed whatever it looks like:
in a mapping, in ``NAME=value``, ``NAME: value``, ``"NAME": "value"`` and ``--name value`` text.
Everything removed becomes :data:`SECRET`. What is removed and what is kept: ``docs/redaction.md``.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Pattern, Set, Tuple

from rocm_doctor.anchors import pattern_anchors

SECRET = "<secret>"

_NAME_PARTS = re.compile(r"(?:TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|APIKEY|(?<![A-Z])AUTH)S?(?![A-Z])")
"""A secret word in an upper-cased name, not followed by another letter (``TOKENIZERS_PARALLELISM`` is no secret);
``AUTH`` only as a word of its own (``MY_SERVICE_AUTH``, ``AUTH_HEADER``; ``AUTHOR``, ``OAUTH_CLIENT_ID`` are kept)."""
_MAX_NAME = 128
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,127}")
"""What a variable or key looks like (a path or a sentence is not a name)."""
_VERSION = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,9}){1,3}")
"""A value that is a version number is no secret: a package named like one (``detect-secrets``) keeps its version."""


def is_secret_name(name: Any) -> bool:
    """Whether a variable or key named ``name`` holds a secret: ``HF_TOKEN``, ``AWS_SECRET_ACCESS_KEY``,
    ``DB_PASSWORD``, ``OPENAI_API_KEY``, ``api-key``, ``GOOGLE_APPLICATION_CREDENTIALS``, ``private_key``."""
    if not isinstance(name, str) or not name or len(name) > _MAX_NAME:
        return False
    bare = name.strip("\"' ")
    if not _NAME.fullmatch(bare):
        return False
    upper = bare.upper()
    return bool(_NAME_PARTS.search(upper)) or upper.endswith(("_KEY", "-KEY", ".KEY")) or upper in ("KEY", "API-KEY")


def is_version_number(value: str) -> bool:
    """``1.5.0``: kept under any name (a package named like a secret keeps its version)."""
    return _VERSION.fullmatch(value.strip()) is not None


_B = r"(?:(?<![A-Za-z0-9])|(?<=\\[nrtfvab0])|(?<=\\x[0-9a-fA-F]{2})|(?<=\\u[0-9a-fA-F]{4}))"
"""Not inside a word, but after any separator (``/opt/rocm-hf_...``, ``x_ghp_...``) or an escaped character
(``\\nghp_...``, ``\\x1bghp_...``, ``\\u001bghp_...`` in JSON or a repr). A pattern that ends in its repeated
class is linear from any number of starts: it fails within its minimum length or takes the run."""

SHAPES: Tuple[Tuple[str, Pattern[str]], ...] = (
    # Hugging Face user access tokens and the older organisation tokens.
    ("huggingface", re.compile(_B + r"(?:hf_|api_org_)[A-Za-z0-9]{30,}")),
    # GitHub: classic tokens by kind (ghp, gho, ghu, ghs, ghr) and fine-grained personal access tokens.
    ("github", re.compile(_B + r"(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}")),
    ("github", re.compile(_B + r"github_pat_[A-Za-z0-9_]{40,}")),
    # GitLab: personal, deploy, feed, runner, CI/CD job, trigger, agent and OAuth tokens; runner registration.
    ("gitlab", re.compile(_B + r"(?:glpat|gldt|glft|glsoat|glrt|glcbt|glimt|glptt|glagent|gloas|glffct)-[A-Za-z0-9_-]{20,}")),
    ("gitlab", re.compile(_B + r"GR1348941[A-Za-z0-9_-]{20,}")),
    # AWS access key ids (the secret key has no shape of its own: it goes by its name).
    ("aws", re.compile(_B + r"(?:A3T[A-Z0-9]|AKIA|ABIA|ACCA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])")),
    # Azure: storage account keys and shared access signatures in connection strings and URLs; Entra client secrets.
    ("azure", re.compile(_B + r"(?:AccountKey|SharedAccessKey|SharedAccessSignature|sig)=[A-Za-z0-9%+/=]{16,}")),
    ("azure", re.compile(r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])")),
    # Google Cloud: API keys, OAuth client secrets, OAuth access and refresh tokens.
    ("gcp", re.compile(_B + r"AIza[0-9A-Za-z_-]{35}")),
    ("gcp", re.compile(_B + r"GOCSPX-[A-Za-z0-9_-]{28}")),
    ("gcp", re.compile(_B + r"ya29\.[0-9A-Za-z_-]{20,}")),
    ("gcp", re.compile(_B + r"1//0[0-9A-Za-z_-]{30,}")),
    # OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-) and Anthropic (sk-ant-api03-, sk-ant-admin01-) keys.
    ("openai-anthropic", re.compile(_B + r"sk-[A-Za-z0-9_-]{20,}")),
    # Slack bot, user, app-level and configuration tokens; incoming webhooks.
    ("slack", re.compile(_B + r"(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}")),
    ("slack", re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9_/]{10,}")),
    # JSON Web Tokens: a base64url JSON header ("eyJ"), a payload and a signature. The header is bounded, so
    # starts that share a run without a dot cost at most 400 characters each.
    ("jwt", re.compile(_B + r"eyJ[A-Za-z0-9_-]{5,400}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*")),
    # Package registries and payment keys the same scanners know.
    ("npm", re.compile(_B + r"npm_[A-Za-z0-9]{36,}")),
    ("pypi", re.compile(_B + r"pypi-AgE[A-Za-z0-9_-]{50,}")),
    ("stripe", re.compile(_B + r"[rs]k_live_[0-9A-Za-z]{24,}")),
    # Bearer tokens wherever they stand (an Authorization header is removed whole below).
    ("bearer", re.compile(_B + r"[Bb]earer[ \t]+[A-Za-z0-9._~+/=-]{8,}")),
)

_FRAGMENT = re.compile(
    _B + r"(?:hf_|api_org_|gh[pousr]_|github_pat_|gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas|ffct)-|GR1348941|AIza"
    r"|GOCSPX-|ya29\.|sk-|xox[abposre]-|xapp-|npm_|pypi-AgE|[rs]k_live_|eyJ)(?P<body>[A-Za-z0-9_-]{8,})"
)
"""A token cut short (a reason that quotes 80 characters of a command's output): a prefix only tokens carry and
8 or more characters that hold a capital or a digit, as random bodies do (``hf_transfer``, ``hf_hub_download``,
``sk-learn-intelex``, ``npm_config_cache`` are names, and stay)."""
_AWS_FRAGMENT = re.compile(_B + r"(?:A3T[A-Z0-9]|AKIA|ABIA|ACCA|ASIA)(?P<body>[A-Z0-9]{8,15})(?![A-Za-z0-9])")
"""An AWS access key id cut short: its prefix and 8 to 15 of its 16 characters, a digit among them."""
_URL_CREDENTIALS = re.compile(r"(?<=://)[^\s/@:'\"<>]{1,256}:[^\s/@'\"<>]{1,256}@")
"""``https://user:password@host``: the user part and the password (either may be a token)."""
_AUTHORIZATION = re.compile(r"(?<![A-Za-z0-9-])((?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*)[^\"'\r\n|]+", re.IGNORECASE)
"""An ``Authorization:`` header's whole value (``Bearer x``, ``Basic x``, ``token x``), up to a quote or the line's end."""
_ASSIGNMENT = re.compile(r"(?<![A-Za-z0-9_])(?P<name>[A-Za-z_][A-Za-z0-9_.-]{0,127})(?:\\?[\"'])?[ \t]*(?::=|==|[:=])[ \t]*")
"""``NAME=``, ``NAME: ``, ``"NAME": ``, ``\\"NAME\\": `` (JSON inside a string), ``NAME := ``; the name is judged
by :func:`is_secret_name`, the value read after it."""
_VALUE = re.compile(r"\\?(?P<quote>[\"'])[^\"'\\\r\n]*|[^\s\"'\\,;&|<>]+")
"""A quoted value (up to its closing quote, kept; ``\\"`` as well) or a bare one (up to a blank, a quote or a
shell separator)."""
_FLAG = re.compile(r"(?<![A-Za-z0-9_-])--(?P<name>[A-Za-z][A-Za-z0-9-]{0,63})(?:=|[ \t]+)(?!-)")
"""``--token VALUE``, ``--hf-token=VALUE``, ``--password VALUE``."""
_KEY_BEGIN = re.compile(r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY[ A-Z]{0,10}-----|PuTTY-User-Key-File-[0-9]")
_KEY_END = re.compile(r"-----END[ A-Z0-9]{0,40}PRIVATE KEY[ A-Z]{0,10}-----")
_KEY_UNTERMINATED = re.compile(r"[\"|`]")
"""A block with no END line is removed up to the end of the text, or of the JSON string or table cell it is in."""


def _private_keys(text: str, found: Callable[[str], None]) -> str:
    """Every private-key block (BEGIN line to END line) -> :data:`SECRET`; one pass over the text."""
    if "PRIVATE KEY" not in text and "PuTTY-User-Key-File" not in text:
        return text
    out: List[str] = []
    position = 0
    no_end = False  # once no END line follows, none follows a later BEGIN either: never search twice
    while True:
        begin = _KEY_BEGIN.search(text, position)
        if begin is None:
            out.append(text[position:])
            return "".join(out)
        out.append(text[position:begin.start()] + SECRET)
        end = None if no_end else _KEY_END.search(text, begin.end())
        no_end = end is None
        stop = end.start() if end is not None else None
        if stop is None:
            unterminated = _KEY_UNTERMINATED.search(text, begin.end())
            stop = unterminated.start() if unterminated is not None else len(text)
        found(text[begin.end():stop])
        if end is not None:
            position = end.end()
            continue
        if stop == len(text):
            return "".join(out)
        position = stop


_RANDOM_RUN = re.compile(r"(?<![A-Za-z0-9_+.-])[A-Za-z0-9_+.-]{20,}={0,3}(?![A-Za-z0-9_+=.-])")
"""A run of token characters long enough to be a credential, with base64's padding; :func:`looks_random`
decides whether it is one. An ``=`` inside ends it: in ``NAME=value`` or ``--flag=value`` only the value
goes, and the name stays for a maintainer to see what was set."""
_CHUNK = re.compile(r"[A-Za-z0-9]{16,}")
"""Part of a run between separators (``_ . - + =``): a random body has one this long, a name's words are shorter."""
_HEX_OR_UUID = re.compile(r"(?:GPU-)?[0-9a-fA-F-]+")
"""Hashes, checksums, git ids and UUIDs are kept (docs/redaction.md), and UUIDs are redacted as UUIDs later."""


_NIX_HASH = re.compile(r"[0-9a-df-np-sv-z]{32}")
"""Nix's base-32 alphabet (no e, o, u, t) at a store hash's length."""
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _class_of(c: str) -> int:
    return 0 if c.isdigit() else 1 if c.isupper() else 2


def looks_random(run: str) -> bool:
    """Whether a run of token characters is a random credential that no provider's prefix marks
    (``ak_live_5Jx9Qm2LpR7vT3nW8yZ4bK6cF1hD0gS``, a service's API key echoed from its variable).

    Like the high-entropy detectors of secret scanners, but by the shape of a random body rather than
    its entropy, which a model or build name reaches too (``DeepSeek-R1-Distill-Qwen-14B-Q4_K_M``):
    a part of 16 or more letters and digits between separators that changes between digit, capital
    and small letter at least every third character on average (a name changes at its word starts:
    ``MyCompanyProductionCluster01`` 4 times in 28), with capitals and small letters both (kernel and
    solver names mix small letters and digits: ``conv_asm_7x7c3h224w224k64u2v2p3q3f1``). Hex strings,
    UUIDs, Nix store hashes and C++ symbols are hashes, ids and names, not this.
    """
    if _HEX_OR_UUID.fullmatch(run) or run.startswith("_Z"):
        return False  # a C++ symbol (_ZN3c104cuda9SetDeviceEi) is what an undefined-symbol error names
    for chunk in _CHUNK.findall(run):
        if sum(c not in _HEX_DIGITS for c in chunk) < 3:
            continue  # a hash, or a git id after its 'g' (``g1a2b3c4d5e6f7a8b9c0``)
        if _NIX_HASH.fullmatch(chunk):
            continue  # a Nix store path's hash (/nix/store/<hash>-python3.13-torch-2.11.0) is public
        changes = sum(1 for a, b in zip(chunk, chunk[1:])
                      if _class_of(a) != _class_of(b) and not (_class_of(a) == 1 and _class_of(b) == 2))
        if changes * 3 >= len(chunk) and any(c.isupper() for c in chunk) and any(c.islower() for c in chunk):
            return True
    return False


def _values_after(names: Pattern[str], text: str, judge: Callable[[str], bool], found: Callable[[str], None]) -> str:
    """The value after each secret name that ``names`` finds -> :data:`SECRET` (a quoted value keeps its quotes).

    A name that is not secret leaves its value to be read on, so ``a=HF_TOKEN=x`` still loses ``x``.
    """
    out: List[str] = []
    position = 0
    for match in names.finditer(text):
        if match.start() < position or not judge(match.group("name")):
            continue
        value = _VALUE.match(text, match.end())
        if value is None or not value.group(0).strip("\"'\\") or is_version_number(value.group(0).strip("\"'\\")):
            continue
        start = value.end("quote") if value.group("quote") else value.start()
        found(text[start:value.end()])
        out.append(text[position:start] + SECRET)
        position = value.end()
    out.append(text[position:])
    return "".join(out)


def _flag_name(name: str) -> bool:
    return is_secret_name(name.replace("-", "_"))


PIECE = 12
"""A run this long of a secret found anywhere in the data is removed everywhere: a derived fact, a reason
that cut the value short or a file name can hold part of a token that no longer has its shape."""
_RUN = re.compile(r"[A-Za-z0-9+=_-]{12,}")
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+=_-")
"""A slash ends a run: a path or a URL is not learned as a token (a base64 key's parts on each side are)."""


def _token_runs(value: str) -> List[str]:
    """The runs of token characters in a removed value that look random (letters and digits both, or
    upper- and lower-case letters both: a base64 or alphanumeric token may hold no digit): a path or a
    word under a secret name teaches nothing to remove elsewhere."""
    return [run for run in _RUN.findall(value)
            if any(c.isalpha() for c in run)
            and (any(c.isdigit() for c in run) or (any(c.isupper() for c in run) and any(c.islower() for c in run)))]


class _Words:
    """A text being redacted, with its lower-case form: a pattern whose literal words (:func:`pattern_anchors`)
    are not in it cannot match, and is not run (twenty-odd token shapes over every string of a report cost
    most of its CPU; ``str.find`` is a C loop). A case-insensitive pattern on non-ASCII text is always run:
    Unicode case folding can match letters whose lower-case form is not the pattern's."""

    def __init__(self, value: str) -> None:
        self.value = value
        self.lower = value.lower()
        self.ascii = value.isascii()

    def changed(self, value: str) -> str:
        if value != self.value:
            self.value, self.lower, self.ascii = value, value.lower(), value.isascii()
        return value

    def sub(self, pattern: Pattern[str], replace: Callable[["re.Match[str]"], str]) -> str:
        words = pattern_anchors(pattern.pattern)
        if words is not None and (self.ascii or not pattern.flags & re.IGNORECASE) and not any(w in self.lower for w in words):
            return self.value
        return self.changed(pattern.sub(replace, self.value))


class SecretRedactor:
    """Credentials -> :data:`SECRET`, in text and in data (a mapping's value under a secret name whole).

    What it removed, it remembers (:meth:`learn` reads a whole document first): any 12 characters in a
    row of a removed token are removed wherever else they stand, with the run of token characters
    around them.
    """

    def __init__(self) -> None:
        self.grams: Set[str] = set()
        self._done: Dict[str, str] = {}
        """Texts already redacted while :attr:`grams` had the size in :attr:`_done_at`: a report's data repeats
        the same keys and values thousands of times, and only a learned piece can change a text's result."""
        self._done_at = 0

    def _found(self, value: str) -> None:
        for run in _token_runs(value):
            self.grams.update(run[i:i + PIECE] for i in range(len(run) - PIECE + 1))

    def _shape(self, match: "re.Match[str]") -> str:
        self._found(match.group(0))
        return SECRET

    def learn(self, value: Any) -> None:
        """Read ``value`` (text or data) for the secrets in it, so that their pieces go wherever they stand."""
        self.data(value)

    def _pieces(self, text: str) -> str:
        """Every run of token characters that holds 12 characters of a known secret -> :data:`SECRET`."""
        if not self.grams or len(text) < PIECE:
            return text
        grams = self.grams
        out: List[str] = []
        position = 0
        i = 0
        end = len(text) - PIECE + 1
        while i < end:
            if text[i:i + PIECE] not in grams:
                i += 1
                continue
            start, stop = i, i + PIECE
            while start > position and text[start - 1] in _TOKEN_CHARS:
                start -= 1
            while stop < len(text) and text[stop] in _TOKEN_CHARS:
                stop += 1
            out.append(text[position:start] + SECRET)
            position = i = stop
        out.append(text[position:])
        return "".join(out)

    def text(self, value: str) -> str:
        if len(self.grams) != self._done_at:
            self._done.clear()
            self._done_at = len(self.grams)
        done = self._done.get(value)
        if done is None:
            done = self._text(value)
            if len(self.grams) == self._done_at and len(value) <= 4096:
                self._done[value] = done
        return done

    def _text(self, value: str) -> str:
        value = _private_keys(value, self._found)
        if "://" in value:  # the look-behind every match starts after
            value = _URL_CREDENTIALS.sub(lambda m: self._shape(m) + "@", value)
        words = _Words(value)
        value = words.sub(_AUTHORIZATION, self._header)
        value = words.changed(_values_after(_FLAG, value, _flag_name, self._found))
        value = words.changed(_values_after(_ASSIGNMENT, value, is_secret_name, self._found))
        for _kind, pattern in SHAPES:
            value = words.sub(pattern, self._shape)
        value = words.sub(_FRAGMENT, self._fragment)
        value = words.sub(_AWS_FRAGMENT, self._aws_fragment)
        value = _RANDOM_RUN.sub(self._random, value)
        return self._pieces(value)

    def _random(self, match: "re.Match[str]") -> str:
        return self._shape(match) if looks_random(match.group(0)) else match.group(0)

    def _aws_fragment(self, match: "re.Match[str]") -> str:
        return self._shape(match) if any(c.isdigit() for c in match.group("body")) else match.group(0)

    def _fragment(self, match: "re.Match[str]") -> str:
        body = match.group("body")
        if not any(c.isupper() or c.isdigit() for c in body):
            return match.group(0)
        return self._shape(match)

    def _header(self, match: "re.Match[str]") -> str:
        self._found(match.group(0)[len(match.group(1)):])
        return match.group(1) + SECRET

    def data(self, value: Any, name: Optional[str] = None) -> Any:
        """Every string inside lists and dicts; every string under a secret name (a key) whole."""
        if isinstance(value, str):
            if is_secret_name(name) and value and not is_version_number(value):
                self._found(value)
                return SECRET
            return self.text(value)
        if isinstance(value, dict):
            # {"name": "HF_TOKEN", "value": "..."}: a setting's value goes by the name beside it.
            pair = value.get("name") if is_secret_name(value.get("name")) else None
            return {self.data(k) if isinstance(k, str) else k:
                    self.data(v, pair if k == "value" and pair else (k if isinstance(k, str) else name))
                    for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.data(v, name) for v in value]
        return value
