"""dkms's missing dkms.conf for an amdgpu version directory (signature amdgpu_dkms_stale_tree, rule RD450, learn56g):
the line shapes of ROCm/legacy-rocm-build#3608, #3701 and #4197, written for the test; another module's leftover tree
is not read."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_errors

STALE = "amdgpu_dkms_stale_tree"


@pytest.mark.parametrize(
    "text",
    [
        "Error! Could not locate dkms.conf file.\nFile: /var/lib/dkms/amdgpu/6.8.5-2041575.24.04/source/dkms.conf does not exist.\n",
        "Error! Could not locate dkms.conf file.\r\nFile: /var/lib/dkms/amdgpu/6.7.0-1756574.22.04/source/dkms.conf does not exist.\r\n",
        "```\nError! Could not locate dkms.conf file.\nFile: /usr/src/amdgpu-6.7.0-1756574.22.04/dkms.conf does not exist.\n```\n",
    ],
)
def test_a_missing_dkms_conf_under_an_amdgpu_version_directory_is_read(text: str) -> None:
    assert STALE in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "Error! Could not locate dkms.conf file.\nFile: /var/lib/dkms/system76/1.0.14/source/dkms.conf does not exist.\n",
        "Error! Could not locate dkms.conf file.\nFile: /var/lib/dkms/evdi/1.14.1/source/dkms.conf does not exist.\n",
        "Error! Could not locate dkms.conf file.\n",  # no directory named: whose tree is unknown
    ],
)
def test_another_modules_leftover_tree_or_no_directory_is_not_read(text: str) -> None:
    assert STALE not in signature_errors(text)


def test_the_leftover_amdgpu_tree_shows_rd450() -> None:
    text = "Error! Could not locate dkms.conf file.\nFile: /var/lib/dkms/amdgpu/6.8.5-2041575.24.04/source/dkms.conf does not exist.\n"
    assert "RD450" in problems_shown(text)


# mend57: amdgpu-install with --no-dkms installs no amdgpu DKMS module: the leftover is no error there. The command
# shapes of ROCm/legacy-rocm-build#6193, #3701, #1973 and pop-os/pop#1135.
_LEFTOVER = "Error! Could not locate dkms.conf file.\nFile: /var/lib/dkms/amdgpu/6.7.0-1787201.22.04/source/dkms.conf does not exist.\n"


@pytest.mark.parametrize(
    "install",
    [
        "$ sudo amdgpu-install -y --usecase=rocm --no-dkms\n",
        "amdgpu-install --usecase=hip --no-dkms\n",
        "> ./amdgpu-install --no-dkms --opencl=pal\n",
        "sudo amdgpu-install --usecase=rocm,hip,mllib --no-dkms\r\n",
    ],
)
def test_a_leftover_tree_after_an_install_without_dkms_is_no_error(install: str) -> None:
    for text in (install + _LEFTOVER, _LEFTOVER + install):
        assert "RD450" not in problems_shown(text), text


@pytest.mark.parametrize(
    "install",
    [
        "$ sudo amdgpu-install -y --usecase=rocm\n",  # the DKMS module is installed
        "sudo apt install amdgpu-dkms  # --no-dkms was not used\n",  # no amdgpu-install with the option
    ],
)
def test_a_leftover_tree_after_an_install_with_dkms_still_shows_rd450(install: str) -> None:
    assert "RD450" in problems_shown(install + _LEFTOVER)


# rev57c: a --no-dkms command the report negates, advises, asks about, quotes from a document or gives as another's,
# or one shown beside amdgpu-dkms's own failed configure (the DKMS driver was being installed after all), leaves the
# leftover tree the error it is.
_CONFIGURE_FAILED = _LEFTOVER + "WARNING: amdgpu dkms failed for running kernel\n"


@pytest.mark.parametrize(
    "text",
    [
        "I ran sudo amdgpu-install --usecase=rocm,dkms without --no-dkms and it prints:\n" + _LEFTOVER,
        "Someone on Reddit suggested `amdgpu-install --usecase=rocm --no-dkms` but I need the DKMS module.\n" + _LEFTOVER,
        "Should I use amdgpu-install --no-dkms instead?\n" + _LEFTOVER,
        "My friend ran amdgpu-install --usecase=rocm --no-dkms on his PC and it works. On mine:\n$ sudo amdgpu-install --usecase=rocm\n" + _LEFTOVER,
        'The guide says: "if you do not need the kernel module, use amdgpu-install --usecase=rocm --no-dkms". I do need it.\n' + _LEFTOVER,
        "I did not use amdgpu-install --no-dkms.\n" + _LEFTOVER,
        "If you don't need DKMS, run amdgpu-install --usecase=rocm --no-dkms.\n" + _LEFTOVER,
        "Last year I installed with `sudo amdgpu-install --usecase=rocm --no-dkms`. Now `sudo amdgpu-install --usecase=dkms` gives:\n" + _CONFIGURE_FAILED,
        "$ sudo amdgpu-install --usecase=rocm --no-dkms\nE: Unable to locate package rocm\n$ sudo amdgpu-install --usecase=rocm\n" + _CONFIGURE_FAILED,
        "$ sudo apt install amdgpu-dkms\n" + _LEFTOVER + "dpkg: error processing package amdgpu-dkms (--configure):\n(amdgpu-install --no-dkms worked earlier but I need dkms now)\n",
    ],
)
def test_a_no_dkms_run_not_in_force_leaves_rd450(text: str) -> None:
    assert "RD450" in problems_shown(text), text
