"""A gfx1151 GPU hang with compute wave save/restore on (rule RD387, context amdgpu_cwsr_disabled_shown, recent66b):
the shapes of the kernel parameter in ROCm/legacy-rocm-build#5724 and #6386 (GRUB line, modprobe.d) and of the
misspelt prefix of lemonade-sdk/llamacpp-rocm#39, written for the test; other GPUs and CWSR already off stay silent."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_contexts

CWSR_OFF = "amdgpu_cwsr_disabled_shown"

HALO = "| GPU | Radeon 8060S Graphics (gfx1151), integrated APU |\n| Kernel | 6.17.0-14-generic |\n"
HANG = "HW Exception by GPU node-1 (Agent handle: 0x634e639fd9b0) reason :GPU Hang\nFatal Python error: Aborted\n"


@pytest.mark.parametrize(
    "text",
    [
        "BOOT_IMAGE=/boot/vmlinuz-6.17.8 root=UUID=1 ro quiet amdgpu.cwsr_enable=0 amdgpu.gttsize=131072\n",
        'GRUB_CMDLINE_LINUX_DEFAULT="quiet splash amdgpu.cwsr_enable=0"\n',
        "$ cat /etc/modprobe.d/amdgpu.conf\noptions amdgpu cwsr_enable=0\n",
    ],
)
def test_cwsr_turned_off_on_the_command_line_or_in_modprobe_is_read(text: str) -> None:
    assert CWSR_OFF in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "BOOT_IMAGE=/boot/vmlinuz-6.18.0 ro quiet amd_iommu=off aamdgpu.cwsr_enable=0 ttm.pages_limit=33554432\n",
        "BOOT_IMAGE=/boot/vmlinuz-6.18.0 ro quiet amdgpu.cwsr_enable=1\n",
        "options radeon cwsr_enable=0\n",
    ],
)
def test_a_misspelt_prefix_cwsr_on_or_another_module_is_not_read(text: str) -> None:
    assert CWSR_OFF not in signature_contexts(text)


def test_a_gfx1151_gpu_hang_shows_rd1066() -> None:
    assert "RD387" in problems_shown(HALO + HANG)


def test_a_gfx1151_hang_with_the_prefix_misspelt_still_shows_rd1066() -> None:
    cmdline = "BOOT_IMAGE=/boot/vmlinuz-6.18.0 ro aamdgpu.cwsr_enable=0\n"
    assert "RD387" in problems_shown(HALO + cmdline + HANG)


def test_a_gfx1151_hang_with_cwsr_already_off_does_not_show_rd1066() -> None:
    cmdline = "BOOT_IMAGE=/boot/vmlinuz-6.18.0 ro amdgpu.cwsr_enable=0\n"
    assert "RD387" not in problems_shown(HALO + cmdline + HANG)


def test_a_gfx1100_hang_does_not_show_rd1066() -> None:
    dgpu = "| GPU | Radeon RX 7900 XTX (gfx1100) |\n| Kernel | 6.17.0-14-generic |\n"
    assert "RD387" not in problems_shown(dgpu + HANG)


HUNG = "gpu_hang_told"


@pytest.mark.parametrize(
    "text",
    [
        "I noticed 3 memory GPU hangs.\n",
        "After 30-60 minutes, evictions cascade, killing the compositor and leaving the GPU in a hung state.\n",
        "When running inference for larger models, a GPU hang occurs:\n",
        "GPU hang on AMD AI+ 395pro (gfx1151 + ubuntu24.04)\n",
        "Running the second model hangs the whole GPU.\n",
    ],
)
def test_the_reporters_words_that_the_gpu_hangs_are_read(text: str) -> None:
    assert HUNG in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "With the new kernel the GPU no longer hangs.\n",
        "If the GPU hangs, add amdgpu.cwsr_enable=0 and reboot.\n",
        "The GPU hang is fixed in 6.18.\n",
        "See https://github.com/ROCm/ROCm/issues/5151-gpu-hang-on-strix for details.\n",
        "The desktop hangs when I start the program.\n",
        "Does the GPU hang for anyone else?\n",
    ],
)
def test_a_hang_denied_fixed_conditional_linked_asked_or_not_the_gpus_is_not_read(text: str) -> None:
    assert HUNG not in signature_contexts(text)


def test_a_gfx1151_that_the_reporter_says_hung_shows_rd1066() -> None:
    assert "RD387" in problems_shown(HALO + "After an hour the GPU is left in a hung state.\n")


# review66b: a hang that stopped, a hang as what a tool or step handles, or someone else's hang is not the reporter's
# GPU hanging now (each was read as one, and RD387 then fired on a gfx1151 report).
@pytest.mark.parametrize(
    "text",
    [
        "GPU hangs stopped after updating to kernel 6.18.\n",
        "The GPU hangs went away after I updated the kernel.\n",
        "Disable GPU hang detection with amdgpu.lockup_timeout.\n",
        "The GPU hang watchdog reset the GPU after 2 seconds.\n",
        "To check for a GPU hang, look at dmesg.\n",
        "I want to avoid a GPU hang when training.\n",
        "Someone on discord has a GPU hang with the same setup.\n",
    ],
)
def test_a_hang_gone_handled_by_a_tool_or_someone_elses_is_not_read(text: str) -> None:
    assert HUNG not in signature_contexts(text)
    assert "RD387" not in problems_shown(HALO + text)


def test_the_reporters_gpu_hanging_under_training_is_still_read() -> None:
    assert "RD387" in problems_shown(HALO + "llama.cpp works, PyTorch training makes the GPU hang.\n")
