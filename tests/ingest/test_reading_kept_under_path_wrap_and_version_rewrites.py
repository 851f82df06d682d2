"""What three metamorphic rewrites broke (benchmarks/metamorphic.py, meta57), read whichever way the report is written:
a cmd prompt with its path's separators as ``/`` still says Windows ("Windows path forms"); an install command a
wrapping tool cut before its TheRock index URL still installs from that index ("wrap at 80 columns"); "with Linux 6.2"
is the kernel an install failed on ("ROCm and kernel version spellings in prose"). And a rewrite that changed a
report's meaning ("ROCm version spelling" respelling a wheel's ``+rocm6.4`` label as ``+rocm6.4.0``), fixed so that
it does not. Figures are over the corpus or over every form of a rewrite, not one expected output per case.
"""

from __future__ import annotations

import re
import textwrap
from typing import List

import pytest
from corpus_scoring import corpora
from ingest_helpers import block, ingest, signature_errors
from metamorphic import _KERNEL_SPELLINGS, version_compact, version_spelling, windows_paths, wrap80

_CMD_PROMPT = re.compile(r"(?m)^\s*(?:\([\w.-]{1,64}\) ?){0,2}[A-Za-z]:\\[^>\n]*>")


def _cases() -> List[dict]:
    return [case for _, members in corpora() for case in members]


def _os(text: str):
    fact = ingest(text).facts.host.os
    return fact.value if fact.is_known else None


def _families(text: str) -> List[str]:
    fact = ingest(text).facts.symptoms.therock_families
    return list(fact.value or []) if fact.is_known else []


def test_every_corpus_report_with_a_cmd_prompt_reads_the_same_platform_with_its_paths_in_forward_slashes() -> None:
    with_prompt = [case["report"] for case in _cases() if _CMD_PROMPT.search(case["report"])]
    if not with_prompt:
        pytest.skip("no corpus found")
    changed = [text[:80] for text in with_prompt if _os(windows_paths(text)) != _os(text)]
    assert changed == [], f"{len(changed)} of {len(with_prompt)}"


@pytest.mark.parametrize(
    "text",
    [
        "C:/Users/me/ComfyUI>python main.py\nRuntimeError: Found no NVIDIA driver on your system.\n",
        "(venv) D:/AI/Fooocus>.\\python_embeded\\python.exe -s entry.py\nTraceback (most recent call last):\n",
    ],
)
def test_a_cmd_prompt_written_with_forward_slashes_says_windows(text: str) -> None:
    assert _os(text) == "windows"


@pytest.mark.parametrize(
    "text",
    [
        # a compiler's diagnostic on a drive path holds a ':' after the drive and a '<' a path cannot hold
        "C:/src/ggml/ggml-cuda.cu:97: error: no matching function for call to 'f<int>'\n",
        "D:/a/rocm/build/hip.cpp:12:3: warning: unused variable 'x' -> ignored\n",
    ],
)
def test_a_drive_path_in_a_compiler_line_is_no_cmd_prompt(text: str) -> None:
    assert _os(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # cmd prints the folder right before its '>': a space, '-' or '=' before it is prose, an arrow, a redirect
        "A:/B testing > baseline by 5%\n",
        "C:/x/model.ckpt -> loaded in 2.3s\n",
        "C:/x/out.txt => copied\n",
    ],
)
def test_a_drive_path_before_an_arrow_or_a_spaced_gt_is_no_cmd_prompt(text: str) -> None:
    assert [line.command for line in block(text).lines] == [False]


_INSTALLS = (
    ("1. `python -m pip install --index-url https://d2awnip2yjpvqn.cloudfront.net/v2/gfx1151/ rocm[libraries,devel]`", "gfx1151"),
    ("pip install --index-url https://rocm.nightlies.amd.com/v2/gfx110X-all/ torch torchaudio torchvision", "gfx110X-all"),
    ("python -m pip install --pre --index-url https://rocm.nightlies.amd.com/v2-staging/gfx1150/ torch", "gfx1150"),
    ("uv pip install --extra-index-url https://d2awnip2yjpvqn.cloudfront.net/v2/gfx120X-all/ torch torchvision", "gfx120X-all"),
)
"""Install lines in the forms of ROCm/TheRock#1167, #5954, #3046 (the index URL after its option, one or two options
before it, pip and uv)."""


@pytest.mark.parametrize("width", [72, 76, 80, 88, 100])
def test_a_therock_install_command_wrapped_before_its_index_url_reads_the_same_family(width: int) -> None:
    # the widths people's tools wrap at (blocks.NARROWEST_WRAP and up): editors, terminals, mail clients
    for line, family in _INSTALLS:
        wrapped = "\n".join(textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)) + "\n"
        assert _families(wrapped) == [family], wrapped


def test_every_corpus_report_that_installs_from_a_therock_family_keeps_it_wrapped_at_80_columns() -> None:
    installs = [case["report"] for case in _cases() if "/v2/gfx" in case["report"] or "/v2-staging/gfx" in case["report"]]
    if not installs:
        pytest.skip("no corpus found")
    changed = [text[:80] for text in installs if _families(wrap80(text)) != _families(text)]
    assert changed == [], f"{len(changed)} of {len(installs)}"


@pytest.mark.parametrize(
    "text",
    [
        # an index URL after a sentence is no argument of a command: a question, advice
        "Should I run pip install with the index at\nhttps://rocm.nightlies.amd.com/v2/gfx1151/ or the other one?\n",
        "Try pip install with the extra index, I mean the one for my card:\nhttps://rocm.nightlies.amd.com/v2/gfx110X-all/ instead.\n",
        # a URL on its own line under a short line a wrap could not have cut
        "pip list\nhttps://rocm.nightlies.amd.com/v2/gfx1151/\n",
        # a URL after a whole command and prose, in a numbered list, after a word: no option's argument
        "$ pip install torch --index-url https://download.pytorch.org/whl/rocm6.4 and it fails\n"
        "https://rocm.nightlies.amd.com/v2/gfx1151/ is the one from the TheRock README\n",
        "These are the indexes I have tried with pip so far (none of them work, same error below):\n"
        "1. https://rocm.nightlies.amd.com/v2/gfx1151/\n",
        "My GPU is an RX 7900 XTX and I followed the instructions in the pip section of the guide\n"
        "from https://rocm.nightlies.amd.com/v2/gfx120X-all/ which is for RDNA4 apparently.\n",
    ],
)
def test_an_index_url_that_continues_no_install_command_is_not_read(text: str) -> None:
    assert _families(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "pip install --pre torch torchvision torchaudio --index-url \\\n  https://rocm.nightlies.amd.com/v2/gfx1151/\n",
        "python -m pip install --pre --upgrade --force-reinstall torch torchvision torchaudio\n"
        "-i https://rocm.nightlies.amd.com/v2/gfx1151/\n",
        "Looking in indexes: https://pypi.org/simple, https://pypi.ngc.nvidia.com/whl/x,\n"
        "https://rocm.nightlies.amd.com/v2/gfx1151/\n",
    ],
)
def test_an_index_url_that_is_an_option_argument_or_pips_index_list_across_a_break_is_read(text: str) -> None:
    assert _families(text) == ["gfx1151"]


@pytest.mark.parametrize("spelling", _KERNEL_SPELLINGS)
@pytest.mark.parametrize("release", ["6.2", "6.8.0-45-generic"])
def test_an_install_failure_on_a_kernel_is_read_in_every_spelling_the_rewrite_uses(spelling: str, release: str) -> None:
    kernel = spelling.format(v=release)
    for text in (
        f"I am trying to install rocm(6.0.0) with {kernel}, and I am getting this error:",
        f"I can't install ROCm with {kernel}.",
        f"I get errors when installing ROCm on Ubuntu 22.04 with {kernel}.",
    ):
        assert "rocm_install_fails_on_kernel_told" in signature_errors(text + "\n"), text


@pytest.mark.parametrize(
    "text",
    [
        "I am trying to install ROCm 6.0 on Rocky Linux 9.3 and I am getting this error:\n",
        "I am trying to install ROCm 6.0 with Oracle Linux 7.9 and I am getting this error:\n",
        "I can't install ROCm with Scientific Linux 6.4.\n",
    ],
)
def test_a_distribution_named_linux_with_its_release_is_no_kernel_an_install_failed_on(text: str) -> None:
    assert "rocm_install_fails_on_kernel_told" not in signature_errors(text)


@pytest.mark.parametrize(
    "text",
    [
        "Installing ROCm 6.4 on Linux 6.8 went fine, no errors at all.\n",
        "Installing ROCm 6.2 on Ubuntu 22.04 with the 6.8.0-45-generic kernel works, no errors.\n",
        "Installing ROCm 6.2 with kernel 6.8 went without errors this time.\n",
        "Installing ROCm 6.4 on Linux 6.8 doesn't fail anymore.\n",
        "I can't install ROCm on Kali Linux 2024.1, dkms fails.\n",
    ],
)
def test_an_install_on_a_kernel_the_sentence_says_did_not_fail_is_no_failure(text: str) -> None:
    assert "rocm_install_fails_on_kernel_told" not in signature_errors(text)


_WHEEL_LABEL = re.compile(r"\+rocm\d[\w.]*")


def test_the_rocm_version_rewrites_leave_every_wheel_label_in_the_corpus_as_printed() -> None:
    reports = [case["report"] for case in _cases() if _WHEEL_LABEL.search(case["report"])]
    if not reports:
        pytest.skip("no corpus found")
    for rewrite in (version_spelling, version_compact):
        changed = [text[:80] for text in reports if _WHEEL_LABEL.findall(rewrite(text)) != _WHEEL_LABEL.findall(text)]
        assert changed == [], (rewrite.__name__, f"{len(changed)} of {len(reports)}")


def test_the_rocm_version_rewrite_still_respells_the_release_in_prose() -> None:
    text = "I use ROCm 6.2 with torch 2.5.1+rocm6.2 on an RX 7900 XTX.\n"
    assert version_spelling(text) == "I use ROCm 6.2.0 with torch 2.5.1+rocm6.2 on an RX 7900 XTX.\n"
