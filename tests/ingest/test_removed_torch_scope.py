"""A torch build a report names as removed or replaced is the earlier state, not the torch in use
(issue 23, class cuda_wheel_on_amd): "the installer uninstalls the right torch version (1.13.1+rocm5.2)
and then installs the wrong torch version" (easydiffusion/easydiffusion#1607), "installing lion-pytorch
cause uninstallation of PyTorch for ROCm (e.g., 2.4.0.dev20240520+rocm6.1)" (ROCm/bitsandbytes#37),
"will uninstall torch 2.1.2+cu118 and leave users without cuda" (nerfstudio-project/nerfstudio#2861).
Assertions are about facts and finding categories, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings


@pytest.mark.parametrize(
    "sentence",
    [
        "turns out the automated installer uninstalls the right torch version (1.13.1+rocm5.2) and then installs the wrong torch version",
        "The launcher uninstalled torch 2.3.0+rocm6.0 and installed torch 2.4.0 with a bunch of nvidia packages.",
        "The update replaced torch 2.2.1+rocm5.7 with torch 2.3.0 and now nothing works.",
        "installing the requirements caused uninstallation of PyTorch for ROCm (2.4.0+rocm6.1).",
        "The custom node removed my torch 2.5.1+rocm6.2 during its install.",
    ],
)
def test_a_rocm_torch_named_as_removed_is_an_earlier_state_not_the_torch_in_use(sentence: str) -> None:
    facts = ingest(f"RX 6800 XT on Ubuntu 22.04.\n{sentence}\n").facts
    assert facts.torch.flavour.value != "rocm"
    assert any("+rocm" in item for item in facts.symptoms.earlier.value or [])


@pytest.mark.parametrize(
    "sentence",
    [
        # a removal denied, asked about, or one whose object is the build put in place
        "I did not uninstall torch 2.3.0+rocm6.0, it is still there.",
        "Should I uninstall torch 2.3.0+rocm6.0?",
        "I uninstalled torch 2.4.0+cu121 and installed torch 2.4.0+rocm6.1.",
        "I removed the old venv and reinstalled torch 2.4.0+rocm6.1.",
        "The CUDA torch was replaced by torch 2.4.0+rocm6.1.",
    ],
)
def test_a_removal_denied_asked_or_of_another_build_keeps_the_rocm_torch_in_use(sentence: str) -> None:
    facts = ingest(f"RX 6800 XT on Ubuntu 22.04.\n{sentence}\n").facts
    assert facts.torch.flavour.value == "rocm"


def test_an_installer_that_swapped_the_rocm_torch_for_an_untagged_one_gets_a_torch_build_finding() -> None:
    text = (
        "Suddenly stopped detecting my AMD gpu (gfx1030), turns out the automated installer uninstalls the right "
        "torch version (1.13.1+rocm5.2) and then installs the wrong torch version.\n"
        "It proceeds to install torch 2.0 over top.\n"
    )
    assert [category for _, _, category in serious_findings(text)][:1] == ["torch-build"]


@pytest.mark.parametrize(
    "sentence",
    [
        "The rocm5.7 wheels were removed, so I use torch 2.4.0+rocm6.1 now.",
        "I removed the old venv, which had nothing in it, we use torch 2.4.0+rocm6.1.",
    ],
)
def test_a_build_named_in_a_new_clause_after_a_removal_is_the_torch_in_use(sentence: str) -> None:
    facts = ingest(f"RX 6800 XT on Ubuntu 22.04.\n{sentence}\n").facts
    assert facts.torch.flavour.value == "rocm"


def test_a_removal_wrapped_onto_the_next_line_still_reaches_the_removed_build() -> None:
    text = (
        "RX 6800 XT on Ubuntu 22.04. Turns out the automated installer uninstalls the right torch version\n"
        "(1.13.1+rocm5.2) and then installs the wrong one.\n"
    )
    assert ingest(text).facts.torch.flavour.value != "rocm"


def test_a_list_item_after_a_removal_is_another_statement() -> None:
    text = "RX 6800 XT on Ubuntu 22.04.\n- uninstalled the old venv\n- torch 2.4.0+rocm6.1 installed, works\n"
    assert ingest(text).facts.torch.flavour.value == "rocm"


@pytest.mark.parametrize(
    "sentence",
    [
        "After deleting the old venv, torch 2.5.1+rocm6.2 gives torch.cuda.is_available() False.",
        "I uninstalled the distro rocm packages, torch 2.5.1+rocm6.2 is_available() -> False",
    ],
)
def test_a_removal_of_something_else_before_a_comma_keeps_the_rocm_torch_in_use(sentence: str) -> None:
    facts = ingest(f"RX 7900 XTX on Ubuntu 22.04.\n{sentence}\n").facts
    assert facts.torch.flavour.value == "rocm"
    assert not any("+rocm" in item for item in facts.symptoms.earlier.value or [])


@pytest.mark.parametrize(
    "sentence",
    [
        "I haven't yet removed torch 2.5.1+rocm6.2, it is still installed and is_available() -> False",
        "Without removing torch 2.5.1+rocm6.2 I installed torchvision. is_available() -> False",
        "I did not actually uninstall torch 2.5.1+rocm6.2. is_available() -> False",
    ],
)
def test_a_removal_negated_a_word_or_two_before_its_verb_keeps_the_rocm_torch_in_use(sentence: str) -> None:
    facts = ingest(f"RX 7900 XTX on Ubuntu 22.04.\n{sentence}\n").facts
    assert facts.torch.flavour.value == "rocm"
