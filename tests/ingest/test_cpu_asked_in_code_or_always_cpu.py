"""The CPU asked for by Forge's and Fooocus's --always-cpu or by the user's code (`device="cpu"`) is a guard
(cpu_asked_on_command_line, rev52c): PyTorch's CPU-kernel half-precision error then says what was asked, and no
torch-build finding concludes that torch lacks a GPU backend. map_location='cpu' (loading a checkpoint) is not it.
Assertions are about contexts and finding categories, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, serious_findings

_ERROR = "RuntimeError: \"addmm_impl_cpu_\" not implemented for 'Half'"


@pytest.mark.parametrize(
    "line",
    [
        'pipe = pipeline("text-generation", model=m, device="cpu", torch_dtype=torch.float16)',
        "model.to(device='cpu').half()",
        "Windows 11, Forge with ZLUDA, launched with --always-cpu",
    ],
)
def test_the_cpu_asked_for_silences_the_cpu_run_conclusions(line: str) -> None:
    report = f"RX 6800, Ubuntu 22.04, ROCm 6.2\n{line}\n{_ERROR}\n"
    assert "cpu_asked_on_command_line" in (ingest(report).facts.symptoms.context.value or [])
    assert "torch-build" not in [category for _, _, category in serious_findings(report)]


def test_a_checkpoint_loaded_to_the_cpu_is_not_the_cpu_asked_for() -> None:
    report = f"RX 6800, Ubuntu 22.04, ROCm 6.2\nstate = torch.load(path, map_location=\"cpu\")\n{_ERROR}\n"
    assert "cpu_asked_on_command_line" not in (ingest(report).facts.symptoms.context.value or [])
