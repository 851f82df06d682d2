"""On native Windows an AMD GPU reaches PyTorch only through DirectML, ZLUDA or AMD's own wheels (learn55f, RD966-RD967).

The web UI's --skip-torch-cuda-test typed into the arguments is read as the start-up GPU check turned off
(signature row webui_gpu_check_skipped, sources lshqqytiger/stable-diffusion-webui-amdgpu#373, #469, #351,
AUTOMATIC1111/stable-diffusion-webui#14422); the check's own message that names the flag, and advice against
it, are not.
"""

from __future__ import annotations

from typing import Any, List

import pytest
from ingest_helpers import ingest, signature_contexts

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


@pytest.fixture(scope="module")
def rules() -> Any:
    # rev55f: the rule set is read once for the module, not once per text
    return load_rules([], use_env=False)


def shown(rules: Any, text: str) -> List[str]:
    """Rule ids of the error and warning findings of ``text`` as a report, in the order a maintainer reads them."""
    return [f.id for f in evaluate(rules, ingest(text).facts).findings if f.severity in ("error", "warning")]


@pytest.mark.parametrize(
    "line",
    [
        "set COMMANDLINE_ARGS=--skip-torch-cuda-test --precision full --no-half",
        "I had to add COMMANDLINE_ARGS=--skip-torch-cuda-test --precision full --no-half to be able to process anything",
        "Launching Web UI with arguments: --medvram --skip-torch-cuda-test --no-half",
        # a user's own sentence, not the check's message
        "I had to add --skip-torch-cuda-test to webui-user.bat to get it to start.",
    ],
)
def test_the_skip_flag_in_the_arguments_is_read_as_the_gpu_check_turned_off(line: str) -> None:
    assert "webui_gpu_check_skipped" in signature_contexts(line)


@pytest.mark.parametrize(
    "line",
    [
        "AssertionError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check",
        "Please do not add --skip-torch-cuda-test unless you want the cpu to run.",
        "I removed --skip-torch-cuda-test and it still fails",
        # the check's message wrapped at 80 columns
        "AssertionError: Torch is not able to use GPU; add --skip-torch-cuda-test to",
        # the flag as a wiki anchor in a URL
        "see https://github.com/AUTOMATIC1111/stable-diffusion-webui/wiki/Command-Line-Arguments-and-Settings#--skip-torch-cuda-test",
    ],
)
def test_the_checks_own_message_or_advice_against_the_flag_is_not_read_as_it(line: str) -> None:
    assert "webui_gpu_check_skipped" not in signature_contexts(line)


DIRECTML_FORK_ON_CPU = (
    "I just installed webui-directml according to the guide.\n"
    "I had to add COMMANDLINE_ARGS=--skip-torch-cuda-test --precision full --no-half to be able to process anything.\n"
    "All generation is 100% CPU bound with my RX 7900 XTX at 1% load.\n"
)


def test_the_directml_fork_started_without_its_backend_is_the_first_problem_shown(rules: Any) -> None:
    assert shown(rules, DIRECTML_FORK_ON_CPU)[:1] == ["RD967"]


@pytest.mark.parametrize(
    "text",
    [
        # DirectML chosen
        DIRECTML_FORK_ON_CPU.replace("--skip-torch-cuda-test", "--use-directml --skip-torch-cuda-test"),
        # Linux with a ROCm torch asked for
        "Ubuntu 22.04, RX 6800 XT.\nCOMMANDLINE_ARGS=--skip-torch-cuda-test --precision full --no-half\n"
        "TORCH_COMMAND='pip install torch --index-url https://download.pytorch.org/whl/rocm6.0'\n",
        # the CPU chosen on purpose, for a test
        "Windows 10, RX 6800 XT.\nFor this test I run on purpose with --use-cpu all --skip-torch-cuda-test --no-half.\n",
        # an NVIDIA machine with an AMD processor
        "Windows 11, RTX 4090, Ryzen 9 7950X.\nset COMMANDLINE_ARGS=--skip-torch-cuda-test --xformers\nIt runs on the CPU.\n",
    ],
)
def test_the_skip_flag_with_an_amd_backend_or_on_linux_is_not_put_on_windows(rules: Any, text: str) -> None:
    assert "RD967" not in shown(rules, text)


WINDOWS_APP_ON_CPU = (
    "Windows 11, Radeon RX 7900 XT, python 3.12.\n"
    "I installed InvokeAI with its launcher; when loading, it still falls back to CPU and does not detect my GPU.\n"
)


def test_a_windows_pytorch_program_on_the_cpu_gets_the_windows_reason(rules: Any) -> None:
    assert "RD966" in shown(rules, WINDOWS_APP_ON_CPU)


@pytest.mark.parametrize(
    "text",
    [
        WINDOWS_APP_ON_CPU.replace("with its launcher", "with --use-zluda"),
        WINDOWS_APP_ON_CPU.replace("Windows 11", "Ubuntu 24.04"),
        WINDOWS_APP_ON_CPU + "torch 2.7.1+rocmsdk20250911 from AMD's Windows wheels\n",
        # WSL2 runs Linux's ROCm wheels
        WINDOWS_APP_ON_CPU.replace("python 3.12.", "python 3.12, inside WSL2 Ubuntu 22.04."),
        # an AMD processor beside an NVIDIA GPU
        WINDOWS_APP_ON_CPU.replace("Radeon RX 7900 XT", "Ryzen 7 5800H with a GeForce RTX 3060 Laptop GPU"),
        # a question, not a statement
        "Windows 11, Radeon RX 7800 XT.\nWill InvokeAI run on the CPU if my GPU is not supported?\n",
        # programs that run no PyTorch (HIP, Vulkan, OpenCL, ONNX back ends)
        "Windows 11, Radeon RX 7900 XTX, Blender 4.1.\nCycles renders on the CPU, it falls back to CPU.\n",
        "Windows 11, RX 7800 XT, LM Studio 0.3.5.\nThe model runs on the CPU instead of GPU.\n",
        "Windows 11, RX 7900 XTX, hashcat 6.2.6.\nhashcat runs on the CPU instead of the GPU.\n",
    ],
)
def test_a_program_on_an_amd_path_on_linux_or_without_pytorch_gets_no_windows_reason(rules: Any, text: str) -> None:
    assert "RD966" not in shown(rules, text)
