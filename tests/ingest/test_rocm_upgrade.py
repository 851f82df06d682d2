"""A binary built for the ROCm release before the system's upgrade (RD661).

Issue 23, class torch_rocm_mismatch. The forms are the shapes several independent real reports
use (ROCm/tensorflow-upstream#444 and #559, ROCm/legacy-rocm-build#764 and #351, ROCm/pytorch#1340);
the texts are written for the test, not copied from one report.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_contexts


@pytest.mark.parametrize(
    "text",
    [
        "It broke when I upgraded ROCm to 6.1.\n",
        "On upgrading to ROCm 5.7, importing the framework fails.\n",
        "I have recently upgraded ROCm 5.6 to 6.0 and now nothing loads.\n",
        "This started after updating from ROCm 5.7.1 to ROCm 6.0.\n",
        "Since we updated our ROCm the extension fails.\n",
        "ROCm was upgraded to 6.2 last night by apt.\n",
        "after upgrading to rocm6.0 the import fails\n",
    ],
)
def test_the_reporters_rocm_upgrade_is_read(text: str) -> None:
    assert "rocm_upgrade_told" in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # advice, a plan, another person's upgrade, a question about whether to
        "Try upgrading to ROCm 6.2 first.\n",
        "I will upgrade ROCm next week.\n",
        "After he upgraded ROCm his card stopped working.\n",
        "Should I update ROCm?\n",
        # another component's upgrade
        "After I upgraded the kernel it broke.\n",
    ],
)
def test_other_upgrades_are_not_the_reporters_rocm_upgrade(text: str) -> None:
    assert "rocm_upgrade_told" not in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "ImportError: /venv/lib/python3.10/site-packages/fw/_internal.so: undefined symbol: _ZN8hip_impl6detail4initEv\n",
        "OSError: /usr/lib/libfoo.so: undefined symbol: hipModuleGetGlobal\n",
    ],
)
def test_a_loader_undefined_symbol_is_read(text: str) -> None:
    assert "loader_undefined_symbol" in signature_contexts(text)


def test_torchs_own_symbols_are_not_a_loader_undefined_symbol() -> None:
    # an extension built for another torch is RD824's (extension_torch_abi_mismatch)
    text = "ImportError: flash_attn_2_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n"
    assert "loader_undefined_symbol" not in signature_contexts(text)


def test_an_undefined_symbol_after_a_rocm_upgrade_is_reported_as_the_older_build() -> None:
    report = (
        "Ubuntu 22.04, Radeon VII. I upgraded ROCm to 6.0 yesterday.\n"
        "ImportError: /venv/lib/python3.10/site-packages/fw/python/_internal.so: undefined symbol: _ZN8hip_impl6detail4initEv\n"
    )
    assert problems_shown(report)[:1] == ["RD661"]


def test_an_undefined_symbol_without_an_upgrade_is_not_blamed_on_one() -> None:
    report = "ImportError: /venv/lib/python3.10/site-packages/fw/python/_internal.so: undefined symbol: _ZN8hip_impl6detail4initEv\n"
    assert "RD661" not in problems_shown(report)


# RD694: tensorflow-rocm, which runs on the system's ROCm, in a report of a ROCm upgrade. The forms are those of
# ROCm/tensorflow-upstream#559, #444, #1207 and ROCm/legacy-rocm-build#1184, #1852; the texts are the test's own.
_TF_TEMPLATE = "- TensorFlow installed from (source or binary): binary\n- TensorFlow version (use command below): 1.14.0\n"


@pytest.mark.parametrize(
    "text",
    [
        "I upgraded ROCm 2.4 to 2.6 and tensorflow-rocm no longer sees the GPU.\n" + _TF_TEMPLATE,
        "Since I upgraded ROCm to 3.5 my tensorflow-rocm script hangs.\n>>> import tensorflow as tf\n",
        "After updating ROCm to 2.6 the GPU is gone. I am running tensorflow-rocm 1.13.1 in a venv.\n",
        "I'm using tensorflow-rocm; after upgrading ROCm to 2.8 my scripts abort.\n",
        "Since I upgraded ROCm to 3.10 tensorflow-rocm aborts:\n"
        "2020-12-01 10:00:00.000000: I tensorflow/stream_executor/platform/default/dso_loader.cc:48] Successfully opened dynamic library libamdhip64.so\n",
        "After I upgraded ROCm to 6.4 the GPU is not found.\n$ pip3 install --upgrade tensorflow-rocm\n",
    ],
)
def test_tensorflow_rocm_run_after_a_rocm_upgrade_is_warned(text: str) -> None:
    assert "RD694" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # tensorflow-rocm in a PyTorch report's pip list, in passing, as another person's or a past setup
        "I upgraded ROCm to 6.0 and torch.cuda.is_available() is False.\npip list:\ntorch 2.1.0+rocm5.6\ntensorflow-rocm 2.13.0.570\n",
        "After upgrading ROCm to 6.1, my torch wheel hangs; unlike tensorflow-rocm it bundles its own ROCm.\n",
        "I upgraded ROCm to 5.7 and torch segfaults. A colleague uses tensorflow-rocm on this box without trouble.\n",
        "Last year I used tensorflow-rocm. Since I upgraded ROCm to 6.2 my torch build fails.\n",
    ],
)
def test_tensorflow_rocm_named_but_not_run_is_not_warned(text: str) -> None:
    assert "RD694" not in problems_shown(text)
