"""NumPy's and Cython's messages for a compiled module built against another NumPy C ABI than the numpy
installed (rules/data/signatures.yaml numpy_abi_mismatch, RD874; envtrm49).

Shapes from real reports: NumPy 2's "A module that was compiled using NumPy 1.x cannot be run in NumPy 2.x"
(1984Doc/AI-Scribe#6, spyder-ide/spyder#23561, ompl/ompl#1225), "_ARRAY_API not found" alone or in torch's
warning (Xilinx/mlir-air#608, lpiccinelli-eth/UniDepth#58), the C-API check (zju3dv/NeuralRecon#147,
moble/quaternion#176) and Cython's size check (ONSdigital/csvcubed#913, mjhydri/BeatNet#6).
"""

from __future__ import annotations

import pytest
from ingest_helpers import block

from rocm_doctor.ingest.signatures import match_block


def _ids(text: str) -> list:
    return [p.kind.split(":", 1)[1] for p in match_block(block(text)) if p.kind.startswith("error:")]


@pytest.mark.parametrize(
    "text",
    [
        # NumPy 2's message, as a terminal wraps it
        "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.0 as it may crash. To support both 1.x and 2.x\nversions of NumPy, modules must be compiled with NumPy 2.0.",
        # the same message unwrapped, as an issue title quotes it
        "A module that was compiled using NumPy 1.x cannot be run in NumPy 2.1.0 as it may crash.",
        "AttributeError: _ARRAY_API not found",
        "UserWarning: Failed to initialize NumPy: _ARRAY_API not found (Triggered internally at ../torch/csrc/utils/tensor_numpy.cpp:84.)",
        "RuntimeError: module compiled against API version 0x10 but this version of numpy is 0xe",
        "RuntimeError: module compiled against ABI version 0x1000009 but this version of numpy is 0x2000000",
        "ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject",
        "ValueError: numpy.ndarray size changed, may indicate binary incompatibility. \nExpected 96 from C header, got 88 from PyObject!",
    ],
)
def test_a_module_built_for_another_numpy_abi_is_read(text: str) -> None:
    assert "numpy_abi_mismatch" in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        # numpy missing or another numpy failure: no ABI is named
        "RuntimeError: Numpy is not available",
        "ModuleNotFoundError: No module named 'numpy'",
        # a version mentioned in passing
        "I have numpy 1.26.4 and torch 2.2.2 installed.",
        "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 3.00 GiB for an array",
    ],
)
def test_other_numpy_messages_are_not_an_abi_mismatch(text: str) -> None:
    assert "numpy_abi_mismatch" not in _ids(text)



@pytest.mark.parametrize(
    "text",
    [
        "If you get 'AttributeError: _ARRAY_API not found', downgrade numpy.",
        "I used to get 'A module that was compiled using NumPy 1.x cannot be run in NumPy 2.0.0', now it works.",
    ],
)
def test_the_message_as_advice_or_as_the_past_is_not_read(text: str) -> None:
    assert "numpy_abi_mismatch" not in _ids(text)


@pytest.mark.parametrize(
    "text",
    [
        # rev49b: a module of a later NumPy 1.x beside an older 1.x (Cython's size check, the C-API check): no
        # NumPy 2 anywhere, so neither 'a major release' nor 'pip install numpy<2' holds
        "  File \"pandas/_libs/interval.pyx\", line 1, in init pandas._libs.interval\n"
        "ValueError: numpy.ndarray size changed, may indicate binary incompatibility. Expected 88 from C header, got 80 from PyObject\n"
        "numpy                     1.19.5\npandas                    1.3.0\n",
        "RuntimeError: module compiled against API version 0xf but this version of numpy is 0xe\nnumpy 1.19.5\n",
    ],
)
def test_a_module_for_a_newer_numpy_1_x_gets_no_numpy_1_command_nor_a_major_release(text: str) -> None:
    from rocm_doctor.ingest import ingest_text
    from rocm_doctor.judge.loader import load_rules
    from rocm_doctor.pipeline import evaluate

    rules = load_rules([], use_env=False)
    findings = [f for f in evaluate(rules, ingest_text(text).facts).findings if f.id == "RD874"]
    assert findings
    rule = next(r for r in rules if r.id == "RD874")
    assert "major release" not in rule.message
    assert all(f.kind == "manual" for f in rule.fixes)
