"""Settings the ollama command-line client reads, made only where the server gets them.

ollama is a client and a server: ``ollama run``/``list``/``pull`` are clients that talk to the server
over HTTP. The client reads OLLAMA_HOST to find the server (api.ClientFromEnvironment, envconfig.Host:
127.0.0.1:11434 when unset) and OLLAMA_NOHISTORY to stop keeping its input history (cmd/interactive.go);
https://github.com/ollama/ollama/blob/fb30760996871fa9460115c753afd2c60d4ab0f7/envconfig/config.go.
A value set in the server's systemd unit (or printed in the server's "server config" line) reaches the
server only. Reports: ollama/ollama#9648 and #5414 (OLLAMA_NOHISTORY in the unit, history still
written), #5574, #9145 and #10010 (OLLAMA_HOST with another port in the unit, `ollama list` cannot connect).
"""

from __future__ import annotations

import re
from typing import List, Optional

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known, unknown
from rocm_doctor.judge.derived import Tables, machine_fact

SERVER_ONLY = ("systemd", "app-config")
"""Where a setting reaches the server only: its unit, and the server's own log of what it got."""
VAGUE = ("prose", "assignment")
HISTORY_TOLD = "ollama_history_still_kept_told"
CANNOT_CONNECT = "ollama_client_cannot_connect"
_PORT = re.compile(r"^(?:https?://)?(?:\[[^\]]*\]|[^:/\s]*):(\d{1,5})(?:/.*)?$")


def _port(value: str) -> Optional[str]:
    match = _PORT.match(value.strip())
    return match.group(1) if match else None


def _said(facts: Facts, kind: str, name: str) -> bool:
    fact = getattr(facts.symptoms, kind)
    return fact.is_known and name in (fact.value or [])


@machine_fact(
    "client_setting_only_for_server",
    "'NAME=value' of a setting the ollama client reads for itself (OLLAMA_NOHISTORY; OLLAMA_HOST with a "
    "port other than 11434) that the report makes only where the server gets it (its systemd unit, its "
    "'server config' line), while the report shows the client's side failing (the history still kept; "
    "'could not connect to ollama ...'); absent otherwise, and when the report also sets it where a "
    "client runs (a shell's export, a command prefix, a startup file).",
)
def client_setting_only_for_server(facts: Facts, tables: Tables) -> Fact:
    settings = facts.env.settings
    if not settings.is_known:
        return unknown(settings.reason or "the report's settings were not read")
    rows = settings.value or []
    found: List[str] = []
    for row in rows:
        if row.origin not in SERVER_ONLY or row.value is None:
            continue
        value = str(row.value)
        if row.name == "OLLAMA_NOHISTORY" and value.strip() and _said(facts, "context", HISTORY_TOLD):
            pass
        elif row.name == "OLLAMA_HOST" and _port(value) not in (None, "11434") and _said(facts, "signatures", CANNOT_CONNECT):
            pass
        else:
            continue
        client_side = [r for r in rows if r.name == row.name and r.origin not in SERVER_ONLY + VAGUE]
        if client_side:
            continue
        found.append(f"{row.name}={value}")
    if not found:
        return absent(settings.source or "paste", "no client setting is made only for the server")
    return known(sorted(set(found)), settings.source or "paste")
