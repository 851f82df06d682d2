"""Credentials in the forms secret scanners recognise, each with a random body, and a count of what survives.

Shared by the corpus test (``tests/facts/test_secret_redaction.py``) and the fuzz channel
``secrets`` (``tests/fuzz/fuzz_channels.py``). A form gives the text to plant and the part of it
that must not be in a report; :func:`survivors` counts a secret as surviving when any 12 characters
of that part are still there, so a reader that cut a token short does not hide a leak.
"""

from __future__ import annotations

import base64
import json
import random
import string
from typing import Callable, Iterable, List, Tuple

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "_-"
BASE64 = ALNUM + "+/"
WINDOW = 12

Planted = Tuple[str, str]
"""(text to plant, the secret part of it)."""


def _draw(rng: random.Random, size: int, alphabet: str = ALNUM) -> str:
    return "".join(rng.choice(alphabet) for _ in range(size))


def _named(name: str) -> Callable[[random.Random], Planted]:
    def form(rng: random.Random) -> Planted:
        value = _draw(rng, 24)
        return f"{name}={value}", value
    return form


def _jwt(rng: random.Random) -> Planted:
    payload = base64.urlsafe_b64encode(json.dumps({"sub": _draw(rng, 16)}).encode()).decode().rstrip("=")
    signature = _draw(rng, 43, URLSAFE)
    return f"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.{payload}.{signature}", signature


def _private_key(rng: random.Random) -> Planted:
    lines = [_draw(rng, 64, BASE64) for _ in range(3)]
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END OPENSSH PRIVATE KEY-----", lines[1]


def _simple(prefix: str, size: int, alphabet: str = ALNUM, suffix: str = "") -> Callable[[random.Random], Planted]:
    def form(rng: random.Random) -> Planted:
        body = _draw(rng, size, alphabet)
        return f"{prefix}{body}{suffix}", body
    return form


def _github_fine_grained(rng: random.Random) -> Planted:
    body = _draw(rng, 22) + "_" + _draw(rng, 59)
    return "github_pat_" + body, body


def _url(rng: random.Random) -> Planted:
    password = _draw(rng, 16)
    return f"https://builder:{password}@git.example.com/team/repo.git", password


def _authorization(rng: random.Random) -> Planted:
    token = _draw(rng, 32)
    scheme = rng.choice(["Bearer", "token", "Basic"])
    return f'curl -H "Authorization: {scheme} {token}" https://example.com/api', token


def _command_prefix(rng: random.Random) -> Planted:
    token = _draw(rng, 34)
    return f"HF_TOKEN=hf_{token} python train.py", token


FORMS: Tuple[Tuple[str, Callable[[random.Random], Planted]], ...] = (
    ("huggingface", _simple("hf_", 34)),
    ("github", _simple("ghp_", 36)),
    ("github-server", _simple("ghs_", 36)),
    ("github-fine-grained", _github_fine_grained),
    ("gitlab", _simple("glpat-", 20, URLSAFE)),
    ("aws-key-id", _simple("AKIA", 16, string.ascii_uppercase + string.digits)),
    ("aws-secret", _simple("AWS_SECRET_ACCESS_KEY=", 40, BASE64)),
    ("azure-storage", _simple("DefaultEndpointsProtocol=https;AccountName=store;AccountKey=", 86, BASE64,
                              "==;EndpointSuffix=core.windows.net")),
    ("gcp-api-key", _simple("AIza", 35, URLSAFE)),
    ("gcp-oauth", _simple("ya29.", 60, URLSAFE)),
    ("openai", _simple("sk-proj-", 48, URLSAFE)),
    ("anthropic", _simple("sk-ant-api03-", 93, URLSAFE, "AA")),
    ("slack", _simple("xoxb-17263544123-4827361928374-", 24)),
    ("slack-webhook", _simple("https://hooks.slack.com/services/T0A1B2C3D/B0A1B2C3D/", 24)),
    ("jwt", _jwt),
    ("private-key", _private_key),
    ("url-password", _url),
    ("authorization", _authorization),
    ("command-prefix", _command_prefix),
    ("named-token", _named("MY_SERVICE_TOKEN")),
    ("named-password", _named("DB_PASSWORD")),
    ("named-secret", _named("export APP_SECRET")),
    ("named-key", _named("WANDB_API_KEY")),
    ("named-credential", _named("CI_CREDENTIALS")),
    ("yaml-password", lambda rng: (lambda v: (f"password: {v}", v))(_draw(rng, 20))),
    ("json-api-key", lambda rng: (lambda v: (f'{{"api_key": "{v}"}}', v))(_draw(rng, 20))),
    ("cli-flag", lambda rng: (lambda v: (f"huggingface-cli login --token {v}", v))(_draw(rng, 24))),
)
ONE_LINE = tuple((name, form) for name, form in FORMS if name != "private-key")
"""Forms for fields that hold one line."""


def every_form(rng: random.Random, one_line: bool = False) -> List[Planted]:
    return [form(rng) for _, form in (ONE_LINE if one_line else FORMS)]


def any_form(rng: random.Random, one_line: bool = False) -> Planted:
    return rng.choice(ONE_LINE if one_line else FORMS)[1](rng)


def survivors(text: str, secrets: Iterable[str]) -> List[str]:
    """The secrets of which any 12 characters in a row are still in ``text``."""
    return [s for s in secrets if any(s[i:i + WINDOW] in text for i in range(max(1, len(s) - WINDOW + 1)))]
