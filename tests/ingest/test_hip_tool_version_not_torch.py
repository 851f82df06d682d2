"""The "HIP version:" line that hipcc/hipconfig print belongs to that ROCm install, not to torch.

Shapes from real reports: ``hipcc --version`` (ROCm/ROCm#3598, Dao-AILab/flash-attention#1307) and
``hipconfig -f`` (ROCm/ROCm#4369). Read as torch.version.hip, it contradicted the torch version shown
beside it and left the ROCm torch was built for unknown. A script's own "HIP version: <torch.version.hip>"
printout stays torch's.
"""

from __future__ import annotations

from ingest_helpers import ingest


def _torch_rocm(text: str):
    fact = ingest(text).facts.torch.rocm_version
    return fact.value if fact.is_known else None


def test_hipcc_version_output_does_not_contradict_the_torch_shown() -> None:
    text = (
        "$ hipcc --version\n"
        "HIP version: 6.2.41133-dd7f95766\n"
        "AMD clang version 18.0.0git (https://github.com/RadeonOpenCompute/llvm-project roc-6.2.0 24292)\n"
        "Target: x86_64-unknown-linux-gnu\n"
        "$ pip show torch\n"
        "Name: torch\n"
        "Version: 2.4.1+rocm6.0\n"
    )
    assert _torch_rocm(text) == "6.0"


def test_hipconfig_full_output_does_not_contradict_the_torch_shown() -> None:
    text = (
        "$ pip show torch\n"
        "Name: torch\n"
        "Version: 2.5.1+rocm6.2\n"
        "$ hipconfig -f\n"
        "\n"
        "HIP version: 6.3.42134-a9a80e791\n"
        "\n"
        "==hipconfig\n"
        "HIP_PATH           :/opt/rocm-6.3.2\n"
        "ROCM_PATH          :/opt/rocm-6.3.2\n"
    )
    assert _torch_rocm(text) == "6.2"


def test_script_printout_of_torch_hip_version_is_still_read() -> None:
    text = (
        "torch version: 2.5.1+rocm6.2\n"
        "HIP version: 6.2.41133-dd7f95766\n"
        "cuda available: True\n"
    )
    assert _torch_rocm(text) == "6.2"


def test_hipcc_version_output_pasted_without_its_command_is_not_torchs() -> None:
    text = (
        "Name: torch\n"
        "Version: 2.4.1+rocm6.0\n"
        "HIP version: 5.7.31921-d1770ee1b\n"
        "clang version 17.0.0 (https://github.com/RadeonOpenCompute/llvm-project roc-5.7.1 23382)\n"
    )
    assert _torch_rocm(text) == "6.0"


def test_an_environment_dump_after_torchs_hip_line_leaves_it_torchs() -> None:
    # env variables a script prints with "=" or ": ", and collect_env's "Clang version:", are not
    # hipconfig's padded "ROCM_PATH          :" nor hipcc's "clang version 17.0.0 (...)"
    for tail in ("ROCM_PATH=/opt/rocm\nHIP_PLATFORM=amd\n", "ROCM_PATH: /opt/rocm-6.2.0\n", "GCC version: 11.4.0\nClang version: 14.0.0-1ubuntu1.1\n"):
        text = "torch version: 2.5.1\nHIP version: 6.2.41133-dd7f95766\n" + tail
        assert _torch_rocm(text) == "6.2", tail


def test_a_script_line_naming_hipccs_path_before_torchs_hip_line_leaves_it_torchs() -> None:
    text = "torch version: 2.5.1\nhipcc found at /opt/rocm/bin/hipcc\nHIP version: 6.2.41133-dd7f95766\n"
    assert _torch_rocm(text) == "6.2"


def test_hipconfig_run_alone_on_a_command_line_is_the_tools_output() -> None:
    text = "Name: torch\nVersion: 2.4.1+rocm6.0\n$ /opt/rocm/bin/hipconfig\nHIP version: 6.2.41133-dd7f95766\n"
    assert _torch_rocm(text) == "6.0"
