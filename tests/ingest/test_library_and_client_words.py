"""Words a report uses for hipBLASLt and for the ollama client's side of a failure (h33h)."""

from __future__ import annotations

import pytest

from rocm_doctor.ingest import ingest_text


def _context(text: str) -> list:
    context = ingest_text(text).facts.symptoms.context
    return list(context.value or []) if context.is_known else []


def _signatures(text: str) -> list:
    signatures = ingest_text(text).facts.symptoms.signatures
    return list(signatures.value or []) if signatures.is_known else []


@pytest.mark.parametrize(
    "text",
    [
        "Compile hipBLASlt to support gfx1100",  # pytorch/pytorch#136347
        "Hipblaslt is only supported on gfx90a and gfx94x cards",  # pytorch/pytorch#119081
        "HipBLASLt fails after the nightly update",  # ROCm/hipBLASLt#1243
        "Is hipBLASLt supported on the MI100?",
    ],
)
def test_hipblaslt_named_in_any_mixed_case_is_spoken_of(text: str) -> None:
    assert "hipblaslt_spoken_of" in _context(text)


@pytest.mark.parametrize(
    "text",
    ["sudo apt install hipblaslt-dev", "export TORCH_BLAS_PREFER_HIPBLASLT=1", "ls /opt/rocm/lib/hipblaslt/library"],
)
def test_hipblaslt_package_paths_and_variables_are_not_speech_about_it(text: str) -> None:
    assert "hipblaslt_spoken_of" not in _context(text)


@pytest.mark.parametrize(
    "text",
    [
        "ollama list\nError: could not connect to ollama app. is it running ?",  # ollama/ollama#5574
        "Error: could not connect to ollama server, run 'ollama serve' to start it",
        "Warning: could not connect to a running Ollama instance",
    ],
)
def test_the_ollama_clients_connection_failure_is_read(text: str) -> None:
    assert "ollama_client_cannot_connect" in _signatures(text)


@pytest.mark.parametrize(
    ("text", "told"),
    [
        ('OLLAMA_NOHISTORY is set to "true" but the history is still being written into the "history" file.', True),
        ("the user's input history is still saved at 'home/usr/.ollama/history'", True),
        ("I cleared my browser history and restarted ollama", False),
    ],
)
def test_the_client_keeping_its_history_is_told(text: str, told: bool) -> None:
    assert ("ollama_history_still_kept_told" in _context(text)) is told


def test_ollamas_server_config_line_is_read_when_wrapped() -> None:
    text = (
        "time=2024-07-01 level=INFO source=routes.go:1064 msg=\"server config\"\n"
        "env=\"map[CUDA_VISIBLE_DEVICES: HIP_VISIBLE_DEVICES: HSA_OVERRIDE_GFX_VERSION:10.3.0\n"
        "OLLAMA_HOST:http://127.0.0.1:11434 OLLAMA_ORIGINS:[http://localhost app://*]\n"
        "OLLAMA_NOHISTORY:true ROCR_VISIBLE_DEVICES:]\"\n"
    )
    settings = ingest_text(text).facts.env.settings
    read = {(s.name, s.value, s.origin) for s in settings.value or []}
    assert ("HSA_OVERRIDE_GFX_VERSION", "10.3.0", "app-config") in read
    assert ("OLLAMA_NOHISTORY", "true", "app-config") in read


def test_a_server_config_map_does_not_run_past_a_blank_line() -> None:
    text = "env=\"map[OLLAMA_DEBUG:false\n\nHSA_OVERRIDE_GFX_VERSION:10.3.0]\"\n"
    settings = ingest_text(text).facts.env.settings
    assert not any(s.origin == "app-config" for s in settings.value or [])


@pytest.mark.parametrize(
    "text",
    [
        'I set Environment="OLLAMA_NOHISTORY=1" in ollama.service and the history is no longer saved.',
        "With OLLAMA_NOHISTORY=1 exported the history is not written any more.",
        "I deleted ~/.ollama/history by hand.",
        "Is the history still saved somewhere?",
    ],
)
def test_history_denied_deleted_or_asked_about_is_not_told_as_still_kept(text: str) -> None:
    # r33a: RD653 spoke on 'the history is no longer saved' beside OLLAMA_NOHISTORY in the unit
    assert "ollama_history_still_kept_told" not in _context(text)


def test_a_units_environment_line_ends_at_its_first_word_that_is_no_assignment() -> None:
    # r33a: prose after the unit's assignments on the same line is not the unit's (RD653 named the shell's
    # OLLAMA_HOST value as set for the server)
    text = 'Environment="OLLAMA_HOST=0.0.0.0:8080" is in my ollama.service, and the shell has OLLAMA_HOST=127.0.0.1:8080 too.\n'
    settings = ingest_text(text).facts.env.settings
    unit = [(row.name, row.value) for row in settings.value or [] if row.origin == "systemd"]
    assert unit == [("OLLAMA_HOST", "0.0.0.0:8080")]


def test_a_units_environment_line_with_several_assignments_is_read_whole() -> None:
    text = '[Service]\nEnvironment="OLLAMA_HOST=0.0.0.0:8080" "OLLAMA_NOHISTORY=1"\n'
    settings = ingest_text(text).facts.env.settings
    unit = sorted((row.name, row.value) for row in settings.value or [] if row.origin == "systemd")
    assert unit == [("OLLAMA_HOST", "0.0.0.0:8080"), ("OLLAMA_NOHISTORY", "1")]
