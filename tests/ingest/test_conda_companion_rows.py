"""conda's listing of the torch stack's companions (issue 23, class package_mismatch): ``conda list`` rows
(name, version, build string, channel) and collect_env's ``[conda]`` rows, whose build string names the
companion's build where its version has no local tag (``torchvision 0.15.2 py310_cu117 pytorch``).

The row shapes are those of real reports: DCASE-REPO/DESED_task#81 (``torchaudio 2.0.2 py38_cpu pytorch``
among ``pypi_0`` rows), verm/freebsd-stable-diffusion#7 (``conda list | grep torchvision`` giving
``torchvision 0.15.2 cuda118py39h196c800_0``), pytorch/pytorch#27745 (``[conda] torchvision 0.2.2 py_3
pytorch``), pytorch/audio#3335 (``pytorch 1.13.1 cpu_py38haaa41f7_0``). The texts are written for the test.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings


def _value(text: str, path: str):
    fact = ingest(text).facts
    for part in path.split("."):
        fact = getattr(fact, part)
    return fact.value if fact.is_known else None


ROCM_COLLECT_ENV = (
    "PyTorch version: 2.0.1+rocm5.4.2\n"
    "Is debug build: False\n"
    "CUDA used to build PyTorch: N/A\n"
    "ROCM used to build PyTorch: 5.4.22803-474e8620\n"
    "\n"
    "Versions of relevant libraries:\n"
    "[pip3] numpy==1.24.1\n"
    "[pip3] torch==2.0.1+rocm5.4.2\n"
)


@pytest.mark.parametrize(
    "text, package, version, build",
    [
        # a whole conda list: PyTorch's channel build of the companions, among pypi_0 rows
        ("# Name                    Version                   Build  Channel\n"
         "tokenizers                0.13.3                   pypi_0    pypi\n"
         "torchaudio                2.0.2               py310_cu117    pytorch\n"
         "torchvision               0.15.2              py310_cu117    pytorch\n"
         "tornado                   6.3.2           py310h5eee18b_0\n", "torchvision", "0.15.2", "cuda"),
        ("tensorboard               2.14.0                   pypi_0    pypi\n"
         "torchaudio                2.0.2                  py38_cpu    pytorch\n"
         "torchmetrics              0.7.3                    pypi_0    pypi\n", "torchaudio", "2.0.2", "cpu"),
        # one row under the conda list command that printed it: Anaconda's defaults build
        ("(sd) $ conda list | grep torchvision\n"
         "torchvision               0.15.2          cuda118py39h196c800_0\n", "torchvision", "0.15.2", "cuda"),
        # collect_env's [conda] rows
        (ROCM_COLLECT_ENV + "[conda] torchvision               0.15.2              py310_cu117    pytorch\n",
         "torchvision", "0.15.2", "cuda"),
    ],
)
def test_a_conda_row_of_a_companion_gives_its_version_and_the_build_its_build_string_names(text, package, version, build) -> None:
    assert _value(text, f"torch.{package}_version") == version
    assert _value(text, f"torch.{package}_flavour") == build


@pytest.mark.parametrize(
    "text, package",
    [
        # no build in the build string: pip's package listed by conda, a noarch build
        ("torch                     2.1.1                    pypi_0    pypi\n"
         "torchaudio                2.0.1                    pypi_0    pypi\n", "torchaudio"),
        (ROCM_COLLECT_ENV + "[conda] torchvision               0.2.2                      py_3    pytorch\n", "torchvision"),
        # pip's own row of the companion decides: conda's record of an earlier conda install is left behind
        (ROCM_COLLECT_ENV + "[pip3] torchvision==0.15.2+rocm5.4.2\n"
         "[conda] torchvision               0.15.2              py310_cu117    pytorch\n", "torchvision"),
    ],
)
def test_a_conda_row_without_a_build_or_behind_pips_row_names_no_companion_build_from_conda(text, package) -> None:
    assert _value(text, f"torch.{package}_flavour") in (None, "rocm")


@pytest.mark.parametrize(
    "text",
    [
        # a table of results in three columns is no listing
        "torch        2.4.1        works\ntorchvision  0.19.1       works\n",
        # conda search lists what a channel offers, one name many times
        "# Name                       Version           Build  Channel\n"
        "torchvision                    0.3.0 cuda100py37h72fc40a_0  pkgs/main\n"
        "torchvision                    0.3.0 cuda90py37h6edc907_0  pkgs/main\n",
        # one row with no conda list command above it
        "torchvision               0.15.2          cuda118py39h196c800_0\n",
    ],
)
def test_rows_that_are_no_conda_listing_of_the_environment_give_no_companion(text) -> None:
    assert _value(text, "torch.torchvision_version") is None


def test_a_cuda_torchvision_from_conda_beside_a_rocm_torch_is_the_first_finding() -> None:
    text = ROCM_COLLECT_ENV + "[conda] torchvision               0.15.2              py310_cu117    pytorch\n"
    shown = serious_findings(text)
    assert shown and shown[0][0] == "RD141"


def test_a_conda_companion_of_the_same_build_and_release_as_torch_is_no_package_error() -> None:
    text = (
        "# Name                    Version                   Build  Channel\n"
        "pytorch                   2.0.1           py3.10_cuda11.8_cudnn8.7.0_0    pytorch\n"
        "pytorch-cuda              11.8                 h7e8668a_5    pytorch\n"
        "torchaudio                2.0.2               py310_cu118    pytorch\n"
        "torchvision               0.15.2              py310_cu118    pytorch\n"
    )
    assert _value(text, "torch.torchvision_flavour") == "cuda"
    assert not [f for f in serious_findings(text) if f[2] == "packages" and f[1] == "error"]
