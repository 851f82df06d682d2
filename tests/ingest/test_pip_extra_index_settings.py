"""pip's --extra-index-url in its other spellings (issue 23, class cuda_wheel_on_amd; cuda59).

pip takes every long option from an environment variable PIP_<NAME> and from a configuration key of
the long name (pip docs/html/topics/configuration.md at 034b95a), so PIP_EXTRA_INDEX_URL=<ROCm index>,
a pip.conf line ``extra-index-url = <ROCm index>`` or the option named in prose before the index
("referring to the extra-index-url `https://.../nightly/rocm6.1/`", carson-katri/dream-textures#809) add the
ROCm index beside PyPI as the flag does (Comfy-Org/comfy-cli#289, AUTOMATIC1111/stable-diffusion-webui#8808,
carson-katri/dream-textures#635: pip took PyPI's torch). Such an index neither says a ROCm build was
installed (no intended ROCm flavour) nor is read where uv, whose extra indexes come first, or
--index-url (the ROCm index alone) is what the report names.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings, signature_errors

EXTRA = "pip_extra_index_rocm"


@pytest.mark.parametrize(
    "line",
    [
        # carson-katri/dream-textures#809
        "This is due to `requirements/linux-rocm.txt` referring to the extra-index-url `https://download.pytorch.org/whl/nightly/rocm6.1/` which is only containing nightly versions",
        "extra-index-url = https://download.pytorch.org/whl/rocm6.2",
        "PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/rocm6.0 pip install torch torchvision",
        'export PIP_EXTRA_INDEX_URL="https://download.pytorch.org/whl/rocm6.0"',
        "pip config set global.extra-index-url https://download.pytorch.org/whl/rocm6.2",
        # the flag, read before this change
        "pip3 install --pre torch --extra-index-url https://download.pytorch.org/whl/nightly/rocm5.4.3/",
    ],
)
def test_pips_other_spellings_of_the_extra_index_option_are_read_before_a_rocm_index(line: str) -> None:
    assert EXTRA in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        # what the reporter changed the setting to (dream-textures#809's fix), not the setting that failed
        "Changing the extra-index-url to `https://download.pytorch.org/whl/rocm6.1/` seems to fix the problem",
        # the ROCm index as the only index
        "index-url = https://download.pytorch.org/whl/rocm6.2",
        "PIP_INDEX_URL=https://download.pytorch.org/whl/rocm6.2 pip install torch",
        "pip install torch --index-url https://download.pytorch.org/whl/rocm6.2 --extra-index-url https://pypi.org/simple",
        # uv searches an extra index before PyPI and stops at the first that has the package
        "UV_EXTRA_INDEX_URL=https://download.pytorch.org/whl/rocm6.2 uv pip install torch",
        'extra-index-urls = ["https://download.pytorch.org/whl/rocm6.2"]',
        # another index
        "extra-index-url = https://download.pytorch.org/whl/cu121",
    ],
)
def test_the_rocm_index_as_the_only_index_or_uvs_is_not_read_as_an_extra_index(line: str) -> None:
    assert EXTRA not in signature_errors(line)


@pytest.mark.parametrize(
    "line",
    [
        "extra-index-url = https://download.pytorch.org/whl/rocm6.2",
        "PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/rocm6.0 pip install torch",
        "the requirements file refers to the extra-index-url `https://download.pytorch.org/whl/nightly/rocm6.1/`",
        "Changing the extra-index-url to `https://download.pytorch.org/whl/rocm6.1/` seems to fix the problem",
    ],
)
def test_a_rocm_index_given_as_an_extra_index_does_not_say_a_rocm_torch_was_installed(line: str) -> None:
    assert ingest(line).facts.torch.flavour.value != "rocm"


def test_a_rocm_index_given_as_the_only_index_still_says_the_rocm_build_was_asked_for() -> None:
    for line in ("index-url = https://download.pytorch.org/whl/rocm6.2", "pip install torch --index-url https://download.pytorch.org/whl/rocm6.2"):
        assert ingest(line).facts.torch.flavour.value == "rocm"


DREAM_TEXTURES_809 = """\
2. Run `/usr/share/blender/4.1/python/bin/python3.11 -m pip install -r requirements/linux-rocm.txt --target .python_dependencies` in the checked out folder

A rocm version of PyTorch (>=2.3.1) should have been downloaded but instead it is downloading the default one withtout rocm support.

This is due to `requirements/linux-rocm.txt` referring to the extra-index-url `https://download.pytorch.org/whl/nightly/rocm6.1/` which is only containing nightly versions. Changing the extra-index-url to `https://download.pytorch.org/whl/rocm6.1/` seems to fix the problem.
"""


def test_a_requirements_files_rocm_extra_index_named_in_prose_gets_the_torch_build_warning() -> None:
    assert ("RD502", "warning", "torch-build") in serious_findings(DREAM_TEXTURES_809)


def test_a_pip_conf_rocm_extra_index_with_the_rocm_build_shown_gets_no_warning() -> None:
    healthy = "extra-index-url = https://download.pytorch.org/whl/rocm6.2\n>>> torch.__version__\n'2.5.1+rocm6.2'\n>>> torch.version.hip\n'6.2.41133-dd7f95766'\n"
    assert not [f for f in serious_findings(healthy) if f[0] == "RD502"]
