"""Settings made for a systemd service against a server the reporter starts by hand.

A service gets the environment of its unit (Environment=, EnvironmentFile=, drop-ins that
``systemctl edit`` writes; systemd.exec(5),
https://www.freedesktop.org/software/systemd/man/257/systemd.exec.html). NixOS's ollama module writes
``services.ollama.environmentVariables`` and ``rocmOverrideGfx`` into that unit's environment only
(https://github.com/NixOS/nixpkgs/blob/f2a7dbaefbf40d8b25585a7a691b5695ef874d87/nixos/modules/services/misc/ollama.nix).
An ``ollama serve`` typed into a shell is another process, with that shell's environment
(https://github.com/ollama/ollama/blob/01d4047ed3c9cdbde19d812c2fc2296497f7a509/docs/faq.md).
Reports: ollama/ollama#7128, ollama/ollama#5165, NixOS/nixpkgs#332446.
"""

from __future__ import annotations

from typing import List

from rocm_doctor.facts.model import Facts
from rocm_doctor.facts.value import Fact, absent, known
from rocm_doctor.judge.derived import Tables, machine_fact
from rocm_doctor.judge.derived_facts._support import when_context_says
from rocm_doctor.judge.derived_facts.gpus import amd_agents

HAND_STARTED = ("ollama_serve_by_hand", "ollama_serve_by_hand_in_prose")
"""Context signatures (rules/data/signatures.yaml) that show the server started from a shell."""
SERVICE_CONFIGURED = "service_environment_configured"
"""Context signature: settings made for a service (a drop-in, the unit file, a NixOS services option)."""


def _unit_settings(facts: Facts) -> List[str]:
    settings = facts.env.settings
    if not settings.is_known:
        return []
    return sorted({f"{s.name}={s.value}" for s in settings.value or [] if s.origin == "systemd" and s.value is not None and s.name != "PATH"})


@machine_fact(
    "service_settings_beside_hand_started_server",
    "The report makes settings for a systemd service (Environment= lines, `systemctl edit`, a drop-in, "
    "the unit file, NixOS services.ollama options) and also starts the server by hand from a shell "
    "(`ollama serve`): that process gets the shell's environment, none of the unit's. The unit's "
    "'NAME=value' settings when the report shows them, else a description; absent when either side is missing.",
)
def service_settings_beside_hand_started_server(facts: Facts, tables: Tables) -> Fact:
    return when_context_says(facts, HAND_STARTED, "the report does not start the server by hand",
                             lambda hand, source: _unit_settings_unreached(facts, hand[0], source))


def _unit_settings_unreached(facts: Facts, hand: str, source: str) -> Fact:
    if facts.host.os.is_known and facts.host.os.value not in ("linux", "wsl2"):
        return absent(facts.host.os.source or "host", "systemd services are a Linux matter")
    in_unit = _unit_settings(facts)
    if in_unit:
        return known(in_unit, f"{facts.env.settings.source or source}; {hand}")
    if SERVICE_CONFIGURED in (facts.symptoms.context.value or []):
        return known(["the settings made for the service"], f"{source}; {hand}")
    return absent(source, "the report makes no setting for a service")


LAUNCHER_SETS_OVERRIDE = "launcher_sets_override"
"""Context signature: a launcher script or the application's code sets HSA_OVERRIDE_GFX_VERSION
(ace-step/ACE-Step-1.5#658, Crosstalk-Solutions/project-nomad#810, hyprstream/hyprstream#228)."""


@machine_fact(
    "launcher_override_gpus",
    "The gfx targets of the AMD GPUs of a report that says a launcher script or the application's own "
    "code sets HSA_OVERRIDE_GFX_VERSION for the programs it starts (a child gets the launcher's value, "
    "not the shell's); absent when the report says no such thing or shows no AMD GPU target.",
)
def launcher_override_gpus(facts: Facts, tables: Tables) -> Fact:
    return when_context_says(facts, [LAUNCHER_SETS_OVERRIDE], "no launcher sets the override",
                             lambda _said, source: _launcher_targets(facts, source))


def _launcher_targets(facts: Facts, context_source: str) -> Fact:
    targets = [str(a.gfx.value) for a in amd_agents(facts) if a.gfx.is_known]
    if not targets:
        return absent(facts.gpus.discovery.source or "paste", "the report shows no AMD GPU target")
    return known(sorted(set(targets)), f"{context_source}; GPU discovery")
