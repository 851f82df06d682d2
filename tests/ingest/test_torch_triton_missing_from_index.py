"""The pytorch-triton-rocm build a ROCm torch pins, missing from the index in use (tbuild57).

torch_triton_missing_from_index: astral-sh/uv#10712 (uv, the chain from pytorch-triton-rocm to torch),
pytorch/pytorch#118233 (pip, "(from torch==2.2.0+rocm5.7)"), Said-Akbar/triton-gcn5#5 (a nightly's pinned Triton
gone from the index). uv's following "only the following versions of torch are available" is not a missing torch.
rev57h: pip's requirement with its environment marker, triton-rocm (torch 2.10's ROCm wheels), not CUDA's Triton.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

UV_WRAPPED = (
    "  × No solution found when resolving dependencies for split (python_full_version ==\n"
    "  │ '3.11.*'):\n"
    "  ╰─▶ Because there is no version of pytorch-triton-rocm{python_full_version < '3.13'\n"
    "      and platform_machine == 'x86_64' and platform_system == 'Linux'}==3.1.0 and\n"
    "      torch==2.5.1+rocm6.2 depends on pytorch-triton-rocm{python_full_version < '3.13' and\n"
    "      platform_machine == 'x86_64' and platform_system == 'Linux'}==3.1.0, we can conclude\n"
    "      that torch==2.5.1+rocm6.2 cannot be used.\n"
    "      And because only the following versions of torch are available:\n"
    "          torch<2.5.1\n"
    "          torch==2.5.1+rocm6.2\n"
    "      we can conclude that torch>=2.5.1 cannot be used\n"
)


@pytest.mark.parametrize(
    "text",
    [
        UV_WRAPPED,
        "  ╰─▶ Because there is no version of pytorch-triton-rocm==3.1.0+cf34004b8a and"
        " torch==2.6.0.dev20241120+rocm6.2 depends on pytorch-triton-rocm==3.1.0+cf34004b8a, we can conclude",
        "  ╰─▶ Because pytorch-triton-rocm was not found in the package registry and torch==2.5.1+rocm6.2 depends on"
        " pytorch-triton-rocm==3.1.0, we can conclude that torch==2.5.1+rocm6.2 cannot be used.",
        "ERROR: Could not find a version that satisfies the requirement pytorch-triton-rocm==2.2.0 (from torch==2.2.0+rocm5.7)"
        " (from versions: 0.0.1, 0.0.2, 2.0.0, 2.0.1, 2.1.0)",
        "ERROR: No matching distribution found for pytorch-triton-rocm==2.2.0 (from torch==2.2.0+rocm5.7)",
        "ERROR: No matching distribution found for pytorch_triton_rocm==3.2.0+git4b3bb1f8 (from torch)",
        # rev57h: the requirement as the wheel states it, with its environment marker
        'ERROR: Could not find a version that satisfies the requirement pytorch-triton-rocm==3.1.0; platform_system =='
        ' "Linux" and platform_machine == "x86_64" and python_version < "3.13" (from torch) (from versions: none)',
        # rev57h: triton-rocm, the Triton package of the torch 2.10 ROCm wheels
        "  ╰─▶ Because there is no version of triton-rocm==3.6.0 and torch==2.10.0+rocm7.1 depends on triton-rocm==3.6.0,"
        " we can conclude that torch==2.10.0+rocm7.1 cannot be used.",
    ],
)
def test_a_missing_pinned_triton_is_read(text: str) -> None:
    assert "torch_triton_missing_from_index" in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        # pytorch-triton-rocm asked for on its own, not pulled in by torch
        "ERROR: No matching distribution found for pytorch-triton-rocm",
        "ERROR: Could not find a version that satisfies the requirement pytorch-triton-rocm (from versions: none)",
        # found and installed
        "Collecting pytorch-triton-rocm==3.1.0 (from torch==2.5.1+rocm6.2)",
        "Successfully installed pytorch-triton-rocm-3.1.0+cf34004b8a torch-2.6.0.dev20241113+rocm6.2",
        # a pure-Python dependency of torch (torch_dependency_missing_from_index) and torch itself
        "  ╰─▶ Because filelock was not found in the package registry and torch==2.9.0 depends on filelock, we can",
        "  ╰─▶ Because torch was not found in the package registry and you require torch, we can conclude",
        # advice about an error that may come
        "If you get 'No matching distribution found for pytorch-triton-rocm==2.2.0 (from torch==2.2.0+rocm5.7)' use the index",
        # rev57h: a question about the message
        "Will I get 'No matching distribution found for pytorch-triton-rocm==2.2.0 (from torch==2.2.0+rocm5.7)' with the wheel file?",
        # rev57h: the CUDA builds' Triton packages
        "ERROR: No matching distribution found for triton==3.1.0 (from torch)",
        "  ╰─▶ Because there is no version of pytorch-triton==3.0.0+45fff310c8 and torch==2.4.0.dev20240601+cu121 depends on"
        " pytorch-triton==3.0.0+45fff310c8, we can conclude that torch==2.4.0.dev20240601+cu121 cannot be used.",
        # rev57h: a dry run that found it
        "Would install filelock-3.13.1 pytorch-triton-rocm-3.1.0 torch-2.5.1+rocm6.2",
    ],
)
def test_other_lines_are_not_read_as_a_missing_pinned_triton(text: str) -> None:
    assert "torch_triton_missing_from_index" not in signature_errors(text)


def test_a_package_named_after_pytorch_is_not_read_as_a_missing_torch() -> None:
    line = "  ╰─▶ Because there is no version of pytorch-triton-rocm==3.1.0 and torch==2.5.1 depends on it, we can"
    assert "no_torch_for_this_python_resolver" not in signature_errors(line)
    assert "no_torch_for_this_python_resolver" in signature_errors("  ╰─▶ Because there is no version of torch==2.5.1, we")


def test_the_uv_chain_from_the_missing_triton_is_shown_as_an_index_gap_not_a_python_mismatch() -> None:
    assert problems_shown(UV_WRAPPED)[:1] == ["RD460"]
    assert "RD520" not in problems_shown(UV_WRAPPED)


@pytest.mark.parametrize("spaces", [" ", "  ", " \t"])
def test_the_cuda_torch_message_is_read_with_any_run_of_spaces(spaces: str) -> None:
    line = f"RuntimeError: Found no NVIDIA{spaces}driver on your system. Please check that you have an NVIDIA GPU"
    assert "found_no_nvidia_driver" in signature_errors(line)


def test_the_cuda_torch_message_is_not_read_across_lines() -> None:
    # rev57h: the runs of spaces are read within a line (or a wrapped message), not across separate lines
    assert "found_no_nvidia_driver" not in signature_errors("RuntimeError: Found no NVIDIA\n\ndriver on your system.")
