"""A batch file named as what the reporter runs says the machine is Windows (cmd.exe runs .bat files): the web UIs'
webui-user.bat and a venv's activate.bat (lshqqytiger/stable-diffusion-webui-amdgpu#373, #418, #480, #544;
Haoming02/sd-webui-forge-classic#308), where nothing else in the report names Windows (learn67c)."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest


def _os(text: str) -> object:
    facts = ingest(text).facts
    return facts.host.os.value if facts.host.os.is_known else None


@pytest.mark.parametrize(
    "text",
    [
        "After opening the webui-user.bat file, CMD returned the following error",
        "I added --use-directml to COMMANDLINE_ARGS in webui-user.bat and started it again",
        "venv\\Scripts\\activate.bat\npip list",
        "I double-clicked run_amd_gpu.bat and it closed",
    ],
)
def test_a_batch_file_the_reporter_runs_makes_the_machine_windows(text: str) -> None:
    assert _os(text) == "windows"


@pytest.mark.parametrize(
    "text",
    [
        # HIP installs hipcc.bat and hipconfig.bat on Linux too (a package's file list)
        "/opt/rocm/bin/hipcc.bat\n/opt/rocm/bin/hipconfig.bat\n/opt/rocm/bin/hipcc",
        # a file name that only starts like one
        "see the attached log.bat.txt",
        # another person's machine
        "my friend on his machine runs webui-user.bat",
        # the launcher of the other platform, set against this machine's shell script
        "The README starts it with webui-user.bat; I start ./webui.sh",
    ],
)
def test_hips_own_batch_files_and_anothers_machine_say_nothing_of_the_platform(text: str) -> None:
    assert _os(text) is None


def test_a_batch_file_from_a_setup_left_behind_does_not_outweigh_the_linux_now() -> None:
    assert _os("I used to run webui-user.bat on my old PC, now I am on Ubuntu 22.04") == "linux"


@pytest.mark.parametrize(
    "text",
    [
        # a Linux checkout of the web UI listed at a Linux prompt holds the batch files too (review67b)
        "user@box:~/stable-diffusion-webui$ ls -1\nextensions\nwebui-user.bat\nwebui-user.sh\nwebui.bat\nwebui.sh\n",
        # git pull's summary names a changed batch file; the launcher run is the shell script
        "$ git pull\nFast-forward\n webui-user.bat | 2 +-\n modules/launch_utils.py | 10 ++++++----\n$ ./webui.sh\n",
    ],
)
def test_a_batch_file_listed_in_a_block_that_runs_a_shell_script_says_nothing_of_the_platform(text: str) -> None:
    assert _os(text) is None
