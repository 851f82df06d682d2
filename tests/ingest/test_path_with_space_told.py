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
    "The path to my venv has a space in it.",
    "I installed the venv in a folder with a space in its name and ComfyUI fails on every run.",
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
    "Can a space in the venv path cause this",
    "If the path has a space, it fails.",
    "Someone said the folder has a space.",
    "The path has no spaces.",
])
def test_not_told_free_room_advice_or_question(line: str) -> None:
    assert not told(line + "\n" + ERROR)


@pytest.mark.parametrize("line", [
    "The path has a space but that is not the problem, I moved it and the error stays.",
    "I ruled out the space in the path: it fails in /opt/venv too.",
    "I moved my venv out of the folder with a space and it still fails.",
    "The folder with a space works fine, the problem is elsewhere.",
    "I renamed the folder that had a space, no change.",
])
def test_not_told_when_the_space_works_or_was_ruled_out(line: str) -> None:
    assert not told(line + "\n" + ERROR)


@pytest.mark.parametrize("line", [
    "The output folder has a space in its name (Stable Diffusion Outputs).",
    "The models directory contains a space.",
    "ollama's OLLAMA_MODELS directory has a space.",
    "My model file name has a space in it.",
    "I saved the images to a folder with a space in its name.",
])
def test_not_told_of_model_or_output_folders(line: str) -> None:
    """The runtime loads code objects from the program's libraries: a spaced folder of models or outputs says nothing."""
    assert not told(line + "\n" + ERROR)


@pytest.mark.parametrize("line", [
    "Your folder has spaces in its name.",
    "Changelog: Fixed an issue where HIP programs failed when the path has a space.",
    "Known issue: ROCm 6.x doesn't work with space in the path (fixed in ROCm 7.0).",
    "I read on reddit that HIP fails when the path has a space, but mine is /opt/ai/venv.",
    "The docs say: ROCm doesn't work with a space in the path.",
    "Path with spaces is quoted in the launch script.",
])
def test_not_told_in_another_persons_or_a_documents_words_nor_of_a_quoted_path(line: str) -> None:
    assert not told(line + "\n" + ERROR)


@pytest.mark.parametrize("line", [
    "Running on Windows 11, the HIP SDK is in C:\\Program Files\\AMD\\ROCm\\6.1, so the path has a space.",
    "WSL2 on Windows 11: my Windows home folder has a space.",
])
def test_not_told_of_a_windows_side_folder(line: str) -> None:
    """A Windows folder (the HIP SDK's C:\\Program Files, a Windows home seen from WSL) is not the Linux runtime's path."""
    assert not told(line + "\n" + ERROR)


def test_told_under_wsl_of_the_linux_venv() -> None:
    assert told("Ubuntu 22.04 under WSL2. My venv directory has a space in its name.\n" + ERROR)
