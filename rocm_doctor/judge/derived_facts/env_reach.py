"""Whether a setting a report shows can reach the program: a shell startup file beside a systemd service.

bash reads ~/.bashrc for interactive shells and ~/.profile for login shells
("Bash Startup Files" in the bash-5.2 manual,
https://github.com/bminor/bash/blob/74091dd4e8086db518b30df7f222691524469998/doc/bashref.texi); a systemd service gets
the environment of its unit only (systemd.exec(5)). ollama's Linux install runs its server as such a
service (https://github.com/ollama/ollama/blob/01d4047ed3c9cdbde19d812c2fc2296497f7a509/docs/faq.md).
"""

from __future__ import annotations

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import ids_shown
SERVICE_CONTEXT = ("systemd_service_shown", "ollama_named")
"""Context signatures (rules/data/signatures.yaml) that show the program runs as a systemd service:
the report shows the service itself, or names ollama, whose Linux install runs as ollama.service."""

OLLAMA_SERVER_FAILURES = ("ollama_gfx_check_without_override", "ollama_kfd_permission_denied")
"""Error signatures only ollama's server prints (rules/data/signatures.yaml). A bare mention of ollama
counts as the service only beside one of these, or when the startup file sets one of ollama's own
OLLAMA_* variables (ollama#2940): "ollama works, ComfyUI runs on the CPU" is about a program started
from the shell, which does read the startup file."""


@machine_fact(
    "startup_file_settings_beside_service",
    "Settings the report exports in a shell startup file (~/.bashrc, ~/.profile ...) while it shows the "
    "program as a systemd service (its journal, systemctl, a unit) or is about ollama's server (an error it prints, "
    "or an OLLAMA_* setting), whose Linux install runs as ollama.service: a service reads no user's startup file. 'NAME=value' items; absent when none.",
)
def startup_file_settings_beside_service(facts: Facts, tables: Tables) -> Fact:
    settings = facts.env.settings
    if not settings.is_known:
        return absent(settings.source or "env", settings.reason or "the report shows no environment settings")
    in_files = [f"{s.name}={s.value}" for s in settings.value or [] if s.origin == "shell-rc" and s.value is not None]
    if not in_files:
        return absent(settings.source or "paste", "no setting in a shell startup file")
    if facts.host.os.is_known and facts.host.os.value not in ("linux", "wsl2"):
        return absent(facts.host.os.source or "host", "systemd services are a Linux matter")
    context = ids_shown(facts.symptoms.context)
    shown = [c for c in SERVICE_CONTEXT if c in context]
    signatures = ids_shown(facts.symptoms.signatures)
    for_ollama = any(item.startswith("OLLAMA_") for item in in_files) or any(s in signatures for s in OLLAMA_SERVER_FAILURES)
    if shown == ["ollama_named"] and not for_ollama:
        return absent(facts.symptoms.context.source or "paste", "ollama is named but the report shows no error of its server")
    if shown == ["ollama_named"] and "ollama_serve_by_hand" in context:
        return absent(facts.symptoms.context.source or "paste", "ollama serve is started by hand from a shell")
    if not shown:
        return absent(facts.symptoms.context.source or "paste", "the report shows no service")
    return known(sorted(set(in_files)), f"{settings.source or 'paste'}; {shown[0]}")


SHELL_ORIGINS = ("export", "prose", "assignment")
"""Where a report sets a variable without saying in which process: a shell's export, a sentence, a bare
NAME=value. Startup files (RD841), units, compose files, container options and listings say where."""
WHERE_SHOWN = ("service_environment_configured", "ollama_serve_by_hand", "ollama_serve_by_hand_in_prose", "systemd_service_shown")
"""Contexts that show where the server runs or gets its settings: the other rules judge those reports."""
GPU_UNUSED = ("gpu_unused_told", "gpu_not_seen_said", "gpu_not_found_said")


@machine_fact(
    "override_set_beside_ollama_service",
    "The HSA_OVERRIDE_GFX_VERSION value a report about ollama on Linux sets in a shell or a sentence, without "
    "showing the server's unit, a hand-started `ollama serve` or a container, when it says the GPU goes unused: "
    "ollama's Linux install runs the server as ollama.service, which never sees a shell's variables; absent otherwise.",
)
def override_set_beside_ollama_service(facts: Facts, tables: Tables) -> Fact:
    settings = facts.env.settings
    if not settings.is_known:
        return absent(settings.source or "env", settings.reason or "the report shows no environment settings")
    values = [s for s in settings.value or [] if s.name == "HSA_OVERRIDE_GFX_VERSION" and s.value is not None]
    if not values or any(s.origin not in SHELL_ORIGINS for s in values):
        return absent(settings.source or "paste", "no override, or one whose place the report shows")
    if facts.host.os.is_known and facts.host.os.value not in ("linux", "wsl2"):
        return absent(facts.host.os.source or "host", "ollama runs as a systemd service on Linux only")
    context = ids_shown(facts.symptoms.context)
    signatures = ids_shown(facts.symptoms.signatures)
    if "ollama_named" not in context:
        return absent(facts.symptoms.context.source or "paste", "the report is not about ollama")
    if any(c in context for c in WHERE_SHOWN) or any(s in signatures for s in OLLAMA_SERVER_FAILURES):
        return absent(facts.symptoms.context.source or "paste", "the report shows where the server runs or what it got")
    if any("container" in c or "docker" in c for c in context):
        return absent(facts.symptoms.context.source or "paste", "a container gets its variables from its own options")
    if not any(c in context for c in GPU_UNUSED):
        return absent(facts.symptoms.context.source or "paste", "the report does not say the GPU goes unused")
    return known(values[-1].value, settings.source or "paste")
