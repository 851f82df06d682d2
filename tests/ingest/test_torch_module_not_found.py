"""Python's "No module named 'torch'" and where it was raised (block libs42, RD662/RD663).

The texts are written for the test in the shapes pip and Python print; the assertions are about the
signature and context read and the finding shown.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_contexts, signature_errors

_RUN = (
    "Traceback (most recent call last):\n"
    '  File "/srv/app/main.py", line 2, in <module>\n'
    "    import torch\n"
    "ModuleNotFoundError: No module named 'torch'\n"
)


@pytest.mark.parametrize(
    "missing",
    ["torch._C", "torchvision", "torchaudio", "torch_directml", "torch.utils.cpp_extension", "pytorch_lightning"],
)
def test_another_module_than_torch_itself_is_not_read_as_torch_missing(missing: str) -> None:
    assert "torch_module_not_found" not in signature_errors(f"ModuleNotFoundError: No module named '{missing}'\n")


def test_the_programs_own_run_without_torch_is_rd662() -> None:
    assert "torch_module_not_found" in signature_errors(_RUN)
    assert "RD662" in problems_shown(_RUN) and "RD663" not in problems_shown(_RUN)


@pytest.mark.parametrize(
    "build",
    [
        # a terminal: the spinner's status, then pip's error box
        "  Getting requirements to build wheel ... error\n  error: subprocess-exited-with-error\n",
        "  × Getting requirements to build editable did not run successfully.\n  │ exit code: 1\n",
        # a log without a terminal: the non-interactive spinner's line
        "  Getting requirements to build wheel: finished with status 'error'\n",
        # the hook runner's frame and a file of the build env's prefix
        '  File "/usr/lib/python3/site-packages/pip/_vendor/pyproject_hooks/_in_process/_in_process.py", line 353, in <module>\n',
        '  File "/tmp/pip-build-env-k2j4x9/overlay/lib/python3.10/site-packages/setuptools/build_meta.py", line 325, in run_setup\n',
    ],
)
def test_torch_missing_inside_a_failed_isolated_build_is_rd663(build: str) -> None:
    text = build + "  ModuleNotFoundError: No module named 'torch'\n"
    assert "pip_isolated_build_env" in signature_contexts(text)
    assert "RD663" in problems_shown(text) and "RD662" not in problems_shown(text)


@pytest.mark.parametrize(
    "install",
    [
        "  Getting requirements to build wheel ... done\n  Preparing metadata (pyproject.toml) ... done\n",
        "  Getting requirements to build wheel: finished with status 'done'\n",
        "Created temporary directory: /tmp/pip-build-env-k2j4x9\n",
    ],
)
def test_a_source_build_that_succeeded_leaves_the_programs_own_error_rd662(install: str) -> None:
    text = install + "Successfully installed antlr4-python3-runtime-4.9.3\n$ sudo python3 main.py\n" + _RUN
    assert "pip_isolated_build_env" not in signature_contexts(text)
    assert "RD662" in problems_shown(text) and "RD663" not in problems_shown(text)
