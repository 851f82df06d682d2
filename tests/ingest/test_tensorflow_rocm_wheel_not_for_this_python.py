"""pip (or uv) finds no tensorflow-rocm wheel for this Python (pkg61).

no_tensorflow_rocm_for_this_python: ROCm/tensorflow-upstream#2146 (Python 3.11 against tensorflow-rocm
2.11.1.550's cp38-cp310 wheels), ROCm/tensorflow-upstream#1385 (Python 3.9), ROCm/tensorflow-upstream#1215
(Python 3.9: pip -v skips every tensorflow_rocm wheel by its tags).
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors


@pytest.mark.parametrize(
    "line",
    [
        "ERROR: Could not find a version that satisfies the requirement tensorflow-rocm (from versions: none)",
        "ERROR: No matching distribution found for tensorflow-rocm",
        "ERROR: Could not find a version that satisfies the requirement tensorflow-rocm==2.16.1 (from versions: none)",
        "ERROR: Could not find a version that satisfies the requirement tensorflow_rocm==2.4.0 (from versions: none)",
        # uv's words for the same outcome (the metamorphic 'uv wording for pip' rewrite)
        "  ╰─▶ Because tensorflow-rocm was not found in the package registry and you require tensorflow-rocm, we can"
        " conclude that your requirements are unsatisfiable.",
    ],
)
def test_pip_finding_no_tensorflow_rocm_is_read(line: str) -> None:
    assert "no_tensorflow_rocm_for_this_python" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        # another package: TensorFlow's own build, a nightly project, another index's dependency chain
        "ERROR: No matching distribution found for tensorflow",
        "ERROR: No matching distribution found for tensorflow-rocm-nightly",
        "Because there is no version of tensorflow-cpu-aws==2.14.0.600 and tensorflow-rocm==2.14.0.600 depends on "
        "tensorflow-cpu-aws==2.14.0.600, we can conclude that tensorflow-rocm==2.14.0.600 cannot be used.",
        # a release that was never published while others fit this Python: pip lists them, so the pin is at fault
        "ERROR: Could not find a version that satisfies the requirement tensorflow-rocm==2.12.1 (from versions: "
        "2.10.0.520, 2.11.0.540, 2.11.1.550)",
        "ERROR: No matching distribution found for tensorflow-rocm==2.12.1",
        "  ╰─▶ Because there is no version of tensorflow-rocm==2.12.1.570 and you require tensorflow-rocm==2.12.1.570",
        # the error told as past, or asked about
        'I used to get "ERROR: No matching distribution found for tensorflow-rocm" but now it works with Python 3.10',
        'Why does pip say "No matching distribution found for tensorflow-rocm"?',
        "Successfully installed tensorflow-rocm-2.14.0.600",
    ],
)
def test_other_packages_and_retold_errors_are_not_read(line: str) -> None:
    assert "no_tensorflow_rocm_for_this_python" not in signature_errors(line)


_PIP_NONE = (
    "ERROR: Could not find a version that satisfies the requirement tensorflow-rocm (from versions: none)\n"
    "ERROR: No matching distribution found for tensorflow-rocm\n"
)


# rev62: the install shown done later in the report, the fix told, or the message only asked about
@pytest.mark.parametrize(
    "text",
    [
        "Python 3.11.4\n```\n$ pip install tensorflow-rocm\n" + _PIP_NONE + "```\nA venv with Python 3.10 then:\n```\n"
        "$ pip install tensorflow-rocm\nSuccessfully installed tensorflow-rocm-2.11.1.550\n```\n",
        "Python 3.11.4\n```\n$ pip install tensorflow-rocm\n" + _PIP_NONE + "```\nFixed it by using Python 3.10, now it works.\n",
        "Python 3.11. Does 'Could not find a version that satisfies the requirement tensorflow-rocm (from versions: none)' "
        "mean there is no wheel for my Python\n",
    ],
    ids=["installed later", "works now after a fix", "asked without its mark"],
)
def test_no_tensorflow_rocm_wheel_resolved_later_or_only_asked_is_not_reported(text: str) -> None:
    shown = problems_shown(text)
    assert "RD190" not in shown and "RD191" not in shown
