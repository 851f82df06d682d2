"""Whether a GPU-disguising variable a report sets was in effect where the GPU failed (RD920, RD921).

The reports are shaped after real threads: ollama/ollama#3107 (HSA_OVERRIDE_GFX_VERSION set on
Windows, rocBLAS still named gfx1032), #8679 (Environment= in the unit, the server started by
hand), #6152 (an export in ~/.bashrc, the server a service) and #8851 (11.0.0 in a compose file
for an RDNA2 card, then a memory access fault)."""

from __future__ import annotations

from typing import List

import pytest
from ingest_helpers import ingest

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate

TENSILE_1032 = "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek for GPU arch : gfx1032"
TENSILE_1030 = "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek for GPU arch : gfx1030"
FAULT = "Memory access fault by GPU node-1 (Agent handle: 0x559ee9967590) on address 0x7fe05f439000. Reason: Page not present or supervisor privilege."


def _findings(text: str) -> List[str]:
    return [f.id for f in evaluate(load_rules(), ingest(text).facts).findings if f.severity in ("error", "warning")]


@pytest.mark.parametrize(
    "setting",
    [
        "I put it in my .bashrc:\n\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0",
        "$ export HSA_OVERRIDE_GFX_VERSION=10.3.0",
        '[Service]\nEnvironment="HSA_OVERRIDE_GFX_VERSION=10.3.0"',
        "docker run -it --device=/dev/kfd --device=/dev/dri -e HSA_OVERRIDE_GFX_VERSION=10.3.0 rocm/pytorch",
        "services:\n  app:\n    environment:\n      - HSA_OVERRIDE_GFX_VERSION=10.3.0",
    ],
)
def test_an_override_the_report_sets_but_the_failing_program_lacked_is_named(setting: str) -> None:
    found = _findings(f"{setting}\n\n```\n$ python train.py\n{TENSILE_1032}\nAborted (core dumped)\n```\n")
    assert "RD920" in found


@pytest.mark.parametrize(
    "setting",
    [
        'PS> $env:HSA_OVERRIDE_GFX_VERSION="10.3.0"; ollama serve',
        "C:\\Users\\me> set HSA_OVERRIDE_GFX_VERSION=10.3.0",
        "$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ python C:\\Users\\me\\train.py",
    ],
)
def test_an_override_on_windows_is_not_said_to_be_missing_from_the_failing_program(setting: str) -> None:
    # Windows' HIP runtime reads no HSA_ variable (RD539): the process may well have had it (ollama#3107)
    found = _findings(f"{setting}\n\n```\n$ python train.py\n{TENSILE_1032}\nAborted (core dumped)\n```\n")
    assert "RD920" not in found


def test_an_override_exported_only_after_the_error_is_not_said_to_be_missing_from_the_failing_program() -> None:
    text = f"```\n$ python train.py\n{TENSILE_1032}\n$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ python train.py\nworks now\n```\n"
    assert "RD920" not in _findings(text)


def test_a_fault_printed_before_the_override_was_exported_does_not_blame_the_override() -> None:
    text = f"```\n$ python train.py\n{FAULT}\n$ export HSA_OVERRIDE_GFX_VERSION=11.0.0\n$ python train.py\n```\n"
    assert "RD921" not in _findings(text)


def test_an_error_naming_the_override_target_shows_the_override_was_in_effect() -> None:
    assert "RD920" not in _findings(f"$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ python train.py\n{TENSILE_1030}\n")


def test_an_override_only_named_in_a_question_is_not_a_setting_shown() -> None:
    text = f"Should I try HSA_OVERRIDE_GFX_VERSION=10.3.0 for this?\n\n```\n{TENSILE_1032}\n```\n"
    assert "RD920" not in _findings(text)


def test_rocblas_names_the_arch_before_a_reporters_full_stop() -> None:
    facts = ingest(f"the logs continue to display:\n\n```\n{TENSILE_1032}.\n```\n").facts
    assert facts.symptoms.error_gfx.value == ["gfx1032"]


def test_a_gfx_the_reporter_expected_after_the_override_is_not_a_gpu() -> None:
    text = "My setup includes an RX 6600 XT.\n\nHowever, based on the overridden version, shouldn't it be looking at gfx1030 instead?\n"
    gfx = {str(a.gfx.value) for a in ingest(text).facts.gpus.agents if a.gfx.is_known}
    assert "gfx1030" not in gfx


def test_a_memory_fault_under_an_override_of_unknown_fit_asks_to_check_the_value() -> None:
    text = f"docker-compose.yml\n```\nservices:\n  ollama:\n    image: ollama/ollama:rocm\n    environment:\n      HSA_OVERRIDE_GFX_VERSION: 11.0.0\n```\n\n```\nollama  | {FAULT}\n```\n"
    assert "RD921" in _findings(text)


def test_a_memory_fault_under_an_override_that_fits_the_named_gpu_is_not_blamed_on_it() -> None:
    text = f"GPU: AMD Radeon RX 6600\n\n```\n$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n$ python train.py\n{FAULT}\n```\n"
    assert "RD921" not in _findings(text)


def test_a_memory_fault_without_an_override_says_nothing_about_overrides() -> None:
    assert "RD921" not in _findings(f"```\n$ python train.py\n{FAULT}\n```\n")
