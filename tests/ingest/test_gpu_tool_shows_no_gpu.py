"""A tool's own words, or the reporter's, that it found no AMD GPU: the symptom RD560 (a kernel older than the
GPU) reads (issue 23, drv49).

Forms from ROCm/legacy-rocm-build#1752 and #1742 (rocm-smi's "WARNING: No AMD GPUs specified"),
netblue30/firejail#6364 and hashcat/hashcat#3550 (hashcat's "No devices found/left."), ROCm/legacy-rocm-build#1430,
#1433, #1643 (clinfo's AMD platform with "Number of devices 0"; "clinfo shows no devices detected"); the texts are
written for the test in those shapes.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown

from rocm_doctor.ingest import ingest_text

KERNEL_TOO_OLD = "I run Arch Linux with kernel 6.6.10-arch1-1 and an RX 9070 XT.\n"


def _context(text: str) -> list:
    return ingest_text(text).facts.symptoms.context.value or []


@pytest.mark.parametrize(
    "text, said",
    [
        ("=== ROCm System Management Interface ===\nWARNING: No AMD GPUs specified\n", "gpu_tool_printed_no_gpu"),
        ("$ hashcat -b -m 1000\nNo devices found/left.\n", "gpu_tool_printed_no_gpu"),
        (
            "  Platform Name:\t\t\t\t AMD Accelerated Parallel Processing\nNumber of devices:\t\t\t\t 0\n",
            "clinfo_amd_platform_no_devices",
        ),
        (
            "  Platform Name                                   AMD Accelerated Parallel Processing\n"
            "Number of devices                                 0\n",
            "clinfo_amd_platform_no_devices",
        ),
        ("`clinfo` shows no devices detected on my RX 590.\n", "gpu_tool_shows_no_gpu_told"),
        ("clinfo returns zero devices detected.\n", "gpu_tool_shows_no_gpu_told"),
        ("rocm-smi shows no GPU at all.\n", "gpu_tool_shows_no_gpu_told"),
    ],
)
def test_a_tool_that_found_no_amd_gpu_is_read(text: str, said: str) -> None:
    assert said in _context(text)


@pytest.mark.parametrize(
    "text",
    [
        "Number of devices: 0\n",  # no AMD platform in the block: another platform's count
        "  Platform Name   NVIDIA CUDA\nNumber of devices   0\n",
        "Does clinfo show no devices for you too?\n",
        "clinfo shows 1 device: gfx1100.\n",
    ],
)
def test_another_platform_a_question_or_a_device_found_is_not_read(text: str) -> None:
    said = set(_context(text))
    assert said.isdisjoint({"gpu_tool_printed_no_gpu", "clinfo_amd_platform_no_devices", "gpu_tool_shows_no_gpu_told"})


@pytest.mark.parametrize(
    "line",
    [
        "WARNING: No AMD GPUs specified",
        "hashcat: No devices found/left.",
        'level=INFO source=gpu.go:347 msg="no compatible GPUs were discovered"',
        "rocm-smi shows no GPU.",
    ],
)
def test_the_symptom_lets_rd560_judge_a_kernel_older_than_the_gpu(line: str) -> None:
    assert "RD560" in problems_shown(KERNEL_TOO_OLD + line + "\n")


def test_without_the_old_kernel_the_symptom_alone_gives_no_kernel_finding() -> None:
    assert "RD560" not in problems_shown("I run Arch Linux with kernel 6.15.2-arch1-1 and an RX 9070 XT.\nWARNING: No AMD GPUs specified\n")


# rev49a: "Number of devices 0" counts only as the AMD platform's own (its name on the line right before). A healthy
# clinfo that lists AMD's platform with its GPU and Mesa's Clover with no device was read as AMD's platform empty.
CLINFO_AMD_ONE_CLOVER_NONE = (
    "Number of platforms                               2\n"
    "  Platform Name                                   AMD Accelerated Parallel Processing\n"
    "  Platform Vendor                                 Advanced Micro Devices, Inc.\n"
    "  Platform Name                                   Clover\n"
    "  Platform Vendor                                 Mesa\n"
    "\n"
    "  Platform Name                                   AMD Accelerated Parallel Processing\n"
    "Number of devices                                 1\n"
    "  Device Name                                     gfx1100\n"
    "  Board name                                      AMD Radeon RX 7900 XTX\n"
    "\n"
    "  Platform Name                                   Clover\n"
    "Number of devices                                 0\n"
)


def test_another_platforms_empty_count_beside_amds_gpu_is_not_read() -> None:
    assert "clinfo_amd_platform_no_devices" not in _context(CLINFO_AMD_ONE_CLOVER_NONE)


def test_amds_own_empty_count_is_read_with_crlf_line_ends() -> None:
    text = "  Platform Name:\t\t\t\t AMD Accelerated Parallel Processing\r\nNumber of devices:\t\t\t\t 0\r\n"
    assert "clinfo_amd_platform_no_devices" in _context(text)


@pytest.mark.parametrize(
    "text",
    [
        "If clinfo shows no devices, check your groups.\n",
        "When clinfo shows no devices, the OpenCL ICD is missing.\n",
        "clinfo shows no devices until I install rocm-opencl-runtime.\n",
    ],
)
def test_a_condition_advice_or_an_ended_state_is_not_a_tool_showing_no_gpu(text: str) -> None:
    assert "gpu_tool_shows_no_gpu_told" not in _context("My GPU is an RX 6800.\n" + text)
