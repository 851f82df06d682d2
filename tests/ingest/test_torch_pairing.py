"""torch's ROCm build beside the system's ROCm, and torchvision beside torch, as reports say them
(issue 23, classes torch_rocm_mismatch and package_mismatch; rules/torch_pairing.yaml, RD820).

The texts are written for the test in the shapes of real reports (named per case), not copied from one.
"""

from __future__ import annotations

import pytest
from ingest_helpers import signature_errors

from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


def _problem_ids(text: str) -> list:
    return [f.id for f in evaluate(load_rules([], use_env=False), ingest_text(text).facts).findings if f.severity in ("error", "warning")]


@pytest.mark.parametrize(
    "text",
    [
        # the torch build named after the package, the system's release after "installed" / "with"
        "I have ROCm 5.7 installed and installed pytorch rocm5.6. Stable diffusion crashes with a segfault.\n",
        "Using pytorch rocm5.6 with ROCm 6.1 on Ubuntu 22.04, the GPU is not used.\n",
        # the index the torch came from (pytorch/pytorch#118457: a rocm6.0 nightly wheel on /opt/rocm-6.0.1)
        "ROCm 6.1 is installed. I installed torch from the rocm6.0 nightly index and it fails.\n",
        # a tagged torch beside a system release (AUTOMATIC1111/stable-diffusion-webui#15464's shape)
        "torch==2.0.1+rocm5.4.2 on a system with ROCm 5.7.2 segfaults\n",
    ],
)
def test_a_report_of_torch_built_for_another_rocm_than_the_systems_gets_the_mismatch_finding(text: str) -> None:
    assert "RD580" in _problem_ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "I have ROCm 6.2 installed and installed pytorch rocm6.2.\n",
        # a comma lists the stack's parts: one release, the system's
        "torch, ROCm 6.2, Ubuntu 22.04, RX 7900 XTX\n",
        # the torch build alone: nothing to compare
        "I installed pytorch from the rocm6.2 index.\n",
    ],
)
def test_no_mismatch_finding_without_two_different_releases(text: str) -> None:
    assert "RD580" not in _problem_ids(text)


def test_the_mismatch_finding_reads_after_a_finding_that_names_a_cause() -> None:
    # RD533 explains the crash in the runtime; RD580 is the weak reading and comes after it
    text = "torch 2.0.1+rocm5.4.2 on rocm-runtime-5.7.2\n#0  0x00007fff610f67c9 in rocr::AMD::hsa_amd_memory_lock_to_pool(void*, unsigned long,\n"
    shown = _problem_ids(text)
    assert "RD580" in shown and shown.index("RD580") > 0


def test_torchvisions_couldnt_load_custom_ops_is_read_as_a_torchvision_built_for_another_torch() -> None:
    text = (
        "RuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and torchvision versions are incompatible, "
        "or if you had errors while compiling torchvision from source.\n"
    )
    assert "torchvision_custom_ops_not_loaded" in signature_errors(text)
    assert "RD820" in _problem_ids(text)


@pytest.mark.parametrize(
    "text, series",
    [
        (">>> import torch\n>>> torch.version.hip\n'5.6.31061-8c743ae5d'\n", "5.6"),
        ('$ python -c "import torch; print(torch.version.hip)"\n6.2.41133-dd7f95766\n', "6.2"),
    ],
)
def test_torch_version_hip_printed_gives_the_rocm_series_torch_was_built_for(text: str, series: str) -> None:
    # the same reading collect_env's "ROCM used to build PyTorch" gets (knowledge.torch_static.rocm_version)
    assert ingest_text(text).facts.torch.rocm_version.value == series


def test_a_report_printing_torch_version_hip_beside_another_system_rocm_gets_the_mismatch_finding() -> None:
    assert "RD580" in _problem_ids("ROCm 6.0 is installed.\n\n>>> import torch\n>>> torch.version.hip\n'5.6.31061-8c743ae5d'\n")


@pytest.mark.parametrize(
    "line",
    [
        "torchvision 0.25.0 has requirement torch==2.10.0, but you have torch 2.12.1.\n",
        "torchaudio 2.4.1+rocm6.1 has requirement torch==2.4.1, but you have torch 2.5.1+rocm6.2.\n",
    ],
)
def test_pip_checks_wording_of_a_companion_pinned_to_another_torch_is_read(line: str) -> None:
    assert "companion_pins_other_torch_pip_check" in signature_errors(line)
    assert "RD828" in _problem_ids(line)


def test_pip_check_naming_another_package_than_torch_is_not_read() -> None:
    assert "companion_pins_other_torch_pip_check" not in signature_errors("google-colab 1.0.0 has requirement pandas==2.2.2, but you have pandas 3.0.3.\n")


def test_a_torchvision_operator_without_a_gpu_kernel_is_read_as_a_companion_without_gpu_code() -> None:
    text = (
        "NotImplementedError: Could not run 'torchvision::nms' with arguments from the 'CUDA' backend. This could be because "
        "the operator doesn't exist for this backend. 'torchvision::nms' is only available for these backends: [CPU, Meta, QuantizedCPU].\n"
    )
    assert "torchvision_op_without_gpu_kernel" in signature_errors(text)
    assert _problem_ids(text)[0] == "RD581"


@pytest.mark.parametrize(
    "text",
    [
        # a question, a wish, a denial and the past name no torch in use
        "I have ROCm 5.7 installed. Should I install pytorch for rocm6.0?\n",
        "I have ROCm 5.7 installed. Do I need the rocm6.0 wheels?\n",
        "ROCm 5.7 is installed. I want to try the rocm6.0 nightly.\n",
        "ROCm 5.7 is installed. Before, I used pytorch rocm5.6 and it worked.\n",
        "I have ROCm 5.7 installed. I did not install torch for rocm6.0, I used the rocm5.7 index.\n",
    ],
)
def test_a_torch_build_asked_about_wanted_denied_or_past_is_not_the_one_in_use(text: str) -> None:
    assert "RD580" not in _problem_ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "I use pytorch rocm5.6. Should I install ROCm 6.0?\n",
        "I use pytorch rocm5.6. I want to install ROCm 6.0 next.\n",
        "I use pytorch rocm5.6. I have not installed ROCm 6.0.\n",
        "I use pytorch rocm5.6. Before, I had ROCm 6.0 installed.\n",
    ],
)
def test_a_system_rocm_asked_about_wished_denied_or_past_is_not_the_one_installed(text: str) -> None:
    assert ingest_text(text).facts.rocm.version.status != "known"
    assert "RD580" not in _problem_ids(text)
