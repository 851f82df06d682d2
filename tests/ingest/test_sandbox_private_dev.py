"""A sandbox that builds its own /dev and no GPU found (RD628; issue 23, drv49).

Forms from netblue30/firejail#6364 ("LC_ALL=C firejail hashcat -b -m 1000": "No devices found/left."; fixed by
firejail#6380), apptainer/singularity#5696 (--contain leaves /dev/kfd out) and apptainer/apptainer#752 (-c --rocm
bound no render nodes); the texts are written for the test in those shapes.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown

RULE = "RD628"


@pytest.mark.parametrize(
    "text",
    [
        "Run in bash `LC_ALL=C firejail hashcat -b -m 1000`\nNo devices found/left.\n",
        "$ firejail --profile=hashcat hashcat -I\nNo devices found/left.\n",
        'apptainer exec --containall --rocm pytorch.sif python -c "import torch; print(torch.cuda.is_available())"\nFalse\n',
        "singularity shell -c --rocm tf.sif\nrocminfo\nROCk module is loaded\nUnable to open /dev/kfd read-write: No such file or directory\n",
        "The profile uses private-dev, and hashcat says No devices found/left.\n",
    ],
)
def test_a_sandbox_with_its_own_dev_and_no_gpu_is_read(text: str) -> None:
    assert RULE in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "I use firejail for my browser. torch.cuda.is_available() is False on my RX 6800.\n",
        "apptainer exec --containall --rocm --bind /dev/kfd,/dev/dri pytorch.sif python train.py\nRuntimeError: No HIP GPUs are available\n",
        "apptainer exec --rocm pytorch.sif python -c 'import torch'\nRuntimeError: No HIP GPUs are available\n",
        "$ firejail --ignore=private-dev hashcat -I\nNo devices found/left.\n",
        "$ firejail hashcat -b\nDevice #1: AMD Radeon RX 7900 XT, 20464/20464 MB\n",
    ],
)
def test_prose_a_bound_kfd_no_contain_option_or_a_gpu_found_is_not_read(text: str) -> None:
    assert RULE not in problems_shown(text)


# rev49a: prose that names firejail at a line's start, and private-dev in advice, a negation, a removal, a
# commented-out profile line or a fix, is no sandbox option in force.
@pytest.mark.parametrize(
    "line",
    [
        "Firejail is not installed on this machine.",
        "firejail is not used here, I run python directly.",
        "You should not use private-dev with ROCm.",
        "Don't use private-dev for hashcat.",
        "# private-dev",
        "I removed private-dev from the profile.",
        "Changelog: private-dev now keeps /dev/kfd.",
    ],
)
def test_prose_advice_removal_or_a_fix_naming_the_option_is_not_read(line: str) -> None:
    text = "RX 7900 XTX on Ubuntu 24.04.\n" + line + "\ntorch.cuda.is_available() returns False\n"
    assert RULE not in problems_shown(text)


def test_noprofile_beside_an_explicit_private_dev_is_still_read() -> None:
    # rev49a: --noprofile drops the profile, not the --private-dev given on the same command line (firejail#2872's form).
    for line in ("$ firejail --noprofile --private-dev hashcat -I", "$ firejail --private-dev --noprofile hashcat -I"):
        assert RULE in problems_shown(line + "\nNo devices found/left.\n")
    assert RULE not in problems_shown("$ firejail --noprofile hashcat -I\nNo devices found/left.\n")
