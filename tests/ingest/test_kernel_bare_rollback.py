"""A rollback to a kernel release said without the word kernel (drv57, issue 23, driver_too_old).

Forms from Comfy-Org/ComfyUI#14488 ("When using kernel version 7.0.12 ... Once rolling back to 7.0.11 all works as
expected again"), ROCm/legacy-rocm-build#6358 ("updating from kernel 7.0.11-200.fc44 to 7.0.12-200.fc44 ... Booting back
to 7.0.11-200 restores normal performance") and ROCm/legacy-rocm-build#753 ("the supported kernels are 4.13 - 4.15, so I
downgraded to 4.15. Now it works."). A bare release is read as a kernel only where the report named a kernel of the same
major.minor before it: "if I downgrade to 2.9 things start to work again" beside "the kernel to 5.0" is ROCm 2.9
(ROCm/legacy-rocm-build#950). The texts are written for the test in those shapes.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown


def _earlier_kernels(text: str) -> list:
    earlier = ingest(text).facts.symptoms.earlier
    return [v for v in (earlier.value or []) if str(v).startswith("host.kernel_release=")] if earlier.is_known else []


READ = [
    "When using kernel version 7.0.12 the model takes ten minutes to load.\nOnce rolling back to 7.0.11 all works as expected again.\n",
    # the same report with its kernel said "Linux 7.0.12" (the metamorphic kernel-spelling rewrite lost it, session 57)
    "When using Linux 7.0.12 the model takes ten minutes to load.\nOnce rolling back to 7.0.11 all works as expected again.\n",
    "Since the update to kernel 6.17.9 rocminfo hangs. Booting back to\n6.17.7-200 restores it immediately.\n",
    "I use kernel 4.18 on Ubuntu 18.04. The supported kernels are 4.13 - 4.15, so I downgraded to 4.15. Now it works.\n",
    "Kernel: 6.12.4-arch1-1\nollama segfaults on every model. Going back to 6.12.1 fixed it.\n",
    # a program of the kernel's major beside it: read where the release rolled back to was itself named a kernel
    "After updating from kernel 7.0.11-200.fc44 to 7.0.12-200.fc44 ComfyUI got slow.\nROCm: 7.1.1\n"
    "Booting back to 7.0.11-200 restores it.\n",
]


@pytest.mark.parametrize("text", READ)
def test_a_bare_release_rolled_back_to_is_the_kernel_that_worked(text: str) -> None:
    assert _earlier_kernels(text)


def test_most_bare_rollbacks_show_the_kernel_changed_finding() -> None:
    # RD801 compares the kernel that worked with the one running; aggregate, so one wording may change its reading
    shown = sum("RD801" in problems_shown(text) for text in READ)
    assert shown >= len(READ) - 1


@pytest.mark.parametrize(
    "text",
    [
        # another program's release: no kernel of that major.minor named
        "I tried to upgrade the kernel to 5.0 but I get the same problem, but if I downgrade to 2.9 things start to work again.\n",
        "Kernel 6.8.0-45-generic, ROCm 6.4.3. Rolling back to 6.4.1 works.\n",
        # a program named with the same major.minor as the kernel
        "Running kernel 6.2.0-39-generic with ROCm 6.2. Rolling back to 6.2.4 works.\n",
        # a rollback that did not help, was advised, or whose success ended
        "Kernel 7.0.12 breaks it. Rolling back to 7.0.11 didn't fix it.\n",
        "Kernel 7.0.12 breaks it. Rolling back to 7.0.11 does not work either.\n",
        "Kernel 7.0.12 breaks it. You should try rolling back to 7.0.11, which works for most people.\n",
        "Kernel 7.0.12 breaks it. Rolling back to 7.0.11 works, but torch still crashes.\n",
        # the kernel named only after the rollback
        "Rolling back to 7.0.11 all works. I was on kernel 7.0.12.\n",
        # a program of the kernel's major named (ROCm 6.x/7.x on kernels 6.x/7.x, Python 3.x on CentOS 7's 3.10, a BIOS)
        "Debian 12, kernel 6.1.0-18-amd64.\nAfter upgrading ROCm to 6.2 my training hangs. Downgraded to 6.1.3 and it works again.\n",
        "Ubuntu 22.04 with kernel 6.2.0-39-generic. ROCm 6.3.1 broke hipBLASLt. Rolling back to 6.2.4 fixed it.\n",
        "Kernel 7.0.12-arch1. rocm 7.1 gives a segfault in rocBLAS; rolled back to 7.0.2 and everything works.\n",
        "torch 2.5.1+rocm6.2 on kernel 6.2.0-26. Reverted to 6.2.1 and it is fine now.\n",
        "Running on the 6.1 kernel. The amdgpu-install 6.2 package broke things; downgraded to 6.1.2 and now it works.\n",
        "kernel 6.5 here. The driver 6.6 broke things, I went back to 6.5.2 and it works.\n",
        "CentOS 7, kernel 3.10.0-1160.el7.x86_64, Python 3.12. import torch fails. Downgraded to 3.10 and it works.\n",
        "Kernel 5.15.0-91. After the BIOS update to 5.19 the card was not found; rolled back to 5.15 and it works.\n",
        "Kernel 6.2.0-39-generic. I rolled back to 6.2.4 rocm and it works.\n",
        # a rollback that helped only for a while, made no difference, or is asked about
        "Kernel 7.0.12 breaks it. Rolled back to 7.0.11, which fixed the slow load but now it crashes on sampling.\n",
        "Kernel 7.0.12 breaks it. Rolled back to 7.0.11: no difference, it works just as badly.\n",
        "Kernel 7.0.12 breaks it. Rolled back to 7.0.11 and it worked for a day before the hang came back.\n",
        "Kernel 6.10.5 broke it. Reverting to 6.10.3 works? Not sure.\n",
        # another person's rollback, or one guessed at
        "I'm on kernel 7.0.12 and loading is slow. Others on the forum rolled back to 7.0.11 and it works for them.\n",
        "Kernel 6.9.1 breaks it. Does downgrading to 6.9.0 work for anyone\n",
        "Kernel 6.9.1 breaks it. Maybe downgrading to 6.9.0 fixes it, I haven't tried.\n",
    ],
)
def test_a_bare_release_is_not_read_as_a_kernel_without_a_kernel_of_its_series(text: str) -> None:
    assert not _earlier_kernels(text)
