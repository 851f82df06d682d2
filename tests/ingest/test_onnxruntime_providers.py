"""onnxruntime's list of available execution providers is fixed when the package is built
(get_execution_providers.cc at 08dc5afa: USE_ROCM / USE_MIGRAPHX / USE_CUDA), so a list without AMD's providers on an
AMD machine names the wrong onnxruntime package (the CPU or the CUDA one), not a GPU or driver fault (RD574). The
construct: huggingface/optimum#2388, C0untFloyd/roop-unleashed#740, ROCm/legacy-rocm-build#6294. Assertions are about
signatures and finding categories, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, report_contexts, serious_findings

_WARNING = (
    "UserWarning: Specified provider '{asked}' is not in available provider names."
    "Available providers: '{listed}'"
)


@pytest.mark.parametrize(
    "text",
    [
        _WARNING.format(asked="ROCMExecutionProvider", listed="TensorrtExecutionProvider, CUDAExecutionProvider, CPUExecutionProvider"),
        _WARNING.format(asked="MIGraphXExecutionProvider", listed="AzureExecutionProvider, CPUExecutionProvider"),
        ">>> import onnxruntime as ort; ort.get_available_providers()\n['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'CPUExecutionProvider']",
    ],
)
def test_an_onnxruntime_without_amd_providers_on_an_amd_gpu_is_a_build_finding(text: str) -> None:
    report = f"RX 6800 XT on Ubuntu 22.04.\n{text}\n"
    assert "onnxruntime_without_amd_provider" in (ingest(report).facts.symptoms.signatures.value or [])
    assert [category for _, _, category in serious_findings(report)][:1] == ["torch-build"]


@pytest.mark.parametrize(
    "text",
    [
        # the build has AMD's providers: a failure there is another cause
        _WARNING.format(asked="ROCMExecutionProvider", listed="MIGraphXExecutionProvider, CPUExecutionProvider"),
        ">>> ort.get_available_providers()\n['MIGraphXExecutionProvider', 'ROCMExecutionProvider', 'CPUExecutionProvider']",
        # CUDA's provider asked for and missing says nothing of an AMD build
        _WARNING.format(asked="CUDAExecutionProvider", listed="AzureExecutionProvider, CPUExecutionProvider"),
    ],
)
def test_an_onnxruntime_with_amd_providers_or_asked_for_cuda_sets_no_build_signature(text: str) -> None:
    report = f"RX 6800 XT on Ubuntu 22.04.\n{text}\n"
    assert "onnxruntime_without_amd_provider" not in (ingest(report).facts.symptoms.signatures.value or [])


def test_the_missing_provider_on_an_nvidia_machine_is_no_wrong_build_error() -> None:
    report = "RTX 4090 on Ubuntu 22.04.\n" + _WARNING.format(asked="ROCMExecutionProvider", listed="CUDAExecutionProvider, CPUExecutionProvider") + "\n"
    assert "error" not in [severity for _, severity, _ in serious_findings(report)]


@pytest.mark.parametrize(
    "listed",
    [
        "DmlExecutionProvider, CPUExecutionProvider",  # onnxruntime-directml: runs on the Radeon under Windows
        "VitisAIExecutionProvider, CPUExecutionProvider",  # AMD's Ryzen AI (NPU) build
    ],
)
def test_a_provider_list_with_an_amd_capable_provider_is_no_cpu_or_cuda_build(listed: str) -> None:
    report = "RX 7900 XTX, Windows 11.\n" + _WARNING.format(asked="ROCMExecutionProvider", listed=listed) + "\n"
    assert "onnxruntime_without_amd_provider" not in (ingest(report).facts.symptoms.signatures.value or [])


@pytest.mark.parametrize(
    "text",
    [
        "Before I switched to onnxruntime-rocm, get_available_providers() gave ['CUDAExecutionProvider', 'CPUExecutionProvider']. Now it lists ROCMExecutionProvider.",
        "On my NVIDIA laptop ort.get_available_providers() returns ['CUDAExecutionProvider', 'CPUExecutionProvider'], on this box the app hangs.",
    ],
)
def test_a_provider_list_told_in_prose_of_another_time_or_machine_sets_no_build_signature(text: str) -> None:
    report = f"RX 6800 XT on Ubuntu 22.04.\n{text}\n"
    assert "onnxruntime_without_amd_provider" not in (ingest(report).facts.symptoms.signatures.value or [])


# learn54d: the reporter's words that the program offers no AMD execution provider to choose (roop-style apps list
# onnxruntime.get_available_providers() as their choices): C0untFloyd/roop-unleashed#740, #625, #642, #348,
# hacksider/Deep-Live-Cam#1292. RD586 (a warning: the list is retold, not printed).
@pytest.mark.parametrize(
    "line",
    [
        "There is no ROCm provider available for me to choose from the Setting tab :(",
        "dml still isn't there, there's just tensort, cuda and cpu.",
        "Dml isn't in the drop down box in the launcher.",
        "UI not showing up DirectML as option for AMD GPU",
        "When I open the settings tab, directml is not visible.",
        "i dont have the option to use direct ml what do i do i have tensort cpu and cuda",
    ],
)
def test_no_amd_provider_offered_told_on_an_amd_gpu_is_a_build_finding(line: str) -> None:
    report = f"RX 6700 XT, Windows 11.\n{line}\n"
    assert "amd_execution_provider_not_offered_told" in report_contexts(report)
    assert [category for _, _, category in serious_findings(report)][:1] == ["torch-build"]


@pytest.mark.parametrize(
    "line",
    [
        # a package, a feature's support, a verb of another sense
        "torch-directml is missing from the venv.",
        "DirectML is not supported for training.",
        "DirectML doesn't appear to work on Linux.",
        # a question, a condition or advice
        "Why isn't DML showing up?",
        "If dml is not in the list, install onnxruntime-directml.",
        "You should check whether DML shows up in the settings.",
        # rev54d: a feature request, a provider not needed, a changelog line
        "Would you add a ROCm provider? There is no ROCm provider yet.",
        "No ROCm provider needed, I use DirectML and it works great.",
        "Changelog: fixed DirectML provider is missing from the list.",
    ],
)
def test_a_package_a_feature_a_question_or_advice_is_no_missing_provider_told(line: str) -> None:
    assert "amd_execution_provider_not_offered_told" not in report_contexts(f"RX 6700 XT, Windows 11.\n{line}\n")


def test_no_amd_provider_offered_on_an_nvidia_machine_is_no_build_finding() -> None:
    report = "RTX 4060, Windows 11.\ndml still isn't there, there's just tensort, cuda and cpu.\n"
    assert not any(found[0] == "RD586" for found in serious_findings(report))


# rev54d: DirectML is Windows-only (onnxruntime-directml), so its absence said of Linux, or beside an AMD provider
# the same line names, says nothing of a CPU or CUDA onnxruntime.
@pytest.mark.parametrize(
    "line",
    [
        "DirectML provider is missing on Linux.",
        "There is no DirectML provider for Linux, so I use ROCm.",
        "I installed onnxruntime-rocm. There is no DirectML provider, but ROCMExecutionProvider works.",
    ],
)
def test_no_directml_said_of_linux_or_beside_an_amd_provider_is_no_missing_provider_told(line: str) -> None:
    report = f"RX 7900 XTX on Ubuntu 22.04 with ROCm 6.2.\n{line}\n"
    assert "amd_execution_provider_not_offered_told" not in report_contexts(report)
    assert not any(found[0] == "RD586" for found in serious_findings(report))
