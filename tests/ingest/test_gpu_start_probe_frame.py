"""The start-up GPU probe of ComfyUI's model management (Fooocus and Forge ship it) as a traceback frame: read as
torch.cuda's initialisation failing (context torch_cuda_init_failed), and RD579 where the paste is cut before the
message on an AMD machine. Assertions are about signatures and finding ids, never about wording.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, report_contexts

INIT_FAILED = "torch_cuda_init_failed"

# lllyasviel/Fooocus#285 (Windows, the package's ComfyUI copy), Haoming02/sd-webui-forge-classic#308 (Forge's
# backend), Comfy-Org/ComfyUI#1662's shape (Linux, ComfyUI itself): the frame line after its module's frame
FRAMES = [
    '  File "C:\\Users\\me\\Downloads\\Fooocus_win64_1-1-1035\\Fooocus\\repositories\\ComfyUI-from-StabilityAI-Official\\comfy\\model_management.py", line 104, in <module>\n'
    "    total_vram = get_total_memory(get_torch_device()) / (1024 * 1024)\n",
    '  File "D:\\Programme\\AI Zeug\\sd-webui-forge-neo\\backend\\memory_management.py", line 132, in <module>\n'
    "    total_vram = get_total_memory(get_torch_device()) / (1024 * 1024)\n",
    '  File "/home/me/ComfyUI/comfy/model_management.py", line 221, in <module>\n'
    "    total_vram = get_total_memory(get_torch_device()) / (1024 * 1024)\n"
    "                                  ^^^^^^^^^^^^^^^^^^\n",
]


@pytest.mark.parametrize("frame", FRAMES)
def test_the_start_up_gpu_probe_frame_is_read_as_the_gpu_initialisation_failing(frame: str) -> None:
    assert INIT_FAILED in report_contexts("Traceback (most recent call last):\n" + frame)


def test_the_probe_line_quoted_as_code_is_not_a_failure() -> None:
    text = "In model_management.py the module does this at import:\n\n    total_vram = get_total_memory(get_torch_device()) / (1024 * 1024)\n"
    assert INIT_FAILED not in report_contexts(text)


def test_an_amd_report_cut_at_the_probe_gets_the_torch_build_fallback() -> None:
    text = "Ryzen 5 5600H laptop with an AMD Radeon RX 5500M, Windows 10\nTraceback (most recent call last):\n" + FRAMES[0] + "[...]\n"
    assert "RD579" in problems_shown(text)


def test_the_message_shown_after_the_probe_is_judged_by_its_own_rules() -> None:
    text = (
        "Radeon RX 6750 XT on Arch Linux\nTraceback (most recent call last):\n" + FRAMES[2]
        + "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver\n"
    )
    shown = problems_shown(text)
    assert "RD579" not in shown
    assert "RD500" in shown or "RD528" in shown


def test_the_probe_failing_on_an_nvidia_machine_is_no_amd_finding() -> None:
    text = "NVIDIA GeForce RTX 3060, driver 550\nTraceback (most recent call last):\n" + FRAMES[2] + "[...]\n"
    assert "RD579" not in problems_shown(text)
