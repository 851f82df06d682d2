"""Over-reads the readers of session 49 left: a healthy or unrelated text read as this machine's failure (issue 23, ov50).

Each test is named after the behaviour it pins. The texts are written for the test in the shapes the brief and the
sources named in rules/data/signatures.yaml and rocm_doctor/ingest/blocks.py give.
"""

from __future__ import annotations

import pytest
from ingest_helpers import ingest, problems_shown, report_contexts, serious_findings

from rocm_doctor.ingest.blocks import split_blocks

# --- 1. a pasted support table or list is a document's, not this machine's GPUs and variables ---

README_TABLE = (
    "I have an RX 6700 XT and Stable Diffusion works fine with HSA_OVERRIDE_GFX_VERSION=10.3.0. Is there a faster way?\n\n"
    "From the README:\n\n"
    "| GPU | gfx | Setting |\n|---|---|---|\n"
    "| RX 6700 XT | gfx1031 | needs HSA_OVERRIDE_GFX_VERSION=10.3.0 |\n"
    "| RX 7600 | gfx1102 | needs HSA_OVERRIDE_GFX_VERSION=11.0.0 |\n"
    "| RX 5700 XT | gfx1010 | unsupported |\n"
)

SUPPORT_LIST = (
    "Which cards are supported? The list I found says:\n"
    "gfx1030: supported\ngfx1031: use override 10.3.0\ngfx1032: use override 10.3.0\ngfx1100: supported\n"
    "My card is an RX 7900 XTX.\n"
)


def test_a_pasted_support_table_gives_no_override_error_for_this_machine() -> None:
    assert not [f for f in serious_findings(README_TABLE) if f[1] == "error"]
    facts = ingest(README_TABLE).facts
    assert [a.gfx.value for a in facts.gpus.agents] == ["gfx1031"]
    assert facts.env.vars.value == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}


def test_a_support_list_in_the_reporters_paragraph_leaves_the_reporters_own_card() -> None:
    facts = ingest(SUPPORT_LIST).facts
    assert [a.gfx.value for a in facts.gpus.agents] == ["gfx1100"]
    assert not facts.env.vars.value


def test_the_reporters_own_results_table_keeps_its_gpus_and_error() -> None:
    text = (
        "I tested torch 2.5.1+rocm6.2 on my three GPUs:\n\n| GPU | Result |\n|---|---|\n| RX 7900 XTX | works |\n"
        "| RX 6800 XT | works |\n| Radeon VII | crashes with hipErrorNoBinaryForGpu |\n"
    )
    facts = ingest(text).facts
    assert sorted(a.gfx.value for a in facts.gpus.agents) == ["gfx1030", "gfx1100", "gfx906"]
    assert "hip_no_binary_for_gpu" in facts.symptoms.signatures.value


def test_a_support_table_is_cut_out_as_another_persons_block() -> None:
    scopes = [(b.scope, len(b.lines)) for b in split_blocks(SUPPORT_LIST)]
    assert scopes == [("current", 1), ("other", 4), ("current", 1)]


@pytest.mark.parametrize(
    "text",
    [
        # two GPUs of this machine with their settings: not a support table
        "GPU0: RX 7900 XTX - works\nGPU1: Radeon 780M - needs HSA_OVERRIDE_GFX_VERSION=11.0.0\n",
        # a log naming one GPU on each line
        "Device 0: AMD Radeon RX 7900 XTX, gfx1100 (0x1100), VMM: no\nDevice 1: AMD Radeon RX 7900 XTX, gfx1100 (0x1100), VMM: no\n"
        "Device 2: AMD Radeon RX 7900 XTX, gfx1100 (0x1100), VMM: no\n",
        # the reporter's environment table: labels first, the GPUs and the wheel's target family after them
        "| | |\n|---|---|\n| dGPU (target) | AMD Radeon RX 7900 XT, gfx1100 |\n| iGPU (also present) | Ryzen 7 7800X3D integrated, gfx1036 |\n"
        "| ROCm | rocm-sdk-libraries-gfx110X-all 7.13.0a20260508 |\n",
        # rev50a: the reporter's own results on three of their GPUs, given as theirs by the line before the rows
        "I tested torch 2.5.1+rocm6.2 on my three GPUs:\n\n| GPU | Result |\n|---|---|\n| RX 7900 XTX | works |\n"
        "| RX 6800 XT | works |\n| Radeon VII | crashes with hipErrorNoBinaryForGpu |\n",
        "My server has three cards. Results with ROCm 6.2:\n- MI100 - works\n- MI50 - works\n- RX 6800 - needs HSA_OVERRIDE_GFX_VERSION=10.3.0\n",
        # rev50a: a row in the first person
        "Three GPUs in the box:\n- RX 7900 XTX: works with ROCm 6.2\n- RX 6600: I use HSA_OVERRIDE_GFX_VERSION=10.3.0\n- RX 580: unsupported\n",
        # rev50a: a table whose columns only this machine's state gives
        "| GPU | Temp | Power | VRAM% |\n|---|---|---|---|\n| RX 7900 XTX | 45c | 20W | 0% |\n| RX 6800 XT | 40c | 15W | 0% |\n"
        "| Radeon VII | 39c | 25W | 0% |\ntorch.cuda.device_count() returns 2, not 3.\n",
    ],
)
def test_this_machines_own_gpu_list_stays_this_machines(text: str) -> None:
    assert all(b.scope == "current" for b in split_blocks(text))


# --- 2. a '> '-quoted sentence about a tool is a quote, not a command at a prompt ---


def test_a_quoted_sentence_about_clinfo_is_not_the_reporters_statement() -> None:
    text = (
        "I have an RX 7900 XTX on Ubuntu 22.04 with ROCm 6.2.\n\n> clinfo shows no devices\n\n"
        "That was my problem last year, but now everything works.\n"
    )
    assert "gpu_tool_shows_no_gpu_told" not in report_contexts(text)


@pytest.mark.parametrize("command", ["> clinfo", "> ollama list", "> ollama show llama3", "> ollama run llama3", "> python main.py"])
def test_a_command_at_a_windows_prompt_in_a_quote_stays_a_command(command: str) -> None:
    text = f"RX 6700 XT, ROCm 6.1\n\n{command}\nsome output\n"
    assert split_blocks(text)[1].scope == "current"


# --- 3. RD566: a kernel changed for another reason, and a failure on every kernel tried ---


@pytest.mark.parametrize(
    "text",
    [
        "Moved to kernel 6.11 for the new Wi-Fi driver, which works. ROCm 6.2, RX 7900 XTX, pytorch crashes with HIP error: invalid device function.\n",
        "I switched to the LTS kernel because of the touchpad, and it works now. torch still segfaults on my RX 6600.\n",
        "Tested on kernel 6.8 and 6.10 and it fails on both. RX 7900 XTX, ROCm 6.2, torch crashes at import.\n",
        "rocminfo crashes with kernel 6.12 and 6.13, same segfault on both. RX 580.\n",
        "torch fails on kernels 6.8 and 6.11 regardless of the kernel I boot. RX 6800.\n",
    ],
)
def test_a_kernel_set_aside_is_not_tied_to_the_failure(text: str) -> None:
    assert "RD566" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "Switched to kernel 6.6 LTS for now and ollama works without crashes. RX 7900 XTX.\n",
        "Kernel 6.12 and 6.13 crashed on my RX 580 with ollama on any model.\n",
        # rev50a: the kernel held and something else varied: "both" / "every" are not kernels
        "Kernel 6.12 breaks ROCm for every app, and the same happens on both my machines. RX 7900 XTX.\n",
        # rev50a: a kernel changed because of the failure itself
        "Went back to kernel 6.6 LTS because of this bug, and now ollama works on the GPU. RX 7900 XTX, ROCm 6.2.\n",
        "Downgraded to kernel 6.6 LTS due to the segfaults, now everything works. RX 7900 XTX, ROCm 6.2.\n",
        "Booted kernel 6.6 LTS to fix the issue and torch works again. RX 7900 XTX, ROCm 6.2.\n",
        "Switched to kernel 6.6 LTS for the DRM fix and ComfyUI works now. RX 7900 XTX, ROCm 6.2.\n",
    ],
)
def test_a_kernel_change_for_the_gpu_or_for_a_while_is_still_read(text: str) -> None:
    assert "RD566" in problems_shown(text)


# --- 4. an installer that needs root is no permissions sign ---


@pytest.mark.parametrize(
    "text",
    [
        "The installer only works for root, so I ran it with sudo. RX 7900 XTX, ROCm 6.2.\n",
        "amdgpu-install only runs as root. RX 7900 XTX.\n",
        "The setup script only works with sudo on my RX 6800.\n",
    ],
)
def test_an_installer_that_needs_root_is_not_the_gpu_working_only_as_root(text: str) -> None:
    assert "RD517" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "The installer finished. ComfyUI only works for root on my RX 6800.\n",
        # rev50a: an install named before the program that works only as root
        "After installation ComfyUI only works as root on my RX 6800.\n",
        "After installing rocm torch only works with sudo on my RX 6800.\n",
        "Since the install ollama only runs as root. RX 6800.\n",
    ],
)
def test_the_gpu_working_only_as_root_after_an_install_is_still_read(text: str) -> None:
    assert "RD517" in problems_shown(text)


# --- 5. an ollama a distribution packaged or someone built is not judged by the official builds' lists ---


@pytest.mark.parametrize(
    "install",
    [
        "I installed ollama with pacman -S ollama-rocm on Arch.",
        "Installed ollama-rocm-git from the AUR.",
        'services.ollama = { enable = true; acceleration = "rocm"; };',
        "I built ollama from source with cmake -B build -DAMDGPU_TARGETS=gfx906.",
        "sudo emerge -av sci-ml/ollama",
        "$ go build .\n$ ./ollama serve",
    ],
)
def test_a_packaged_or_self_built_ollama_is_not_blamed_on_the_official_build(install: str) -> None:
    text = f"{install}\nRadeon VII (gfx906), ollama 0.12.5. ollama runs on the CPU only, not the GPU.\n"
    assert "ollama_not_official_build" in report_contexts(text)
    assert not {"RD561", "RD562", "RD563", "RD993"} & set(problems_shown(text))


@pytest.mark.parametrize(
    "text",
    [
        "Radeon VII (gfx906), ollama 0.12.5 from the install script. ollama runs on the CPU only, 100% CPU in ollama ps.\n",
        "Should I build ollama from source? Radeon VII (gfx906), ollama 0.12.5, the model runs on the CPU only.\n",
    ],
)
def test_the_official_ollama_or_a_question_about_building_is_still_judged(text: str) -> None:
    assert "ollama_not_official_build" not in report_contexts(text)
    assert "RD561" in problems_shown(text)


# --- 6. healthy texts that gave an error: a tip for other users' cards, another person's quoted error denied ---


def test_a_tip_for_other_users_cards_sets_nothing_on_this_machine() -> None:
    text = (
        "Tip for RX 6000 users: export HSA_OVERRIDE_GFX_VERSION=10.3.0 before launching. For RX 7600 use 11.0.0. "
        "For the 780M also 11.0.0. I run an RX 7900 XTX myself, no override needed.\n"
    )
    assert not [f for f in serious_findings(text) if f[1] == "error"]
    facts = ingest(text).facts
    assert not facts.env.vars.value
    assert [a.gfx.value for a in facts.gpus.agents] == ["gfx1100"]


def test_the_reporters_own_export_after_naming_their_card_is_still_read() -> None:
    text = "For my RX 6700 XT I export HSA_OVERRIDE_GFX_VERSION=10.3.0 and torch works.\n"
    facts = ingest(text).facts
    assert facts.env.vars.value == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}
    assert [a.gfx.value for a in facts.gpus.agents] == ["gfx1031"]


def test_another_persons_quoted_error_the_reporter_does_not_get_is_not_this_machines() -> None:
    text = (
        "> hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n\n"
        "I don't get this error on my RX 7900 XTX with torch 2.5.1+rocm6.2, it works.\n"
    )
    assert not [f for f in serious_findings(text) if f[1] == "error"]


@pytest.mark.parametrize(
    "text",
    [
        "> hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n\nI get the same on my RX 6600 with torch 2.1.0+rocm5.6.\n",
        "Same here:\n\n> hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n\nRX 6600, torch 2.1.0+rocm5.6.\n",
    ],
)
def test_a_quoted_error_the_reporter_shares_is_still_read(text: str) -> None:
    assert "RD503" in problems_shown(text)


@pytest.mark.parametrize(
    "start",
    [
        "$ cd ~/ollama/bin\n$ ./ollama serve",
        "wget https://github.com/ollama/ollama/releases/download/v0.12.5/ollama-linux-amd64 -O ollama && chmod +x ollama\nOLLAMA_DEBUG=1 ./ollama serve",
    ],
)
def test_the_official_release_run_by_hand_is_still_judged_by_the_official_build(start: str) -> None:
    # rev50a: "./ollama serve" alone is also the official archive (docs/linux.md's manual install) or binary run where it
    # was extracted or downloaded; a self-built ollama names its build step ("go build .", "cmake --preset", "built from source")
    text = f"{start}\nRadeon VII (gfx906), ollama 0.12.5. ollama runs on the CPU only, not the GPU.\n"
    assert "ollama_not_official_build" not in report_contexts(text)
    assert "RD561" in problems_shown(text)


def test_a_quoted_error_answered_to_its_author_is_not_this_machines() -> None:
    text = (
        "> HIP error: invalid device function\n\n"
        "You get this because torch 2.0 had no gfx1100 kernels; I upgraded to 2.1 and it works on my 7900 XTX.\n"
    )
    assert not [f for f in serious_findings(text) if f[1] == "error"]


def test_a_container_named_ollama_rocm_is_not_a_packaged_ollama() -> None:
    # ollama-8473's shape: the official ollama/ollama:rocm image run under the container name ollama-rocm
    text = "docker run -d --device /dev/kfd --device /dev/dri \\\n    --name ollama-rocm \\\n    ollama/ollama:rocm\nRX 6600, the model runs on the CPU.\n"
    assert "ollama_not_official_build" not in report_contexts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I don't use the AUR ollama, I use the official install script. Radeon VII (gfx906), ollama 0.12.5, runs on the CPU only.\n",
        "I switched from the AUR ollama-rocm to the install script. Radeon VII (gfx906), ollama 0.12.5, runs on the CPU only.\n",
    ],
)
def test_a_packaged_ollama_left_or_denied_is_not_the_one_running(text: str) -> None:
    assert "ollama_not_official_build" not in report_contexts(text)


def test_a_pasted_gpu_specifications_table_names_no_gpu_of_this_machine() -> None:
    # ROCm/legacy-rocm-build#2391's shape: a products table pasted into an issue (before: its last row read as the GPU)
    text = (
        "It would be nice to have the architecture information in the docs. In human-readable table:\n"
        "| **Model** | **CUs** | **Max VRAM** |\n|:---:|:---:|:---:|\n"
        "| **AMD Radeon RX 7900 XTX** | 96 | 24GB |\n| **AMD Radeon RX 7900 XT** | 84 | 20GB |\n"
        "| **AMD Radeon RX 7600** | 32 | 8GB |\n| **AMD Radeon RX 6950 XT** | 80 | 16GB |\n"
    )
    assert not ingest(text).facts.gpus.agents


def test_a_family_row_listing_products_is_a_support_table() -> None:
    # ollama's GPU docs' shape: the family in the first cell, the products listed after it
    text = (
        "My RX 6600 is not used by ollama. The docs list these:\n\n| Family | Cards and accelerators |\n| --- | --- |\n"
        "| AMD Radeon RX | `7900 XTX` `7900 XT` `7800 XT` `6950 XT` `6800 XT` |\n| AMD Instinct | `MI300X` `MI250X` `MI100` `MI60` |\n"
    )
    assert [a.gfx.value for a in ingest(text).facts.gpus.agents] == ["gfx1032"]


def test_a_support_list_written_in_one_sentence_names_no_gpu_of_this_machine() -> None:
    text = (
        "The README says: RX 6700 XT needs HSA_OVERRIDE_GFX_VERSION=10.3.0, RX 7600 needs HSA_OVERRIDE_GFX_VERSION=11.0.0, "
        "RX 5700 XT is unsupported. I have the RX 6700 XT and it works with 10.3.0.\n"
    )
    assert [a.gfx.value for a in ingest(text).facts.gpus.agents] == ["gfx1031"]
    assert not {"RD527", "RD152", "RD840", "RD214", "RD702"} & set(problems_shown(text))


@pytest.mark.parametrize(
    "text",
    [
        "Do I need HSA_OVERRIDE_GFX_VERSION=10.3.0? RX 5700 XT, ollama runs on the CPU.\n",
        "Is HSA_OVERRIDE_GFX_VERSION=11.0.0 right for my 780M?\n",
        "Do we need to set HSA_OVERRIDE_GFX_VERSION=10.3.0 for the RX 6600?\n",
    ],
)
def test_a_variable_asked_about_is_no_setting_and_no_malformed_value(text: str) -> None:
    assert not ingest(text).facts.env.vars.value
    assert "RD210" not in problems_shown(text)


@pytest.mark.parametrize(
    "text, rule",
    [
        ("What does ROCR_VISIBLE_DEVICES=-1 do? The docs mention it forces CPU. My RX 7900 XTX works fine, just curious.\n", "RD681"),
        ("Why would anyone set HSA_ENABLE_DXG_DETECTION=0 on WSL? Mine works on WSL2 with an RX 7900 XTX.\n", "RD720"),
        ("Is it HIP_VISIBLE_DEVICES=1 or ROCR_VISIBLE_DEVICES=1 for the second card? Both my RX 7900 XTX cards work with torch.\n", "RD710"),
        ("The wiki example shows HSA_OVERRIDE_GFX_VERSION=gfx1030, which is wrong; it should be 10.3.0. My RX 6700 XT works.\n", "RD210"),
    ],
)
def test_a_variable_in_a_question_or_a_documents_example_gives_no_error(text: str, rule: str) -> None:
    assert rule not in problems_shown(text)
    assert not [f for f in serious_findings(text) if f[1] == "error"]


@pytest.mark.parametrize(
    "text",
    [
        "I set HIP_VISIBLE_DEVICES=1, is that right? torch sees no GPU on my RX 7900 XTX.\n",
        "My .bashrc has HSA_OVERRIDE_GFX_VERSION=10.3.0 - why does torch still crash?\n",
    ],
)
def test_a_setting_the_reporter_made_and_asks_about_is_still_read(text: str) -> None:
    assert ingest(text).facts.env.vars.value


@pytest.mark.parametrize(
    "text",
    [
        "Can HSA_OVERRIDE_GFX_VERSION=10.3.0 break an RX 7900 XTX? Asking before I try; right now everything works without it.\n",
        "Would HSA_OVERRIDE_GFX_VERSION=9.0.0 work for a Vega iGPU? I don't have one. My RX 6800 works.\n",
    ],
)
def test_an_override_asked_about_with_a_dotted_value_is_no_setting(text: str) -> None:
    assert not ingest(text).facts.env.vars.value
    assert "RD214" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # rev50a: a question about a failure with the setting (many reports' titles) keeps the setting
        "Why does torch segfault with HSA_OVERRIDE_GFX_VERSION=11.0.0 on my RX 6700 XT?\n",
        "Running HSA_OVERRIDE_GFX_VERSION=11.0.0 python main.py crashes on my RX 6700 XT, any idea?\n",
        "Anyone else getting a segfault with HSA_OVERRIDE_GFX_VERSION=11.0.0 on an RX 6700 XT?\n",
        "Segfault with HSA_OVERRIDE_GFX_VERSION=11.0.0 on RX 6700 XT?\n",
        "How come HSA_OVERRIDE_GFX_VERSION=11.0.0 makes ComfyUI crash on my RX 6700 XT?\n",
        "Does ollama ignore HSA_OVERRIDE_GFX_VERSION=11.0.0 on an RX 6700 XT?\n",
    ],
)
def test_a_question_about_a_failure_with_the_setting_keeps_the_setting(text: str) -> None:
    assert ingest(text).facts.env.vars.value == {"HSA_OVERRIDE_GFX_VERSION": "11.0.0"}
    assert "RD214" in problems_shown(text)


@pytest.mark.parametrize(
    "line",
    [
        # rev50a: the official release, named so or left for, is judged by the official builds' lists
        "I use the pre-built ollama binary from the GitHub releases page, v0.12.5.",
        "yay -S ollama-bin",
        "Installed with the official script (curl -fsSL https://ollama.com/install.sh | sh), not via pacman -S ollama.",
        "The ollama-rocm package in extra is broken, so I use the official tarball now.",
    ],
)
def test_the_official_ollama_named_beside_a_package_is_still_judged(line: str) -> None:
    text = f"{line}\nRadeon VII (gfx906), ollama 0.12.5. ollama runs on the CPU only, not the GPU.\n"
    assert "ollama_not_official_build" not in report_contexts(text)
    assert {"RD561", "RD562"} & set(problems_shown(text))


@pytest.mark.parametrize(
    "follow",
    [
        # rev50a: the line after the reporter's own quoted error that is no denial of it
        "I can't get it to work no matter what I try.",
        "I didn't have this problem with torch 2.0.1, it started after upgrading.",
        "I never had this before the update to 2.1.",
        "I don't get it, the same script ran fine yesterday.",
        "I don't see this error when I run on the CPU.",
        "We don't see this on the old machine, only on the new one.",
    ],
)
def test_a_quoted_error_followed_by_no_present_denial_stays_this_machines(follow: str) -> None:
    text = (
        "RX 6600, torch 2.1.0+rocm5.6 on Ubuntu 22.04.\n\n"
        f"> hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n\n{follow}\n"
    )
    assert "RD503" in problems_shown(text)


def test_a_kernel_held_while_rocm_versions_vary_is_still_the_kernels_failure() -> None:
    text = "amdgpu-dkms fails to build on kernel 6.10, same with every ROCm version I tried. RX 7900 XTX.\n"
    assert "kernel_release_fails_told" in ingest(text).facts.symptoms.signatures.value


def test_a_guides_screenshot_compared_with_the_reporters_output_keeps_the_reporters_statement() -> None:
    # rev50a: "the guide shows" is no document's text about this machine; the reporter's own rocminfo follows
    text = (
        "I followed the ROCm install guide on Ubuntu 22.04 with an RX 7900 XTX. The guide shows the GPU in rocminfo at that "
        "step, but my rocminfo shows no GPU agent, only the CPU.\n"
    )
    assert "rocminfo_lists_no_gpu_told" in report_contexts(text)


def test_a_self_built_llama_cpp_beside_an_official_ollama_leaves_ollama_judged() -> None:
    # rev50a: the HIP build flags are llama.cpp's, named beside an ollama from the install script
    text = (
        "Radeon VII (gfx906), ollama 0.12.5 from the install script. ollama runs on the CPU only, not the GPU.\n"
        "llama.cpp built by hand works fine on the GPU:\ncmake -B build -DGGML_HIP=ON -DAMDGPU_TARGETS=gfx906 && cmake --build build\n"
    )
    assert "RD561" in problems_shown(text)


def test_a_support_table_after_the_reporters_own_words_and_a_document_named_is_the_documents() -> None:
    # rev50a: "I have ..." on the intro line does not make a table the line gives as the README's the reporter's own
    text = (
        "I have an RX 6700 XT and it works. From the README:\n"
        "| GPU | gfx | Setting |\n|---|---|---|\n"
        "| RX 6700 XT | gfx1031 | needs HSA_OVERRIDE_GFX_VERSION=10.3.0 |\n"
        "| RX 7600 | gfx1102 | needs HSA_OVERRIDE_GFX_VERSION=11.0.0 |\n"
        "| RX 5700 XT | gfx1010 | unsupported |\n"
    )
    assert not ingest(text).facts.env.vars.value


@pytest.mark.parametrize(
    "text",
    [
        # rev50a: the question mark right after the value, in a question about a failure with it or the reporter's act
        "RX 6700 XT here. Why does ComfyUI crash with HSA_OVERRIDE_GFX_VERSION=11.0.0?\n",
        "RX 6700 XT here. Why does torch segfault when I set HSA_OVERRIDE_GFX_VERSION=11.0.0?\n",
        "RX 6700 XT here. Segfault at startup with HSA_OVERRIDE_GFX_VERSION=11.0.0?\n",
    ],
)
def test_a_failure_asked_with_the_value_ending_the_question_keeps_the_setting(text: str) -> None:
    assert ingest(text).facts.env.vars.value == {"HSA_OVERRIDE_GFX_VERSION": "11.0.0"}
    assert "RD210" not in problems_shown(text)


def test_a_bare_value_asked_is_still_no_setting() -> None:
    assert not ingest("RX 6700 XT here. HSA_OVERRIDE_GFX_VERSION=11.0.0?\n").facts.env.vars.value


@pytest.mark.parametrize(
    "reply",
    [
        "I don't get this error, my RX 7900 XTX works fine on Ubuntu 24.04.",
        "You get this because your card is not supported. I have an RX 7900 XTX on Ubuntu 24.04 and torch 2.5 from the ROCm index works.",
    ],
)
def test_a_quoted_error_denied_on_the_next_line_without_a_blank_is_anothers(reply: str) -> None:
    # review rev50d: Markdown's lazy continuation kept the reply in the quote's block, so the denial was not read (RD503)
    assert "RD503" not in problems_shown(f"> HIP error: invalid device function\n{reply}\n")


@pytest.mark.parametrize(
    "follow",
    ["I can't get it to work no matter what I try.", "I don't see this error when I run on the CPU."],
)
def test_a_quoted_error_followed_without_a_blank_by_no_denial_stays_this_machines(follow: str) -> None:
    text = f"RX 6600, torch 2.1.0+rocm5.6 on Ubuntu 22.04.\n\n> hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n{follow}\n"
    assert "RD503" in problems_shown(text)


def test_a_quoted_support_table_is_a_documents() -> None:
    # review rev50d: the support-table splitter read only unquoted blocks; a '> ' table's overrides were set for this machine
    text = (
        "My RX 7900 XTX on Ubuntu 24.04 works with torch 2.5.\n"
        "> | GPU | Setting |\n> |---|---|\n"
        "> | RX 6700 XT | HSA_OVERRIDE_GFX_VERSION=10.3.0 |\n> | RX 6600 | HSA_OVERRIDE_GFX_VERSION=10.3.0 |\n"
        "> | RX 7600 | HSA_OVERRIDE_GFX_VERSION=11.0.0 |\n"
    )
    assert not {"RD214", "RD702", "RD212"} & set(problems_shown(text))


def test_the_reporters_own_quoted_results_table_stays_theirs() -> None:
    text = (
        "I tested torch on my three GPUs:\n"
        "> | GPU | Result |\n> |---|---|\n> | RX 6700 XT | works |\n> | RX 6600 | hipErrorNoBinaryForGpu |\n> | RX 7600 | works |\n"
    )
    assert "hip_no_binary_for_gpu" in ingest(text).facts.symptoms.signatures.value
