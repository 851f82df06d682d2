"""Reports whose lines a terminal, an editor or a mail client wrapped, and pastes of several commands
in one block, read as the unwrapped report would be (issue 23, item 6: the metamorphic rewrites
"wrap at 80 columns" and "strip Markdown fences" name these readers)."""

from __future__ import annotations

from ingest_helpers import ingest

from rocm_doctor.ingest.blocks import command_runs, may_be_wrapped, split_blocks


def signatures(text: str) -> list:
    found = ingest(text).facts.symptoms.signatures
    return list(found.value or []) if found.is_known else []


def context(text: str) -> list:
    found = ingest(text).facts.symptoms.context
    return list(found.value or []) if found.is_known else []


OLLAMA_WRAPPED = (
    "time=2025-01-29T21:15:25.522-03:00 level=WARN source=amd_linux.go:378\n"
    'msg="amdgpu is not supported (supported types:[gfx1010 gfx1012 gfx1030 gfx1100\n'
    'gfx1101 gfx1102 gfx900 gfx906 gfx908 gfx90a gfx940 gfx941 gfx942])"\n'
    "gpu_type=gfx1031 gpu=0 library=/opt/rocm/lib\n"
)


def test_a_log_line_wrapped_over_four_lines_is_read_as_one_message() -> None:
    facts = ingest(OLLAMA_WRAPPED).facts
    assert "ollama_gfx_check_without_override" in (facts.symptoms.signatures.value or [])
    assert facts.symptoms.error_gfx.value == ["gfx1031"]


def test_a_short_line_before_a_word_too_long_to_fit_may_be_wrapped() -> None:
    path = "/home/me/projects/venv/lib/python3.12/site-packages/torch/lib/rocblas/library/TensileLibrary.dat:"
    assert may_be_wrapped("rocBLAS error: Cannot read", path)
    assert "tensile_library_missing_arch" in signatures(f"rocBLAS error: Cannot read\n{path}\nIllegal seek\n")


def test_two_short_lines_with_short_words_are_not_a_wrap() -> None:
    assert not may_be_wrapped("ROCm only", "runs for root.")


def test_a_command_wrapped_before_its_index_url_is_not_a_plain_pip_install() -> None:
    text = (
        "pip install torch==2.3.1+rocm6.0 torchvision==0.18.1+rocm6.0 torchaudio==2.3.1+rocm6.0\n"
        "--index-url https://download.pytorch.org/whl/rocm6.0\n"
    )
    assert "torch_from_pypi_default" not in context(text)
    assert "torch_from_pypi_default" in context("pip install torch torchvision torchaudio\n\nThen it failed.\n")


def test_an_lspci_line_wrapped_before_its_product_name_names_the_gpu() -> None:
    text = (
        "03:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Navi\n"
        "33 [Radeon RX 7700S/7600/7600S/7600M XT/PRO W7600] (rev c0)\n"
    )
    names = [str(a.name.value) for a in ingest(text).facts.gpus.agents]
    assert names and "Radeon RX 7700S" in names[0]


def test_a_gfx_named_as_an_override_target_on_a_wrapped_line_is_no_gpu() -> None:
    text = (
        "I have an RX 6600. When I use `os.environ['HSA_OVERRIDE_GFX_VERSION'] = '10.3.0'` all the GPU gfx\n"
        "versions change to gfx1030, so the other card becomes unusable.\n"
    )
    assert [str(a.gfx.value) for a in ingest(text).facts.gpus.agents] == ["gfx1032"]


def test_a_windows_folder_name_wrapped_at_its_space_still_says_windows() -> None:
    text = "rocBLAS error: Cannot read C:\\Program\nFiles\\AMD\\ROCm\\6.2\\bin\\/rocblas/library/TensileLibrary.dat\n"
    assert ingest(text).facts.host.os.value == "windows"


def test_a_package_version_read_from_a_sentence_leaves_the_sentences_other_facts() -> None:
    text = "WSL2 Ubuntu 24.04 on Windows 11, ROCm 7.2.1 from AMD's packages (`rocm-core 7.2.1.70201-81~24.04`).\n"
    facts = ingest(text).facts
    assert facts.host.wsl_version.value == 2
    assert facts.rocm.version.value == "7.2.1"


ROCMINFO_THEN_CLINFO = """$ rocminfo
ROCk module is loaded
=====================
HSA System Attributes
=====================
Runtime Version:         1.1
$ /usr/bin/rocm-clinfo | grep -P 'Board|gfx'
  Board name:     AMD Radeon AI PRO R9700
  Name:           gfx1201
  Board name:     Radeon 8060S Graphics
  Name:           gfx1201
GPU: Radeon 8060S + R9700
"""


def test_a_tool_output_ends_at_the_next_shell_prompt() -> None:
    runs = command_runs(split_blocks(ROCMINFO_THEN_CLINFO)[0])
    assert [run.lines[0].text.split()[0] for run in runs] == ["rocminfo", "/usr/bin/rocm-clinfo"]
    agents = ingest(ROCMINFO_THEN_CLINFO).facts.gpus.agents
    assert not any(str(a.source).startswith("paste:rocminfo") for a in agents)


def test_python_prompts_do_not_cut_a_block() -> None:
    block = split_blocks(">>> import torch\n>>> torch.cuda.is_available()\nFalse\n")[0]
    assert command_runs(block) == [block]


def test_an_lspci_line_wrapped_before_its_vendor_bracket_and_revision_names_the_gpu() -> None:
    text = (
        "03:00.0 VGA compatible controller: Advanced Micro Devices, Inc.\n"
        "[AMD/ATI] Navi 33 [Radeon RX 7700S/7600/7600S/7600M XT/PRO W7600] (rev\n"
        "c0)\n"
    )
    names = [str(a.name.value) for a in ingest(text).facts.gpus.agents]
    assert names and "Radeon RX 7700S" in names[0]


def test_advice_on_the_line_before_a_wrapped_variable_still_makes_it_advice() -> None:
    text = (
        "On linux, a similar problem with rocm can be resolved with the definition of the env\n"
        "variable HSA_OVERRIDE_GFX_VERSION = 10.3.0.\n"
    )
    env = ingest(text).facts.env.vars
    assert "HSA_OVERRIDE_GFX_VERSION" not in (env.value or {})


def gfx_read(text: str) -> list:
    return sorted(agent.gfx.value for agent in ingest(text).facts.gpus.agents if agent.gfx.is_known)


def test_a_gpu_tested_elsewhere_stays_elsewhere_when_its_sentence_is_wrapped() -> None:
    # pytorch/pytorch#189849's sentence, cut where an 80-column wrap cuts it
    wrapped = (
        "We observed corrupted output images when running a Stable Diffusion 3 pipeline\n"
        "on AMD gfx1151. Note: This issue is specific to `gfx1151`. The same PyTorch builds were tested\n"
        "on `gfx1201` and do not exhibit this problem - head_dim=512 produces correct\n"
        "results on gfx1201 across all tested versions.\n"
    )
    assert gfx_read(wrapped) == ["gfx1151"]


def test_a_gpu_said_to_be_spoofed_keeps_that_word_when_the_sentence_is_wrapped() -> None:
    # jamiepine/voicebox#469's sentence wrapped: the gfx named as the spoofing target is no device
    wrapped = (
        "I am on gfx1201 which is already natively supported on ROCm, so on my GPU this\n"
        "is just spoofing my RDNA 4 GPU as an RDNA 2 GPU which results in suboptimal\n"
        "performance and issues.\n"
    )
    assert gfx_read(wrapped) == gfx_read(wrapped.replace("\n", " ").strip() + "\n")


def test_a_gpu_named_as_someone_elses_stays_theirs_when_the_sentence_is_wrapped() -> None:
    wrapped = (
        "The kernels crash on my machine as well, and this would need a check from someone\n"
        "with an RX 6700 XT before the change can be merged upstream in the next release.\n"
    )
    assert gfx_read(wrapped) == []


def test_a_list_item_comparing_another_machine_leaves_the_next_items_gpu_to_the_machine() -> None:
    # A list item starts its own line; a wrap never does. Joined to the comparison above it, the RX 7900
    # XTX was dropped as "tested elsewhere", the CPU's iGPU was left as the only GPU and RD527 said
    # no release build has kernels for it.
    text = (
        "- The same script runs on my old laptop with an RTX 3060 and does not crash there at all\n"
        "- this machine has an RX 7900 XTX and a Ryzen 9 7950X\n"
        "- ROCm 6.1.3, torch 2.4.1+rocm6.1\n"
    )
    assert "gfx1100" in gfx_read(text)


def test_a_question_answered_on_its_own_line_does_not_deny_the_wsl_named_on_the_next() -> None:
    # "...? No" answers the question; read as "No Running under WSL2" it denied WSL2, and the report
    # got a container render-group warning instead of RD506 (HIP finds no GPU inside WSL2).
    text = (
        "Are you running inside a docker container or a virtual machine (VM)? No\n"
        "Running under WSL2, ROCm 6.1.3, GPU RX 7900 XTX, torch 2.4.1+rocm6.1\n"
    )
    assert ingest(text).facts.host.wsl_version.value == 2


def test_the_paragraph_around_a_mention_is_bounded_however_long_its_lines_are() -> None:
    # Each mention joins a window of its neighbours, not whole lines: work per mention stays bounded
    # when a long log line (megabytes) stands next to it.
    from rocm_doctor.ingest.formats.mentions import PARAGRAPH_WINDOW, paragraph

    long_line = "x " * 200_000
    found = split_blocks(long_line + "\n" + "gfx1100 " + long_line + "\n" + long_line + "\n")[0]
    line = found.lines[1]
    around, at = paragraph(found, line, 0)
    assert len(around) <= 4 * PARAGRAPH_WINDOW
    assert around[at : at + 7] == "gfx1100"


def test_a_sentence_on_the_next_line_naming_the_override_leaves_the_gpu_on_the_line_before_read() -> None:
    # "I have not set HSA_OVERRIDE_GFX_VERSION" starts a sentence of its own; joined to the line before,
    # its "override" made gfx1031 a support list, the CPU's iGPU was left as the only GPU, and RD527
    # replaced RD504 (gfx1031 needs the override).
    text = (
        "CPU: Ryzen 9 7950X\n\n"
        "rocminfo shows gfx1031 for the card and torch 2.4.1+rocm6.1 is installed in the venv here\n"
        "I have not set HSA_OVERRIDE_GFX_VERSION. RuntimeError: HIP error: invalid device function\n"
    )
    assert "gfx1031" in gfx_read(text)


def test_a_lower_case_sentence_on_the_next_line_naming_the_override_leaves_the_gpu_on_the_line_before_read() -> None:
    # The same as above written in lower case, as some reporters write ("i have an rx 580 ...",
    # vosen/ZLUDA#326): "i" starts a sentence as "I" does.
    text = (
        "CPU: Ryzen 9 7950X\n\n"
        "rocminfo shows gfx1031 for the card and torch 2.4.1+rocm6.1 is installed in the venv here\n"
        "i have not set HSA_OVERRIDE_GFX_VERSION. RuntimeError: HIP error: invalid device function\n"
    )
    assert "gfx1031" in gfx_read(text)
    contracted = text.replace("i have not set", "i've not set")
    assert "gfx1031" in gfx_read(contracted)


def test_a_command_wrapped_inside_its_package_list_is_not_a_plain_pip_install() -> None:
    # learn52b: pytorch/audio#1750 wrapped at 80 columns - the cut fell before "torchaudio", not before "-f"
    text = (
        "3. install torchaudio nighly with pip: pip3 install --pre torch torchvision\n"
        "torchaudio -f https://download.pytorch.org/whl/nightly/cu111/torch_nightly.html\n"
    )
    assert "torch_from_pypi_default" not in context(text)
    # a short prose line after a plain install is no argument of it
    assert "torch_from_pypi_default" in context("pip install torch torchvision torchaudio\nthen it failed.\n")
