"""A report's template fields are read the same in every layout and label wording, and a tool's own
"key: value" output is never taken for them (nor they for the tool's).

Layouts: an issue form's ``### GPU`` heading with the value below, ``GPU: v``, ``- GPU: v``, ``* **GPU**: v``,
``**GPU:** v`` and a ``| GPU | v |`` table row. Wordings: the labels of rules/data/report_fields.yaml that real
reports use (cited there and in tests/ingest/metamorphic.py, block h36h). The metamorphic kinds "report field
layouts" and "report field label wordings" lay out and relabel every corpus report the same ways.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict, Optional

import pytest
from ingest_helpers import ingest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from metamorphic import _LAYOUTS, _laid_out, field_label_wordings, field_layouts  # noqa: E402

FIELDS = [
    ("gpu", ("GPU", "Graphics card", "Video card"), "AMD Radeon RX 7900 XTX"),
    ("os", ("OS", "Operating System", "Distro"), "Ubuntu 22.04"),
    ("rocm", ("ROCm", "ROCm version"), "6.2.0"),
    ("torch", ("PyTorch", "PyTorch version", "torch version"), "2.5.1+rocm6.2"),
    ("python", ("Python", "Python version"), "3.12.3"),
]
EXPECTED = {"gpu": "gfx1100", "os": "ubuntu 22.04", "rocm": "6.2.0", "torch": "2.5.1+rocm6.2", "python": "3.12.3"}


def read(text: str) -> Dict[str, Optional[str]]:
    facts = ingest(text).facts
    known = lambda fact: str(fact.value) if fact.is_known else None  # noqa: E731
    gfx = sorted(str(a.gfx.value) for a in facts.gpus.agents if a.gfx.is_known)
    distro = known(facts.host.distro_id)
    return {
        "gpu": ",".join(gfx) or None,
        "os": f"{distro} {known(facts.host.distro_version)}" if distro else None,
        "rocm": known(facts.rocm.version),
        "torch": known(facts.torch.version),
        "python": known(facts.python.version),
    }


@pytest.mark.parametrize("layout", _LAYOUTS)
@pytest.mark.parametrize("kind, label, value", [(k, label, v) for k, labels, v in FIELDS for label in labels])
def test_a_template_field_is_read_in_every_layout_and_label_wording(layout: str, kind: str, label: str, value: str) -> None:
    text = "My setup:\n\n" + "\n".join(_laid_out(layout, label, value)) + "\n\nThe model crashes on load."
    assert read(text)[kind] == EXPECTED[kind]


def test_a_template_block_with_os_and_pytorch_version_is_not_taken_for_collect_env_output() -> None:
    # The fields of a how-to's environment block (howto-7900xtx-win-rocm-4-wsl2) with PyTorch's own label: the
    # block was read as collect_env (it shares "OS:" and "PyTorch version:") and its ROCm field was lost.
    text = "GPU: AMD Radeon RX 7900 XTX (gfx1100)\nOS: Ubuntu 24.04\nROCm: 7.1.1\nPyTorch version: 2.6.0+rocm6.4.2\n"
    assert read(text) == {"gpu": "gfx1100", "os": "ubuntu 24.04", "rocm": "7.1.1", "torch": "2.6.0+rocm6.4.2", "python": None}


def test_collect_env_output_is_still_read_as_collect_env() -> None:
    text = (
        "PyTorch version: 2.6.0+rocm6.2.4\nIs debug build: False\nCUDA used to build PyTorch: N/A\n"
        "ROCM used to build PyTorch: 6.2.41134-65d174c3e\n\nOS: Ubuntu 24.04.1 LTS (x86_64)\n"
        "GPU models and configuration: AMD Instinct MI300X (gfx942:sramecc+:xnack-)\n"
    )
    assert read(text) == {"gpu": "gfx942", "os": "ubuntu 24.04", "rocm": None, "torch": "2.6.0+rocm6.2.4", "python": None}


def _context(text: str) -> frozenset:
    found = ingest(text).facts.symptoms.context
    return frozenset(found.value or ()) if found.is_known else frozenset()


@pytest.mark.parametrize(
    "typed",
    ["PyTorch version: 2.0.0", "**PyTorch version**: 2.0.0", "- PyTorch version: 2.0.0", "Pytorch: 2.0.0", "torch version: 2.0.0"],
)
def test_a_typed_untagged_pytorch_version_field_is_not_taken_for_a_tools_output(typed: str) -> None:
    # pytorch/pytorch#96964 typed "Pytorch: 2.0.0" under its template; a version retold drops its tag often.
    assert not {c for c in _context(f"GPU: RX 7900 XTX\nOS: Ubuntu 22.04\n{typed}\n") if c.startswith("torch_release_untagged")}


@pytest.mark.parametrize(
    "printed",
    [
        "PyTorch version: 2.4.0\nIs debug build: False\nCUDA used to build PyTorch: 12.1\nROCM used to build PyTorch: N/A\n",
        "Total VRAM 24560 MB, total RAM 64243 MB\npytorch version: 2.4.0\nSet vram state to: NORMAL_VRAM\n",
    ],
)
def test_collect_env_and_comfyui_printing_an_untagged_torch_are_still_read(printed: str) -> None:
    assert "torch_release_untagged_collect_env" in _context(printed)


# ------------------------------------------------------------------ the rewrites themselves

TOOL_OUTPUTS = [
    # collect_env, unfenced and cut short after its first section
    "Collecting environment information...\nPyTorch version: 2.0.1+rocm5.4.2\nIs debug build: False\n"
    "ROCM used to build PyTorch: 5.4.22803-474e8620\n\nOS: SUSE Lin\nPython version: 3.10.12 (main) [GCC 11] (64-bit runtime)\n",
    # rocminfo's agent lines
    "Agent 2\n*******\n  Name:                    gfx1100\n  Marketing Name:          AMD Radeon RX 7900 XTX\n",
    # amd-smi static: "GPU: 0" is a device index
    "GPU: 0\n    ASIC:\n        MARKET_NAME: AMD Instinct MI300X\n",
    # vLLM's collect_env pads its keys
    "OS                           : Ubuntu 22.04.5 LTS (x86_64)\n",
    # fenced
    "```\nGPU: RX 7900 XTX\nOS: Ubuntu 22.04\n```\n",
    # indented (a Markdown code block) and quoted (another person's text)
    "    GPU: RX 7900 XTX\n> OS: Ubuntu 22.04\n",
]


@pytest.mark.parametrize("rewrite", [field_layouts, field_label_wordings])
@pytest.mark.parametrize("output", TOOL_OUTPUTS)
def test_the_field_rewrites_never_touch_a_tools_own_output(rewrite, output: str) -> None:
    assert rewrite(output) == output


def test_the_field_layout_follows_the_fields_position_and_keeps_values_byte_for_byte() -> None:
    text = "I run this:\n\nGPU: RX 7900 XTX\nOS: Ubuntu 22.04  \nROCm: 6.2 (from AMD's repo)\n\nIt hangs."
    assert field_layouts(text) == (
        "I run this:\n\n### GPU\n\nRX 7900 XTX\n\n- OS: Ubuntu 22.04  \n- ROCm: 6.2 (from AMD's repo)\n\nIt hangs."
    )
    assert field_layouts(text) == field_layouts(text)


def test_an_issue_form_heading_becomes_a_line_and_a_table_row_leaves_its_pipes() -> None:
    form = "### Operating System\n\nUbuntu 24.04\n\n### GPU\n\nAMD Radeon RX 7800 XT\n"
    assert field_layouts(form) == "Operating System: Ubuntu 24.04\n\nGPU: AMD Radeon RX 7800 XT\n"
    assert field_layouts("| OS | Windows 11 |\n") == "### OS\n\nWindows 11\n"


def test_label_wordings_cycle_by_position_and_distro_names_only_a_linux_distribution() -> None:
    text = "GPU: RX 6600\nOS: Windows 11\nPyTorch version: 2.5.1+rocm6.2\n\nGPU: RX 7600\nOS: Fedora 41\n"
    assert field_label_wordings(text) == (
        "Graphics card: RX 6600\nOperating System: Windows 11\nPyTorch: 2.5.1+rocm6.2\n\nVideo card: RX 7600\nOperating System: Fedora 41\n"
    )
