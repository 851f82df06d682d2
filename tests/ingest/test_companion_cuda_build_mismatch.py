"""torchvision's and torchaudio's own check that they and torch were compiled for different CUDA releases
(rules/data/signatures.yaml companion_cuda_build_mismatch, RD576; pkg46)."""

from __future__ import annotations

import pytest
from ingest_helpers import block

from rocm_doctor.ingest.signatures import match_block


def _ids(text: str) -> list:
    return [p.kind.split(":", 1)[1] for p in match_block(block(text)) if p.kind.startswith("error:")]


@pytest.mark.parametrize(
    "text",
    [
        # torchvision before 0.15 (minor releases compared)
        "RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA versions. PyTorch has CUDA Version=11.7 and torchvision has CUDA Version=11.8. Please reinstall the torchvision that matches your PyTorch install.",
        # torchvision since 0.15 (major releases only)
        "RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major versions. PyTorch has CUDA Version=12.1 and torchvision has CUDA Version=11.8.",
        # torchaudio's wording
        "RuntimeError: Detected that PyTorch and TorchAudio were compiled with different CUDA versions. PyTorch has CUDA version 11.8 whereas TorchAudio has CUDA version 11.7.",
        # the message wrapped by a terminal or a notebook at 80 columns
        "RuntimeError: Detected that PyTorch and torchvision were compiled with different\nCUDA versions. PyTorch has CUDA Version=11.7 and torchvision has CUDA \nVersion=11.8. Please reinstall the torchvision that matches your PyTorch \ninstall.",
    ],
)
def test_companion_cuda_release_check_is_read(text: str) -> None:
    assert "companion_cuda_build_mismatch" in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        # torch's own extension-build check compares the system CUDA toolkit, not a companion package
        "RuntimeError: The detected CUDA version (11.8) mismatches the version that was used to compile PyTorch (12.4). Please make sure to use the same CUDA versions.",
        "RuntimeError: operator torchvision::nms does not exist",
    ],
)
def test_other_cuda_version_messages_are_not_the_companion_check(text: str) -> None:
    assert "companion_cuda_build_mismatch" not in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n    PyTorch 2.2.0+cu121 with CUDA 1201 (you have 2.3.0+cu121)\n    Python  3.10.13 (you have 3.10.12)",
        "    PyTorch 2.5.1+rocm6.1 with CUDA None (you have 2.4.1+rocm6.1)",
        "    PyTorch 1.12.0+cu116 with CUDA 1102 (you have 1.13.1+cu117)",
        "    PyTorch 2.1.0 with CUDA 1201 (you have 2.1.1)",
    ],
)
def test_xformers_built_for_another_torch_release_is_read(text: str) -> None:
    assert "xformers_built_for_other_torch_release" in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        # the same release on both sides: another failure (or the flavour row)
        "    PyTorch 2.5.1+cu124 with CUDA 1204 (you have 2.5.1+rocm6.2)",
        "    PyTorch 2.0.1 with CUDA 1106 (you have 2.0.1)",
        # a CPU build of torch on the right is a CPU torch, read from its version
        "    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)",
        "    PyTorch 2.2.0+cu121 with CUDA 1201 (you have 2.3.0+cpu)",
        # a release that only starts like the other
        "    PyTorch 2.1.1+cu121 with CUDA 1201 (you have 2.1.1+cu118)",
        # the same release with a two-digit patch on both sides (the built-for release is read whole)
        "    PyTorch 2.5.10+cu121 with CUDA 1201 (you have 2.5.10+cu121)",
    ],
)
def test_xformers_same_release_or_cpu_torch_is_not_another_release(text: str) -> None:
    assert "xformers_built_for_other_torch_release" not in _ids(text)


@pytest.mark.parametrize(
    "causes",
    [
        ["The user requested torch==2.0.0", "torchvision 0.15.1+cu118 depends on torch==2.0.0", "xformers 0.0.26.post1 depends on torch==2.3.0"],
        # pip lists the causes in its resolver's order: the companion's pin may come first
        ["torchvision 0.15.2 depends on torch==2.0.1", "The user requested torch==1.13.0"],
        ["The user requested torch==2.2.1+cu118", "torchvision 0.16.1+cu118 depends on torch==2.1.1+cu118"],
    ],
)
def test_pip_resolver_conflict_with_a_companion_pinning_another_torch_is_read(causes: list) -> None:
    text = "ERROR: Cannot install torch because these package versions have conflicting dependencies.\n\nThe conflict is caused by:\n"
    text += "".join(f"    {cause}\n" for cause in causes)
    assert "resolver_companion_pins_other_torch" in _ids(text)


@pytest.mark.parametrize(
    "causes",
    [
        # the companion pins the release asked for: the conflict is elsewhere (here a constraint, another package)
        ["The user requested torch==2.0.1", "torchvision 0.15.2 depends on torch==2.0.1", "The user requested (constraint) torch==2.1.0"],
        ["The user requested numpy==1.21", "The user requested torch==2.0.1", "torchvision 0.15.2 depends on torch==2.0.1", "scipy 1.11.0 depends on numpy>=1.22"],
        ["The user requested torch==2.1.0+rocm5.6", "torchvision 0.16.0+rocm5.6 depends on torch==2.1.0+rocm5.6"],
        # no release asked for: the companions' pins conflict with each other, not with the torch requested
        ["The user requested torch", "torchvision 0.15.2 depends on torch==2.0.1", "xformers 0.0.22 depends on torch==2.1.0"],
        ["The user requested torch>=2.0", "torchvision 0.15.2 depends on torch==2.0.1", "The user requested (constraint) torch==2.1.0"],
    ],
)
def test_resolver_conflict_whose_companion_pins_the_torch_requested_is_not_read(causes: list) -> None:
    text = "ERROR: Cannot install torch because these package versions have conflicting dependencies.\n\nThe conflict is caused by:\n"
    text += "".join(f"    {cause}\n" for cause in causes)
    assert "resolver_companion_pins_other_torch" not in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        # torch's own dependencies in pip's listing
        "The conflict is caused by:\n    The user requested torch==2.4.1\n    torch 2.4.1 depends on nvidia-cudnn-cu12==9.1.0.70\n",
        # a companion's other requirements
        "The conflict is caused by:\n    The user requested numpy==2.1\n    torchvision 0.25.0+rocm7.12.0a20260222 depends on numpy\n",
        # "depends on torch" without pip's conflict explanation
        "our plugin 1.2 depends on torch==2.5.1 and we document it",
    ],
)
def test_other_dependency_lines_are_not_a_companion_pin(text: str) -> None:
    assert "resolver_companion_pins_other_torch" not in _ids(text)
