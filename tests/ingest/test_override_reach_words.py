"""Where an HSA_OVERRIDE_GFX_VERSION is set against the process that uses the GPU (issue 23, class
env_var_misuse, block h31d): an export followed by a program started with sudo (env_reset, sudoers(5)),
and a cross-family override beside a fault. Assertions are about finding ids and categories, never
about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings


def _lost(report: str) -> list:
    settings = ingest(report).facts.env.settings
    return [s.name for s in settings.value or [] if s.reaches is False] if settings.is_known else []


@pytest.mark.parametrize(
    "report",
    [
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0\nsudo python3 launch.py\nRuntimeError: HIP error: invalid device function\nRX 6600 XT",
        "$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ sudo ./webui.sh\nhipErrorNoBinaryForGpu: Unable to find code object for all current devices!\nRX 6700 XT",
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0\nexport HIP_VISIBLE_DEVICES=0\nsudo -u ai python main.py\nHIP error: invalid device function\nRX 6650 XT",
    ],
)
def test_an_export_before_a_program_started_with_sudo_does_not_reach_it_and_is_said_first(report: str) -> None:
    assert "HSA_OVERRIDE_GFX_VERSION" in _lost(report)
    findings = serious_findings(report)
    assert findings and findings[0][0] == "RD682" and findings[0][2] == "env"


@pytest.mark.parametrize(
    "report",
    [
        # sudo keeps the caller's environment with -E / --preserve-env
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0\nsudo -E python3 launch.py",
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0\nsudo --preserve-env=HSA_OVERRIDE_GFX_VERSION python3 launch.py",
        # the variable is passed after sudo
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0\nsudo HSA_OVERRIDE_GFX_VERSION=10.3.0 python3 launch.py",
        # a sudo line that administers the machine starts no GPU program
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0\nsudo usermod -aG render $USER\npython3 launch.py",
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0\nsudo apt install rocm-hip-runtime",
        # the program runs without sudo
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0\npython3 launch.py\nsudo reboot",
    ],
)
def test_sudo_that_keeps_the_environment_or_starts_no_gpu_program_leaves_the_export_in_force(report: str) -> None:
    assert "HSA_OVERRIDE_GFX_VERSION" not in _lost(report)


def test_the_needed_override_lost_to_fish_set_without_export_is_said_first() -> None:
    report = "fish: set -U HSA_OVERRIDE_GFX_VERSION 10.3.0\nRX 6700 XT, ComfyUI: HIP error: invalid device function"
    findings = serious_findings(report)
    assert findings and findings[0][0] == "RD682"


def test_a_value_of_another_family_that_is_lost_is_not_said_to_be_the_needed_one() -> None:
    report = "fish: set -U HSA_OVERRIDE_GFX_VERSION 11.0.0\nRX 6700 XT, ComfyUI: HIP error: invalid device function"
    assert "RD682" not in [f[0] for f in serious_findings(report)]


def test_a_cross_family_override_beside_a_crash_is_said_before_a_finding_about_the_crashing_runtime() -> None:
    report = (
        'ollama on my RX 7900 XTX, Environment="HSA_OVERRIDE_GFX_VERSION=10.3.0" in ollama.service\n'
        "load_backend: loaded ROCm backend from /usr/lib/ollama/rocm/libggml-hip.so\n"
        "SIGSEGV: segmentation violation\nSegmentation fault (core dumped)\n"
    )
    findings = serious_findings(report)
    assert findings and findings[0][0] == "RD214" and findings[0][2] == "env"


def _set_now(report: str) -> dict:
    env = ingest(report).facts.env.vars
    return dict(env.value or {}) if env.is_known else {}


@pytest.mark.parametrize(
    "report",
    [
        "I used to need HSA_OVERRIDE_GFX_VERSION=10.3.0 on ROCm 5.2, now everything works without it. RX 6800 XT",
        "Previously I exported HSA_OVERRIDE_GFX_VERSION=10.3.0, with ROCm 6.2 my RX 6700 XT runs without it.",
        "On my old machine I had HSA_OVERRIDE_GFX_VERSION=10.3.0 in .bashrc.",
    ],
)
def test_an_override_given_as_an_earlier_state_is_not_the_environment_now(report: str) -> None:
    assert "HSA_OVERRIDE_GFX_VERSION" not in _set_now(report)


@pytest.mark.parametrize(
    "report",
    [
        "Before, I had HIP_VISIBLE_DEVICES=1 set in .bashrc, I removed it and now it works. I have a single RX 7900 XTX.",
        "I only have one GPU. CUDA_VISIBLE_DEVICES=1 was set by the script, I changed it to 0 and now it works.",
        "I have only one GPU, an RX 7900 XTX. In my previous job's cluster we used HIP_VISIBLE_DEVICES=1. Here it works.",
    ],
)
def test_a_visibility_list_taken_away_or_left_on_another_machine_is_no_setting_now_and_no_rd681(report: str) -> None:
    now = _set_now(report)
    assert "HIP_VISIBLE_DEVICES" not in now and "CUDA_VISIBLE_DEVICES" not in now
    assert "RD681" not in [rule for rule, _, _ in serious_findings(report)]


@pytest.mark.parametrize(
    "report",
    [
        "I set HSA_OVERRIDE_GFX_VERSION=10.3.0 and it still crashes on my RX 6600",
        "I had to set HSA_OVERRIDE_GFX_VERSION=10.3.0 to get it running on my RX 6700 XT",
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 python main.py",
    ],
)
def test_an_override_said_as_set_now_is_read(report: str) -> None:
    assert _set_now(report).get("HSA_OVERRIDE_GFX_VERSION") == "10.3.0"


@pytest.mark.parametrize(
    "report",
    [
        "HSA_OVERRIDE_GFX_VERSION=11.0.0 on my 780M but ollama still uses CPU",
        "I set HSA_OVERRIDE_GFX_VERSION=10.3.0 for my RX 6700 XT but ollama is not using the GPU, only CPU",
        "ollama runs on the CPU only.\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\nRX 6600 XT on Ubuntu 24.04",
    ],
)
def test_an_override_for_ollama_set_in_a_shell_is_said_not_to_reach_its_service(report: str) -> None:
    assert "RD683" in [f[0] for f in serious_findings(report)]


@pytest.mark.parametrize(
    "report",
    [
        # the unit sets it
        'ollama uses the CPU.\n[Service]\nEnvironment="HSA_OVERRIDE_GFX_VERSION=10.3.0"\nRX 6700 XT',
        # started by hand from the shell that has it
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 ollama serve\nollama still uses the CPU on my RX 6700 XT",
        # ollama works
        "HSA_OVERRIDE_GFX_VERSION=11.0.0 made ollama use my 780M, 20 tok/s now",
        # not ollama
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 on my RX 6700 XT but ComfyUI still uses the CPU",
    ],
)
def test_an_override_whose_place_is_shown_or_that_works_or_is_not_for_ollama_is_not_said_lost(report: str) -> None:
    assert "RD683" not in [f[0] for f in serious_findings(report)]


def test_a_variable_followed_by_a_word_of_a_sentence_is_not_a_command_prefix() -> None:
    settings = ingest("HSA_OVERRIDE_GFX_VERSION=11.0.0 on my 780M but ollama still uses CPU").facts.env.settings
    assert [s.origin for s in settings.value or []] == ["prose"]


def test_a_variable_followed_by_a_dash_of_a_sentence_is_not_a_command_prefix() -> None:
    # the wrapped form of "I used to start python main.py with\nHSA_OVERRIDE_GFX_VERSION=10.3.0 - now I wanted to
    # try SwarmUI" (mcmonkeyprojects/SwarmUI#592): a dash names no program; the sentence is the past, no setting now
    report = (
        "I used to use comfyui directly and I always had to start python main.py with\n"
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 - now I wanted to try SwarmUI, but unfortunately\nI get the error:"
    )
    settings = ingest(report).facts.env.settings
    assert "command-prefix" not in [s.origin for s in settings.value or []]
    assert "HSA_OVERRIDE_GFX_VERSION" not in _set_now(report)


def test_an_export_in_the_host_shell_before_a_container_without_env_does_not_reach_it_and_is_said_first() -> None:
    report = (
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0\n"
        "docker run -it --device=/dev/kfd --device=/dev/dri --group-add video rocm/pytorch\n"
        ">>> torch.randn(2).cuda()\nRuntimeError: HIP error: invalid device function\nRX 6650 XT\n"
    )
    assert "HSA_OVERRIDE_GFX_VERSION" in _lost(report)
    findings = serious_findings(report)
    assert findings and findings[0][0] == "RD682"


def test_an_export_forwarded_with_a_bare_env_option_reaches_the_container() -> None:
    report = (
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0\n"
        "docker run -it -e HSA_OVERRIDE_GFX_VERSION --device=/dev/kfd --device=/dev/dri rocm/pytorch\n"
    )
    assert "HSA_OVERRIDE_GFX_VERSION" not in _lost(report)
