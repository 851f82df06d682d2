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
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Tuple

import yaml

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


Glue = Tuple[str, str]
"""Characters put right before and after each planted text (never a letter or digit: glued to one, a token
is another word, which no scanner reads as a token either)."""


def _glued(planted: Planted, glue: Glue) -> Planted:
    return glue[0] + planted[0] + glue[1], planted[1]


def every_form(rng: random.Random, one_line: bool = False, glue: Glue = ("", "")) -> List[Planted]:
    return [_glued(form(rng), glue) for _, form in (ONE_LINE if one_line else FORMS)]


def any_form(rng: random.Random, one_line: bool = False, glue: Glue = ("", "")) -> Planted:
    return _glued(rng.choice(ONE_LINE if one_line else FORMS)[1](rng), glue)


def survivors(text: str, secrets: Iterable[str]) -> List[str]:
    """The secrets of which any 12 characters in a row are still in ``text``."""
    return [s for s in secrets if any(s[i:i + WINDOW] in text for i in range(max(1, len(s) - WINDOW + 1)))]


# -- planting: every field of a recorded machine, a real paste ------------------------------------------

KEPT_VARIABLES = ("PYTORCH_HIP_ALLOC_CONF", "HIP_VISIBLE_DEVICES", "ROCM_PATH", "HSA_OVERRIDE_GFX_VERSION", "PATH")
"""Variables rocm-doctor keeps in its facts: a token inside their values reaches a report unless removed."""


def _edit_yaml(path: Path, edit: Callable[[Any], None]) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _plant_strings(value: Any, rng: random.Random, planted: List[str], where: str, glue: Glue = ("", "")) -> Any:
    """Every string inside ``value`` with a secret appended (one line forms)."""
    if isinstance(value, str):
        text, secret = any_form(rng, one_line=True, glue=glue)
        planted.append(secret)
        return f"{value} {text}" if value else text
    if isinstance(value, dict):
        return {k: _plant_strings(v, rng, planted, f"{where}.{k}", glue) for k, v in value.items()}
    if isinstance(value, list):
        return [_plant_strings(v, rng, planted, where, glue) for v in value]
    return value


def plant_machine(folder: Path, rng: random.Random, glue: Glue = ("", "")) -> List[str]:
    """Secrets in every field: every string of machine.yaml (but the platform's name), secret-named
    variables, tokens inside the kept variables' values, every line of output of every command
    (inside every string of the JSON lines), and every file."""
    planted: List[str] = []

    def machine(data: Dict[str, Any]) -> None:
        system = data["platform"]["system"]
        for key in list(data):
            if key not in ("description", "sources"):
                data[key] = _plant_strings(data[key], rng, planted, key, glue)
        data["platform"]["system"] = system
        env = data.setdefault("env", {})
        for name in KEPT_VARIABLES:
            text, secret = any_form(rng, one_line=True, glue=glue)
            env[name] = (str(env.get(name, "")) + "," if env.get(name) else "") + text
            planted.append(secret)
        for text, secret in every_form(rng, one_line=True):
            if "=" in text and " " not in text.split("=", 1)[0]:
                name, value = text.split("=", 1)
                env[name] = value
                planted.append(secret)

    _edit_yaml(folder / "machine.yaml", machine)

    def commands(entries: List[Dict[str, Any]]) -> None:
        for entry in entries:
            for stream in ("stdout", "stderr"):
                if not isinstance(entry.get(stream), str):
                    continue
                lines = []
                for line in entry[stream].splitlines():
                    try:
                        document = json.loads(line)
                    except ValueError:
                        text, secret = any_form(rng, one_line=True, glue=glue)
                        planted.append(secret)
                        lines += [line + " " + text if line.strip() else line]
                        continue
                    lines.append(json.dumps(_plant_strings(document, rng, planted, stream, glue)))
                text, secret = any_form(rng, glue=glue)
                planted.append(secret)
                entry[stream] = "\n".join(lines + [text]) + "\n"

    _edit_yaml(folder / "commands.yaml", commands)
    for path in sorted((folder / "files").rglob("*")):
        if path.is_file() and not path.is_symlink():
            text, secret = any_form(rng, one_line=True, glue=glue)
            planted.append(secret)
            old = path.read_text(encoding="utf-8", errors="replace").rstrip("\n")
            path.write_text(f"{old} {text}\n" if old and "\n" not in old else f"{old}\n{text}\n" if old else text + "\n",
                            encoding="utf-8")
    return planted


def scanner_findings(text: str) -> List[str]:
    """What detect-secrets' pattern plugins find in ``text`` (the keyword and entropy plugins guess)."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    found = []
    for plugin_class in get_mapping_from_secret_type_to_class().values():
        if plugin_class.__name__ in ("KeywordDetector", "Base64HighEntropyString", "HexHighEntropyString",
                                     "IPPublicDetector"):
            continue
        plugin = plugin_class()
        for line in text.splitlines():
            found += [f"{plugin_class.__name__}: {secret}" for secret in plugin.analyze_string(line)
                      if "<secret>" not in secret]
    return found


def pastes(corpora: Iterable[Path]) -> List[Tuple[str, str]]:
    found = []
    for corpus in corpora:
        for path in sorted(corpus.glob("*.yaml")) if corpus.is_dir() else []:
            # libyaml's safe loader where PyYAML has it: the same cases, a twentieth of the time (this runs when
            # each test worker collects the suite)
            case = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            if isinstance(case, dict) and isinstance(case.get("report"), str):
                found.append((f"{corpus.name}/{path.stem}", case["report"]))
    return found


def plant_paste(report: str, rng: random.Random, glue: Glue = ("", "")) -> Tuple[str, List[str]]:
    """Every form in a paste: on lines of their own, exported, inside a kept variable's value, inside a
    path under home, and at the end of the paste's own lines."""
    lines = report.splitlines()
    planted: List[str] = []
    for i, (text, secret) in enumerate(every_form(rng, glue=glue)):
        planted.append(secret)
        where = rng.randrange(len(lines) + 1)
        mode = i % 4
        if mode == 0 or "\n" in text:
            lines.insert(where, text)
        elif mode == 1:
            lines.insert(where, f'export PYTORCH_HIP_ALLOC_CONF="expandable_segments:True,{text}"')
        elif mode == 2 and lines:
            where = min(where, len(lines) - 1)
            lines[where] = f"{lines[where]} {text}"
        else:
            lines.insert(where, f"export {text}" if "=" in text.split(" ", 1)[0] else f"export HF_HOME=/home/u/{text}")
    text, secret = rng.choice(ONE_LINE)[1](rng)
    planted.append(secret)
    return "\n".join(lines + [f"$ HF_TOKEN=hf_{'Z' * 4}{secret[:30]} python launch.py"]) + "\n", planted


