"""How different people spell the same setting or install: the metamorphic rewrites keep meaning and scope, and
the readers take every spelling as the same fact.

The rewrites (:func:`metamorphic.env_var_forms`, :func:`metamorphic.pip_command_forms`,
:func:`metamorphic.docker_option_forms`) must never move a setting to another scope or platform (a command's
prefix stays on that command, an ``export`` stays the session's, a Windows ``set``/``$env:`` is never respelled
in a shell's form) and never swap ``--index-url`` with ``--extra-index-url``; what a program printed (fenced, a
log line, a prompt's transcript) is not respelled. The readers must read the original and the rewrite alike.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import pytest
from metamorphic import docker_option_forms, env_var_forms, pip_command_forms

from rocm_doctor.ingest import ingest_text


def _settings(text: str) -> List[Tuple[str, Optional[str], str]]:
    facts = ingest_text(text).facts
    found = facts.env.settings.value if facts.env.settings.is_known else []
    return sorted((s.name, s.value, s.origin) for s in found)


def _install(text: str) -> Tuple[Optional[str], Optional[list]]:
    facts = ingest_text(text).facts
    flavour = facts.torch.flavour.value if facts.torch.flavour.is_known else None
    indexes = facts.symptoms.wheel_indexes.value if facts.symptoms.wheel_indexes.is_known else None
    return flavour, indexes


ENV_FORMS = [
    ("export HSA_OVERRIDE_GFX_VERSION=10.3.0", 'export HSA_OVERRIDE_GFX_VERSION="10.3.0"'),
    ('export HSA_OVERRIDE_GFX_VERSION="11.0.0"', "export HSA_OVERRIDE_GFX_VERSION=11.0.0"),
    ("HSA_OVERRIDE_GFX_VERSION=10.3.0 python app.py", 'HSA_OVERRIDE_GFX_VERSION="10.3.0" python app.py'),
    ("I set HSA_OVERRIDE_GFX_VERSION to 10.3.0 and it still crashes.", "I set HSA_OVERRIDE_GFX_VERSION=10.3.0 and it still crashes."),
    ("I set `HIP_VISIBLE_DEVICES=1` and nothing changed.", "I set `HIP_VISIBLE_DEVICES` to 1 and nothing changed."),
    ("I tried setting `HSA_OVERRIDE_GFX_VERSION` to `10.3.0` without luck", "I tried setting `HSA_OVERRIDE_GFX_VERSION=10.3.0` without luck"),
    ("with HSA_OVERRIDE_GFX_VERSION=10.3.0 it crashes", "with HSA_OVERRIDE_GFX_VERSION = 10.3.0 it crashes"),
]


@pytest.mark.parametrize("original, respelled", ENV_FORMS)
def test_environment_variable_forms_respell_in_the_same_scope(original: str, respelled: str) -> None:
    assert env_var_forms(original) == respelled


@pytest.mark.parametrize("original, respelled", ENV_FORMS)
def test_each_environment_variable_spelling_is_read_as_the_same_setting(original: str, respelled: str) -> None:
    assert _settings(original)
    assert _settings(respelled) == _settings(original)


@pytest.mark.parametrize(
    "line",
    [
        "set HSA_OVERRIDE_GFX_VERSION=10.3.0",  # cmd's set: Windows, this window
        '$env:HSA_OVERRIDE_GFX_VERSION="10.3.0"',  # PowerShell
        "setx HSA_OVERRIDE_GFX_VERSION 10.3.0",
        "set -gx HSA_OVERRIDE_GFX_VERSION 10.3.0",  # fish
        'Environment="HSA_OVERRIDE_GFX_VERSION=10.3.0"',  # a systemd unit
        "ENV HSA_OVERRIDE_GFX_VERSION=10.3.0",  # a Dockerfile
        'os.environ["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0"',
        "2024-05-02 10:14:07 INFO HSA_OVERRIDE_GFX_VERSION=10.3.0 python",  # a log line
        "$ HSA_OVERRIDE_GFX_VERSION=10.3.0 python app.py",  # a transcript's prompt
        "HSA_OVERRIDE_GFX_VERSION=10.3.0 on my 780M but ollama still uses the CPU",  # prose, no program started
        "export PATH=/opt/rocm/bin:$PATH",  # not a variable of the GPU stack
        "```\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n```",  # fenced: what the reporter pasted
    ],
)
def test_environment_variable_forms_leave_other_syntaxes_output_and_fences_alone(line: str) -> None:
    assert env_var_forms(line) == line


PIP_FORMS = [
    (
        "pip install torch torchvision --index-url https://download.pytorch.org/whl/rocm6.2",
        "pip3 install --index-url=https://download.pytorch.org/whl/rocm6.2 torch torchvision",
    ),
    (
        "I ran `pip3 install --index-url=https://download.pytorch.org/whl/rocm6.1 torch` and it fails",
        "I ran `python -m pip install torch --index-url https://download.pytorch.org/whl/rocm6.1` and it fails",
    ),
    (
        "python -m pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/rocm6.2",
        "python3 -m pip install --index-url=https://download.pytorch.org/whl/rocm6.2 torch==2.5.1",
    ),
    (
        "python3 -m pip install --pre torch --index-url https://download.pytorch.org/whl/nightly/rocm6.3",
        "pip install --index-url=https://download.pytorch.org/whl/nightly/rocm6.3 --pre torch",
    ),
    (
        "pip install torch --extra-index-url https://download.pytorch.org/whl/rocm6.2",
        "pip3 install --extra-index-url=https://download.pytorch.org/whl/rocm6.2 torch",
    ),
]


@pytest.mark.parametrize("original, respelled", PIP_FORMS)
def test_pip_install_forms_respell_launcher_and_index_option(original: str, respelled: str) -> None:
    assert pip_command_forms(original) == respelled


@pytest.mark.parametrize("original, respelled", PIP_FORMS)
def test_each_pip_install_spelling_is_read_as_the_same_install(original: str, respelled: str) -> None:
    assert _install(original) != (None, None)
    assert _install(respelled) == _install(original)


def test_pip_install_forms_never_turn_an_extra_index_into_the_only_index() -> None:
    """``--extra-index-url`` adds the ROCm index beside PyPI (a CUDA or CPU wheel may still win): the build stays unknown."""
    original = "pip install torch --extra-index-url https://download.pytorch.org/whl/rocm6.2"
    respelled = pip_command_forms(original)
    assert "--extra-index-url" in respelled and "--index-url" not in respelled.replace("--extra-index-url", "")
    assert _install(respelled)[0] is None


@pytest.mark.parametrize(
    "line",
    [
        "uv pip install torch --index-url https://download.pytorch.org/whl/rocm6.2",  # uv's own resolver
        "$ pip install torch --index-url https://download.pytorch.org/whl/rocm6.2",  # a transcript's prompt
        "pip install torch \\",  # continued on the next line: left whole
        "pipx install torch",
        "venv/bin/python -m pip install torch --index-url https://download.pytorch.org/whl/rocm6.2",  # its own interpreter
        "py -m pip install torch",
        "conda install pytorch",
    ],
)
def test_pip_install_forms_leave_uv_transcripts_and_continued_commands_alone(line: str) -> None:
    assert pip_command_forms(line) == line


DOCKER_FORMS = [
    (
        "docker run -it --device=/dev/kfd --device=/dev/dri --group-add video -e HSA_OVERRIDE_GFX_VERSION=10.3.0 rocm/pytorch",
        "docker run -it --device /dev/kfd --device /dev/dri --group-add=video --env HSA_OVERRIDE_GFX_VERSION=10.3.0 rocm/pytorch",
    ),
    (
        "I start it with `podman run --device /dev/kfd --group-add=render --env HIP_VISIBLE_DEVICES=0 img` and",
        "I start it with `podman run --device=/dev/kfd --group-add render --env=HIP_VISIBLE_DEVICES=0 img` and",
    ),
    (
        "docker run -d \\\n  --device /dev/dri/renderD128 \\\n  --env=OLLAMA_HOST=0.0.0.0 \\\n  ollama/ollama:rocm",
        "docker run -d \\\n  --device=/dev/dri/renderD128 \\\n  -e OLLAMA_HOST=0.0.0.0 \\\n  ollama/ollama:rocm",
    ),
]


@pytest.mark.parametrize("original, respelled", DOCKER_FORMS)
def test_docker_run_option_forms_respell_with_or_without_equals(original: str, respelled: str) -> None:
    assert docker_option_forms(original) == respelled


@pytest.mark.parametrize("original, respelled", DOCKER_FORMS)
def test_each_docker_option_spelling_gives_the_container_the_same_settings(original: str, respelled: str) -> None:
    assert _settings(original)
    assert _settings(respelled) == _settings(original)


def test_docker_option_forms_leave_other_commands_alone() -> None:
    line = "docker exec -e FOO=1 box python x.py -e BAR=2"
    assert docker_option_forms(line) == line


@pytest.mark.parametrize(
    "sentence, setting",
    [
        # ollama/ollama#5414, ollama/ollama#8851, ollama/ollama-python#407
        ("OLLAMA_NOHISTORY is set to true but the history is still written.", ("OLLAMA_NOHISTORY", "true", "prose")),
        ("Nevermind, I had HSA_OVERRIDE_GFX_VERSION set to 11.0.0 instead of 10.3.0.", ("HSA_OVERRIDE_GFX_VERSION", "11.0.0", "prose")),
        ("I cannot connect when OLLAMA_HOST is Set to 0.0.0.0:11434 on the server.", ("OLLAMA_HOST", "0.0.0.0:11434", "prose")),
        ("HIP_VISIBLE_DEVICES was set to 1 when it crashed.", ("HIP_VISIBLE_DEVICES", "1", "prose")),
    ],
)
def test_a_variable_named_before_set_to_is_read_as_a_setting(sentence: str, setting: Tuple[str, str, str]) -> None:
    assert _settings(sentence) == [setting]


@pytest.mark.parametrize(
    "sentence",
    [
        "HSA_OVERRIDE_GFX_VERSION is not set to 10.3.0 here.",  # a negation
        "You should have HSA_OVERRIDE_GFX_VERSION set to 10.3.0 for this card.",  # advice
        "Should HSA_OVERRIDE_GFX_VERSION be set to 10.3.0?",  # a question
        "CUDA_MODULE_LOADING set to: LAZY",  # collect_env's output line, no setting of the stack
        "PYTORCH_ROCM_ARCH set to the GPU's arch",  # no value
        "The MAX_JOBS set to 4 for the build",  # not a variable of the GPU stack
    ],
)
def test_set_to_without_a_setting_made_is_not_read(sentence: str) -> None:
    assert _settings(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Make sure HSA_OVERRIDE_GFX_VERSION is set to 10.3.0 before starting ollama.",  # a check put to the reader
        "Please check that HIP_VISIBLE_DEVICES is set to 0.",
        "Ensure HSA_OVERRIDE_GFX_VERSION is set to 10.3.0 in the service file.",
        "Is HSA_OVERRIDE_GFX_VERSION set to 10.3.0 in your environment?",  # a yes/no question
        "If HSA_OVERRIDE_GFX_VERSION is set to 10.3.0, rocBLAS loads the gfx1030 kernels.",  # a condition
        "PYTORCH_TUNABLEOP_ENABLED is set to 0 by default.",  # a program's default
    ],
)
def test_set_to_in_a_check_a_question_a_condition_or_a_default_is_not_read(sentence: str) -> None:
    assert _settings(sentence) == []


@pytest.mark.parametrize(
    "sentence, setting",
    [
        ("I made sure HSA_OVERRIDE_GFX_VERSION is set to 10.3.0 and it still crashes.", ("HSA_OVERRIDE_GFX_VERSION", "10.3.0", "prose")),
        ("I set HIP_VISIBLE_DEVICES to 0 because the iGPU is picked by default.", ("HIP_VISIBLE_DEVICES", "0", "prose")),
    ],
)
def test_a_setting_the_reporter_checked_or_explains_is_still_read(sentence: str, setting: Tuple[str, str, str]) -> None:
    assert _settings(sentence) == [setting]
