"""The platform is read however people spell it in prose, and a name that is not the host's platform is not.

The spellings are those of real reports (at least three independent ones each, cited where the reader
accepts them in rocm_doctor/ingest/formats/mentions.py); the metamorphic kind "platform spellings"
(tests/ingest/metamorphic.py) respells every corpus report with them.
"""

from __future__ import annotations

from typing import Dict, Optional

import pytest
from ingest_helpers import ingest


def host(text: str) -> Dict[str, Optional[str]]:
    h = ingest(text).facts.host
    read = {"os": h.os, "wsl": h.wsl_version, "windows": h.windows_release, "distro": h.distro_id, "version": h.distro_version}
    return {name: (str(fact.value) if fact.is_known else None) for name, fact in read.items()}


@pytest.mark.parametrize(
    "sentence, windows",
    [
        ("I am on Windows 11 and the GPU is not found.", "11"),
        ("I am on Win11 and the GPU is not found.", "11"),
        ("Different PC, Ryzen 5700x, win 11 pro, worked fine.", "11"),
        ("Windows11, RX 7900 XTX, HIP SDK 6.2", "11"),
        ("I am on Win10 and the GPU is not found.", "10"),
    ],
)
def test_a_windows_release_is_read_in_each_spelling(sentence: str, windows: str) -> None:
    assert (host(sentence)["os"], host(sentence)["windows"]) == ("windows", windows)


@pytest.mark.parametrize(
    "sentence",
    [
        # dev65env: a DLL by its file name is a Windows library, whichever program ships it
        "Copied all the files over (except ggml-hip.dll, which the SDK does not have), the GPU is still not used.",
        "OSError: [WinError 126] Error loading \"caffe2_nvrtc.dll\" or one of its dependencies.",
        "The wheel ships libbitsandbytes_rocm716.dll but the torch next to it loads the 7.15 runtime.",
        "ImportError: DLL load failed while importing _C: rocm_kpack.dll not found",
    ],
)
def test_a_dll_by_its_file_name_makes_the_report_windows(sentence: str) -> None:
    assert host(f"RX 9070 XT\n{sentence}\n")["os"] == "windows"


@pytest.mark.parametrize("sentence", [
    "I used to run it where it loaded ggml-hip.dll.",
    "The README says on Windows to copy ggml-hip.dll next to the exe.",
])
def test_a_dll_named_in_the_past_or_in_a_document_is_not_this_machines_windows(sentence: str) -> None:
    assert host(f"Ubuntu 24.04, RX 7900 XTX.\n{sentence}\nrocminfo lists no GPU.\n")["os"] == "linux"


@pytest.mark.parametrize(
    "sentence",
    ["I run ROCm in WSL2 with Ubuntu 22.04.", "I run ROCm in WSL 2 with Ubuntu 22.04.", "I run ollama on wsl2 with Ubuntu 22.04."],
)
def test_wsl_2_is_read_in_each_spelling(sentence: str) -> None:
    assert host(sentence)["wsl"] == "2"


@pytest.mark.parametrize(
    "sentence, distro, version",
    [
        ("I am on Ubuntu 22.04 and torch fails.", "ubuntu", "22.04"),
        ("so after messing with rocm and pytorch install on ubuntu 24.04", "ubuntu", "24.04"),
        ("I am on ubuntu 22.04 LTS and torch fails.", "ubuntu", "22.04"),
        ("OS: Ubuntu-20.04", "ubuntu", "20.04"),
        ("Ubuntu-20.04.1 pushed a kernel update that broke the DKMS module.", "ubuntu", "20.04"),
        ("The 780m fails to run comfyui in fedora 41 with any model", "fedora", "41"),
        ("I run debian 12 with the 6.1 kernel.", "debian", "12"),
    ],
)
def test_a_distribution_release_is_read_in_lower_case_and_with_wsl_s_hyphen(sentence: str, distro: str, version: str) -> None:
    read = host(sentence)
    assert (read["os"], read["distro"], read["version"]) == ("linux", distro, version)


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm running Arch with an AMD RX 6750 GPU.",
        "I am on Arch and torch fails.",
        "Has anyone succeeded using Arch or Arch-based distros?",
        "The operating system is Arch linux.",
        "It broke after I updated my arch linux.",
    ],
)
def test_arch_linux_is_read_when_the_sentence_says_it_is_run(sentence: str) -> None:
    read = host(sentence)
    assert (read["os"], read["distro"]) == ("linux", "arch")


def test_a_number_after_arch_is_the_kernel_not_a_release() -> None:
    read = host("I'm on Arch Linux 6.7.4-arch1-1 with a Python venv.")
    assert (read["distro"], read["version"]) == ("arch", None)


@pytest.mark.parametrize(
    "text",
    [
        "docker pull rocm/dev-ubuntu-22.04:6.2",
        "I pulled rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0 and it fails.",
        "alice@ubuntu-22:~$ rocminfo",
        "FROM ubuntu:22.04",
        "I use the debian-12 image from the registry.",
        "Get:1 http://archive.ubuntu.com/ubuntu jammy-updates InRelease",
    ],
)
def test_an_image_tag_a_host_name_or_a_url_names_no_host_distribution(text: str) -> None:
    assert host(text)["distro"] is None


@pytest.mark.parametrize(
    "text",
    [
        "The GPU arch is gfx1100, running on arch x86_64.",
        "I compiled for the target arch gfx1030 on my machine.",
        "Arch: x86_64",
        "deb [arch=amd64] https://repo.radeon.com/rocm/apt/6.2 jammy main",
        "The Arch field in rocminfo says gfx1100.",
        "We use an arch list of gfx1030;gfx1100 when building.",
    ],
)
def test_an_architecture_called_arch_is_not_arch_linux(text: str) -> None:
    assert host(text)["distro"] is None


@pytest.mark.parametrize(
    "text, distro",
    [
        # a distribution the one in use is built on, one left, one not used, another's or a document's words:
        # read as the system, each made two distributions and the one in use was lost (r36a)
        ("I'm on CachyOS, which is based on Arch. ROCm 6.2, RX 7900 XTX.", "cachyos"),
        ("I don't use Arch, I use Fedora 40. ROCm 6.2, RX 7900 XTX.", "fedora"),
        ("The arch linux wiki says to install rocm-hip-sdk. I am on Fedora 40 with an RX 7900 XTX.", "fedora"),
        ("CI runs on ubuntu 22.04 runners; locally I am on Fedora 40 with ROCm 6.2 and an RX 7900 XTX.", "fedora"),
        ("My server runs debian 12, my laptop (this one) runs Fedora 40 with ROCm 6.2, RX 7900 XTX.", "fedora"),
        ("I upgraded from ubuntu 20.04 last month; ROCm 6.2 on my RX 7900 XTX fails.", None),
        ("Someone said it works on Arch. Windows 11, RX 7900 XTX, HIP SDK 6.2.", None),
        ("Does it run on Arch? I have Windows 11 and an RX 7900 XTX.", None),
        ("I did not try debian 12; I am on Windows 11 with an RX 7900 XTX.", None),
    ],
)
def test_a_distribution_the_sentence_says_is_not_run_here_is_not_the_host_s(text: str, distro: Optional[str]) -> None:
    assert host(text)["distro"] == distro


def test_a_distribution_moved_to_after_a_denied_platform_is_the_host_s() -> None:
    assert host("I moved away from Windows 11 to Ubuntu 22.04, ROCm 6.2, RX 7900 XTX.")["distro"] == "ubuntu"


@pytest.mark.parametrize(
    "text", ["RX 9070 XT not detected on Arch Linux with the 6.8 kernel", "ROCm 6.2 does not work on Ubuntu 24.04 with my RX 7900 XTX."]
)
def test_a_problem_denied_on_a_distribution_keeps_the_distribution(text: str) -> None:
    assert host(text)["distro"] in ("arch", "ubuntu")
