"""torch.flavour_evidence: what kind of text decided the torch build, and a told replacement of an intended build.

A build only a container image's tag or an install command's wheel index names is the build asked for; a later
install step the report tells of (an installer that put the CPU-only torch in place, a package whose requirement
replaced torch) may have taken it out. Real reports of the pattern: meizhong986/WhisperJAV#120 (rocm/pytorch image,
the project's installer swapped in a CPU torch), MrForExample/ComfyUI-AnimateAnyone-Evolved#22 (an --index-url
.../rocm5.7 install that xformers' requirement replaced), ROCm/pytorch#1533 and pypa/pip#12902 (pip in a
rocm/pytorch image fetched PyPI's torch). The texts below are written for the tests.
"""

from __future__ import annotations

from ingest_helpers import ingest, problems_shown


def _evidence(text: str):
    torch = ingest(text).facts.torch
    return (torch.flavour.value if torch.flavour.is_known else None,
            torch.flavour_evidence.value if torch.flavour_evidence.is_known else None)


IMAGE = "Dockerfile:\n\n```\nFROM rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0\nRUN pip install -r requirements.txt\n```\n"
INDEX = "I set it up with\n\n```\npip install torch torchvision --index-url https://download.pytorch.org/whl/rocm6.2\n```\n"
PRINTED = "```\n$ python -c 'import torch; print(torch.__version__)'\n2.5.1+rocm6.2\n```\n"
CPU_INSTALL = "The setup script then installed the CPU-only version of PyTorch on my RX 7900 XTX.\n"
REINSTALL_CHORE = "After every update of the app on my RX 6800 I have to reinstall the ROCm torch:\n\n"


def test_an_image_tag_names_the_build_asked_for():
    assert _evidence(IMAGE) == ("rocm", "intended")


def test_an_install_commands_wheel_index_names_the_build_asked_for():
    assert _evidence(INDEX) == ("rocm", "intended")


def test_torch_printing_its_version_shows_the_build():
    assert _evidence(PRINTED) == ("rocm", "shown")


def test_a_printed_torch_beside_an_image_tag_shows_the_build():
    assert _evidence(IMAGE + "\n" + PRINTED) == ("rocm", "shown")


def test_no_torch_build_in_the_report_leaves_the_evidence_unknown():
    assert _evidence("My RX 6800 is not found by rocminfo.\n") == (None, None)


def test_a_told_cpu_install_after_an_image_tag_is_reported():
    assert "RD575" in problems_shown(IMAGE + "\n" + CPU_INSTALL)


def test_a_told_cpu_install_with_a_printed_rocm_torch_is_not_reported():
    # the torch printed now is a ROCm build: the CPU install was not the last word
    assert "RD575" not in problems_shown(IMAGE + "\n" + CPU_INSTALL + "\n" + PRINTED)


def test_the_reinstall_chore_with_its_rocm_index_command_is_reported():
    assert "RD696" in problems_shown(REINSTALL_CHORE + "```\npip install torch --index-url https://download.pytorch.org/whl/rocm6.2\n```\n")


def test_the_reinstall_chore_with_a_printed_rocm_torch_is_not_reported():
    assert "RD696" not in problems_shown(REINSTALL_CHORE + PRINTED)


PROMPT_INDEX = "```\n$ pip install torch torchvision --index-url https://download.pytorch.org/whl/rocm6.2\n```\n"
DOCKERFILE = "Dockerfile:\n```\nFROM rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0\nRUN pip install -r requirements.txt\n```\n"
LISTED_LATER = "\npip list now:\n```\ntorch                    2.5.1+rocm6.2\n```\n"
SAID_LATER = "\nInside it torch is 2.5.1+rocm6.2 and it still fails.\n"


def test_a_rocm_torch_listed_later_outweighs_a_command_lines_index():
    # a "$ pip install" line or a Dockerfile instruction is read with more trust than a pasted row or a sentence, yet
    # only the row or the sentence says the build is in place
    for asked in (PROMPT_INDEX, DOCKERFILE):
        for later in (LISTED_LATER, SAID_LATER):
            assert _evidence(asked + CPU_INSTALL + later) == ("rocm", "stated")
            assert "RD575" not in problems_shown(asked + CPU_INSTALL + later)


def test_the_reinstall_chore_with_a_rocm_torch_listed_after_the_prompted_command_is_not_reported():
    assert "RD696" not in problems_shown(REINSTALL_CHORE + PROMPT_INDEX + LISTED_LATER)


def test_a_cpu_build_asked_for_is_judged_as_a_cpu_build_not_as_a_told_cpu_install():
    found = problems_shown("```\npip install torch --index-url https://download.pytorch.org/whl/cpu\n```\n" + CPU_INSTALL)
    assert "RD101" in found and "RD575" not in found
