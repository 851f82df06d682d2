"""Libraries that build their own GPU code and refuse a target their list lacks (RD654): flash-attn's ROCm
(CK) build and aiter's JIT and device table. Assertions are about rule ids and categories, never wording;
the lines are in the shapes the programs print (setup.py, aiter/jit/core.py, chip_info.py) and the real
reports cited in rules/own_gpu_code.yaml paste them.
"""

from __future__ import annotations

import re
from typing import List, Tuple

import pytest
from ingest_helpers import ingest

from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


def serious(text: str) -> List[Tuple[str, str]]:
    findings = evaluate(load_rules([], use_env=False), ingest(text).facts).findings
    return [(f.id, f.category) for f in findings if f.severity in ("error", "warning")]


@pytest.mark.parametrize(
    "text",
    [
        # flash-attn's setup.py, in a pip build log on an RDNA3 card
        "RX 7900 XTX, Ubuntu 24.04. pip install flash-attn fails:\n"
        '      File "/tmp/pip-install-x/flash-attn_1/setup.py", line 140, in validate_and_update_archs\n'
        "        assert all(\n"
        "    AssertionError: One of GPU archs of ['gfx1100'] is invalid or not supported by Flash-Attention\n",
        # the same message from a docker build, GPU_ARCHS set by hand, the card named only by its target
        'I set GPU_ARCHS="gfx908" on our MI100 node and the image build stops:\n'
        "10.47 AssertionError: One of GPU archs of ['gfx908'] is invalid or not supported by Flash-Attention\n",
        # the newer wording with the allowed list
        "Building flash_attn from main for my Radeon 780M with GPU_ARCHS=gfx1103:\n"
        "AssertionError: Invalid archs: ['gfx1103']. Allowed: ['native', 'gfx90a', 'gfx942', 'gfx950', 'gfx1100', "
        "'gfx1101', 'gfx1102', 'gfx1150', 'gfx1151', 'gfx1200', 'gfx1201']\n",
        # aiter's sampling kernels under vLLM (a container's prefixed log)
        "Strix Halo, vLLM container with VLLM_ROCM_USE_AITER=1:\n"
        'vllm-1  | (EngineCore pid=165)   File "/opt/venv/lib64/python3.12/site-packages/aiter_meta/csrc/cpp_itfs/utils.py", line 160, in validate_and_update_archs\n'
        "vllm-1  | (EngineCore pid=165) AssertionError: One of GPU archs of ['gfx1151'] is invalid or not supported\n",
        # aiter's device table, wrapped in the rocminfo error
        "Radeon 8060S, vllm:\n"
        "RuntimeError: Get GPU arch from rocminfo failed \"Unknown GPU architecture: gfx1151. Supported architectures: "
        "['native', 'gfx90a', 'gfx908', 'gfx940', 'gfx941', 'gfx942', 'gfx945', 'gfx1100', 'gfx950']\"\n",
    ],
)
def test_a_library_refusing_the_gpu_target_of_its_own_list_is_the_first_finding(text: str) -> None:
    assert serious(text)[:1] == [("RD654", "gfx-unsupported")]


@pytest.mark.parametrize(
    "text",
    [
        "Before I added gfx908 to the list, the build used to fail with \"One of GPU archs of ['gfx908'] is invalid "
        "or not supported by Flash-Attention\". Now it builds and runs fine on my MI100.\n",
        "My friend's machine prints AssertionError: One of GPU archs of ['gfx1030'] is invalid or not supported by "
        "Flash-Attention, but mine (MI250X) works.\n",
        "On my MI250X (gfx90a) flash-attn 2.8.3 builds and runs; nothing refused the target.\n",
    ],
)
def test_a_refusal_of_the_past_or_another_machine_or_none_sets_no_library_finding(text: str) -> None:
    assert "RD654" not in [rule for rule, _ in serious(text)]


def test_a_refusal_of_a_target_every_release_lists_is_not_blamed_on_the_gpu() -> None:
    text = "MI250X. AssertionError: One of GPU archs of ['gfx90a'] is invalid or not supported by Flash-Attention\n"
    assert "RD654" not in [rule for rule, _ in serious(text)]


@pytest.mark.parametrize(
    "text",
    [
        "RX 7900 XTX, ROCm 6.2.3, Ubuntu 22.04. pip install flash-attn --no-build-isolation\n"
        "  RuntimeError: Error compiling objects for extension\n"
        "  ERROR: Failed building wheel for flash-attn\n"
        "Failed to build flash-attn\n",
        "I installed it in docker on my 7900 XTX (gfx1100). Here is the Error info:\n\n"
        "Failed to build flash_attn\n"
        "ERROR: ERROR: Failed to build installable wheels for some pyproject.toml based projects (flash_attn)\n",
    ],
)
def test_a_failed_flash_attn_build_on_a_gpu_its_releases_lack_says_so(text: str) -> None:
    assert ("RD655", "gfx-unsupported") in serious(text)


@pytest.mark.parametrize(
    "text",
    [
        "MI250X node. pip install flash-attn fails:\nERROR: Failed building wheel for flash-attn\n",
        "RTX 4090, CUDA 12.4: ERROR: Could not build wheels for flash-attn, which is required to install "
        "pyproject.toml-based projects\n",
        'RX 7900 XTX. Earlier I got "Failed building wheel for flash-attn", but after switching to the Triton '
        "backend it installed; now ComfyUI produces black images.\n",
        'Question: will I get "ERROR: Failed building wheel for flash-attn" on my 7900 XTX if I pip install it?\n',
        "My friend's 7900 XTX gives ERROR: Failed building wheel for flash-attn, my MI300X works.\n",
    ],
)
def test_a_failed_flash_attn_build_on_a_listed_or_non_amd_gpu_or_not_of_now_is_not_put_on_the_target(text: str) -> None:
    assert "RD655" not in [rule for rule, _ in serious(text)]


@pytest.mark.parametrize(
    "message",
    [
        "AssertionError: One of GPU archs of ['gfx1030', 'gfx1100'] is invalid or not supported by Flash-Attention",
        "AssertionError: Invalid archs: ['gfx1030', 'gfx1036']. Allowed: ['native', 'gfx90a', 'gfx942', 'gfx950', 'gfx1100']",
        "AssertionError: One of GPU archs of ['gfx1030', 'gfx1100'] is invalid or not supported",
    ],
)
def test_a_refused_list_of_several_targets_names_no_gpu(message: str) -> None:
    # the targets printed are GPU_ARCHS as set, and the assertion does not say which of several it refused:
    # the first of them is no GPU of this machine, and no error names it
    text = "RX 7900 XTX on Ubuntu 24.04. The build stops:\n" + message + "\n"
    result = ingest(text)
    assert [str(a.gfx.value) for a in result.facts.gpus.agents] == ["gfx1100"]
    assert "RD654" not in [rule for rule, _ in serious(text)]


def test_the_refusal_finding_does_not_vouch_for_the_rest_of_the_install() -> None:
    # the refusal says which list stopped the build; it says nothing of the driver, torch or ROCm install
    text = "RX 7900 XTX, Ubuntu 24.04.\nAssertionError: One of GPU archs of ['gfx1100'] is invalid or not supported by Flash-Attention\n"
    findings = [f for f in evaluate(load_rules([], use_env=False), ingest(text).facts).findings if f.id == "RD654"]
    assert findings
    assert not any(re.search(r"\bnothing\b[^.;]{0,60}\bis\s+wrong\b", f.message, re.IGNORECASE) for f in findings)


def test_a_target_asked_for_another_machine_is_not_called_this_gpu() -> None:
    # GPU_ARCHS names what the build is for: on a 7900 XTX building for an MI300 node, the refused target is no GPU here
    text = ("RX 7900 XTX on Ubuntu 24.04. Building the MI300 image with GPU_ARCHS=gfx940 on my workstation:\n"
            "AssertionError: One of GPU archs of ['gfx940'] is invalid or not supported by Flash-Attention\n")
    assert "RD654" not in [rule for rule, _ in serious(text)]
    # the target alone, with no other GPU named, is still the GPU's
    assert "RD654" in [rule for rule, _ in serious(text.replace("RX 7900 XTX on", "Running"))]


@pytest.mark.parametrize(
    "text",
    [
        # aiter's device table with a short list (gpustack/gpustack#3880, ROCm/aiter#1552 print it longer)
        "KeyError: \"Unknown GPU architecture: gfx1151. Supported architectures: ['native', 'gfx90a']\"\n"
        "  Marketing Name:          Radeon 8060S Graphics\n",
        # flash-attn's refusal with a one-target allowed list
        "Radeon 780M. AssertionError: Invalid archs: ['gfx1103']. Allowed: ['native', 'gfx90a']\n",
    ],
)
def test_a_short_supported_list_printed_after_the_refused_target_names_no_second_gpu(text: str) -> None:
    facts = ingest(text).facts
    agents = facts.gpus.agents
    assert {agent.gfx.value for agent in agents} <= {"gfx1151", "gfx1103"}
    assert serious(text)[:1] == [("RD654", "gfx-unsupported")]
    assert "device-selection" not in {category for _, category in serious(text)}


def test_a_gpu_said_to_be_missing_from_the_supported_architectures_is_still_the_reporters() -> None:
    facts = ingest("My card is gfx1031 which is not among the supported architectures of this build.\n").facts
    assert [agent.gfx.value for agent in facts.gpus.agents] == ["gfx1031"]


@pytest.mark.parametrize(
    "text",
    [
        # the reporter's GPU, then the program's list in the same sentence (r47b: a one-target list made the
        # whole line a list, and the reporter's gfx1031 was dropped with it)
        "my gfx1031 is not in the supported architectures: gfx1030\n",
        "my gfx1031 is not in the supported architectures: gfx1030, gfx1100\n",
        # in a sentence of its own before or after the list on the same line
        "I have a gfx1031 card. Supported architectures: gfx1030\n",
        "Device gfx1031 is not supported. Supported architectures are: gfx1030\n",
        "Supported architectures: gfx1030, gfx1100. I have a gfx1031 card.\n",
    ],
)
def test_only_the_targets_after_a_supported_list_intro_are_the_list(text: str) -> None:
    assert [agent.gfx.value for agent in ingest(text).facts.gpus.agents] == ["gfx1031"]


def test_several_targets_before_a_supported_list_are_still_a_list() -> None:
    # two targets named before the printed list: a table or changelog, not one refused GPU
    text = "gfx1100 and gfx1101 are fine. Supported architectures: gfx90a, gfx942\n"
    assert ingest(text).facts.gpus.agents == []
    assert [agent.gfx.value for agent in ingest("Supported architectures: gfx90a\n").facts.gpus.agents] == []
