"""Facts the layout and spelling rewrites dropped (benchmarks/metamorphic.py, FACTS lines), read the same way
whichever way the report is laid out or spelled (issue 23 item 6, h36i); and the rewrites that changed a
report's meaning, fixed so that they do not.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest
from metamorphic import env_var_forms, facts_read, pip_command_forms, platform_spellings, quoted_advice, reorder_blocks

SIGNATURES = 9
"""The signatures' place in :func:`metamorphic.facts_read`."""


def contexts(text: str) -> set:
    facts = ingest(text + "\n").facts
    return set(facts.symptoms.context.value or []) if facts.symptoms.context.is_known else set()


def env(text: str) -> dict:
    facts = ingest(text + "\n").facts
    return dict(facts.env.vars.value) if facts.env.vars.is_known and isinstance(facts.env.vars.value, dict) else {}


@pytest.mark.parametrize(
    "text",
    [
        "I have an RX 580 and ollama does not use it.",
        "I have an AMD Radeon RX 580 and ollama does not use it.",
        "My rx6700xt is not in the list.",
        "The MI100 is not found by the program.",
        "A 7900 XTX and the program does not find it.",
    ],
)
def test_an_amd_gpu_named_by_its_model_alone_speaks_of_the_amd_stack_as_radeon_does(text: str) -> None:
    assert "rocm_stack_mentioned" in contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        # the web UI's AMD wiki page, named by its address (AUTOMATIC1111/stable-diffusion-webui#8808, #15137, #17025)
        "I followed https://github.com/AUTOMATIC1111/stable-diffusion-webui/wiki/Install-and-Run-on-AMD-GPUs and it fails.",
        "My AMD-GPU is not used by the program.",
    ],
)
def test_an_amd_gpu_written_with_a_hyphen_speaks_of_the_amd_stack(text: str) -> None:
    assert "rocm_stack_mentioned" in contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "My Ryzen 5 7600 with an RTX 3060 runs the program fine.",
        "The 7600X CPU runs the program fine.",
        "We walked 680m to the office and the program runs.",
        "The program runs on the CPU only.",
        # "AMD GPU" in a comparison or after "non-", with or without hyphens
        "It generates on the CPU. I followed the non-AMD-GPU instructions.",
        "It generates on the CPU. See https://example.com/blog/nvidia-vs-amd-gpus-for-deep-learning for why.",
        "It generates on the CPU, I read NVIDIA vs. AMD GPUs reviews before buying.",
    ],
)
def test_a_cpu_an_nvidia_card_or_a_distance_speaks_of_no_amd_stack(text: str) -> None:
    assert "rocm_stack_mentioned" not in contexts(text)


def test_an_amd_model_the_reporter_no_longer_has_does_not_make_the_report_about_the_amd_stack() -> None:
    # the NVIDIA user's "torch.version.hip is None" would otherwise be RD829's error about an AMD GPU they do not have
    assert "rocm_stack_mentioned" not in contexts("I used to have an RX 6800 but I sold it and switched to an RTX 4090 last year.")


def test_a_line_opened_by_a_pre_tag_keeps_its_text() -> None:
    text = "<details>\n<summary>Log</summary>\n<pre>[BuildHip] In file included from C:\\Users\\me\\AppData\\Local\\Temp\\x.hpp:83:23:</pre>\n</details>"
    facts = ingest(text + "\n").facts
    assert facts.host.os.value == "windows"


def test_a_double_quoted_value_goes_on_over_a_wrapped_line_break() -> None:
    wrapped = (
        '`export TORCH_COMMAND="pip install torch torchvision --extra-index-url\n'
        'https://download.pytorch.org/whl/rocm5.2"`'
    )
    whole = wrapped.replace("\n", " ")
    expected = "pip install torch torchvision --extra-index-url https://download.pytorch.org/whl/rocm5.2"
    assert env(wrapped)["TORCH_COMMAND"] == env(whole)["TORCH_COMMAND"] == expected


def test_an_unclosed_quote_does_not_take_the_next_sentence_as_its_value() -> None:
    text = 'export HSA_OVERRIDE_GFX_VERSION="10.3.0\nthen I ran "python main.py" again'
    assert "then" not in env(text).get("HSA_OVERRIDE_GFX_VERSION", "")


@pytest.mark.parametrize(
    "text, name, expected",
    [
        ("export HSA_OVERRIDE_GFX_VERSION=${HSA_OVERRIDE_GFX_VERSION:-10.3.0}", "HSA_OVERRIDE_GFX_VERSION", "10.3.0"),
        ("`hyprstream.sh` sets `PYTORCH_ROCM_ARCH=${PYTORCH_ROCM_ARCH:-gfx90a}` by default", "PYTORCH_ROCM_ARCH", "gfx90a"),
    ],
)
def test_a_scripts_own_default_is_the_value_it_sets(text: str, name: str, expected: str) -> None:
    assert env(text)[name] == expected


def test_a_scripts_own_default_yields_to_the_value_set_before_it() -> None:
    # ${NAME:-value} keeps a value the variable already has: the export above it is the one in force.
    text = "```\nexport HSA_OVERRIDE_GFX_VERSION=11.0.0\nexport HSA_OVERRIDE_GFX_VERSION=${HSA_OVERRIDE_GFX_VERSION:-10.3.0}\n```"
    assert env(text)["HSA_OVERRIDE_GFX_VERSION"] == "11.0.0"


@pytest.mark.parametrize(
    "text",
    [
        "export HSA_OVERRIDE_GFX_VERSION=${OTHER:-10.3.0}",
        "export HSA_OVERRIDE_GFX_VERSION=${HSA_OVERRIDE_GFX_VERSION:-$DETECTED}",
    ],
)
def test_another_variables_default_or_an_expanded_default_is_not_read_as_the_value(text: str) -> None:
    assert env(text).get("HSA_OVERRIDE_GFX_VERSION") != "10.3.0"


def test_two_ggml_device_listings_in_one_block_leave_the_fields_between_them_read() -> None:
    listing = (
        "ggml_cuda_init: found 2 ROCm devices:\n"
        "  Device 0: AMD Radeon Graphics, gfx906:sramecc+:xnack- (0x906), VMM: no, Wave Size: 64\n"
        "  Device 1: AMD Instinct MI60 / MI50, gfx906:sramecc+:xnack- (0x906), VMM: no, Wave Size: 64\n"
    )
    text = "./bin/llama-cli --version\n" + listing + "\n### Operating systems\n\nLinux\n\n### Relevant log output\n\n./bin/llama-bench -fa 1\n" + listing
    facts = ingest(text).facts
    assert facts.host.os.value == "linux"
    assert len(facts.gpus.agents) == 2


# --- rewrites that changed meaning ---


def test_the_env_rewrite_leaves_the_setting_sudo_passes_to_its_command() -> None:
    line = "sudo PYTORCH_TEST_WITH_ROCM=1 python3 -c 'import torch'"
    assert env_var_forms(line) == line


def test_the_pip_rewrite_leaves_a_pip_command_that_is_a_variables_value() -> None:
    line = 'I set `export TORCH_COMMAND="pip install torch --extra-index-url https://download.pytorch.org/whl/rocm5.2"`'
    assert pip_command_forms(line) == line


def test_the_platform_rewrite_leaves_wsl2_inside_a_kernel_release() -> None:
    line = "I run the kernel 5.15.167.4-microsoft-standard-WSL2 in my setup"
    assert platform_spellings(line) == line


def test_pip_and_uv_words_for_no_torch_wheel_are_one_outcome_in_the_facts_compared() -> None:
    pip = "ERROR: No matching distribution found for torch\n"
    uv = "  × No solution found when resolving dependencies:\n  ╰─▶ Because torch was not found in the package registry and you require torch, we can conclude that your requirements are unsatisfiable.\n"
    read = [facts_read(ingest(text).facts)[SIGNATURES] for text in (pip, uv)]
    assert read[0] == read[1] == frozenset({"no_torch_for_this_python"})


def test_a_collect_env_value_an_editor_moved_to_the_next_line_is_read() -> None:
    head = (
        "PyTorch version: 2.3.0a0+gitabc\nROCM used to build PyTorch: 6.0.32830-d62f6a171\n"
        "CUDA used to build PyTorch: N/A\nOS: Fedora Linux 40\n"
    )
    platform = "Linux-6.8.0-0.rc0.20240112git70d201a40823.5.fc40.x86_64-x86_64-with-glibc2.38.9000"
    whole = ingest(head + f"Python platform: {platform}\nIs CUDA available: True\n").facts
    wrapped = ingest(head + f"Python platform:\n{platform}\nIs CUDA available: True\n").facts
    assert wrapped.host.kernel_release.value == whole.host.kernel_release.value == "6.8.0-0.rc0.20240112git70d201a40823.5.fc40.x86_64"


def test_the_gpu_list_head_of_collect_env_takes_no_wrapped_value() -> None:
    text = (
        "PyTorch version: 2.4.0+rocm6.1\nROCM used to build PyTorch: 6.1.40091-a8dbc0c19\nIs CUDA available: True\n"
        "GPU models and configuration:\nGPU 0: AMD Radeon RX 7900 XTX (gfx1100)\n"
    )
    assert [str(a.gfx.value) for a in ingest(text).facts.gpus.agents] == ["gfx1100"]


@pytest.mark.parametrize(
    ("opening", "closing"),
    [("~~~", "~~~"), ("```", "```"), ("````", "````"), ("```\nlog\n```\n~~~", "~~~")],
)
def test_the_quoted_advice_rewrite_closes_a_fence_left_open_with_its_own_mark(opening: str, closing: str) -> None:
    # a paste cut short inside "~~~": a "```" does not close it (Markdown, blocks.split_blocks), so the reply's quote
    # would be read as the report's own log
    rewritten = quoted_advice(f"Report\n{opening}\nMIOpen Error: failed\n")
    lines = rewritten.split("\n")
    assert lines[lines.index("MIOpen Error: failed") + 1] == closing
    assert "hip_no_binary_for_gpu" not in (ingest(rewritten).facts.symptoms.signatures.value or [])


@pytest.mark.parametrize("span", ["``` 2018-11-11 I tensorflow: Ignoring visible gpu device ```", "```log line```", "```` x ````"])
def test_the_quoted_advice_rewrite_opens_no_fence_for_a_code_span_on_one_line(span: str) -> None:
    # learn56f: ROCmSoftwarePlatform/tensorflow#90 pasted its log as "``` ... ```" on one line, an inline code span (as
    # blocks.split_blocks reads it); the rewrite took it for a fence left open and its "```" opened one over the quote
    rewritten = quoted_advice(f"Report\n{span}\nWhat is wrong?\n")
    assert rewritten.split("\n")[3] == ""
    assert "hip_no_binary_for_gpu" not in (ingest(rewritten).facts.symptoms.signatures.value or [])


ANSWERED_COMMAND = (
    "Running the image as a non-root user, ROCm is not detected on my RX 7900 XTX.\n\n"
    "Build with `docker build -t my-image .`\n\n"
    "And then\n```\ndocker run --device /dev/kfd --device /dev/dri -it my-image /bin/bash\n"
    "python -c \"import torch; torch.cuda.is_available()\"\n```\n\n"
    "returns `False`, while it runs just fine as root.\n"
)
"""ROCm/ROCm-docker#114's layout: a sentence that a fenced command interrupts ("And then", the command, "returns
`False`"), the command's answer a block of its own."""


def test_the_reorder_rewrite_moves_a_fenced_command_and_the_sentence_going_on_after_it_as_one_unit() -> None:
    # mend59: moving "returns `False`" alone to the front left an answer to no command (rocm-docker-114 lost RD613)
    moved = reorder_blocks(ANSWERED_COMMAND)
    assert moved != ANSWERED_COMMAND
    assert moved.startswith("And then\n```")
    assert "```\n\nreturns `False`" in moved
    assert "cuda_unavailable_reported" in contexts(ANSWERED_COMMAND)
    assert "cuda_unavailable_reported" in contexts(moved)


def test_the_reorder_rewrite_still_moves_a_capitalised_block_after_a_fence_on_its_own() -> None:
    text = "First we build.\n\n```\nmake -j8\n```\n\nThen it fails at the link step.\n"
    assert reorder_blocks(text).startswith("Then it fails")
