"""The shared fact that a report runs ZLUDA (context ``zluda_named``, which about twenty rules read) holds only
where the report shows ZLUDA in use: a ZLUDA device line, a ZLUDA launcher or folder in a command or a traceback,
a launcher's ``--use-zluda``, the reporter's "using ZLUDA". A link to a ZLUDA project's page is no setup of the
machine ("https://github.com/vosen/ZLUDA" in a feature request beside an NVIDIA card: w-okada/voice-changer#1132,
ggml-org/llama.cpp#5476, SakanaAI/AI-Scientist#67, patientx/ComfyUI-Zluda#182), nor is ZLUDA denied, left, asked
about or another person's (r34b). Such a report leaves the fact unknown, so the CUDA-build findings stay."""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, report_contexts

FOUND_NO_NVIDIA = (
    "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed "
    "a driver from http://www.nvidia.com/Download/index.aspx\n"
)

LINKED_ONLY = [
    "RTX 3060, Windows 11. See https://github.com/vosen/ZLUDA for details.\n",
    "My idea is to add AMD support.\nhttps://github.com/vosen/ZLUDA\n",
    "AMD users could try it (https://github.com/lshqqytiger/ZLUDA).\n",
    "Docs: <https://github.com/patientx/ComfyUI-Zluda>\n",
    "github.com/lshqqytiger/ZLUDA/releases has the builds.\n",
    "www.github.com/vosen/ZLUDA has the builds.\n",
    "Guide: https://github.com/lshqqytiger/ZLUDA?tab=readme-ov-file#pytorch\n",
    # rev53z: an address behind a short label, and an issue reference
    "RTX 3090. url=https://github.com/vosen/ZLUDA\n",
    "RTX 4090. Ref:https://github.com/vosen/ZLUDA\n",
    "RTX 4090, \u9879\u76ee\u5730\u5740\uff1ahttps://github.com/vosen/ZLUDA\n",
    "RTX 4070. Related: vosen/ZLUDA#123\n",
]


@pytest.mark.parametrize("text", LINKED_ONLY)
def test_zluda_only_in_a_link_is_not_zluda_in_use(text: str) -> None:
    assert "zluda_named" not in report_contexts(text)


@pytest.mark.parametrize("text", LINKED_ONLY[:3])
@pytest.mark.parametrize("wrap", ["> {}", "`{}`", "**{}**", "  {}"], ids=["quoted", "code", "bold", "indented"])
def test_a_zluda_link_stays_unread_when_quoted_or_marked_up(text: str, wrap: str) -> None:
    wrapped = "\n".join(wrap.format(line) for line in text.splitlines()) + "\n"
    assert "zluda_named" not in report_contexts(wrapped)


@pytest.mark.parametrize(
    "text",
    [
        "I am not using ZLUDA.\n",
        "Should I use ZLUDA?\n",
        "I used ZLUDA before.\n",
        "RX 6800 XT on Ubuntu 22.04, without ZLUDA.\n",
    ],
    ids=["denied", "asked", "past", "without"],
)
def test_zluda_denied_asked_or_past_is_not_zluda_in_use(text: str) -> None:
    assert "zluda_named" not in report_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        ">>> torch.cuda.get_device_name(0)\n'AMD Radeon RX 6800 XT [ZLUDA]'\n",
        "  ::  Device :  AMD Radeon RX 6600 [ZLUDA]\n",
        "C:\\Users\\me>d:\\ZLUDA\\zluda.exe -- ollama.exe serve\n",
        "set COMMANDLINE_ARGS=--use-zluda --medvram\n",
        "PS C:\\ai\\sdnext> .\\webui.bat --use-zluda\n",
        '  File "D:\\ComfyUI-Zluda\\comfy\\model_management.py", line 12, in <module>\n',
        "I am using ZLUDA on my RX 7900 XTX.\n",
        "LD_LIBRARY_PATH=/home/me/ZLUDA/target/release python main.py\n",
        # the link's text is a word of the sentence, its address is not
        "I run SD.Next with [ZLUDA](https://github.com/vosen/ZLUDA) on my RX 6800.\n",
        # a link first on the line does not hide the statement after it
        "Following https://github.com/vosen/ZLUDA, I run ZLUDA on my RX 6800 XT.\n",
        # a log's attachment named after the command that ran
        "[cmd.exe - .webui.bat  --use-zluda --debug.txt](https://github.com/user-attachments/files/1/log.txt)\n",
        # rev53z: a folder after "(x86)", a local folder written as a file:/// URL, a name deep in a long path
        '"C:\\Program Files (x86)\\ZLUDA\\zluda.exe" -- python main.py\n',
        "file:///C:/Users/me/ComfyUI-Zluda/output/ComfyUI_00001_.png\n",
        "C:\\Users\\me\\" + "stable-diffusion\\" * 12 + "ZLUDA\\zluda.exe -- python main.py\n",
    ],
    ids=["device-name", "comfyui-device-line", "launcher", "launcher-args", "sdnext-command", "traceback-folder",
         "using", "linux-folder", "link-text", "statement-after-link", "attachment-name",
         "program-files-x86", "file-url", "deep-path"],
)
def test_zluda_shown_in_use_is_read(text: str) -> None:
    assert "zluda_named" in report_contexts(text)


@pytest.mark.parametrize(
    "zluda",
    [
        "RX 6800 XT on Ubuntu 22.04, ROCm 6.1. Some use https://github.com/vosen/ZLUDA on Windows.\n",
        "RX 6800 XT on Ubuntu 22.04, ROCm 6.1 (https://github.com/patientx/ComfyUI-Zluda is for Windows).\n",
    ],
)
def test_a_zluda_link_keeps_the_cuda_build_finding(zluda: str) -> None:
    assert "RD500" in problems_shown(zluda + FOUND_NO_NVIDIA)


def test_zluda_in_use_still_sets_the_cuda_build_finding_aside() -> None:
    text = "Running ComfyUI-Zluda on an RX 6800 (Windows 11), see https://github.com/patientx/ComfyUI-Zluda.\n"
    assert "RD500" not in problems_shown(text + FOUND_NO_NVIDIA)


@pytest.mark.parametrize(
    "text",
    [
        "J:\\>git clone https://github.com/patientx/ComfyUI-Zluda\n",
        "curl -s -L https://github.com/lshqqytiger/ZLUDA/releases/download/rel.11cc584/ZLUDA-windows-amd64.zip > zluda.zip\n",
        "$ wget https://github.com/vosen/ZLUDA/releases/download/v4/zluda-4-linux.tar.gz\n",
    ],
    ids=["git-clone", "curl", "wget"],
)
def test_a_command_that_fetches_zluda_by_its_address_is_zluda_in_use(text: str) -> None:
    assert "zluda_named" in report_contexts(text)


# prec53b: ZLUDA asked for, wished for, advised or asked about in a question's word order is no ZLUDA in use (the forms
# and their reports are in rules/data/signatures.yaml, zluda_named); the reporter's own statement beside a wish, a launcher's
# switch after advice and a ZLUDA device line stay read.
NOT_IN_USE = [
    "My idea is to add native AMD GPU support via ZLUDA\n",
    "Add support for PhysX on AMD using ZLUDA\n",
    "I would like to request support for zluda on non-NVIDIA GPUs.\n",
    "Integrate ZLUDA for AMD CUDA\n",
    "[Feature request] Zluda\n",
    "[REQUEST]: ZLUDA Support\n",
    "ZLUDA support would be nice.\n",
    "It would be great, if installed on windows with an amd gpu, there was the option to install comfyui zluda.\n",
    "You could use ZLUDA if you had AMD.\n",
    "I guess you can also try running it through ZLUDA, in case needed.\n",
    "To switch to Zluda you have to remove all other launch args.\n",
    "does this work with ZLUDA\n",
]
IN_USE_BESIDE = [
    "It would be nice if someone could help, I'm running it through ZLUDA.\n",
    "You should know that I use ZLUDA on my RX 6800.\n",
    "Would be great to get help. I'm using ZLUDA with my 7900 XTX.\n",
    "you need to start webui with --use-zluda, so I ran webui.bat --use-zluda\n",
    "Feature request aside: [ZLUDA] Using device: AMD Radeon RX 6600\n",
    "1. Install ZLUDA 3.8 and add it to PATH\n",
    "It works with ZLUDA but is slow.\n",
]


@pytest.mark.parametrize("text", NOT_IN_USE)
@pytest.mark.parametrize("wrap", ["{}", "> {}", "**{}**", "\u201c{}\u201d"], ids=["plain", "quoted", "bold", "in-quotes"])
def test_zluda_asked_for_wished_advised_or_asked_about_is_not_zluda_in_use(text: str, wrap: str) -> None:
    assert "zluda_named" not in report_contexts(wrap.format(text.rstrip("\n")) + "\n")


@pytest.mark.parametrize("text", IN_USE_BESIDE)
@pytest.mark.parametrize("wrap", ["{}", "> {}", "**{}**"], ids=["plain", "quoted", "bold"])
def test_zluda_in_use_beside_a_wish_or_advice_is_still_read(text: str, wrap: str) -> None:
    assert "zluda_named" in report_contexts(wrap.format(text.rstrip("\n")) + "\n")


def test_a_zluda_feature_request_keeps_the_cuda_build_finding() -> None:
    text = "RX 6800 XT on Ubuntu 22.04, ROCm 6.1. My idea is to add native AMD GPU support via ZLUDA.\n"
    assert "RD500" in problems_shown(text + FOUND_NO_NVIDIA)
