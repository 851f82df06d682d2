"""A Windows PyTorch back end's own limits, read from pastes (learn53a, RD888-RD889).

The wordings are the forms seen in several public reports (the signature rows cudnn_call_failed and
privateuse1_operator_missing in rules/data/signatures.yaml name them); none is one report's whole text.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_contexts, signature_errors


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR",
        "When trying to generate audio it crashes with CUDNN_STATUS_INTERNAL_ERROR",
        "cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a non-contiguous input.",
        "cuDNN Frontend error: [cudnn_frontend] Error: No execution plans support the graph.",
    ],
)
def test_a_failed_cudnn_call_is_read_in_its_wordings(line: str) -> None:
    assert "cudnn_call_failed" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "torch.backends.cudnn.enabled = False",
        "cuDNN version: 8700",
        "[pip3] nvidia-cudnn-cu12==9.1.0.70",
        "print(f\"cuDNN Enabled: {torch.backends.cudnn.enabled}\")",
    ],
)
def test_cudnn_named_without_a_failure_is_not_read_as_one(line: str) -> None:
    assert "cudnn_call_failed" not in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "NotImplementedError: Could not run 'c10d::broadcast_' with arguments from the 'AutogradPrivateUse1' backend.",
        "NotImplementedError: Could not run 'aten::empty.memory_format' with arguments from the 'SparsePrivateUse1' backend.",
        "NotImplementedError: Could not run 'aten::empty_strided' with arguments from the 'PrivateUse1' backend.",
        "RuntimeError: Could not run 'aten::masked_select' with arguments from the 'UNKNOWN_TENSOR_TYPE_ID' backend.",
        "RuntimeError: new(): expected key in DispatchKeySet(CPU, CUDA, HIP, XLA, MPS, IPU, XPU, HPU, Lazy, Meta) but got: PrivateUse1",
        # learn53h: the older pytorch-directml (1.8.0a0) names its own key 'DML'
        "RuntimeError: Could not run 'aten::normal_' with arguments from the 'DML' backend. This could be because the operator doesn't exist for this backend",
        "Error Could not run 'aten::prelu' with arguments from the 'DML' backend.",
    ],
)
def test_an_operator_missing_for_the_plug_in_backend_is_read_in_its_wordings(line: str) -> None:
    assert "privateuse1_operator_missing" in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        # torchvision's operator without a GPU kernel is a companion built without GPU code (RD581), not DirectML
        "NotImplementedError: Could not run 'torchvision::nms' with arguments from the 'CUDA' backend.",
        "Could not run 'aten::_foo' with arguments from the 'CPU' backend.",
        "NotImplementedError: Could not run 'aten::_foo' with arguments from the 'XLA' backend.",
        # the key named without an operator failing
        "tensor1 = torch.tensor([1]).to('dml')  # the 'DML' backend works for this",
        # DirectML's CPU fallback is a warning, not a missing operator
        "UserWarning: The operator 'aten::native_dropout' is not currently supported on the DML backend and will fall back to run on the CPU.",
    ],
)
def test_other_backends_and_cpu_fallbacks_are_not_read_as_a_plug_in_operator_missing(line: str) -> None:
    assert "privateuse1_operator_missing" not in signature_errors(line)


ZLUDA_CUDNN = (
    "GPU is RX 6800 on Windows 11, running ComfyUI through ZLUDA with the HIP SDK 6.2.\n"
    "Sampling stops with:\n"
    "RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR\n"
)


def test_a_cudnn_failure_under_zluda_on_windows_is_the_first_problem_shown() -> None:
    assert problems_shown(ZLUDA_CUDNN)[:1] == ["RD888"]


@pytest.mark.parametrize(
    "text",
    [
        # an NVIDIA machine: the same words, no ZLUDA
        "RTX 3090, Windows 11, torch 2.3.1+cu121.\nRuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR\n",
        # ZLUDA on Linux has MIOpen behind its cuDNN
        "Ubuntu 22.04, ROCm 6.2, running the program through ZLUDA.\nRuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR\n",
        # ZLUDA denied
        "Windows 11, RX 7900 XTX, I am not using ZLUDA, this is the ROCm torch.\nRuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR\n",
        # rev53a: ZLUDA only in passing (a link to its repository, tried once) beside an NVIDIA card
        "See https://github.com/vosen/ZLUDA for AMD; my card is an RTX 2080.\nWindows 11.\nRuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR\n",
        "I tried ZLUDA last year but switched to DirectML now. GPU: RTX 3060.\nRuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR\n",
    ],
)
def test_a_cudnn_failure_without_zluda_on_windows_is_not_put_on_zluda(text: str) -> None:
    assert "RD888" not in problems_shown(text)


DML_MISSING = (
    "import torch_directml\n"
    "dml = torch_directml.device()\n"
    "NotImplementedError: Could not run 'c10d::broadcast_' with arguments from the 'AutogradPrivateUse1' backend. "
    "This could be because the operator doesn't exist for this backend.\n"
)


def test_an_operator_missing_on_torch_directml_is_the_first_problem_shown() -> None:
    assert problems_shown(DML_MISSING)[:1] == ["RD889"]


# learn53h: a training loop on the older pytorch-directml, which never spells DirectML out (the shape of
# microsoft/DirectML#307, #322, #337): the 'DML' key names it
OLD_DML_MISSING = (
    "loss = loss_function(y_pred, y)\n"
    "loss.backward()\n"
    "RuntimeError: Could not run 'aten::_softmax_backward_data' with arguments from the 'DML' backend. "
    "This could be because the operator doesn't exist for this backend.\n"
)


def test_an_operator_missing_on_the_older_pytorch_directml_is_the_first_problem_shown() -> None:
    assert problems_shown(OLD_DML_MISSING)[:1] == ["RD889"]


def test_the_older_pytorch_directml_key_names_directml() -> None:
    assert "directml_named" in signature_contexts("Could not run 'aten::prelu' with arguments from the 'DML' backend.")
    assert "directml_named" not in signature_contexts("Could not run 'aten::prelu' with arguments from the 'XLA' backend.")


@pytest.mark.parametrize(
    "text",
    [
        # another plug-in backend (an NPU) uses the same key
        "import torch_npu\nNotImplementedError: Could not run 'aten::foo' with arguments from the 'PrivateUse1' backend.\n",
        # torch-directml's CPU fallback warning is not an operator failure
        "import torch_directml\nUserWarning: The operator 'aten::multinomial' is not currently supported on the DML backend and will fall back to run on the CPU.\n",
    ],
)
def test_no_directml_operator_finding_without_directml_or_without_a_failure(text: str) -> None:
    assert "RD889" not in problems_shown(text)


@pytest.mark.parametrize(
    "line",
    [
        "torch-directml 0.2.5 changelog: fixed \"Could not run 'aten::masked_select' with arguments from the 'PrivateUse1' backend\".",
        "The CUDNN_STATUS_INTERNAL_ERROR was fixed by disabling cuDNN, now it works",
        "Release notes: fixed in 3.9.2, cuDNN error: CUDNN_STATUS_NOT_SUPPORTED on Conv3d",
    ],
)
def test_an_error_told_as_fixed_or_in_a_changelog_is_not_read_as_current(line: str) -> None:
    errors = signature_errors(line)
    assert "cudnn_call_failed" not in errors and "privateuse1_operator_missing" not in errors
