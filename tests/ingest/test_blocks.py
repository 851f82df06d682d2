"""Splitting pasted markdown into numbered blocks and lines."""

from __future__ import annotations

from rocm_doctor.ingest.blocks import split_blocks, strip_prompt


def test_fenced_blocks_details_and_prose_become_separate_blocks() -> None:
    text = "intro line\n```\n$ rocminfo\nAgent 1\n```\n<details><summary>env</summary>\n\nPyTorch version: 2.5.1\n</details>\nafter"
    blocks = split_blocks(text)
    assert [b.kind for b in blocks] == ["prose", "fenced", "details", "prose"]
    assert [l.text for l in blocks[1].lines] == ["rocminfo", "Agent 1"]
    assert blocks[1].lines[0].command is True
    assert blocks[2].lines[-1].text == "PyTorch version: 2.5.1"
    assert blocks[2].lines[-1].number == 8
    assert blocks[3].lines[0].source == "paste:block 4 line 10"


def test_crlf_and_lone_cr_line_endings_number_lines_like_lf() -> None:
    blocks = split_blocks("a\r\nb\rc\n")
    assert [(l.text, l.number) for l in blocks[0].lines][:3] == [("a", 1), ("b", 2), ("c", 3)]


def test_an_unclosed_fence_keeps_the_truncated_output() -> None:
    blocks = split_blocks("```\nHSA Agents\nAgent 1")
    assert blocks[0].kind == "fenced" and len(blocks[0].lines) == 2


def test_prompts_of_shells_and_repls_are_removed() -> None:
    assert strip_prompt("user@host:~/sd$ dkms status") == ("dkms status", True)
    assert strip_prompt("[root@6700xt ~]# dkms status") == ("dkms status", True)
    assert strip_prompt("PS C:\\Users\\me> hipInfo.exe") == ("hipInfo.exe", True)
    assert strip_prompt("In [2]: torch.__version__") == ("torch.__version__", True)
    assert strip_prompt(">>> import torch") == ("import torch", True)
    assert strip_prompt("Name: gfx1100") == ("Name: gfx1100", False)


def test_block_quotes_lose_their_marker() -> None:
    blocks = split_blocks("> RuntimeError: Found no NVIDIA driver on your system.")
    assert blocks[0].lines[0].text.startswith("RuntimeError")


def test_empty_text_has_no_blocks() -> None:
    assert split_blocks("") == []
    assert split_blocks("\n\n  \n") == []
