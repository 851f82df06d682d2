"""The Windows display driver against what runs on it (issue 23, driver_too_old on native Windows).

On Windows the HIP runtime ships inside the Adrenalin driver, so a driver defect shows up in ollama,
LM Studio, ZLUDA and AMD's Windows PyTorch alike. Each form below is the shape several independent real
reports use (named per case); the texts are written for the test, not copied from one report.
"""

from __future__ import annotations

import pytest
from ingest_helpers import problems_shown, signature_contexts


@pytest.mark.parametrize(
    "text",
    [
        # ROCm/hip#3644: "redirected to shared GPU memory instead of dedicated VRAM"
        "Windows 11, RX 7600 XT. A hipMalloc over 4GB ends up in shared GPU memory instead of dedicated VRAM.\n",
        # ollama#7566: "shared VRAM while there is still a lot of free dedicated VRAM"
        "Windows 11, RX 6800 XT, ollama keeps using shared VRAM while most of the dedicated VRAM is free.\n",
        # ollama#7425: "Model loaded to the RAM and not VRAM"
        "Windows 11 with a 7900 XTX: the model is loaded to the RAM and not VRAM, so it's slow.\n",
        # ollama#7715: "seems to use system RAM instead the VRAM"
        "RX 7900 XTX on Windows: every model I load uses system RAM instead the VRAM.\n",
    ],
)
def test_a_windows_model_in_shared_memory_instead_of_vram_points_at_the_driver(text: str) -> None:
    assert "hip_memory_in_shared_told" in signature_contexts(text)
    assert problems_shown(text)[0] == "RD704"


@pytest.mark.parametrize(
    "text",
    [
        # a model larger than VRAM spills to shared memory by design
        "Windows 11, RX 7600 8GB. The 13B model doesn't fit, so part of it goes to shared GPU memory instead of VRAM.\n",
        # a question, not the current state
        "Windows 11 with a 7900 XTX: is it normal that ollama uses shared GPU memory instead of VRAM?\n",
        # a past state
        "Windows 11, RX 7900 XTX: ollama used to load the model into system RAM instead of VRAM before the update.\n",
        # the model is in VRAM
        "Windows 11, RX 7900 XTX: the model is fully in VRAM and shared GPU memory stays at 0.\n",
        # a spill said to be expected, a condition, and a symptom said to have ended
        "Windows 11, RX 7900 XTX, ollama. The model is 40GB so it goes into shared memory instead of VRAM, that's expected.\n",
        "Windows 11, RX 7900 XTX, ollama. A 70B model spills into shared GPU memory instead of VRAM.\n",
        "Windows 11, RX 7900 XTX, ollama. If the model goes to shared memory instead of VRAM, check the driver.\n",
        "Windows 11, RX 7900 XTX, ollama. With 24.8.1 the model no longer loads into shared memory instead of VRAM.\n",
    ],
)
def test_shared_memory_words_that_are_not_the_symptom_are_not_read(text: str) -> None:
    assert "hip_memory_in_shared_told" not in signature_contexts(text)
    assert "RD704" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # Linux and WSL2 run Linux ROCm's HIP, not the one inside the Windows driver
        "Ubuntu 22.04, RX 7900 XTX: ollama loads the model into system RAM instead of VRAM.\n",
        "WSL2 Ubuntu on Windows 11, RX 7900 XTX: the model is loaded into system RAM instead of VRAM.\n",
        # a named release that is not 24.9.1/24.10.1 is not this defect
        "Windows 11, RX 7900 XTX, Adrenalin 25.3.1: ollama loads the model into system RAM instead of VRAM.\n",
    ],
)
def test_the_driver_symptom_is_not_judged_off_windows_or_with_another_named_release(text: str) -> None:
    assert "RD704" not in problems_shown(text)


def test_a_named_defective_release_is_left_to_the_rule_that_names_it() -> None:
    text = "Windows 11, RX 7900 XTX, Adrenalin 24.10.1: ollama loads the model into system RAM instead of VRAM.\n"
    shown = problems_shown(text)
    assert "RD800" in shown and "RD704" not in shown


@pytest.mark.parametrize(
    ("text", "release"),
    [
        # the misspelling "Adrenaline": ROCm/ROCm#4062 ("adrenaline 24.8.1 driver"), ollama#13236
        # ("Adrenaline drivers 25.11.1"), ROCm/ROCm#4459 ("Adrenaline 25.3.1")
        ("Windows 11, RX 7900 XTX with Adrenaline 24.12.1, ollama is slow.\n", "24.12.1"),
        ("ollama does not see my R9700 on Windows 11 with Adrenaline drivers 25.11.1.\n", "25.11.1"),
        # an update "from X to Y": Y is installed (ROCm/ROCm#4459)
        ("After updating from Adrenaline 25.1.1 to 25.3.1 ZLUDA got very slow on my 7900 XTX.\n", "25.3.1"),
        # "driver is X": likelovewant/ollama-for-amd#35 ("the AMD driver is 24.9.1"), a WSL2 report's
        # "Windows driver is 24.6.1", a reporter's "my Adrenalin driver is ..."
        ("My system is Windows 11 and the AMD driver is 24.9.1.\n", "24.9.1"),
        ("My Adrenalin driver is 23.11.1 and hipInfo finds no device.\n", "23.11.1"),
    ],
)
def test_the_ways_users_name_their_adrenalin_release_are_read(text: str, release: str) -> None:
    from ingest_helpers import ingest

    assert ingest(text).facts.windows.driver_version.value == release


@pytest.mark.parametrize(
    "text",
    [
        # what a guide requires, not what is installed (ROCm/ROCm#4062)
        "The instruction says the compatible driver is 24.6.1.\n",
        "AMD's page lists the required driver is 26.1.1 for this release.\n",
        # what AMD offers now, not what is installed
        "The latest driver is 25.3.1, I haven't updated yet.\n",
    ],
)
def test_a_required_or_newest_release_is_not_the_installed_driver(text: str) -> None:
    from ingest_helpers import ingest

    assert ingest(text).facts.windows.driver_version.value is None


@pytest.mark.parametrize(
    "text",
    [
        # another person's machine
        "My friend's PC with Adrenalin 24.10.1 had the shared memory problem, mine is fine. RX 7900 XTX, Windows 11.\n",
        # a document's words and a requirement
        "The README says: install Adrenalin 24.9.1 or later for ollama on Windows.\n",
        "Windows 11, RX 7900 XTX. You need Adrenalin 24.9.1 or newer for this.\n",
        # a question about a release
        "Does Adrenalin 24.10.1 have the shared memory bug?\n",
        # a release left behind or warned against
        "Windows 11, RX 7900 XTX. It worked with Adrenalin 24.10.1 but after updating to 24.12.1 ollama crashes.\n",
        "Windows 11, RX 7900 XTX. Adrenalin 24.9.1 was the last driver that worked; now on 24.12.1.\n",
        "Windows 11, RX 7900 XTX. Avoid Adrenalin 24.10.1, I am on 24.8.1.\n",
        # rev52a: the release worked, then an update came ("worked fine, but after updating to", "before the update")
        "Windows 11, RX 9070 XT. Adrenalin 26.5.1 worked fine, but after updating to 26.6.1 LM Studio shows 0 GPUs.\n",
        "Windows 11, RX 9070 XT. Adrenalin 26.5.1 worked great for me. Now on 26.7.1 ollama runs on CPU.\n",
        "Windows 11, RX 9070 XT. I had Adrenalin 26.5.1 before the update; now 26.6.1 and LM Studio shows 0 GPUs.\n",
        # rev52a: a release moved away from, or kept off
        "Windows 11, RX 7900 XTX. Reverting to 26.3.1 from Adrenalin 26.5.1 fixed LM Studio.\n",
        "Windows 11, RX 7900 XTX. After rolling back from Adrenalin 26.5.1, LM Studio works.\n",
        "Windows 11, RX 7900 XTX. Adrenalin 26.5.1 is broken for ROCm, so I stayed on 26.3.1; ollama runs on CPU.\n",
        # a release a bug is dated by
        "Windows 11, RX 7900 XTX, ollama. The bug was introduced in driver 24.9.1 according to AMD, I'm on 24.8.1.\n",
        "Windows 11, RX 7900 XTX, ollama. Known issue with Adrenalin 24.9.1 and 24.10.1, so I stayed on 24.8.1.\n",
    ],
)
def test_a_driver_release_that_is_not_this_machines_is_not_read(text: str) -> None:
    from ingest_helpers import ingest

    assert ingest(text).facts.windows.driver_version.value is None
    assert "RD800" not in problems_shown(text)
    assert "RD810" not in problems_shown(text)


def test_an_update_from_one_release_to_another_reads_the_one_installed_even_after_upgraded_from() -> None:
    from ingest_helpers import ingest

    text = "Windows 11, RX 7900 XTX: I upgraded from Adrenalin 24.8.1 to 24.10.1 and ollama got slow.\n"
    assert ingest(text).facts.windows.driver_version.value == "24.10.1"


def test_a_hip_sdk_6_2_user_is_judged_by_the_hip_sdk_6_2_table() -> None:
    # rocm-install-on-windows docs/6.2.4: Radeon PRO VII (gfx906) unsupported for the runtime, RX 6800 XT supported
    assert "RD205" in problems_shown("Windows 11, Radeon VII, HIP SDK 6.2.4 installed, hipInfo finds no device.\n")
    assert "RD205" not in problems_shown("Windows 11, RX 6800 XT, HIP SDK 6.2.4 and ZLUDA, hipInfo lists the card.\n")


@pytest.mark.parametrize(
    "text",
    [
        # ROCm/ROCm#4459, vosen/ZLUDA#185, ollama#7715, ollama#7107 (the forms, in our words)
        "Windows 11, RX 7900 XTX: updating from Adrenaline 25.1.1 to 25.3.1 broke ZLUDA, SD1.5 went from 10 s to 600 s.\n",
        "Windows 10, RX 6800: I updated the AMD Adrenalin software to its latest version and I think that caused this error.\n",
        "Windows 11, RX 7800 XT: ollama only uses the CPU since I updated my AMD driver.\n",
        "Windows 11, RX 7900 XT: the latest Adrenalin 25.5.1 badly slows ComfyUI-Zluda.\n",
    ],
)
def test_a_windows_driver_update_said_to_break_the_gpu_work_points_at_the_driver(text: str) -> None:
    assert "windows_driver_update_broke_told" in signature_contexts(text)
    assert "RD705" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "Windows 11, RX 7900 XTX: should I update the Adrenalin driver to fix this?\n",
        "Windows 11, RX 7900 XTX: after updating the Adrenalin driver everything works again.\n",
        "Windows 11, RX 7900 XTX: after updating the AMD driver I ran hipInfo, output below.\n",
        "Windows 11, RX 7900 XTX: after installing the Adrenalin driver I installed the HIP SDK 6.2.\n",
        # Linux: the kernel's driver, not Adrenalin (RD801's)
        "Ubuntu 24.04, RX 7900 XTX: ollama only uses the CPU since I updated my AMD driver.\n",
    ],
)
def test_a_driver_update_that_fixed_is_asked_about_or_is_a_setup_step_is_not_a_regression(text: str) -> None:
    assert "RD705" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "Windows 11, RX 7900 XTX with ollama: after updating my AMD driver nothing broke, the GPU is still used.\n",
        "Windows 11, RX 7900 XTX with ollama: after updating the drivers the crashes stopped.\n",
        "Windows 11, RX 7800 XT with ZLUDA: after updating the AMD drivers my games stopped stuttering and ollama is faster.\n",
        "Windows 11, RX 6800 with ollama: since I updated the Adrenalin driver it no longer crashes.\n",
        # an update that did not help a failure that was there before
        "Windows 11, RX 7900 XTX, ollama. Even after updating the AMD driver to 25.3.1, ollama still doesn't use the GPU.\n",
        "Windows 11, RX 7900 XTX, ollama. ollama doesn't use the GPU, even after I updated the drivers.\n",
    ],
)
def test_a_driver_update_said_to_break_nothing_or_to_end_a_failure_is_not_a_regression(text: str) -> None:
    assert "windows_driver_update_broke_told" not in signature_contexts(text)
    assert "RD705" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "Windows 11, RX 7900 XTX, ollama. Other users report that after updating the AMD driver ollama crashes. I haven't updated.\n",
        "Windows 11, RX 7900 XTX, ollama. People say that since updating the Adrenalin driver ollama only uses the CPU.\n",
    ],
)
def test_what_others_report_of_a_driver_update_is_no_regression_on_this_machine(text: str) -> None:
    assert "windows_driver_update_broke_told" not in signature_contexts(text)
    assert "RD705" not in problems_shown(text)


def test_rd810_says_which_of_its_claims_are_one_users_trace_and_which_machines_the_igpu_part_concerns() -> None:
    # rev52a: the System32 amdhip64_7.dll mechanism is one user's AI-assisted trace in lmstudio-bug-tracker#1906,
    # not confirmed by AMD or LM Studio; the iGPU exposure (legacy-rocm-build#6227) concerns machines with a Ryzen iGPU
    from rocm_doctor.judge.loader import load_rules

    rule = next(r for r in load_rules([], use_env=False) if r.id == "RD810")
    for text in (rule.message, rule.explanation):
        assert "traced" in text and "amdhip64_7.dll" in text
        assert "Ryzen iGPU" in text or "Ryzen integrated GPU" in text
    assert "on a machine with a Ryzen integrated GPU" in rule.message
    assert "neither AMD nor LM Studio confirmed" in rule.message


@pytest.mark.parametrize(
    "text",
    [
        # learn54j: the regression told from its fix, with no OS named (forge#80, ZLUDA#106, lmstudio#1899 shapes)
        "Stable Diffusion only makes noise images since the 25.3.1 driver. If I downgrade to 25.2.1 again it is working again.\n",
        "The previous driver 25.3.2 worked well. After the driver update torch finds no GPU at all.\n",
        "LM Studio lost the GPU; rolling the driver back to 26.3.1 resolved everything.\n",
        "Windows 11, RX 7900 XTX: went back to Adrenalin 25.4.1 and ComfyUI works fine.\n",
    ],
)
def test_an_older_adrenalin_release_said_to_work_points_at_the_driver_update(text: str) -> None:
    assert "windows_driver_older_release_worked_told" in signature_contexts(text)
    assert "RD705" in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        "Downgrading to 25.4.1 didn't help, ComfyUI still crashes.\n",
        "Should I roll back to 25.4.1? Some say it fixes ZLUDA.\n",
        "Try rolling back to 25.4.1, that works for most people.\n",
        "Ubuntu 24.04, RX 7900 XTX: going back to kernel 6.8.0 works.\n",
        # Linux named: amdgpu-pro's numbering looks like Adrenalin's, but the HIP runtime is not the display driver's
        "Ubuntu 22.04, RX 6800: the previous driver 23.20.1 worked, now amdgpu-install 6.1 fails.\n",
    ],
)
def test_a_move_back_that_failed_advice_a_question_or_linux_is_no_windows_driver_regression(text: str) -> None:
    assert "RD705" not in problems_shown(text)


@pytest.mark.parametrize(
    "text",
    [
        # rev54j: year.month.n is also pip's, protobuf's, docker's, node's and Ubuntu's numbering; with no AMD
        # display driver named in the report, a release that worked is no Adrenalin release
        "ComfyUI broke after update. I went back to 24.12.1 of the desktop app and it works fine.\n",
        "pip install failed; downgraded pip to 24.2.1 and it works.\n",
        "Docker 25.0.3 broke the container, downgraded to docker 24.0.7 and it works.\n",
        "Downgraded to 24.04.1 LTS and it works.\n",
        "Adrenalin 25.5.1 installed. Downgraded protobuf to 25.3.0 and it works.\n",
        "RTX 3090, previous driver 25.3.2 worked.\n",
    ],
)
def test_a_year_month_release_that_worked_is_adrenalins_only_where_the_amd_driver_is_named(text: str) -> None:
    assert "RD705" not in problems_shown(text)
