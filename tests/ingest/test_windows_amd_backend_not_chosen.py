"""On native Windows an AMD GPU reaches PyTorch only through DirectML, ZLUDA or AMD's own wheels (learn55f, RD966-RD967).

The web UI's --skip-torch-cuda-test typed into the arguments is read as the start-up GPU check turned off
(signature row webui_gpu_check_skipped, sources lshqqytiger/stable-diffusion-webui-amdgpu#373, #469, #351,
AUTOMATIC1111/stable-diffusion-webui#14422); the check's own message that names the flag, and advice against
it, are not.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_contexts


@pytest.mark.parametrize(
    "line",
    [
        "set COMMANDLINE_ARGS=--skip-torch-cuda-test --precision full --no-half",
        "I had to add COMMANDLINE_ARGS=--skip-torch-cuda-test --precision full --no-half to be able to process anything",
        "Launching Web UI with arguments: --medvram --skip-torch-cuda-test --no-half",
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
    ],
)
def test_the_checks_own_message_or_advice_against_the_flag_is_not_read_as_it(line: str) -> None:
    assert "webui_gpu_check_skipped" not in signature_contexts(line)


DIRECTML_FORK_ON_CPU = (
    "I just installed webui-directml according to the guide.\n"
    "I had to add COMMANDLINE_ARGS=--skip-torch-cuda-test --precision full --no-half to be able to process anything.\n"
    "All generation is 100% CPU bound with my RX 7900 XTX at 1% load.\n"
)


def test_the_directml_fork_started_without_its_backend_is_the_first_problem_shown() -> None:
    assert problems_shown(DIRECTML_FORK_ON_CPU)[:1] == ["RD967"]


@pytest.mark.parametrize(
    "text",
    [
        # DirectML chosen
        DIRECTML_FORK_ON_CPU.replace("--skip-torch-cuda-test", "--use-directml --skip-torch-cuda-test"),
        # Linux with a ROCm torch asked for
        "Ubuntu 22.04, RX 6800 XT.\nCOMMANDLINE_ARGS=--skip-torch-cuda-test --precision full --no-half\n"
        "TORCH_COMMAND='pip install torch --index-url https://download.pytorch.org/whl/rocm6.0'\n",
    ],
)
def test_the_skip_flag_with_an_amd_backend_or_on_linux_is_not_put_on_windows(text: str) -> None:
    assert "RD967" not in problems_shown(text)


WINDOWS_APP_ON_CPU = (
    "Windows 11, Radeon RX 7900 XT, python 3.12.\n"
    "I installed the app with its launcher; when loading, it still falls back to CPU and does not detect my GPU.\n"
)


def test_a_windows_program_on_the_cpu_gets_the_windows_reason() -> None:
    assert "RD966" in problems_shown(WINDOWS_APP_ON_CPU)


@pytest.mark.parametrize(
    "text",
    [
        WINDOWS_APP_ON_CPU.replace("with its launcher", "with --use-zluda"),
        WINDOWS_APP_ON_CPU.replace("Windows 11", "Ubuntu 24.04"),
        WINDOWS_APP_ON_CPU + "torch 2.7.1+rocmsdk20250911 from AMD's Windows wheels\n",
    ],
)
def test_a_program_on_an_amd_path_or_on_linux_gets_no_windows_reason(text: str) -> None:
    assert "RD966" not in problems_shown(text)
