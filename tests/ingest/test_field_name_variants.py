"""GPU, processor and platform names read in the variants real reports use, and look-alikes that name nothing.

Each variant is used in at least three independent real reports (public threads, cited beside the pattern that
accepts it in rocm_doctor/ingest/formats/mentions.py and platform_strings.py):

* lower-case APU graphics numbers: "If 890m is not supported by ROCm" (ROCm/legacy-rocm-build#3542), "ollama for amd
  ... 不支持 780m 了吗" (likelovewant/ROCmLibs-for-gfx1103-AMD780M-APU#63), "my 880m (gfx1150)"
  (likelovewant/ROCmLibs-for-gfx1103-AMD780M-APU#22), "7840u with 780m" (ollama/ollama#7861), "GPU model 8060s
  gfx1151" (invoke-ai/InvokeAI#8655);
* Ryzen AI processors named without "Ryzen": "AMD APU (AI MAX 395)" (ROCm/legacy-rocm-build#5422), "AI Max + 395"
  (hhd-dev/hhd#285), "Radeon 890M (HX 370)" (ROCm/legacy-rocm-build#3542), "the AI 9 365 CPU"
  (lemonade-sdk/llamacpp-rocm#5);
* a release joined to the distribution's name: "Ubuntu22.04" (ROCm/pytorch#1337), "Ubuntu20.04 + python3.8"
  (pytorch/pytorch#98257), "VMware+ubuntu18.04" (ROCm/legacy-rocm-build#1505);
* openSUSE in any case: "OpenSUSE Tumbleweed" (ROCm/legacy-rocm-build#1431), "OpenSUSE Leap 15.5" (#3065), "OpenSuSE
  Leap 15.6" (ollama/ollama#11450), "openSuse" (torch/distro#268), "opensuse leap" (AdnanHodzic/auto-cpufreq#135);
* Windows named by a Chinese label or word: "操作系统：win10" (hanamizuki-ai/launcher-support#115), "操作系统：
  Windows 10" (hanamizuki-ai/launcher-support#142), "系统是Ubuntu 24.04.3 LTS" (InternLM/lmdeploy#4022).
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import pytest
from ingest_helpers import ingest


def gfx_list(text: str) -> List[str]:
    return [str(a.gfx.value) for a in ingest(text + "\n").facts.gpus.agents if a.gfx.is_known]


def os_distro(text: str) -> Tuple[Optional[str], Optional[str], Optional[str]]:
    host = ingest(text + "\n").facts.host
    return tuple(str(f.value) if f.is_known else None for f in (host.os, host.distro_id, host.distro_version))  # type: ignore[return-value]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("If 890m is not supported by ROCm, what can I use?", "gfx1150"),
        ("ollama for amd 现在是不支持 780m 了吗", "gfx1103"),
        ("I am trying to get rocBLAS running on my 880m (gfx1150) using ROCm 6.4.", "gfx1150"),
        ("Please add better AMD support, I have a 7840u with 780m.", "gfx1103"),
        ("My laptop's 760m igpu is not used by ollama.", "gfx1103"),
        ("The 8060s gpu hangs in torch.", "gfx1151"),
    ],
)
def test_a_lower_case_apu_graphics_number_reads_as_the_same_radeon_igpu(text: str, expected: str) -> None:
    assert gfx_list(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "I ran 680m today.",
        "a 760m parameter model trains on my GPU",
        "The prompt took 8060s on the GPU.",
        "We climbed 780m before lunch.",
        "see ./ckpt/780m/model.bin for the weights",
        "the opt-350m model and a 780m checkpoint-free run",
        # rev62b: an amount of memory and a model's size beside GPU words
        "GPU memory used 780m only",
        "I pulled the 880m model (qwen) to test the GPU",
    ],
)
def test_a_lower_case_number_shaped_like_an_apu_names_no_gpu_where_no_gpu_is_spoken_of(text: str) -> None:
    assert gfx_list(text) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I have an AI MAX 395 mini PC.", "gfx1151"),
        ("The max configurable TDP for AI Max + 395 is 65w on my machine.", "gfx1151"),
        ("I bought a laptop with the HX 370.", "gfx1150"),
        ("My HX370 laptop runs Ubuntu 24.04.", "gfx1150"),
        ("the AI 9 365 CPU in my laptop", "gfx1150"),
    ],
)
def test_a_ryzen_ai_processor_named_without_ryzen_reads_as_the_same_processor_and_igpu(text: str, expected: str) -> None:
    facts = ingest(text + "\n").facts
    assert facts.cpu.vendor.value == "AMD"
    assert gfx_list(text) == [expected]


@pytest.mark.parametrize(
    "text", ["The GPU drew max 395 W under load.", "a Corsair HX 750 power supply", "the AI model has 370 layers", "HX 370-board rev 2"]
)
def test_words_shaped_like_a_ryzen_ai_name_name_no_processor(text: str) -> None:
    facts = ingest(text + "\n").facts
    assert not facts.cpu.model.is_known and gfx_list(text) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Fix ROCm installation failure in Ubuntu22.04", ("linux", "ubuntu", "22.04")),
        ("In a docker container with Ubuntu20.04 + python3.8 it works.", ("linux", "ubuntu", "20.04")),
        ("can my machine pass VMware+ubuntu18.04 to install ROCm", ("linux", "ubuntu", "18.04")),
        ("OS: ubuntu24.04", ("linux", "ubuntu", "24.04")),
        ("I run Ubuntu 24.04 with ROCm", ("linux", "ubuntu", "24.04")),
    ],
)
def test_a_release_joined_to_the_distribution_name_reads_as_the_same_release(text: str, expected: Tuple[str, str, str]) -> None:
    assert os_distro(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "docker pull rocm/pytorch:rocm6.4.2_ubuntu24.04_py3.12_pytorch_release_2.6.0",
        "docker pull rocm/dev-ubuntu22.04:6.2",
        "see /srv/ubuntu22.04/rootfs",
        "alice@ubuntu22.04:~$ rocminfo",
    ],
)
def test_a_joined_release_inside_an_image_tag_path_or_host_names_no_host_distribution(text: str) -> None:
    assert os_distro(text)[1] is None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Vega 20 disabled. (OpenSUSE Tumbleweed with kernel 5.11.6-1)", "opensuse-tumbleweed"),
        ("### Operating System\n\nOpenSUSE Leap 15.5", "opensuse-leap"),
        ("ROCm GPU not detected on OpenSuSE Leap 15.6 with Ryzen 7 5700G", "opensuse-leap"),
        ("I installed opensuse leap in a VM.", "opensuse-leap"),
        ("I run openSUSE Tumbleweed.", "opensuse-tumbleweed"),
    ],
)
def test_opensuse_in_any_case_reads_as_the_same_distribution(text: str, expected: str) -> None:
    assert os_distro(text)[:2] == ("linux", expected)


@pytest.mark.parametrize(
    "text, release",
    [("- 操作系统：win10\n- 显卡：AMD 9070XT", "10"), ("- 操作系统： Windows 10\n- 显卡：AMD 6600XT", "10"), ("系统：Windows11专业版", "11"), ("win11 专业版", "11")],
)
def test_windows_named_with_chinese_words_reads_as_windows(text: str, release: str) -> None:
    host = ingest(text + "\n").facts.host
    assert (host.os.value, host.windows_release.value) == ("windows", release)


def test_a_distribution_named_after_a_chinese_label_reads_as_that_distribution() -> None:
    assert os_distro("显卡是7900xtx，系统是Ubuntu 24.04.3 LTS") == ("linux", "ubuntu", "24.04")
