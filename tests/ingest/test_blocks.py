"""Splitting pasted markdown into numbered blocks and lines."""

from __future__ import annotations

import pytest

from rocm_doctor.ingest import ingest_text
from rocm_doctor.ingest.blocks import MAX_REPEATS, Spans, expected_lines, split_blocks, strip_prompt, without_repeats


def test_fenced_blocks_details_and_prose_become_separate_blocks() -> None:
    text = "intro line\n```\n$ rocminfo\nAgent 1\n```\n<details><summary>env</summary>\n\nPyTorch version: 2.5.1\n</details>\nafter"
    blocks = split_blocks(text)
    assert [b.kind for b in blocks] == ["prose", "fenced", "details", "prose"]
    assert [l.text for l in blocks[1].lines] == ["rocminfo", "Agent 1"]
    assert blocks[1].lines[0].command is True
    assert blocks[2].lines[-1].text == "PyTorch version: 2.5.1"
    assert blocks[2].lines[-1].number == 8
    assert blocks[3].lines[0].source == "paste:block 4 line 10"


def test_a_one_line_triple_backtick_span_is_read_as_its_text_and_opens_no_fence() -> None:
    # ROCmSoftwarePlatform/tensorflow#90: "``` <TensorFlow's skip line> ```" on one line; a backtick fence's info
    # string has no backtick (CommonMark 4.5), so no fence opens and the text after it stays prose.
    line = "I gpu_device.cc:1605] Ignoring visible gpu device (device: 0) with AMDGPU ISA gfx801. The minimum required AMDGPU ISA is gfx803."
    blocks = split_blocks(f"### Problem\n``` {line} ```\n\nWhat is wrong?")
    assert [b.kind for b in blocks] == ["prose"]
    assert [(l.text, l.number) for l in blocks[0].lines][1] == (line, 2)
    assert blocks[0].lines[-1].text == "What is wrong?"
    assert "tensorflow_gfx_not_in_build" in ingest_text(f"``` {line} ```\n").facts.symptoms.signatures.value


@pytest.mark.parametrize(
    "opening",
    [
        # ROCm/Tensile#1936 and ggml-org/llama.cpp#22013: the output starts on the opening fence line
        "```rocBLAS error: Cannot read /opt/rocm-5.4.0/lib/rocblas/library/TensileLibrary.dat: Illegal seek",
        "```common_init_from_params: warming up the model with an empty run - please wait ... (--no-warmup to disable)",
    ],
)
def test_output_pasted_on_the_opening_fence_line_is_the_blocks_first_line(opening: str) -> None:
    blocks = split_blocks(f"the log:\n{opening}\nAborted (core dumped)\n```\nafter")
    assert [b.kind for b in blocks] == ["prose", "fenced", "prose"]
    assert [(l.text, l.number) for l in blocks[1].lines] == [(opening[3:], 2), ("Aborted (core dumped)", 3)]


@pytest.mark.parametrize("tag", ["shell", "powershell", "c++", "{.python}", "text", "console", ""])
def test_a_language_tag_on_the_opening_fence_line_is_no_line_of_the_report(tag: str) -> None:
    blocks = split_blocks(f"```{tag}\nHSA Agents\n```\n")
    assert [l.text for l in blocks[0].lines] == ["HSA Agents"]


@pytest.mark.parametrize("info", ['python title="repro.py"', "bash {.line-numbers}", "console title=rocminfo", "{.python .numberLines}"])
def test_a_language_tag_with_attributes_on_the_opening_fence_line_is_no_line_of_the_report(info: str) -> None:
    blocks = split_blocks(f"```{info}\nHSA Agents\n```\nafter")
    assert [b.kind for b in blocks] == ["fenced", "prose"]
    assert [l.text for l in blocks[0].lines] == ["HSA Agents"]


@pytest.mark.parametrize(
    "opening",
    ["```RuntimeError: `torch.cuda` reports No HIP GPUs are available", "```OSError: cannot open `libamdhip64.so`"],
)
def test_an_opening_fence_line_holding_a_lone_backtick_span_still_opens_the_fence(opening: str) -> None:
    # Only a closing run as long as the opening one makes "``` text ```" a one-line span; otherwise the line opens
    # the fence its author meant, and the closing fence does not open a new one over the rest of the report.
    blocks = split_blocks(f"Error:\n{opening}\nAborted (core dumped)\n```\nI have an RX 6700 XT.")
    assert [b.kind for b in blocks] == ["prose", "fenced", "prose"]
    assert [l.text for l in blocks[1].lines] == [opening[3:], "Aborted (core dumped)"]
    assert [l.text for l in blocks[2].lines] == ["I have an RX 6700 XT."]


def test_an_empty_one_line_span_is_skipped_and_opens_no_fence() -> None:
    blocks = split_blocks("The error is\n``` ```\nand then\n```\nhipErrorNoBinaryForGpu\n```\n")
    assert [b.kind for b in blocks] == ["prose", "fenced"]
    assert [l.text for l in blocks[0].lines] == ["The error is", "and then"]


def test_a_triple_backtick_line_inside_an_open_fence_still_closes_it() -> None:
    # Unchanged by the one-line span reading: only a line outside any fence can be a span.
    blocks = split_blocks("```\nAgent 1\n``` trailing ```\nafter")
    assert [b.kind for b in blocks] == ["fenced", "prose"]
    assert [l.text for l in blocks[1].lines] == ["after"]


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


@pytest.mark.parametrize(
    "prompt",
    # PowerShell's prompt with forward slashes too (the "Windows path forms" rewrite; PowerShell takes either separator)
    ["(pia) PS E:\\PIA> ", "(venv) PS C:\\Users\\me\\ComfyUI> ", "(base) (venv) PS C:\\x> ", "(base) C:\\Users\\me>", "(pia) PS E:/PIA> "],
)
def test_a_windows_prompt_with_the_active_environments_names_is_a_prompt_and_says_windows(prompt: str) -> None:
    assert strip_prompt(prompt + "python main.py") == ("python main.py", True)
    assert ingest_text(prompt + "python main.py\nRuntimeError: Torch not compiled with CUDA enabled\n").facts.host.os.value == "windows"


def test_a_parenthesis_before_a_path_in_a_sentence_is_no_prompt() -> None:
    assert strip_prompt("(note) see C:\\x> for details") == ("(note) see C:\\x> for details", False)


def test_block_quotes_lose_their_marker() -> None:
    blocks = split_blocks("> RuntimeError: Found no NVIDIA driver on your system.")
    assert blocks[0].lines[0].text.startswith("RuntimeError")


def test_empty_text_has_no_blocks() -> None:
    assert split_blocks("") == []
    assert split_blocks("\n\n  \n") == []


def test_without_repeats_keeps_the_first_copies_of_each_line_shape_with_their_numbers() -> None:
    text = "".join(f"step {i} loss 0.{i}\n" for i in range(100)) + "done at step 100\n"
    (block,) = split_blocks(text)
    (sampled,) = without_repeats([block], keep=5)
    assert [line.number for line in sampled.lines] == [1, 2, 3, 4, 5, 101]
    assert without_repeats([block], keep=200)[0] is block  # nothing dropped: the same block


def test_line_shapes_blank_hex_numbers_but_not_words() -> None:
    lspci = "".join(f"{i:02x}:00.0 VGA controller\n" for i in range(0, 256, 16))
    (block,) = split_blocks(lspci + "face bead cafe\nbead face cafe\n")
    (sampled,) = without_repeats([block], keep=1)
    assert [line.text for line in sampled.lines] == ["00:00.0 VGA controller", "face bead cafe", "bead face cafe"]


def test_tool_readers_count_every_device_line_however_often_its_shape_repeats() -> None:
    lspci = "".join(
        f"{i:02x}:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi 31 [Radeon RX 7900 XT/7900 XTX] (rev c8)\n"
        for i in range(MAX_REPEATS + 8)
    )
    assert len(ingest_text(lspci).facts.gpus.agents) == MAX_REPEATS + 8


def test_an_environment_listing_read_without_its_repeats_claims_no_completeness() -> None:
    complete = ingest_text("$ env\n" + "".join(f"V{i}=x\n" for i in range(10)) + "HOME=/root\n")
    assert complete.facts.env.coverage.value == [".*"]
    repeated = ingest_text("$ env\n" + "".join(f"V{i}=x\n" for i in range(MAX_REPEATS * 3)) + "HOME=/root\n")
    assert repeated.facts.env.coverage.value == []  # an unlisted variable is unknown, not unset


def test_an_error_after_thousands_of_progress_lines_is_still_read() -> None:
    log = "".join(f"epoch 1 step {i} | loss {1 / (i + 1):.5f}\n" for i in range(5000))
    result = ingest_text(log + "RuntimeError: HIP error: invalid device function\n" + log)
    assert "hip_invalid_device_function" in result.facts.symptoms.signatures.value


def test_spans_merge_in_any_order_and_answer_membership() -> None:
    spans = Spans()
    for start, end in [(10, 20), (30, 40), (0, 5), (18, 32), (50, 60)]:
        spans.add(start, end)
    inside = {p for p in range(70) if p in spans}
    assert inside == set(range(0, 5)) | set(range(10, 40)) | set(range(50, 60))


def test_concurrent_readers_leave_the_garbage_collector_as_they_found_it() -> None:
    import gc
    from concurrent.futures import ThreadPoolExecutor

    assert gc.isenabled()
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(lambda n: ingest_text(f"GPU: RX 7900 XTX\nROCm {n % 3 + 5}.0\n" * 200), range(16)))
    assert gc.isenabled()


def test_a_character_that_lowers_to_two_keeps_line_anchored_signatures_on_every_line() -> None:
    # "İ" (Turkish capital dotted I) lowers to two characters; the block's lower-cased text must keep
    # its offsets, or readers anchored at a line's start only see the block's first line.
    from ingest_helpers import signature_contexts

    text = "İyi günler.\nWebui launches normally, but uses CPU to generate images.\n"
    assert "torch_on_cpu_told" in signature_contexts(text)
    assert len(split_blocks(text)[0].lower) == len(split_blocks(text)[0].text)


def _expected(text: str) -> list:
    blocks = split_blocks(text)
    lines = expected_lines(blocks)
    return [line.text for block in blocks for line in block.lines if line.number in lines and line.text]


def test_an_output_under_an_issue_templates_expected_behavior_heading_is_not_the_machine_now() -> None:
    # PyTorch's template (pytorch/pytorch#52571): the wanted output under "## Expected behavior", up to "## Environment"
    text = (
        "## To Reproduce\n\n```\npip list\n```\nOutput:\n```\ntorch 1.7.1+rocm3.8\n```\n"
        "## Expected behavior\n\nOutput:\n```\ntorch 1.7.1+cu110\n```\n\n## Environment\n\n```\ntorch 1.7.1+rocm3.8\n```\n"
    )
    assert _expected(text) == ["Output:", "torch 1.7.1+cu110"]
    assert ingest_text(text, origin_detail="t").facts.torch.version.value == "1.7.1+rocm3.8"
    # the same report with its fences stripped (a forum's copy) reads the same
    assert ingest_text(text.replace("```\n", ""), origin_detail="t").facts.torch.version.value == "1.7.1+rocm3.8"


def test_an_error_pasted_under_expected_behavior_and_the_gpu_it_names_still_count() -> None:
    # pytorch/audio#1749 pasted its traceback under "## Expected behavior"
    text = "## Expected behavior\n\n```\nOSError: libtorch_hip.so: cannot open shared object file: No such file or directory\n```\n"
    assert "extension_needs_other_torch_build_library" in (ingest_text(text, origin_detail="t").facts.symptoms.signatures.value or [])
    # ROCm/ROCm#4809's bold label over a sentence: the GPU is the reporter's, the torch is the one wanted (the report
    # shows the torch it has elsewhere)
    facts = ingest_text(
        "torch 2.4.1+cpu\n\n**Expected Behavior:**\nThe system should detect the Radeon RX 7900 XTX and torch 2.5.1+rocm6.2 should load.\n",
        origin_detail="t",
    ).facts
    assert [agent.name.value for agent in facts.gpus.agents] == ["Radeon RX 7900 XTX"]
    assert facts.torch.version.value == "2.4.1+cpu"


def test_a_torch_shown_only_under_expected_behavior_is_the_one_installed() -> None:
    # rev48g: a report whose only torch is under the heading pasted what it has; dropping it lost RD101 on these
    for text in (
        "**Expected behavior**\nIt should run on my RX 7900 XTX.\n\nEnvironment:\n- PyTorch Version: 2.1.0+cpu\n- OS: Windows 11\n",
        "### Expected behavior\n\nGPU used. Actual: torch.cuda.is_available() is False with torch 2.0.1+cpu on my Radeon RX 6800.\n",
        "### What should have happened?\n\nIt should use the GPU.\n\n<details><summary>pip list</summary>\n\n```\ntorch 2.1.0+cpu\n```\n</details>\n",
    ):
        assert ingest_text(text, origin_detail="t").facts.torch.version.value.endswith("+cpu"), text


def test_what_the_reporter_got_ends_the_expected_section_without_a_heading_marker() -> None:
    # rev48g: a contrast, a plain label of another section, collect_env's output, a collapsed section
    assert _expected("## Expected behavior\nIt should return True, but I get:\n```\ntorch 2.1.0+cpu\n```\n") == []
    assert _expected("**Expected behavior**\nRuns on the GPU.\nEnvironment:\ntorch 2.1.0+cpu\n") == ["Runs on the GPU."]
    assert _expected("## Expected behavior\nRuns.\n```\nCollecting environment information...\nPyTorch version: 2.1.0+cpu\n```\n") == ["Runs."]
    assert _expected("## Expected behavior\nRuns.\n<details><summary>Log</summary>\n\ntorch 2.1.0+cpu\n</details>\n") == ["Runs."]
    # pytorch/pytorch#52571's "Output:" over the wanted listing stays in the section
    assert _expected("## Expected behavior\nOutput:\n```\ntorch 1.7.1+cu110\n```\n## Environment\n") == ["Output:", "torch 1.7.1+cu110"]


def test_other_headings_end_the_expected_section_and_fenced_headings_do_not_open_one() -> None:
    assert _expected("### What should have happened?\nIt should use torch 2.1.2+rocm5.6\n### Console logs\ntorch: 2.1.2+cpu\n") == [
        "It should use torch 2.1.2+rocm5.6"
    ]
    assert _expected("## Actual behavior\n\n```\ntorch 2.1.2+cpu\n```\n") == []
    assert _expected("```\n## Expected behavior\ntorch 2.1.2+cpu\n```\n\n```\ntorch 2.1.2+cpu\n```\n") == []
    assert _expected("It was expected behaviour, I think.\ntorch 2.1.2+cpu\n") == []


@pytest.mark.parametrize("fenced", [False, True])
def test_the_templates_environment_checklist_ends_the_expected_section_when_its_heading_was_deleted(fenced: bool) -> None:
    # rev48h: PyTorch's template puts " - PyTorch Version (e.g., 1.0):" under "## Environment"; a report that deleted
    # that heading (the shared case pytorch-51213) states its torch there, not the one it wanted, fenced or not
    fields = " - PyTorch Version (e.g., 1.0): 1.6.0\n - OS (e.g., Linux): Ubuntu 18.04.5\n"
    text = "## Expected behavior\n\nI expected a return of a ScriptModule object.\n\n" + (f"```\n{fields}```\n" if fenced else fields)
    assert _expected(text) == ["I expected a return of a ScriptModule object."]
    assert ingest_text(text, origin_detail="t").facts.torch.version.value == "1.6.0"
    collect_env = "## Expected behavior\n\nno error\n\nCollecting environment information...\nPyTorch version: 2.4.1+rocm6.1\n"
    assert _expected(collect_env) == ["no error"]
