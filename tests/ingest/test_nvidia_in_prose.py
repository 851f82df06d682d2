"""An NVIDIA GPU named in words is read as this machine's GPU under the same scope rules as an AMD one (another
person's, one wished for or left behind, a yardstick or a denial is not), so that a mixed NVIDIA+AMD box that runs
a CUDA torch on purpose for its NVIDIA card is not told its CUDA wheel is a mistake (RD100/RD528), and a ROCm
release beside an NVIDIA GPU is not taken for an AMD GPU whose driver is missing (RD639)."""

from __future__ import annotations

from typing import List

import pytest
from ingest_helpers import ingest, problems_shown

CUDA_WHEEL_ON_AMD = ("RD100", "RD528")
SMI_NO_MODULE = "ERROR:root:Driver not initialized (amdgpu not found in modules)\n"


def _nvidia_names(text: str) -> List[str]:
    agents = ingest(text).facts.gpus.agents
    return [str(a.name.value) for a in agents if a.vendor.status == "known" and a.vendor.value == "NVIDIA"]


@pytest.mark.parametrize(
    "text",
    [
        "I have an RTX 3090 and an RX 7900 XTX in one box. torch 2.3.0+cu121 is installed for the 3090.\n",
        "my 4090 runs the CUDA torch (2.4.0+cu124), the RX 6800 drives the display.\n",
        "An RX470 and a GTX970 in one Ubuntu box; torch 2.3.0+cu121 for the GTX.\n",
        "amd mi50 cards and nvidia 3070 cards on the same workstation, torch 2.3.0+cu121\n",
        # beside a listing of the AMD card only (a labelled field, rocminfo)
        "### GPU\nRX 7900 XTX\n### Other\nI also have an RTX 3090 in the machine for CUDA work. torch 2.3.0+cu121 is installed for it.\n",
        "  Name:                    gfx1100\n  Marketing Name:          AMD Radeon RX 7900 XTX\n  Device Type:             GPU\n"
        "The RTX 3090 next to it runs torch 2.3.0+cu121.\n",
    ],
)
def test_a_cuda_torch_on_a_box_with_an_nvidia_gpu_named_in_words_is_no_cuda_wheel_on_amd(text: str) -> None:
    assert _nvidia_names(text)
    assert not set(CUDA_WHEEL_ON_AMD) & set(problems_shown(text))


@pytest.mark.parametrize(
    "text",
    [
        "I'm thinking of buying an RTX 4090 instead. My RX 7900 XTX with torch 2.3.0+cu121: torch.cuda.is_available() returns False\n",
        "My friend's RTX 3090 works fine, my RX 7900 XTX with torch 2.3.0+cu121 says torch.cuda.is_available() returns False\n",
        "I upgraded from a GTX 1080 to an RX 7900 XTX. torch 2.3.0+cu121, torch.cuda.is_available() returns False\n",
        "My RX 7900 XTX is slower than an RTX 4090. torch 2.3.0+cu121, torch.cuda.is_available() returns False\n",
        "My RX 7900 XTX is half as fast compared to my 4090. torch 2.3.0+cu121, torch.cuda.is_available() returns False\n",
        "I don't have an RTX 3090, only an RX 7900 XTX. torch 2.3.0+cu121, torch.cuda.is_available() returns False\n",
        "Used to have a GTX 1070. Now RX 6800, torch 2.3.0+cu121, torch.cuda.is_available() returns False\n",
    ],
)
def test_an_nvidia_gpu_of_another_person_wished_for_left_behind_or_compared_is_no_gpu_here(text: str) -> None:
    assert not _nvidia_names(text)
    assert problems_shown(text)[:1] == ["RD100"]


@pytest.mark.parametrize(
    "text",
    [
        "I moved from NVIDIA (GTX 1080) to AMD RX 6800. torch 2.1.0+cu118 says torch.cuda.is_available() False\n",
        "Before I had my 2070, now I have an RX 6700 XT. torch.cuda.is_available() returns False with torch 2.2.0+cu121\n",
        "Switched over from NVIDIA, had a GTX 1080 before. Now RX 6800, torch 2.1.0+cu118, torch.cuda.is_available() returns False\n",
        "I came from an RTX 2060 to an RX 7600. torch 2.1.0+cu118, torch.cuda.is_available() returns False\n",
        "RX 7900 XTX, torch 2.4.0+cu124, torch.cuda.is_available() returns False. The tutorial was written for an RTX 4090.\n",
        "RX 7600, torch 2.1.0+cu118, torch.cuda.is_available() returns False. The benchmark was run on an NVIDIA A100.\n",
    ],
)
def test_an_nvidia_gpu_the_reporter_moved_away_from_or_a_document_targets_keeps_the_cuda_wheel_finding(text: str) -> None:
    assert not _nvidia_names(text)
    assert problems_shown(text)[:1] == ["RD100"]


@pytest.mark.parametrize(
    "text",
    [
        "RX 7900 XTX, Ubuntu installed on my 980 Pro. torch 2.4.0+cu124, torch.cuda.is_available() returns False\n",
        "RX 6800 XT, models on my 970 EVO Plus, torch 2.4.0+cu124 and torch.cuda.is_available() returns False\n",
    ],
)
def test_a_samsung_ssd_named_by_its_model_number_is_no_nvidia_gpu(text: str) -> None:
    assert not _nvidia_names(text)
    assert problems_shown(text)[:1] == ["RD100"]


@pytest.mark.parametrize(
    "text",
    [
        "nvidia-smi shows NVIDIA GeForce RTX 4090. ROCm 6.2 is also installed.\n" + SMI_NO_MODULE,
        "GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-1234)\nROCm 6.2\n" + SMI_NO_MODULE,
        "I have an RTX 3090. torch 2.3.0+rocm6.0 got installed by mistake.\n" + SMI_NO_MODULE,
    ],
)
def test_no_amdgpu_module_beside_an_nvidia_gpu_and_only_a_rocm_release_is_no_driver_fault(text: str) -> None:
    assert "RD639" not in problems_shown(text)


def test_no_amdgpu_module_on_a_mixed_box_that_shows_its_amd_gpu_is_still_the_driver_finding() -> None:
    text = "Radeon RX 7900 XTX and NVIDIA GeForce RTX 4090 in one box, Ubuntu 24.04\n$ rocm-smi\n" + SMI_NO_MODULE
    assert "RD639" in problems_shown(text)
