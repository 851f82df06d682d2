"""A GPU with no kernels in what the report names: the ROCm release it runs (RD632) and TensorFlow's own
check of the GPU against its build (RD633). Assertions are about rule ids, signatures and categories,
never about wording; the lines are written in the shapes the real reports cited in
rules/gfx_named_rocm.yaml print.
"""

from __future__ import annotations

from typing import List, Tuple

import pytest
from ingest_helpers import ingest, problems_shown

from rocm_doctor.ingest import ingest_text
from rocm_doctor.judge.loader import load_rules
from rocm_doctor.pipeline import evaluate


def serious(text: str) -> List[Tuple[str, str]]:
    findings = evaluate(load_rules([], use_env=False), ingest_text(text).facts).findings
    return [(f.id, f.category) for f in findings if f.severity in ("error", "warning")]


def signatures(text: str) -> list:
    found = ingest(text).facts.symptoms.signatures
    return list(found.value or []) if found.is_known else []


@pytest.mark.parametrize(
    "text",
    [
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1990] Ignoring visible gpu device (device: 0, name: , pci bus id: 0000:23:00.0) with AMDGPU version : gfx1100. The supported AMDGPU versions are gfx1030, gfx900, gfx906, gfx908, gfx90a.\n",
        # wrapped where a terminal or a mail client breaks it
        "Ignoring visible gpu device (device: 0, name: AMD Radeon RX 7600, pci bus id: 0000:0d:00.0) with AMDGPU version : gfx1102.\nThe supported AMDGPU versions are gfx1030gfx1100, gfx900, gfx906.\n",
        "StreamExecutor ROCM device (0) is of unsupported AMDGPU version : gfx1100. The supported AMDGPU versions are gfx1030, gfx900.\n",
    ],
)
def test_tensorflow_skipping_the_gpu_is_read_and_judged_as_a_build_without_it(text: str) -> None:
    assert "tensorflow_gfx_not_in_build" in signatures(text)
    found = serious(text)
    assert found and found[0] == ("RD633", "gfx-unsupported")


@pytest.mark.parametrize(
    "text",
    [
        # tensorflow-rocm 2.14.0.600's list lacks a comma: gfx1100 and gfx1030 are built, and skipped
        # (ROCm/tensorflow-upstream#2410, #2488)
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:2266] Ignoring visible gpu device (device: 0, name: Radeon RX 7900 XTX, pci bus id: 0000:03:00.0) with AMDGPU version : gfx1100. The supported AMDGPU versions are gfx1030gfx1100, gfx900, gfx906, gfx908, gfx90a, gfx940, gfx941, gfx942.\n",
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:2266] Ignoring visible gpu device (device: 0, name: AMD Radeon RX 6800M, pci bus id: 0000:03:00.0) with AMDGPU version : gfx1030. The supported AMDGPU versions are gfx1030gfx1100, gfx900, gfx906, gfx908, gfx90a, gfx940, gfx941, gfx942.\n",
    ],
)
def test_tensorflow_skipping_a_gpu_its_own_list_names_is_not_a_build_without_it(text: str) -> None:
    assert "tensorflow_gfx_not_in_build" not in signatures(text)
    assert "RD633" not in [rule for rule, _ in serious(text)]


@pytest.mark.parametrize(
    "text",
    [
        "My RX 7900 XTX with ROCm 5.4.2: pytorch sees the GPU but segfaults as soon as a tensor is moved to the GPU.\n",
        "I have a 7900 XT and installed ROCm 5.4.3 with amdgpu-install. Segmentation fault (core dumped) on tensor.to(0).\n",
        "I have a Radeon VII and installed ROCm 6.4 on Ubuntu 24.04. ComfyUI crashes with a segmentation fault when loading the model.\n",
    ],
)
def test_a_rocm_release_without_the_gpu_is_named_as_the_cause(text: str) -> None:
    found = serious(text)
    assert found and found[0] == ("RD632", "gfx-unsupported")


@pytest.mark.parametrize(
    "text",
    [
        # ROCm 5.7's wheels (torch 2.2/2.3) have gfx1100
        "My RX 7900 XTX with ROCm 5.7: pytorch segfaults as soon as a tensor is moved to the GPU.\n",
        # ROCm 6.3's rocBLAS still has gfx906
        "I have a Radeon VII and installed ROCm 6.3. ComfyUI crashes with a segmentation fault.\n",
        # the torch in use is shown: RD790 judges the wheel, not the system's release
        "RX 7900 XTX, ROCm 5.4.2, torch 2.0.1+rocm5.4.2: Segmentation fault (core dumped)\n",
        # an RX 6700 XT can borrow gfx1030's kernels from the same wheels (the override rules speak)
        "RX 6700 XT with ROCm 5.2: Segmentation fault (core dumped)\n",
    ],
)
def test_a_rocm_release_that_has_the_gpu_or_a_shown_torch_is_not_blamed(text: str) -> None:
    assert "RD632" not in [rule for rule, _ in serious(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Radeon 780M (gfx1103), ROCm 6.2, ollama runs on the CPU.\n",
        "My laptop has a Ryzen 7 7840HS with Radeon 780M. I installed ROCm 6.1 and pytorch, but torch.cuda.is_available() returns False.\n",
        "I have an RX 7600 on Ubuntu 22.04 with ROCm 6.0 and ComfyUI crashes with Segmentation fault (core dumped).\n",
    ],
)
def test_a_rocm_release_whose_builds_lack_the_gpus_own_target_asks_for_the_override(text: str) -> None:
    assert ("RD634", "gfx-override") in serious(text)


@pytest.mark.parametrize(
    "text",
    [
        # torch 2.7, built with ROCm 6.3, has gfx1102 itself
        "I have an RX 7600 on Ubuntu 22.04 with ROCm 6.3 and ComfyUI crashes with Segmentation fault (core dumped).\n",
        # the override is in the command that ran
        "RX 7600, ROCm 6.0: HSA_OVERRIDE_GFX_VERSION=11.0.0 python main.py crashes with Segmentation fault (core dumped).\n",
        # a GPU named only through the CPU model is never judged on its own
        "My laptop has a Ryzen 7 7840HS. I installed ROCm 6.1 and pytorch, but torch.cuda.is_available() returns False.\n",
    ],
)
def test_the_override_is_not_asked_for_where_the_builds_have_the_target_or_it_is_set(text: str) -> None:
    assert "RD634" not in [rule for rule, _ in serious(text)]


def test_a_late_rdna3_target_crashing_without_torch_shown_ranks_before_a_cpu_model_guess() -> None:
    # RX 7600 (gfx1102): the override question comes before the iGPU the CPU model implies
    found = serious("I have a Ryzen 5 7600 and an RX 7600. ComfyUI crashes with Segmentation fault (core dumped).\n")
    assert found and found[0] == ("RD635", "gfx-override")


@pytest.mark.parametrize(
    "text",
    [
        "RX 7900 XTX: Segmentation fault (core dumped)\n",  # gfx1100 is in every wheel since torch 2.1
        "RX 7600, torch 2.7.1+rocm6.3: Segmentation fault (core dumped)\n",  # that torch has gfx1102
        "I have an RX 7600. ComfyUI works fine.\n",  # nothing crashed
    ],
)
def test_the_late_target_condition_is_not_raised_where_it_cannot_apply(text: str) -> None:
    assert "RD635" not in [rule for rule, _ in serious(text)]


def test_an_amd_image_tag_names_the_rocm_its_torch_was_built_with() -> None:
    facts = ingest("docker run rocm/pytorch:rocm6.4_ubuntu24.04_py3.12_pytorch_release_2.6.0\n").facts
    assert facts.torch.rocm_version.is_known and str(facts.torch.rocm_version.value) == "6.4"


def test_an_amd_image_whose_rocblas_lacks_the_gpu_is_named_as_the_cause() -> None:
    text = "docker run rocm/pytorch:rocm6.4_ubuntu24.04_py3.12_pytorch_release_2.6.0 on my MI50: Segmentation fault (core dumped)\n"
    found = serious(text)
    assert found and found[0] == ("RD632", "gfx-unsupported")
    older = "docker run rocm/pytorch:rocm6.3.4_ubuntu24.04_py3.12_pytorch_release_2.4.1 on my MI50: Segmentation fault (core dumped)\n"
    assert "RD632" not in [rule for rule, _ in serious(older)]


@pytest.mark.parametrize(
    "text",
    [
        "My RX 7900 XTX is not detected by pytorch. Should I install ROCm 5.4?",
        "RX 7900 XTX, pytorch isn't detecting my GPU. I did not install ROCm 5.4, I use the 6.2 release.",
        "RX 7900 XTX, pytorch isn't detecting my GPU. I want to try ROCm 5.4 next.",
    ],
)
def test_a_rocm_release_asked_about_planned_or_not_installed_is_not_judged_against_the_gpu(text: str) -> None:
    assert not ingest(text).facts.rocm.version.is_known
    assert "RD632" not in problems_shown(text)


def build_targets(text: str) -> list:
    found = ingest(text).facts.symptoms.build_targets
    return list(found.value or []) if found.is_known else []


@pytest.mark.parametrize(
    "text",
    [
        # the line retold without its head (ROCm/tensorflow-upstream#3169), the GPU named in prose
        'I have AMD RX7600 GPU and tf-rocm returns a code that "The supported AMDGPU versions are gfx1030gfx1100, gfx900, gfx906, gfx908, gfx90a, gfx940, gfx941, gfx942.". My gfx version is gfx1102.\n',
        "My Radeon RX 580 is not used by tensorflow-rocm, it only says: The supported AMDGPU versions are gfx900, gfx906, gfx908, gfx90a.\n",
    ],
)
def test_tensorflows_list_quoted_without_its_head_is_read_and_lacks_the_gpu(text: str) -> None:
    assert "tensorflow_lists_its_gfx_targets" in signatures(text)
    assert build_targets(text)
    found = serious(text)
    assert found and found[0] == ("RD693", "gfx-unsupported")


def test_tensorflows_list_run_together_keeps_both_targets() -> None:
    text = "The supported AMDGPU versions are gfx1030gfx1100, gfx900.\n"
    assert build_targets(text) == ["gfx1030;gfx1100;gfx900"]


@pytest.mark.parametrize(
    "text",
    [
        # the GPU's own target is on the list
        "RX 7900 XTX: The supported AMDGPU versions are gfx1030gfx1100, gfx900, gfx906, gfx908, gfx90a.\n",
        # two GPUs: which one TensorFlow skipped is not shown
        "RX 7900 XTX and a Ryzen 9 7950X's Radeon Graphics (gfx1036): The supported AMDGPU versions are gfx1100, gfx900.\n",
        # an override is set: the gfx TensorFlow compared is not the chip's own
        "RX 7600 with HSA_OVERRIDE_GFX_VERSION=11.0.0: The supported AMDGPU versions are gfx1030, gfx900.\n",
    ],
)
def test_tensorflows_quoted_list_is_not_blamed_where_it_has_the_gpu_or_the_gpu_is_not_settled(text: str) -> None:
    assert "RD693" not in [rule for rule, _ in serious(text)]


def test_the_whole_tensorflow_line_is_judged_once() -> None:
    text = "Ignoring visible gpu device (device: 0, name: Radeon PRO W7900, pci bus id: 0000:03:00.0) with AMDGPU version : gfx1100. The supported AMDGPU versions are gfx1030, gfx900, gfx906, gfx908, gfx90a.\n"
    rules = [rule for rule, _ in serious(text)]
    assert rules[0] == "RD633"
    assert "RD693" not in rules and "RD795" not in rules


@pytest.mark.parametrize(
    ("text", "fires"),
    [
        # the list wrapped onto the next line goes on there: the GPU's own target may stand in its rest
        ("RX 7800 XT (gfx1101). The supported AMDGPU versions are gfx900, gfx906, gfx908,\n    gfx90a, gfx1030, gfx1100, gfx1101.\n", False),
        ("RX 7800 XT (gfx1101). The supported AMDGPU versions are gfx900, gfx906, gfx908,\n    gfx90a, gfx1030, gfx1100.\n", True),
        # a list cut where it goes on is not read in part, and in any case
        ("RX 7800 XT (gfx1101). The supported AMDGPU versions are gfx900, gfx906, gfx908,\n", False),
        ("RX 7600 (gfx1102). the supported amdgpu versions are gfx1030, gfx1100, gfx900.\n", True),
    ],
)
def test_tensorflows_list_is_read_through_its_wrap_and_in_any_case(text: str, fires: bool) -> None:
    assert ("RD693" in problems_shown(text)) is fires
