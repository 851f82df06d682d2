"""Settings made for a systemd service against a server started by hand (RD622).

The wordings follow real threads: ollama/ollama#7128 (OLLAMA_HOST set in ollama.service, the server
started with "ollama serve"), ollama/ollama#5165 (Environment= lines of ollama.service, then
`OLLAMA_HOST=... ollama serve`) and NixOS/nixpkgs#332446 (services.ollama.rocmOverrideGfx, then
`ollama serve` by hand)."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, report_contexts, signature_contexts

UNIT = """[Service]
ExecStart=/usr/local/bin/ollama serve
User=ollama
Environment="OLLAMA_HOST=0.0.0.0:11434"
Environment="OLLAMA_NUM_PARALLEL=2"
"""


@pytest.mark.parametrize(
    "sentence",
    [
        "I had to manually set `HSA_OVERRIDE_GFX_VERSION` before calling `ollama serve`.",
        'If I just use the commend "ollama serve" to start the ollama, I cannot reach it.',
        "Otherwise, when I run `OLLAMA_HOST=0.0.0.0:11434 ollama serve`, the changes are not applied.",
        "It works when I start ollama from commandline setting the variable.",
    ],
)
def test_prose_that_starts_ollama_serve_by_hand_is_read(sentence: str) -> None:
    assert "ollama_serve_by_hand_in_prose" in signature_contexts(sentence)


def test_the_units_own_execstart_is_not_a_server_started_by_hand() -> None:
    found = signature_contexts(UNIT)
    assert "ollama_serve_by_hand_in_prose" not in found
    assert "ollama_serve_by_hand" not in found


@pytest.mark.parametrize(
    "sentence",
    [
        "I have set my environment in /etc/systemd/system/ollama.service but it doesn't work",
        "I used sudo systemctl edit ollama.service to add the variable",
        "despite having defined `services.ollama.rocmOverrideGfx` in my configuration",
    ],
)
def test_settings_made_for_a_service_are_read(sentence: str) -> None:
    assert "service_environment_configured" in signature_contexts(sentence)


def test_unit_settings_beside_a_hand_started_server_are_flagged() -> None:
    report = UNIT + "\nIt only works with systemctl restart ollama. When I run `OLLAMA_HOST=0.0.0.0:11434 ollama serve` my models are elsewhere.\n"
    assert "RD622" in problems_shown(report)


def test_a_nixos_service_option_beside_a_hand_started_server_is_flagged() -> None:
    report = (
        "The option services.ollama.rocmOverrideGfx does not work as expected. I had to manually set "
        "`HSA_OVERRIDE_GFX_VERSION` before calling `ollama serve`, despite having defined `rocmOverrideGfx` in my configuration.\n"
    )
    assert "RD622" in problems_shown(report)


def test_unit_settings_with_the_server_run_as_the_service_are_not_flagged() -> None:
    report = UNIT + "\nsudo systemctl daemon-reload\nsudo systemctl restart ollama\n"
    assert "RD622" not in problems_shown(report)


def test_a_server_started_by_hand_without_service_settings_is_not_flagged() -> None:
    report = "export HSA_OVERRIDE_GFX_VERSION=10.3.0\nollama serve\n"
    assert "ollama_serve_by_hand" in report_contexts(report)
    assert "RD622" not in problems_shown(report)


# A launcher or the application's own code sets the override (RD623). Wordings from
# ace-step/ACE-Step-1.5#658, Crosstalk-Solutions/project-nomad#810, hyprstream/hyprstream#228 and
# 1bit-MONSTER/1bit-MONSTER#251.
@pytest.mark.parametrize(
    "text",
    [
        "My RX 6700 XT requires `HSA_OVERRIDE_GFX_VERSION` set to 10.3.0. But the value that is currently set in `start_gradio_ui_rocm.sh`, causes my desktop to crash.",
        "`docker_service.ts` line ~595 (and the equivalent in `updateContainer`) appends `HSA_OVERRIDE_GFX_VERSION=11.0.0` to the Ollama env.",
        "`test_gpu.rs` hardcodes `HSA_OVERRIDE_GFX_VERSION=9.0.0`, which tells the runtime to treat the GPU as gfx90a.",
        "`env.sh` sets `HSA_OVERRIDE_GFX_VERSION=11.5.1` unconditionally.",
        # learn55d: the setting told as a blanket default, its value given and no file named
        # (vladmandic/sdnext PR #1805, jamiepine/voicebox PR #785, Crosstalk-Solutions/project-nomad#810 and #1075)
        "1. Don't set `HSA_OVERRIDE_GFX_VERSION=10.3.0` by default. a. A badly-detected default value usually means a broken ROCm install.",
        "Previously, `HSA_OVERRIDE_GFX_VERSION=10.3.0` was unconditionally set for all AMD GPUs, which caused suboptimal performance on RDNA 3/4 GPUs.",
        "## Bug A — `HSA_OVERRIDE_GFX_VERSION=11.0.0` is set unconditionally for any AMD GPU; breaks gfx1030 discovery",
        "NOMAD forces `HSA_OVERRIDE_GFX_VERSION=11.0.0` for AMD iGPUs. That was a workaround for older ROCm.",
    ],
)
def test_a_launcher_that_sets_the_override_is_read(text: str) -> None:
    assert "launcher_sets_override" in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I run ./webui.sh and it says no GPU. I exported HSA_OVERRIDE_GFX_VERSION=10.3.0 in my shell.",
        "The value that is set in start.sh is fine, but torch finds no GPU.",
        # the reporter's own blanket setting, advice to the reader, a command's own prefix, a value that works
        "Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 by default in my shell profile fixed it.",
        "I set HSA_OVERRIDE_GFX_VERSION=10.3.0 by default in .bashrc.",
        "You should set HSA_OVERRIDE_GFX_VERSION=10.3.0 for all AMD GPUs of the RDNA2 family.",
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 python main.py",
        "The override HSA_OVERRIDE_GFX_VERSION=11.0.0 works on every GPU we tried.",
    ],
)
def test_a_script_named_beside_the_override_is_not_a_launcher_setting_it(text: str) -> None:
    assert "launcher_sets_override" not in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # rev55d: the blanket-default wording said of a guide, of other people or of the reporter's own shell, as
        # advice, as a default already removed, or asked
        "The guide sets HSA_OVERRIDE_GFX_VERSION=10.3.0 for all GPUs.",
        "The wiki says to export HSA_OVERRIDE_GFX_VERSION=10.3.0 for all AMD GPUs.",
        "Users set HSA_OVERRIDE_GFX_VERSION=10.3.0 for all AMD GPUs on forums, which is wrong.",
        "Someone else had HSA_OVERRIDE_GFX_VERSION=10.3.0 set for all GPUs, and their error was different.",
        "We set HSA_OVERRIDE_GFX_VERSION=10.3.0 by default in our bashrc.",
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 set by default on my system since I installed it.",
        "Setting HSA_OVERRIDE_GFX_VERSION=10.3.0 for all GPUs is a bad idea.",
        "Don't set HSA_OVERRIDE_GFX_VERSION=10.3.0 for all GPUs in your shell.",
        "v1.2: no longer sets HSA_OVERRIDE_GFX_VERSION=10.3.0 by default.",
        "Changelog: removed the default HSA_OVERRIDE_GFX_VERSION=10.3.0 for all AMD GPUs.",
        "This PR stops setting HSA_OVERRIDE_GFX_VERSION=10.3.0 by default.",
        "Is HSA_OVERRIDE_GFX_VERSION=10.3.0 set by default for all GPUs?",
        "Why is HSA_OVERRIDE_GFX_VERSION=11.0.0 set unconditionally for any AMD GPU?",
        "Does the script set HSA_OVERRIDE_GFX_VERSION=10.3.0 by default",
    ],
)
def test_a_blanket_default_told_of_others_as_advice_as_gone_or_asked_is_not_a_launcher_setting_it(text: str) -> None:
    assert "launcher_sets_override" not in signature_contexts(text)


def test_a_blanket_default_is_read_with_the_reporters_gpu_after_it() -> None:
    text = "The launcher sets `HSA_OVERRIDE_GFX_VERSION=10.3.0` by default, so my RX 7900 XTX crashes."
    assert "launcher_sets_override" in signature_contexts(text)


def test_a_blanket_default_override_on_a_named_gpu_is_flagged() -> None:
    # vladmandic/sdnext PR #1805: the launcher's default 10.3.0 on a Radeon VII (gfx906)
    report = (
        "1. Don't set `HSA_OVERRIDE_GFX_VERSION=10.3.0` by default. a. A badly-detected default value usually "
        "means a broken ROCm install. b. Causes issues with older GPUs.\n\nRadeon VII, EndeavourOS\n"
    )
    assert "RD623" in problems_shown(report)


def test_a_launcher_override_on_a_named_gpu_is_flagged() -> None:
    report = (
        "I'm using an RX 6700 XT (gfx1031), which requires `HSA_OVERRIDE_GFX_VERSION` to be set to 10.3.0. "
        "But the value that is currently set in `start_gradio_ui_rocm.sh`, causes my whole desktop environment to crash.\n"
    )
    assert "RD623" in problems_shown(report)


@pytest.mark.parametrize(
    "sentence",
    [
        "I use ollama run llama3 from the terminal and it answers slowly.",
        "ollama from the command line works, the web UI does not.",
    ],
)
def test_the_client_run_from_a_terminal_is_not_a_server_started_by_hand(sentence: str) -> None:
    assert "ollama_serve_by_hand_in_prose" not in signature_contexts(sentence)


@pytest.mark.parametrize(
    "text",
    [
        # learn56f: the blanket default told in the other forms people write a setting in (the metamorphic "environment
        # variable forms" rewrite of vladmandic/sdnext PR #1805 gave "set `NAME` to value")
        "1. Don't set `HSA_OVERRIDE_GFX_VERSION` to 10.3.0 by default. a. A badly-detected default value usually means a broken ROCm install.",
        "Previously, HSA_OVERRIDE_GFX_VERSION to `10.3.0` was applied for all AMD GPUs.",
        '## Bug A — `HSA_OVERRIDE_GFX_VERSION="11.0.0"` is set unconditionally for any AMD GPU',
        "The launcher's `$env:HSA_OVERRIDE_GFX_VERSION = '10.3.0'` is set by default, so my RX 7900 XTX crashes.",
    ],
)
def test_a_blanket_default_is_read_whatever_form_gives_the_value(text: str) -> None:
    assert "launcher_sets_override" in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I set HSA_OVERRIDE_GFX_VERSION to 10.3.0 by default in .bashrc.",
        "You should set `HSA_OVERRIDE_GFX_VERSION` to 10.3.0 for all AMD GPUs of the RDNA2 family.",
        "This PR stops setting HSA_OVERRIDE_GFX_VERSION to 10.3.0 by default.",
        "Why is HSA_OVERRIDE_GFX_VERSION set to 11.0.0 unconditionally for any AMD GPU?",
        "Don't set HSA_OVERRIDE_GFX_VERSION to 10.3.0 for all GPUs in your shell.",
    ],
)
def test_the_to_form_told_of_oneself_as_advice_as_gone_or_asked_is_not_a_launcher_setting_it(text: str) -> None:
    assert "launcher_sets_override" not in signature_contexts(text)
