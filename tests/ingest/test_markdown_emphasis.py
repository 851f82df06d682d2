"""GitHub prose sets the words that matter in bold or italics: "the model **silently falls back to CPU**" (Hal0ai/hal0#423),
"Please add the **Krackan APU** family" (lemonade-sdk/lemonade#2002), "installed **RHEL 7.5**" and "vs
**rocm-dkms-1.9.211-1.x86_64**" (ROCm/amdgpu#57). The marks are read past, in fenced blocks too, where code's stars do
not pair (the metamorphic rewrites kept, before: bold 515 of 599 diagnoses, italics 511; after: 599 and 599). A name set as inline code is the name
("My GPU is an RX 6600 (`gfx1032`)", ollama#8473; "Rocm support missing for `gfx1151`", lmstudio-bug-tracker#1502; "the
9060XT is `gfx1200`", legacy-rocm-build#5069; the "inline code names" rewrite kept 520 of 602 diagnoses before, 602 after); other
inline code keeps its backticks: readers take them as a quoted message ("it stops with `no nvidia driver found`"), a shell
expression (``VAR=`cmd` ``) or a command named (``as `sudo` ``)."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

from rocm_doctor.ingest.blocks import split_blocks, without_emphasis


@pytest.mark.parametrize(
    ("bold", "plain"),
    [
        ("My **RX 7900 XTX** is not used: pytorch runs on the **CPU** on **Ubuntu 22.04**.",
         "My RX 7900 XTX is not used: pytorch runs on the CPU on Ubuntu 22.04."),
        ("I installed torch with `pip install torch` and **HSA_OVERRIDE_GFX_VERSION=10.3.0** on my **RX 6700 XT**.",
         "I installed torch with `pip install torch` and HSA_OVERRIDE_GFX_VERSION=10.3.0 on my RX 6700 XT."),
    ],
)
def test_a_report_in_bold_is_read_like_its_plain_words(bold: str, plain: str) -> None:
    b, p = ingest(bold).facts, ingest(plain).facts
    assert [a.name.value for a in b.gpus.agents] == [a.name.value for a in p.gpus.agents]
    assert b.host.os.value == p.host.os.value and b.host.distro_version.value == p.host.distro_version.value
    assert b.env.vars.value == p.env.vars.value
    assert b.symptoms.context.value == p.symptoms.context.value


@pytest.mark.parametrize(
    "code",
    ["def forward(self, *args, **kwargs):", "File \"torch/__init__.py\", line 2", "x = 2**10 + 3**2", "ls src/**/*.py", "****"],
)
def test_code_keeps_its_stars(code: str) -> None:
    assert without_emphasis(code) == code


def test_code_in_a_fenced_block_keeps_its_stars_and_prose_loses_them() -> None:
    prose, fenced = split_blocks("It runs on the **CPU**.\n\n```\nprint(f(**opts), a**b**c)\n```\n")
    assert prose.lines[0].text == "It runs on the CPU."
    assert fenced.lines[0].text == "print(f(**opts), a**b**c)"
    assert prose.lines[0].raw == "It runs on the **CPU**."


def test_a_line_that_is_only_a_bold_label_keeps_its_marks() -> None:
    # a template's heading written as a bold line ("**Expected Behavior:**", ROCm/ROCm#4809): the section readers need it
    assert without_emphasis("**Expected Behavior:**") == "**Expected Behavior:**"
    assert without_emphasis("- **Environment**") == "- **Environment**"
    assert without_emphasis("**GPU:** Radeon RX 7900 XTX") == "GPU: Radeon RX 7900 XTX"


@pytest.mark.parametrize(
    ("marked", "plain"),
    [
        ("runs on the *CPU*, not my *RX 6800 XT*", "runs on the CPU, not my RX 6800 XT"),
        ("ls *.py and *.txt", "ls *.py and *.txt"),
        ("2 * 3 * 4", "2 * 3 * 4"),
        ("* item one", "* item one"),
    ],
)
def test_italics_are_read_past_and_globs_and_products_are_not(marked: str, plain: str) -> None:
    assert without_emphasis(marked) == plain


@pytest.mark.parametrize(
    ("marked", "plain"),
    [
        ("it runs on the `CPU` with `ROCm 6.2`", "it runs on the CPU with ROCm 6.2"),
        ("my `RX 7900 XTX` (`gfx1100`) on `Windows 11`", "my RX 7900 XTX (gfx1100) on Windows 11"),
        ("it stops with `no nvidia driver found`", "it stops with `no nvidia driver found`"),
        ("has to run commands as `sudo` for GPU access", "has to run commands as `sudo` for GPU access"),
        ("export HSA_OVERRIDE_GFX_VERSION=`detect-gfx --hsa`", "export HSA_OVERRIDE_GFX_VERSION=`detect-gfx --hsa`"),
    ],
)
def test_a_name_set_as_inline_code_is_the_name_and_other_code_keeps_its_backticks(marked: str, plain: str) -> None:
    assert without_emphasis(marked) == plain


@pytest.mark.parametrize(
    ("marked", "plain"),
    [
        # a reporter's fix in inline code (a ctranslate2 report in tests/corpus): the glob is not italics, and read as
        # such it made "library/1010 PATH/TO/..." a path with a space
        ("using `sudo cp /opt/rocm/lib/rocblas/library/*1010* PATH/TO/VENV/lib/` on my **RX 5700**",
         "using `sudo cp /opt/rocm/lib/rocblas/library/*1010* PATH/TO/VENV/lib/` on my RX 5700"),
        ("**`HSA_OVERRIDE_GFX_VERSION=10.3.0` fixed it** on my *RX 6700 XT*",
         "`HSA_OVERRIDE_GFX_VERSION=10.3.0` fixed it on my RX 6700 XT"),
        # a glob right after a path separator, outside inline code
        ("sudo cp /opt/rocm/lib/rocblas/library/*1010* PATH/TO/VENV/lib/", "sudo cp /opt/rocm/lib/rocblas/library/*1010* PATH/TO/VENV/lib/"),
        ("ls /opt/rocm/lib/*.so /usr/lib/*.so", "ls /opt/rocm/lib/*.so /usr/lib/*.so"),
        ("C:\\Users\\me\\*rocblas* and *italic*", "C:\\Users\\me\\*rocblas* and italic"),
    ],
)
def test_inline_code_and_path_globs_keep_their_stars(marked: str, plain: str) -> None:
    assert without_emphasis(marked) == plain


def test_a_glob_in_inline_code_is_no_path_with_a_space() -> None:
    text = "I copied them with `sudo cp /opt/rocm/lib/rocblas/library/*1010* PATH/TO/PYTHON/VENV/lib/python3.12/site-packages/torch/lib/rocblas/library/`\n"
    assert "posix_path_with_space" not in (ingest(text).facts.symptoms.context.value or [])


def test_a_bold_expected_heading_with_its_words_on_the_line_still_opens_its_section() -> None:
    # "**Expected behavior:** ..." loses its bold in the line's text; the section reader still finds the heading
    from rocm_doctor.ingest.blocks import expected_lines, normalise

    text = "**Expected behavior:** the GPU is used\ntorch 2.6.0+rocm6.2\n\n**Actual behavior:** it runs on the CPU\n"
    under = expected_lines(split_blocks(normalise(text)))
    assert 2 in under and 4 not in under


def test_a_version_set_in_bold_inside_a_fence_is_read_without_the_marks() -> None:
    # learn52b: pytorch/audio#1750 set the odd tag in bold ("0.10.0.dev20210901+**rocm4.1**"); fenced, the marks stay
    listing = (
        "```\n"
        "    torch             1.10.0.dev20210901+cu111\n"
        "    torchaudio        0.10.0.dev20210901+**rocm4.1**\n"
        "    torchvision       0.11.0.dev20210901+cu111\n"
        "```\n"
    )
    torch = ingest(listing).facts.torch
    assert torch.torchaudio_version.value == "0.10.0.dev20210901+rocm4.1"
    assert torch.torchaudio_flavour.value == "rocm"
