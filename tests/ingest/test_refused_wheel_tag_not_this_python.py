"""A wheel pip refuses here names another Python: its cpXY tag is not the interpreter's version.

pip's "X.whl is not a supported wheel on this platform." and "Skipping link: none of the wheel's tags match: cp38-..."
say the wheel does NOT fit this interpreter (microsoft/DirectML#544, evshiron/rocm_lab#6,
ROCm/tensorflow-upstream#1215), so reading its tag as python.version turned a known Python into a conflict.
"""

from __future__ import annotations

import pytest

from rocm_doctor.ingest import ingest_text

REFUSED = [
    "ERROR: torch_directml-0.2.0.dev230426-cp310-cp310-win_amd64.whl is not a supported wheel on this platform.",
    "ERROR: torch-2.0.1+gite19229c-cp310-cp310-linux_x86_64.whl is not a supported wheel on this platform.",
    "  Skipping link: none of the wheel's tags match: cp38-cp38-manylinux1_x86_64: "
    "https://files.pythonhosted.org/packages/10/05/abc/tensorflow_rocm-2.3.1-cp38-cp38-manylinux1_x86_64.whl",
]


@pytest.mark.parametrize("line", REFUSED)
def test_a_refused_wheels_tag_is_not_read_as_the_python(line: str) -> None:
    assert not ingest_text(line).facts.python.version.is_known


@pytest.mark.parametrize("line", REFUSED)
def test_the_python_shown_beside_a_refused_wheel_stays_known(line: str) -> None:
    version = ingest_text("Python 3.11.3\n" + line).facts.python.version
    assert version.is_known and version.value == "3.11.3"


def test_a_downloaded_wheels_tag_still_names_the_installing_python() -> None:
    # pip downloads only wheels whose tags fit the interpreter: this tag is the machine's Python
    text = "Downloading https://download.pytorch.org/whl/rocm6.2/torch-2.5.1%2Brocm6.2-cp310-cp310-linux_x86_64.whl (3.1 GB)"
    version = ingest_text(text).facts.python.version
    assert version.is_known and version.value == "3.10"
