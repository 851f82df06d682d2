"""Every fact read from a paste knows its scope (issue 23, item 2): a block the report introduces as
an earlier state ("Last working environment:", "before the update", a "Working version" summary,
"on my other machine") does not decide the current state; it is kept as evidence of what changed."""

from __future__ import annotations

import pytest
from ingest_helpers import ingest

from rocm_doctor.ingest import ingest_text

from rocm_doctor.pipeline import evaluate
from rocm_doctor.judge.loader import load_rules

NOW = "It crashes now with torch 2.8.0+rocm6.4 on this machine.\n\n"


@pytest.mark.parametrize(
    "intro",
    [
        "Last working environment:",
        "Before the update:",
        "### Previously working setup",
        "**On my other machine** (works):",
        "It worked with this before:",
    ],
)
def test_a_block_introduced_as_an_earlier_state_does_not_decide_the_current_one(intro: str) -> None:
    facts = ingest(f"{NOW}{intro}\n```\ntorch==2.7.1+rocm6.3\n```\n").facts
    assert facts.torch.version.value == "2.8.0+rocm6.4"
    assert "torch.version=2.7.1+rocm6.3" in (facts.symptoms.earlier.value or [])


def test_a_details_section_summarised_as_the_working_version_is_an_earlier_state() -> None:
    text = NOW + "<details>\n<summary>Working version</summary>\n\n```\nPyTorch version: 2.3.0a0+gitb5c866d\n```\n</details>\n"
    facts = ingest(text).facts
    assert facts.torch.version.value == "2.8.0+rocm6.4"
    assert facts.symptoms.earlier.is_known


@pytest.mark.parametrize("intro", ["Non-working environment:", "Current environment:", "Not working version:"])
def test_a_block_introduced_as_the_current_or_failing_state_is_read_as_current(intro: str) -> None:
    facts = ingest(f"It crashes.\n\n{intro}\n```\ntorch==2.7.1+rocm6.3\n```\n").facts
    assert facts.torch.version.value == "2.7.1+rocm6.3"
    assert not facts.symptoms.earlier.is_known


def test_what_changed_since_it_worked_is_said() -> None:
    facts = ingest(f"{NOW}Last working environment:\n```\ntorch==2.7.1+rocm6.3\n```\n").facts
    findings = evaluate(load_rules([], use_env=False), facts).findings
    (changed,) = [f for f in findings if f.name == "changed-since-it-worked"]
    assert "2.7.1+rocm6.3 -> 2.8.0+rocm6.4" in changed.message


def test_a_torch_version_at_the_end_of_a_sentence_keeps_no_full_stop() -> None:
    assert ingest("It fails with torch 2.8.0+rocm6.4.\n").facts.torch.version.value == "2.8.0+rocm6.4"


@pytest.mark.parametrize(
    "sentence, now, before",
    [
        ("After upgrading from torch 2.7.1 to 2.8.0 the GPU is gone.", "2.8.0", "2.7.1"),
        ("after upgrading from torch 2.7.1+rocm6.3 to 2.8.0+rocm6.4 it segfaults", "2.8.0+rocm6.4", "2.7.1+rocm6.3"),
        ("Updated PyTorch from 2.7.1 to 2.8.0 and now nothing works", "2.8.0", "2.7.1"),
        ("I went from torch==2.4.1 to torch==2.5.0 and now it segfaults", "2.5.0", "2.4.1"),
        ("Not sure if it matters, but after upgrading from torch 2.7.1 to 2.8.0 the GPU is gone.", "2.8.0", "2.7.1"),
    ],
)
def test_a_move_between_torch_releases_reads_the_release_moved_to_as_current(sentence: str, now: str, before: str) -> None:
    facts = ingest(sentence + "\n").facts
    assert facts.torch.version.value == now
    assert f"torch.version={before}" in (facts.symptoms.earlier.value or [])


@pytest.mark.parametrize(
    "sentence, now, before",
    [
        # the wordings of ROCm/ROCm#5948, #905 and #3035
        ("The leak was found after we upgraded from ROCm 6.1.3 to 7.1.1.", "7.1.1", "6.1.3"),
        ("I upgraded from rocm 2.8 to 2.9. It wasn't a clean install.", "2.9", "2.8"),
        ("i had problem with updating rocm from 6.0.2 to 6.1 related to llvm", "6.1", "6.0.2"),
    ],
)
def test_a_move_from_a_named_rocm_release_to_a_bare_one_reads_the_bare_one_as_current(sentence: str, now: str, before: str) -> None:
    facts = ingest(sentence + "\n").facts
    assert facts.rocm.version.value == now
    assert f"rocm.version={before}" in (facts.symptoms.earlier.value or [])


def test_a_move_between_rocm_releases_named_once_reads_the_release_moved_to_as_current() -> None:
    facts = ingest("Since updating ROCm from 6.3 to 6.4.1 it fails.\n").facts
    assert facts.rocm.version.value == "6.4.1"
    assert "rocm.version=6.3" in (facts.symptoms.earlier.value or [])


def test_a_driver_move_next_to_a_torch_line_is_not_read_as_a_torch_release() -> None:
    facts = ingest("torch 2.5.1+rocm6.2 is installed. Adrenalin updated from 24.3.1 to 24.8.1 yesterday.\n").facts
    assert facts.torch.version.value == "2.5.1+rocm6.2"
    assert not any("24." in e for e in facts.symptoms.earlier.value or [])


def test_a_move_between_tagged_torch_builds_without_the_word_torch_still_reads_the_release_moved_to() -> None:
    facts = ingest("It broke after I upgraded from 2.7.1+rocm6.3 to 2.8.0+rocm6.4.\n").facts
    assert facts.torch.version.value == "2.8.0+rocm6.4"
    assert "torch.version=2.7.1+rocm6.3" in (facts.symptoms.earlier.value or [])


@pytest.mark.parametrize(
    "sentence",
    [
        "Should I upgrade ROCm from 6.2 to 6.4? torch 2.5.1+rocm6.2 works for now.",
        "I'm planning on updating ROCm from 6.2 to 6.4 next week.",
        "Someone suggested upgrading ROCm from 6.2 to 6.4, is that needed?",
        "Is it worth upgrading ROCm from 6.2 to 6.4?",
    ],
)
def test_a_rocm_move_asked_about_or_planned_is_not_read_as_the_current_release(sentence: str) -> None:
    facts = ingest(sentence + "\n").facts
    assert facts.rocm.version.value != "6.4"
    assert "rocm.version=6.2" not in (facts.symptoms.earlier.value or [])


@pytest.mark.parametrize(
    "sentence",
    [
        "Should I upgrade from torch 2.7.1 to 2.8.0?",
        "Would updating PyTorch from 2.7.1 to 2.8.0 fix it?",
    ],
)
def test_a_torch_move_asked_about_is_not_read_as_the_current_release(sentence: str) -> None:
    facts = ingest(sentence + "\n").facts
    assert facts.torch.version.value != "2.8.0"


# ---- a command's own environment prefix is that command's scope (issue 23, item 1)

TENSILE = "rocBLAS error: Cannot read /x/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch : gfx1031\n"


def env_vars(text: str) -> dict:
    found = ingest(text).facts.env.vars
    return dict(found.value or {}) if found.is_known else {}


def test_a_prefix_on_the_failing_command_is_its_environment() -> None:
    text = f"```\n$ HSA_OVERRIDE_GFX_VERSION=10.3.0 python app.py\n{TENSILE}```\n"
    assert env_vars(text) == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}


def test_a_prefix_on_another_command_does_not_decide_the_failing_ones_environment() -> None:
    text = f"```\n$ HSA_OVERRIDE_GFX_VERSION=10.3.0 rocminfo\n  Name: gfx1031\n\n$ python app.py\n{TENSILE}```\n"
    facts = ingest(text).facts
    assert "HSA_OVERRIDE_GFX_VERSION" not in (facts.env.vars.value or {})
    (setting,) = facts.env.settings.value
    assert "another command" in (setting.reason or "")


@pytest.mark.parametrize(
    "command",
    ["export HSA_OVERRIDE_GFX_VERSION=10.3.0", "set HSA_OVERRIDE_GFX_VERSION=10.3.0", '$env:HSA_OVERRIDE_GFX_VERSION = "10.3.0"'],
)
def test_a_session_setting_made_before_the_error_is_in_force_for_it(command: str) -> None:
    text = f"```\n{command}\npython app.py\n{TENSILE}```\n"
    assert env_vars(text) == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}


def test_a_session_setting_made_after_the_error_in_the_same_transcript_is_not_its_environment() -> None:
    text = f"```\n$ python app.py\n{TENSILE}$ export HSA_OVERRIDE_GFX_VERSION=10.3.0\n```\n"
    assert "HSA_OVERRIDE_GFX_VERSION" not in env_vars(text)


def test_a_setting_shown_in_another_block_than_the_error_still_counts() -> None:
    text = f"My ~/.bashrc:\n```\nexport HSA_OVERRIDE_GFX_VERSION=10.3.0\n```\n\nThe log:\n```\n{TENSILE}```\n"
    assert env_vars(text) == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}


# ---- a quoted reply is someone else's machine (issue 23, item 2)

OWN = "My RX 7900 XTX fails with torch 2.8.0+rocm6.4.\n\n"


@pytest.mark.parametrize("attribution", ["@alice wrote:", "On Mon, Jun 3, 2024 at 10:00 Bob <bob@example.org> wrote:", "**bob** commented:"])
def test_a_quote_attributed_to_someone_else_gives_no_facts_about_this_machine(attribution: str) -> None:
    text = f"{OWN}{attribution}\n> I have an RX 6700 XT with torch 2.3.0+rocm5.7 and it works.\n\nAny idea?\n"
    facts = ingest(text).facts
    assert [str(a.name.value) for a in facts.gpus.agents] == ["RX 7900 XTX"]
    assert facts.torch.version.value == "2.8.0+rocm6.4"


def test_a_quote_of_the_reporters_own_output_is_read() -> None:
    text = "It fails at launch with the error\n\n> RuntimeError: Found no NVIDIA driver on your system.\n\nMy GPU is an RX 6800.\n"
    facts = ingest(text).facts
    assert facts.symptoms.signatures.value
    assert [str(a.name.value) for a in facts.gpus.agents] == ["RX 6800"]


def test_a_wholly_quoted_report_keeps_its_facts() -> None:
    text = "\n".join("> " + line for line in (OWN + "@alice wrote:\n> torch 2.3.0+rocm5.7 works\n").splitlines())
    assert ingest(text).facts.torch.version.value == "2.8.0+rocm6.4"


def test_the_reporters_text_after_a_quoted_reply_is_read_again() -> None:
    text = "@alice wrote:\n> I have an RX 6700 XT.\n\nMine is an RX 7900 XTX.\n"
    assert [str(a.name.value) for a in ingest(text).facts.gpus.agents] == ["RX 7900 XTX"]


@pytest.mark.parametrize(
    "sentence",
    [
        "On linux, a similar problem can be resolved with the definition of the env variable HSA_OVERRIDE_GFX_VERSION = 10.3.0.",
        "I would recommend setting the environment variable HSA_OVERRIDE_GFX_VERSION=10.3.0 for this card.",
        "Maybe HSA_OVERRIDE_GFX_VERSION=10.3.0 might help.",
    ],
)
def test_a_variable_named_as_advice_is_no_setting_of_this_machine(sentence: str) -> None:
    assert "HSA_OVERRIDE_GFX_VERSION" not in env_vars(sentence + "\n")


@pytest.mark.parametrize(
    "sentence",
    [
        # pkgenv47: a reply's imperative, a question to the reader, an example, a negation, an export inside advice
        "Set `HSA_OVERRIDE_GFX_VERSION=10.3.0` in the server config.",
        "Have you tried `HSA_OVERRIDE_GFX_VERSION=10.3.0`?",
        "Environment variables like `HSA_OVERRIDE_GFX_VERSION=10.3.0` can also be used if RDNA 2 GPUs don't work out of the box.",
        "Don't set `HSA_OVERRIDE_GFX_VERSION=10.3.0` by default.",
        "I did not set HSA_OVERRIDE_GFX_VERSION=10.3.0 anywhere.",
        "Maybe `export HIP_VISIBLE_DEVICES=0` and `export HSA_OVERRIDE_GFX_VERSION=10.3.0` might help.",
        "You could try: export HSA_OVERRIDE_GFX_VERSION=10.3.0",
    ],
)
def test_an_imperative_question_example_or_negation_naming_a_variable_is_no_setting(sentence: str) -> None:
    assert "HSA_OVERRIDE_GFX_VERSION" not in env_vars(sentence + "\n")


@pytest.mark.parametrize(
    "text",
    [
        "1. Set HSA_OVERRIDE_GFX_VERSION=10.3.0\n2. Run python test.py\n",
        "In my .bashrc I have export HSA_OVERRIDE_GFX_VERSION=10.3.0 and it crashes.\n",
        "export HSA_OVERRIDE_GFX_VERSION=10.3.0\npython test.py\n",
    ],
)
def test_a_reproduction_step_or_an_export_the_reporter_made_stays_a_setting(text: str) -> None:
    assert env_vars(text).get("HSA_OVERRIDE_GFX_VERSION") == "10.3.0"


def test_a_variable_the_reporter_says_they_set_is_a_setting() -> None:
    assert env_vars("I set HSA_OVERRIDE_GFX_VERSION=10.3.0 and it still fails.\n") == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}


def test_scoping_settings_against_errors_agrees_with_in_force_for_each_pair() -> None:
    from rocm_doctor.ingest.assemble import _Errors, in_force
    from rocm_doctor.ingest.blocks import Line
    from rocm_doctor.ingest.model import SettingSighting

    errors = [Line("e", 1, 5), Line("e", 2, 20), Line("e", 2, 30)]
    for origin in ("export", "command-prefix", "prose"):
        for block, number, until in [(1, 3, None), (1, 7, None), (2, 25, None), (2, 31, None), (2, 18, 22), (2, 21, 29), (1, 4, 6)]:
            setting = SettingSighting("X", "1", origin, "", Line("x", block, number), until=until if origin == "command-prefix" else None)
            for subset in (errors, errors[:1], errors[1:], errors[2:]):
                assert _Errors(subset).any_in_force(setting) == any(in_force(setting, e) for e in subset)


def test_a_move_between_torch_wheel_rocm_tags_is_not_the_systems_rocm() -> None:
    # "rocm6.2" is a torch wheel index's tag; the move is between torch builds, not system ROCm releases
    facts = ingest("I switched from rocm6.1 to rocm6.2 torch wheels, torch 2.5.1+rocm6.2\n").facts
    assert facts.rocm.version.value != "6.2"


def test_a_chain_of_rocm_moves_does_not_read_a_release_in_the_middle_as_current() -> None:
    facts = ingest("I upgraded from ROCm 6.0 to 6.1 and then to 6.2, RX 7900 XTX\n").facts
    assert facts.rocm.version.value != "6.1"


@pytest.mark.parametrize(
    "sentence, now",
    [
        ("Should I upgrade from ROCm 6.1 to 6.2?", "6.1"),
        ("Should I upgrade from ROCm 6.2 to ROCm 6.4?", "6.2"),
        ("I plan to move from ROCm 6.2 to ROCm 6.4 next week.", "6.2"),
    ],
)
def test_a_move_asked_about_or_planned_keeps_the_release_it_would_leave_as_current(sentence: str, now: str) -> None:
    facts = ingest(sentence + "\n").facts
    assert facts.rocm.version.value == now
    assert not facts.symptoms.earlier.is_known or not any(v.startswith("rocm.version=") for v in facts.symptoms.earlier.value or [])


def test_a_move_made_keeps_its_goal_as_current_though_a_question_follows_it() -> None:
    facts = ingest("I upgraded from ROCm 6.2 to ROCm 6.4. Should I go back?\n").facts
    assert facts.rocm.version.value == "6.4"
    assert "rocm.version=6.2" in (facts.symptoms.earlier.value or [])


def test_rocm_spelled_as_a_wheel_tag_in_prose_is_the_systems_rocm() -> None:
    # The metamorphic rewrite 'ROCm 7.1' -> 'rocm7.1' must keep the diagnosis: in prose both name the
    # system's release; a tag after '+', in a URL, or followed by wheels/torch is a torch build's.
    for text in ("I'm running rocm7.1 on Ubuntu 24.04 with an R9700.\n", "Ubuntu 24.04, rocm7.1, RX 7900 XTX\n"):
        assert ingest(text).facts.rocm.version.value == "7.1", text
    facts = ingest("pip install torch==2.5.1+rocm6.2 --index-url https://download.pytorch.org/whl/rocm6.2\n").facts
    assert facts.rocm.version.value is None and facts.torch.rocm_version.value == "6.2"


def test_a_move_between_torch_builds_leaves_no_earlier_system_rocm() -> None:
    for text in ("I switched from rocm6.1 to rocm6.2 torch wheels\n", "I switched from ROCm 6.1 to ROCm 6.2 wheels\n"):
        facts = ingest(text).facts
        assert not any(e.startswith("rocm.version") for e in facts.symptoms.earlier.value or []), text
    assert ingest("I upgraded from rocm6.1 to rocm6.2 and now it hangs\n").facts.rocm.version.value == "6.2"


def test_a_rocm_release_right_after_a_packages_version_is_that_builds() -> None:
    # The second reader: 'torch 2.5.1 rocm6.2' read 6.2 as the system's ROCm once 'rocm6.2' was read in prose.
    for text in ("torch 2.5.1 rocm6.2\n", "Using torch 2.4.0 (ROCm 6.1)\n"):
        facts = ingest(text).facts
        assert facts.rocm.version.value is None and facts.torch.rocm_version.value is not None, text
    assert ingest("torchvision 0.20.1 rocm6.2\n").facts.rocm.version.value is None
    assert ingest("torch 2.5.1, ROCm 6.2, Ubuntu 22.04\n").facts.rocm.version.value == "6.2"


def test_a_templates_example_left_in_place_is_not_the_reporters_machine() -> None:
    # GitHub's offered bug-report template ('- OS: [e.g. iOS]') kept with its examples: the second
    # reader found 'OS: [e.g. Ubuntu 20.04]' read as the distribution and '[e.g. RX 6800]' as a GPU.
    facts = ingest("ComfyUI crashes on my RX 7900 XTX\n - OS: [e.g. Ubuntu 20.04]\n - GPU: [e.g. RX 6800]\n"
                   "Cards (for example RX 6600) need an override.\n").facts
    assert facts.host.distro_id.value is None
    assert [agent.gfx.value for agent in facts.gpus.agents] == ["gfx1100"]


@pytest.mark.parametrize("fence", ["```", ""])
def test_a_labelled_earlier_state_inside_a_paragraph_is_past_with_or_without_fences(fence: str) -> None:
    # the same report with its fences stripped (a forum, a mail, a copy from a rendered page) keeps
    # the label over each listing: "Before the update:" then the listing, up to the next label
    text = (
        "torchvision fails to import after the update.\n\n"
        f"{fence}\nBefore the update:\ntorch==2.5.1+rocm6.2\n{fence}\n\n"
        f"{fence}\nNow:\ntorch==2.6.0+rocm6.2.4\n{fence}\n"
    )
    facts = ingest(text).facts
    assert facts.torch.version.value == "2.6.0+rocm6.2.4"
    assert "torch.version=2.5.1+rocm6.2" in (facts.symptoms.earlier.value or [])


def test_lines_under_an_earlier_state_label_end_at_the_next_label_in_one_paragraph() -> None:
    text = "Before the update:\ntorch==2.5.1+rocm6.2\nNow:\ntorch==2.6.0+rocm6.2.4\n"
    facts = ingest(text).facts
    assert facts.torch.version.value == "2.6.0+rocm6.2.4"


def test_a_details_block_whose_outputs_are_not_fenced_keeps_its_labelled_earlier_state_apart() -> None:
    text = (
        "It crashes now.\n\n<details>\n<summary>pip list</summary>\n\n"
        "Last working versions:\n\ntorch==2.5.1+rocm6.2\n\nCurrent versions:\n\ntorch==2.6.0+rocm6.2.4\n"
    )
    facts = ingest(text).facts
    assert facts.torch.version.value == "2.6.0+rocm6.2.4"
    assert "torch.version=2.5.1+rocm6.2" in (facts.symptoms.earlier.value or [])


def test_a_label_that_names_the_current_state_does_not_make_its_lines_past() -> None:
    text = "Current environment:\ntorch==2.6.0+rocm6.2.4\nIt worked before the update.\n"
    facts = ingest(text).facts
    assert facts.torch.version.value == "2.6.0+rocm6.2.4"


def test_curly_quotes_and_no_break_spaces_read_as_the_ascii_they_stand_for() -> None:
    text = "I\u2019m on ROCm\u00a06.2 with torch 2.5.1+rocm6.2 and set HSA_OVERRIDE_GFX_VERSION=\u201c10.3.0\u201d\n"
    plain = "I'm on ROCm 6.2 with torch 2.5.1+rocm6.2 and set HSA_OVERRIDE_GFX_VERSION=\"10.3.0\"\n"
    curly, ascii_ = ingest(text).facts, ingest(plain).facts
    assert curly.rocm.version.value == ascii_.rocm.version.value == "6.2"
    assert curly.env.vars.value == ascii_.env.vars.value


@pytest.mark.parametrize(
    "sentence",
    [
        "If you set HSA_OVERRIDE_GFX_VERSION to 10.3.0 it should work.",
        "When you set HSA_OVERRIDE_GFX_VERSION to 10.3.0 the card is used.",
        "Try setting HSA_OVERRIDE_GFX_VERSION=10.3.0 before starting the server.",
        "Before the update I set HSA_OVERRIDE_GFX_VERSION to 10.3.0 and it worked.",
    ],
)
def test_a_setting_put_to_the_reader_or_made_before_an_update_is_not_the_current_environment(sentence: str) -> None:
    assert not ingest(sentence).facts.env.vars.is_known


@pytest.mark.parametrize(
    "sentence",
    [
        "I try setting HSA_OVERRIDE_GFX_VERSION=10.3.0 but it still crashes.",
        "When I set HSA_OVERRIDE_GFX_VERSION to 10.3.0 it crashes.",
    ],
)
def test_the_reporters_own_attempt_with_a_setting_is_its_environment(sentence: str) -> None:
    assert ingest(sentence).facts.env.vars.value == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}


@pytest.mark.parametrize(
    "text, value",
    [
        ("set HSA_OVERRIDE_GFX_VERSION=10.3.0\n", "10.3.0"),
        ("SET HSA_OVERRIDE_GFX_VERSION=10.3.0\n", "10.3.0"),
        ("@echo off\nset HSA_OVERRIDE_GFX_VERSION=10.3.0\ncall webui.bat\n", "10.3.0"),
    ],
)
def test_a_cmd_set_line_of_its_own_is_the_command_not_a_replys_imperative(text: str, value: str) -> None:
    facts = ingest_text(text).facts
    assert facts.env.vars.value["HSA_OVERRIDE_GFX_VERSION"] == value


def test_a_bat_files_set_lines_with_options_are_read() -> None:
    facts = ingest_text("set COMMANDLINE_ARGS=--use-zluda --medvram\nset HIP_VISIBLE_DEVICES=1\n").facts
    assert facts.env.vars.value == {"COMMANDLINE_ARGS": "--use-zluda --medvram", "HIP_VISIBLE_DEVICES": "1"}


@pytest.mark.parametrize("text", ["set HSA_OVERRIDE_GFX_VERSION=10.3.0 and restart ollama\n", "Set HSA_OVERRIDE_GFX_VERSION=10.3.0 in the server config.\n"])
def test_set_followed_by_prose_stays_advice(text: str) -> None:
    assert "HSA_OVERRIDE_GFX_VERSION" not in (ingest_text(text).facts.env.vars.value or {})


# rev47c: settings the reporter made that pkgenv47's advice tests dropped
@pytest.mark.parametrize(
    "text",
    [
        "Steps to reproduce:\nSet HSA_OVERRIDE_GFX_VERSION=10.3.0\nRun python test.py\n",
        "### Steps to reproduce\n\nSet HSA_OVERRIDE_GFX_VERSION=10.3.0 and start ollama serve\n",
        "What I did:\nSet HSA_OVERRIDE_GFX_VERSION=10.3.0\n",
        "Then export HSA_OVERRIDE_GFX_VERSION=10.3.0 and launch webui.sh\n",
        "As suggested in #1234 I also added export HSA_OVERRIDE_GFX_VERSION=10.3.0 but\nno change.\n",
        "I am on Ubuntu 22.04 with an RX 6700 XT, and as suggested in the wiki I also\nadded export HSA_OVERRIDE_GFX_VERSION=10.3.0 to webui-user.sh, no change.\n",
        "```bash\n#!/bin/bash\nif [ \"$GPU\" = rx6700 ]\nthen export HSA_OVERRIDE_GFX_VERSION=10.3.0\nfi\n```\n",
    ],
)
def test_a_step_under_a_reproduction_heading_a_then_step_or_the_reporters_own_export_stays_a_setting(text: str) -> None:
    assert env_vars(text).get("HSA_OVERRIDE_GFX_VERSION", "").startswith("10.3.0")


@pytest.mark.parametrize(
    "sentence",
    [
        "I didn't export HSA_OVERRIDE_GFX_VERSION=10.3.0",
        "I did not export HSA_OVERRIDE_GFX_VERSION=10.3.0 at all.",
        "I don\u2019t export HSA_OVERRIDE_GFX_VERSION=10.3.0 anymore.",
        "Try export HSA_OVERRIDE_GFX_VERSION=10.3.0",
        "Steps to fix:\nSet HSA_OVERRIDE_GFX_VERSION=10.3.0 in the server config.",
        "Should I use export HSA_OVERRIDE_GFX_VERSION=10.3.0?",
    ],
)
def test_a_negated_export_an_imperative_export_or_a_question_stays_advice(sentence: str) -> None:
    assert "HSA_OVERRIDE_GFX_VERSION" not in env_vars(sentence + "\n")


@pytest.mark.parametrize(
    "text",
    ["Also set HSA_OVERRIDE_GFX_VERSION=10.3.0 in my .bashrc.\n", "Set HSA_OVERRIDE_GFX_VERSION=10.3.0 in my .bashrc.\n"],
)
def test_a_setting_put_in_the_reporters_own_file_is_a_setting_made_with_its_value_alone(text: str) -> None:
    assert ingest_text(text).facts.env.vars.value == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}


@pytest.mark.parametrize(
    "text",
    ["Set HSA_OVERRIDE_GFX_VERSION=10.3.0 in your .bashrc.\n", "Set HSA_OVERRIDE_GFX_VERSION=10.3.0 in my .bashrc?\n"],
)
def test_the_same_in_another_persons_file_or_as_a_question_stays_advice(text: str) -> None:
    assert "HSA_OVERRIDE_GFX_VERSION" not in (ingest_text(text).facts.env.vars.value or {})


@pytest.mark.parametrize("fenced", [False, True])
@pytest.mark.parametrize("label", [
    "With the old driver the test runner failed at start with:",
    "Before the update the test runner failed with:",
])
def test_an_error_under_an_earlier_state_label_is_past_whether_or_not_the_report_is_fenced(fenced: bool, label: str) -> None:
    # meta53: the label reading (a label over its lines, up to a blank line or the next label) holds inside a fence
    # too; ROCm/TheRock#2195 pasted whole into a console fence (the metamorphic "add Markdown fences" rewrite) read
    # its old runner's error as current and fired RD525
    text = (
        "This changes how the test runner picks its GPUs.\n\n"
        f"{label}\nRuntimeError: HIP_VISIBLE_DEVICES contains more devices than ROCR_VISIBLE_DEVICES\n\n"
        "The runner now takes the device list from PyTorch.\n"
    )
    if fenced:
        text = "```console\n" + text + "```\n"
    facts = ingest(text).facts
    assert "visible_devices_conflict" not in (facts.symptoms.signatures.value or [])


def test_an_error_in_a_fence_after_the_earlier_state_paragraph_is_current() -> None:
    # the earlier state ends at the blank line, in a fence as in prose: the error printed now stays this machine's
    text = (
        "```console\n$ python -m pytest tests/\nBefore the update the test runner failed with:\nRuntimeError: HIP error: invalid device function\n\n"
        "RuntimeError: HIP_VISIBLE_DEVICES contains more devices than ROCR_VISIBLE_DEVICES\n```\n"
    )
    signatures = ingest(text).facts.symptoms.signatures.value or []
    assert "visible_devices_conflict" in signatures
    assert "hip_invalid_device_function" not in signatures


@pytest.mark.parametrize("fence", ["", "```"])
def test_an_earlier_state_label_wrapped_over_two_lines_still_makes_the_lines_under_it_past(fence: str) -> None:
    # meta53: "wrap at 80 columns" broke ROCm/TheRock#2195's label before "pytest failing with:"; the label is read
    # from the line its sentence started on
    text = (
        "This changes how the test runner picks its GPUs.\n\n"
        f"{fence}\nThe old version of the runner took the device list from offload-arch, so\n"
        "the tests failed with:\n"
        "RuntimeError: HIP_VISIBLE_DEVICES contains more devices than ROCR_VISIBLE_DEVICES\n"
        f"{fence}\n\nThe runner now takes the device list from PyTorch.\n"
    )
    facts = ingest(text).facts
    assert "visible_devices_conflict" not in (facts.symptoms.signatures.value or [])


def test_a_current_line_before_an_earlier_state_label_stays_current_when_the_label_starts_its_own_sentence() -> None:
    # the label starts with a capital after a line that ends no sentence: a log line, not the label's first half
    text = (
        "RuntimeError: HIP_VISIBLE_DEVICES contains more devices than ROCR_VISIBLE_DEVICES in the runner\n"
        "Before the update:\ntorch==2.5.1+rocm6.2\n"
    )
    facts = ingest(text).facts
    assert "visible_devices_conflict" in (facts.symptoms.signatures.value or [])


@pytest.mark.parametrize(
    "text",
    [
        # learn56f: ROCm/legacy-rocm-build#344 wrapped at 80 columns, the break right after the sentence's colon
        "After the update to 4.13.0-36 clinfo finds no platform.\n\n"
        "I can still boot the previous kernel, 4.13.0-32, and then everything works fine:\n"
        "many more amdgpu lines in dmesg, OpenCL working correctly, screen update is\nfast, fan is low.\n",
        # the same sentence at 72 columns, its end one line further
        "After the update to 6.8.0-45 rocminfo finds no agent.\n\n"
        "When I boot the previous kernel, 6.5.0-41, again the GPU works fine:\n"
        "rocminfo lists gfx1100 and the first rocm-smi call shows the card, and torch\nsees it, so it was the kernel.\n",
        # a third wording, wrapped the same way
        "Since kernel 6.11 the amdgpu driver crashes on load.\n\n"
        "I went back to the older kernel, 6.6.58, and with it everything works fine again here:\n"
        "no ring timeouts in dmesg and ollama finds the card.\n",
    ],
)
def test_a_sentence_wrapped_right_after_its_colon_is_no_earlier_state_label(text: str) -> None:
    # the line that ends with the colon goes on in lower case and the sentence ends a line or two later: one sentence,
    # read as it is read unwrapped
    unwrapped = text.replace(":\n", ": ").replace("is\nfast", "is fast").replace("torch\nsees", "torch sees")
    signatures = ingest(text).facts.symptoms.signatures.value or []
    assert "kernel_change_made_it_work_told" in signatures or "earlier_kernel_works_told" in signatures
    assert sorted(signatures) == sorted(ingest(unwrapped).facts.symptoms.signatures.value or [])


@pytest.mark.parametrize(
    "under",
    [
        "torch==2.5.1+rocm6.2\nrocm 6.1.3\n",  # output, no sentence
        "torch 2.5.1+rocm6.2 and rocm 6.1.3 installed from the repo:\nrocminfo lists gfx1100\n",  # ends with a colon
    ],
)
def test_a_long_earlier_state_label_over_lower_case_lines_still_makes_them_past(under: str) -> None:
    text = (
        "torchvision fails to import after the update to torch 2.6.0+rocm6.2.4 on my RX 7900 XTX.\n\n"
        "Before the update, on the same machine with the same ROCm install and kernel, I had:\n" + under
    )
    facts = ingest(text).facts
    assert facts.torch.version.value != "2.5.1+rocm6.2"
