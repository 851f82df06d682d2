"""The reporter's words that a path holds a space (signature path_with_space_told, learn56e): read in the field's
forms and variants, not in free room, advice, a condition, a question or another person's words."""
import pytest

from rocm_doctor.ingest import ingest_text

ERROR = "RuntimeError: HIP error: no kernel image is available for execution on the device\n"


def told(text: str) -> bool:
    context = ingest_text(text).facts.symptoms.context
    return context.status == "known" and "path_with_space_told" in context.value


@pytest.mark.parametrize("line", [
    "Doesn't work with AMD GPU when path has a space in it - ROCm error: no kernel image is available for execution on the device",  # ollama/ollama#8765
    "ROCm 6.x doesn't work with space in the path.",  # ROCm/legacy-rocm-build#4329
    "Looks like HIP cannot handle spaces in the directory structure.",  # ROCm/legacy-rocm-build#4478
    "The problem was the spaces in my venv path.",  # ROCm/legacy-rocm-build#3894
    "My venv folder name contains a space.",
    "The install directory has whitespace in it.",
])
@pytest.mark.parametrize("variant", ["plain", "crlf", "quoted", "fenced"])
def test_told_forms_and_variants(line: str, variant: str) -> None:
    text = line + "\n" + ERROR
    if variant == "crlf":
        text = text.replace("\n", "\r\n")
    elif variant == "quoted":
        text = "".join("> " + part + "\n" for part in text.splitlines())
    elif variant == "fenced":
        text = line + "\n```\n" + ERROR + "```\n"
    assert told(text), text


@pytest.mark.parametrize("line", [
    "There is enough disk space in the folder.",
    "No space left on device in the directory.",
    "Try to use a path without spaces.",
    "Make sure the path has no spaces.",
    "Could the path with a space be the problem?",
    "If the path has a space, it fails.",
    "Someone said the folder has a space.",
    "The path has no spaces.",
])
def test_not_told(line: str) -> None:
    assert not told(line + "\n" + ERROR)
