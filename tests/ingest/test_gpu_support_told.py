"""A reporter who asks a program to add their GPU, or says it lacks or dropped it (gfx_not_in_wheel in prose).

Rows gpu_support_requested_told and gpu_support_lacking_told of rules/data/signatures.yaml; rule RD766.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, report_contexts, serious_findings, signature_contexts

REQUESTED = "gpu_support_requested_told"
LACKING = "gpu_support_lacking_told"


@pytest.mark.parametrize(
    "text",
    [
        # lmstudio-ai/lmstudio-bug-tracker#574
        "Hi, please enable support for rx 9070 / rx 9070 xt GPUs.\n",
        # ROCm/TheRock#7480
        "Request: RDNA2 Windows support, please include gfx1030/gfx1031/gfx1032\n",
        # likelovewant/ollama-for-amd#74 (no question mark needed, misspelt marker)
        "It's posible add the 9070xt to ollama-for-amd ?\n",
    ],
)
def test_a_request_to_add_the_reporters_gpu_is_read(text: str) -> None:
    assert REQUESTED in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # no GPU model, target or family: support for AMD at all, or for several GPUs
        "Please add support for AMD GPUs.\n",
        "Could you add support for multiple GPUs?\n",
        # a slot, not a build (ROCm/ROCm#594)
        "Is it possible to enable RX 960 on second PCIEX4 slot without atomics\n",
        # "enable" without "support"
        "Please enable the RX 6800 in the BIOS first.\n",
        # already done
        "Thanks for adding gfx1201, please add it to the Windows build too, RX 9070 works now.\n",
        # a changelog bullet
        "- Add gfx1201 to the default targets\n",
        # a pull request's own text
        "Please add gfx1201 to the CMake targets in this PR\n",
        # met later on the line
        "Please add gfx1201 to the build. EDIT: this is fixed in 0.3.15, thanks!\n",
        # a maintainer asking for a log, and advice: no build is asked for
        "Could you add the output of rocminfo for your RX 7900 XTX?\n",
        "I suggest you add HSA_OVERRIDE_GFX_VERSION=10.3.0 for the RX 6700 XT.\n",
        # a GPU named only as an aside after the request (ROCm/rocBLAS#1536)
        "Can you add support for that? (Maybe also 890M gpu?)\n",
        # a GPU to be bought, a friend's
        "I plan to buy an RX 9070 XT next month. Could you add support for the RX 9070 XT?\n",
        "My friend has an RX 6700 XT, can you add support for gfx1031?\n",
        # the reporter's own build, and a request for a log
        "Please help: I tried to add gfx1030 to PYTORCH_ROCM_ARCH and it still fails on my RX 6800.\n",
        "Can you tell me how to add gfx1030 to the build flags?\n",
        "Please include the RX 6800 dmesg output too.\n",
        # a documentation entry for a GPU that works
        "Please add the RX 7900 GRE to the compatibility matrix; it works fine.\n",
    ],
)
def test_a_request_without_a_gpu_model_or_already_done_is_not_read(text: str) -> None:
    assert REQUESTED not in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "Currently rocBLAS lacks 780M gpu support.\n",
        'Ever since the runtime update to 7.1.1 for Windows, you dropped RDNA 2 support.\n',
        "RDNA2 not supported with the ROCm version you are using... (7.1? 7.2?)\n",
        "It seems to me that the wheel does not support gfx1100.\n",
    ],
)
def test_a_program_said_to_lack_the_reporters_gpu_is_read(text: str) -> None:
    assert LACKING in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # the motherboard, not a build (ROCm/ROCm#1214: PCIe atomics)
        "Hi it seems like my motherboard does not support the AMD RX 580 4G RAM.\n",
        # a question
        "Does the wheel not support gfx1100?\n",
        # the past
        "The old engine used to lack RDNA 2 support.\n",
        # a feature missing on the GPU, not the build
        "rocprof doesn't support the RX 7900 XTX counters yet\n",
        "gfx1100 not supported by composable_kernel flash attention, so I use SDPA math.\n",
    ],
)
def test_a_lack_said_of_hardware_a_feature_asked_or_past_is_not_read(text: str) -> None:
    assert LACKING not in signature_contexts(text)


def test_a_request_for_the_reporters_gpu_is_a_gfx_unsupported_warning() -> None:
    findings = serious_findings("Hi, please enable support for rx 9070 / rx 9070 xt GPUs.\n")
    assert ("RD766", "warning", "gfx-unsupported") in findings


def test_a_lack_said_of_another_discrete_gpu_is_no_finding_on_the_machines_gpu() -> None:
    text = "My GPU is an RX 7900 XTX (gfx1100).\nI know the wheel does not support gfx1031, but mine should be fine.\n"
    assert LACKING in signature_contexts(text.split("\n", 1)[1])
    assert not [f for f in serious_findings(text) if f[0] == "RD766"]


def test_a_quoted_request_is_not_read() -> None:
    quoted = "hipMemcpy segfaults on my RX 6800.\n\n> please add support for gfx1030\n\nThat was added in v0.3.10.\n"
    assert REQUESTED in report_contexts(quoted.replace("> ", ""))
    assert REQUESTED not in report_contexts(quoted)


@pytest.mark.parametrize(
    "text, named",
    [
        ("Hi, please enable support for rx 9070 / rx 9070 xt GPUs.\n", ["gfx1201"]),
        ("Request: RDNA2 Windows support, please include gfx1030/gfx1031/gfx1032\n", ["rdna2", "gfx1030", "gfx1031", "gfx1032"]),
        ("Currently rocBLAS lacks 780M gpu support.\n", ["gfx1103"]),
        ("Ever since the runtime update to 7.1.1 for Windows, you dropped RDNA 2 support.\n", ["rdna2"]),
        ("Would you please add support for Navi 31? My 7900 XTX is not used.\n", ["gfx1100"]),
        ("Please enable support for Strix Halo in the ROCm engine.\n", ["gfx1151"]),
        ("I have an RX 6800. Vega is not supported anymore.\n", ["gcn5"]),
        ("Please add support for the RX 7900 in the ROCm engine.\n", ["?rx 7900"]),
        # two GPUs joined by "and" are two names, not one run the table reads as the second
        ("Please add support for RX 580 and Navi 10.\n", ["gfx803", "gfx1010"]),
        # after the match only a list goes on: the GPU compared with is not asked for
        ("Could you please add support for gfx1030 as you did for gfx1100?\n", ["gfx1030"]),
        ("Please add support for the RX 9070 XT, like ollama already has for the RX 7900 XTX.\n", ["gfx1201"]),
        ("Please add support for gfx1103 (780M) and gfx1150 (890M).\n", ["gfx1103", "gfx1150"]),
    ],
)
def test_the_gpu_a_request_or_lack_names_is_read_as_a_target_or_family(text: str, named: list) -> None:
    assert ingest(text).facts.symptoms.support_gpus.value == named


@pytest.mark.parametrize(
    "text",
    [
        # another family or target than the machine's GPU
        "I have an RX 7900 XTX. Note: RDNA 2 is not supported by the Windows wheels.\n",
        "My GPU is an RX 7900 XTX. Could you please add support for gfx1031 as well?\n",
        "My card is a 9070 XT. LM Studio dropped RDNA 2 support in 0.3.20.\n",
        "I have an RX 6800 and ROCm 6.2. Vega is not supported anymore.\n",
        "My Radeon RX 6900 XT works. Polaris is not supported by ROCm 6.\n",
        "I own an RX 7900 GRE. Could you add Navi 48 support? Many users ask for it.\n",
        # a feature of a tool that is not the program's GPU code
        "I have an RX 7900 XTX. Please add support for the RX 7900 XTX in the fan-curve editor.\n",
        "Running an RX 7600. Please add support for the RX 7600 in the overclocking tab.\n",
        # a GPU the request compares with, not one it asks for
        "I have a 7900 XTX. Could you please add support for gfx1030 as you did for gfx1100?\n",
        # a lack the same sentence says is overcome
        "ROCm 6.4 dropped gfx906 support, but with the 6.3 libraries my MI50 works now.\n",
    ],
)
def test_a_request_or_lack_about_another_gpu_or_no_build_is_no_finding_on_the_machines_gpu(text: str) -> None:
    assert not [f for f in serious_findings(text) if f[0] == "RD766"]


@pytest.mark.parametrize(
    "text",
    [
        "You dropped RDNA 2 support; my RX 6800 no longer works with the ROCm engine.\n",
        "RDNA2 not supported with the ROCm version you are using. I have a 6900 XT.\n",
        "Would you please add support for Navi 31? My 7900 XTX is not used.\n",
        "I have a Radeon RX 7600 XT. Please add support for gfx1102 in the Windows build.\n",
        "My RX 6750 XT (gfx1031): please include gfx1030/gfx1031/gfx1032 in the Windows wheels.\n",
    ],
)
def test_a_request_or_lack_naming_the_machines_gpu_by_model_target_or_family_is_a_finding(text: str) -> None:
    assert ("RD766", "warning", "gfx-unsupported") in serious_findings(text)


@pytest.mark.parametrize(
    "text",
    [
        "Please consider to add the support on AMD iGPU like Radeon 890m available on AMD Ryzen AI 9 HX 370 and NPU. Thanks",
        "Please enable builds for gfx1152 and gfx1153 (or gfx115x).",
        "Could you add builds for the RX 9070 XT?",
    ],
)
def test_a_request_for_builds_or_support_on_a_gpu_named_after_its_kind_is_read(text: str) -> None:
    assert "gpu_support_requested_told" in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "Please add support for cards like the ones in the list",
        "Could you add the build log for the RX 7900 XTX?",
        "Please add builds for Windows",
    ],
)
def test_builds_or_a_kind_of_gpu_without_a_model_named_is_not_read(text: str) -> None:
    assert "gpu_support_requested_told" not in signature_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # learn56f: "Radeon RX580" (ROCm/legacy-rocm-build#1409) read as "RX 580" and "Radeon RX 580" are
        "I realized ROCm 4.0 does not support Radeon RX580 anymore.\n",
        "I realized ROCm 4.0 does not support Radeon RX 580 anymore.\n",
        "I realized ROCm 4.0 does not support RX 580 anymore.\n",
        "I realized ROCm 4.0 does not support my radeon rx580.\n",
    ],
)
def test_a_lack_is_read_whether_radeon_and_rx_are_spaced_from_the_number_or_not(text: str) -> None:
    assert LACKING in signature_contexts(text)
    assert ingest(text).facts.symptoms.support_gpus.value == ["gfx803"]
