"""The ROCm release and the Linux kernel read in the spellings people type in prose, and the rewrite that respells
them for the metamorphic test (issue 23 item 6, h36i).

Each spelling is one at least three real reports use (cited beside the patterns in rocm_doctor/ingest/formats/
mentions.py, rules/data/signatures.yaml and tests/ingest/metamorphic.py). The negatives are what the same shapes
mean elsewhere: a distribution's release ("Rocky Linux 9.3"), a past or asked-about kernel, program output.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, signature_contexts, signature_errors
from metamorphic import rocm_kernel_spellings

from rocm_doctor.ingest.formats.mentions import before_in_sentence


def kernel(text: str):
    facts = ingest(text + "\n").facts
    return facts.host.kernel_release.value if facts.host.kernel_release.is_known else None


def rocm(text: str):
    facts = ingest(text + "\n").facts
    return facts.rocm.version.value if facts.rocm.version.is_known else None


@pytest.mark.parametrize(
    "text",
    [
        "I use ROCm 6.2 on Ubuntu 22.04.",
        "I use ROCm v6.2 on Ubuntu 22.04.",
        "I use rocm-6.2 on Ubuntu 22.04.",
        "I use ROCm6.2 on Ubuntu 22.04.",
        "I use ROCm version 6.2 on Ubuntu 22.04.",
        "I use the ROCm 6.2 release on Ubuntu 22.04.",
    ],
)
def test_the_rocm_release_is_read_in_each_prose_spelling(text: str) -> None:
    assert rocm(text) == "6.2"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I run Ubuntu 22.04 with kernel 6.8.0-45-generic.", "6.8.0-45-generic"),
        ("I run Ubuntu 22.04 with linux 6.8.0-45-generic.", "6.8.0-45-generic"),
        ("I run Ubuntu 22.04 with the 6.8.0-45-generic kernel.", "6.8.0-45-generic"),
        ("I run Ubuntu 22.04 with kernel version 6.8.0-45-generic.", "6.8.0-45-generic"),
        ("AMDGPU/ROCm DKMS fails on Linux 6.15.8.", "6.15.8"),
        ("Ubuntu 24.04 + Linux 6.17 + ollama/ollama:rocm", "6.17"),
        ("Running Ubuntu 16.04, Linux 4.15", "4.15"),
        ("I already had Linux 6.8.0-40 in 22.04.", "6.8.0-40"),
        ("amdgpu-dkms fails to build for Linux 6.8.", "6.8"),
    ],
)
def test_the_kernel_is_read_when_called_linux_or_spelled_around_the_word(text: str, expected: str) -> None:
    assert kernel(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "On Rocky Linux 9.3 with ROCm 6.2 the GPU is missing.",
        "On Oracle Linux 8.10 the GPU is missing.",
        "We deploy on Red Hat Enterprise Linux 9.4.",
        "I am on Arch Linux 6.10 I think.",
        "on rocky linux 9.3 the GPU is missing.",
        "I'm on centos linux 7.9 with ROCm 5.4 and an MI100.",
        "I installed Docker Desktop for Linux 4.27.2 and ollama in a container with ROCm.",
        "I'm using Blender for Linux 4.2.1 with HIP on my RX 6800.",
        "It used to work on Linux 6.8 but now it fails.",
        "Should I use Linux 6.11?",
        "ROCm 6.4 supports Linux 6.8 and 6.11.",
        "I installed linux-6.8.0 headers.",
    ],
)
def test_a_distribution_release_or_another_kernel_state_is_not_read_as_the_running_kernel(text: str) -> None:
    assert kernel(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "Hi, I get errors when installing ROCm on Ubuntu 20.04.5 LTS with Kernel 5.14.0-1051-oem.",
        "Hi, I get errors when installing ROCm on Ubuntu 20.04.5 LTS with Linux 5.14.0-1051-oem.",
        "Hi, I get errors when installing ROCm on Ubuntu 20.04.5 LTS with the 5.14.0-1051-oem kernel.",
        "Hi, I get errors when installing ROCm on Ubuntu 20.04.5 LTS with kernel version 5.14.0-1051-oem.",
    ],
)
def test_rocm_not_installing_is_read_whichever_way_the_kernel_is_spelled(text: str) -> None:
    assert "rocm_install_fails_on_kernel_told" in signature_errors(text + "\n")


def test_an_install_failure_on_a_distribution_release_is_no_kernel_told() -> None:
    assert "rocm_install_fails_on_kernel_told" not in signature_errors("I get errors when installing ROCm on Rocky Linux 9.3.\n")


@pytest.mark.parametrize(
    "text",
    [
        "I am getting errors when installing ROCm 6.2 kernel modules with amdgpu-dkms on Ubuntu 22.04.",
        "Installing ROCm 6.1 kernel driver failed with an error on my RX 6800.",
    ],
)
def test_a_rocm_release_before_the_word_kernel_is_no_kernel_told(text: str) -> None:
    # "ROCm 6.2 kernel modules" is ROCm's driver, not a Linux 6.2 kernel the install failed on.
    assert "rocm_install_fails_on_kernel_told" not in signature_errors(text + "\n")


@pytest.mark.parametrize("spelling", ["ROCm 7.13", "ROCm v7.13", "rocm-7.13", "ROCm version 7.13"])
def test_a_torch_built_for_another_rocm_is_read_in_each_release_spelling(spelling: str) -> None:
    text = f"The nightly pulled wheels that were compiled with {spelling} and conflicted with the system ROCm 10.\n"
    assert "torch_rocm_differs_from_system_told" in signature_contexts(text)


def test_words_of_an_earlier_state_reach_across_a_wrapped_line_and_end_at_the_full_stop() -> None:
    text = (
        "My system is running Ubuntu 18.04 with default kernel (4.18), previously it ran\n"
        "fine on ROCm 2.1. Today I upgraded to ROCm 2.2 through apt and ROCK-dkms fails\n"
    )
    assert rocm(text) == "2.2"
    assert before_in_sentence(text, text.index("ROCm 2.1")).endswith("previously it ran fine on ")


def test_a_list_item_after_a_line_is_not_read_as_its_wrapped_sentence() -> None:
    text = "Things I tried before:\n- ROCm 6.2 from the apt repository\n"
    assert "\n" in before_in_sentence(text, text.index("ROCm 6.2"))


# --- the rewrite ---


def test_the_rewrite_cycles_through_the_rocm_and_kernel_spellings() -> None:
    text = "I installed ROCm 6.2 with kernel 6.8.0-45. Then ROCm 6.2 again, and ROCm 6.2 on kernel 6.8.0-45."
    assert rocm_kernel_spellings(text) == (
        "I installed ROCm v6.2 with Linux 6.8.0-45. Then rocm-6.2 again, and ROCm6.2 on the 6.8.0-45 kernel."
    )


@pytest.mark.parametrize(
    "line",
    [
        "Kernel: 6.8.0-45-generic",
        " * dkms: autoinstall for kernel 6.8.0-44-generic",
        "$ uname -r",
        "see https://repo.radeon.com/rocm/apt/6.2 for ROCm 6.2",
        "ROCm 6.2 release notes say so.",
    ],
)
def test_the_rewrite_leaves_program_output_urls_and_release_notes_as_they_are(line: str) -> None:
    assert rocm_kernel_spellings(line) == line


def test_the_rewrite_leaves_fenced_output_as_it_is() -> None:
    text = "```\nROCm 6.2 with kernel 6.8.0-45\n```"
    assert rocm_kernel_spellings(text) == text


def test_the_rewrite_names_the_x_kernel_only_after_a_word_of_use() -> None:
    text = "It fails on kernel 6.15.8. Compile kernel 6.15.8 and DKMS fails."
    assert "Compile the" not in rocm_kernel_spellings(text)
