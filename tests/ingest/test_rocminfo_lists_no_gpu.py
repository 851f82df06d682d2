"""The reporter's words that rocminfo shows no GPU agent (signature rocminfo_lists_no_gpu_told).

Issue 23 (h30g probes): "rocminfo does not list the GPU", "rocminfo only lists the CPU agent" set no
context, so a kernel too old for an RX 9070 XT (RD560) went unsaid. The forms are those of independent
real reports (legacy-rocm-build#3897 "rocminfo doesn't show GPU", ROCT-Thunk-Interface#44 "shows no
devices", a WSL2 report's "rocminfo only shows CPU, no AMD GPU detected"); the texts are written for the
test.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown


def _contexts(text: str) -> list:
    return ingest(text).facts.symptoms.context.value or []


@pytest.mark.parametrize(
    "text",
    [
        "rocminfo doesn't show my GPU.",
        "rocminfo does not list the GPU.",
        "`rocminfo` only lists the CPU agent.",
        "rocminfo shows only my CPU.",
        "After installing ROCm 6.4.1, rocminfo shows CPU only.",
        "ROCm installed but rocminfo shows no GPU agent.",
    ],
)
def test_rocminfo_said_to_show_no_gpu_is_read_as_the_gpu_not_seen(text: str) -> None:
    found = _contexts(text)
    assert "rocminfo_lists_no_gpu_told" in found and "gpu_not_seen_said" in found


@pytest.mark.parametrize(
    "text",
    [
        "rocminfo shows the CPU and the GPU.",
        "rocminfo lists the CPU agent and gfx1201.",
        "rocminfo shows my GPU fine.",
        # an earlier state, another machine
        "Before the update rocminfo only showed the CPU, now it lists gfx1201.",
        "On my other machine rocminfo doesn't show the GPU.",
    ],
)
def test_rocminfo_showing_the_gpu_or_a_past_or_other_machine_is_not_read(text: str) -> None:
    assert "rocminfo_lists_no_gpu_told" not in _contexts(text)


def test_an_rdna4_card_on_the_68_kernel_whose_rocminfo_lists_only_the_cpu_is_said_to_need_a_newer_kernel() -> None:
    text = "RX 9070 XT on Ubuntu 24.04 with the stock 6.8 kernel, ROCm 6.4.1 installed. rocminfo only lists the CPU agent.\n"
    assert problems_shown(text)[:1] == ["RD560"]


def test_an_rdna4_card_on_a_kernel_that_drives_it_whose_rocminfo_lists_only_the_cpu_gets_no_kernel_finding() -> None:
    text = "RX 9070 XT on Ubuntu 24.04 with the 6.14 kernel, ROCm 6.4.1 installed. rocminfo only lists the CPU agent.\n"
    assert "RD560" not in problems_shown(text)
