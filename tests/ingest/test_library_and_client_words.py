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
